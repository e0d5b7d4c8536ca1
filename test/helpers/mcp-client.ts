// MCP clients of `sq mcp` for the tests: the built binary over stdio, as an agent host starts it (the SDK's own
// Client, a clean environment: PATH, a temp config dir, no colour, with the emulator's and the caller's variables over
// it), or the same server run in this process (main.ts's run(), as `sq mcp` runs it) over a pair of streams, for a
// test of what the server answers rather than of the process: a few ms of CPU to start against ~0.27 s for a Node
// process that loads the MCP SDK. What is about the process (stdio framing on real pipes, signals, exit codes, the
// answers given before the SDK loads) starts the binary.
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InterruptedError } from '../../src/errors.js';
import { run } from '../../src/shell/main.js';
import { BIN, tempConfigDir } from './cli.js';
import { fakeSqClock } from './clock.js';
import { capture } from './stream.js';

type JsonSchemaValidator = NonNullable<ConstructorParameters<typeof Client>[1]>['jsonSchemaValidator'];

/**
 * The SDK's own validator (Ajv with its formats, as a Client makes by default), made once for the file and each
 * schema compiled once. A Client compiles the outputSchema of every tool on each tools/list, into an Ajv instance of
 * its own: the same ~40 schemas, for every client the tests connect, took ~1.1 s of a worker's CPU in
 * test/e2e/mcp.test.ts (profiled 2026-12-02), and each Ajv instance with its formats ~15-25 ms more. Every answer is
 * still checked against its tool's outputSchema by the same compiled validator.
 */
let ajv: AjvJsonSchemaValidator | undefined;
const compiled = new Map<string, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
const sharedValidator: JsonSchemaValidator = {
  getValidator(schema) {
    const key = JSON.stringify(schema);
    let v = compiled.get(key);
    if (!v) compiled.set(key, (v = (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema)));
    return v as never;
  },
};

/**
 * The compiled validator of a JSON Schema (an outputSchema), the one the file's clients check answers with:
 * `(data) => { valid, errorMessage }`.
 */
export function schemaValidator(schema: object) {
  return sharedValidator!.getValidator(schema as never) as (data: unknown) => { valid: boolean; errorMessage?: string };
}

/** An SDK Client as a host makes one, with the file's shared validator (sharedValidator). */
export function newClient(name = 'sq-test'): Client {
  return new Client({ name, version: '1' }, { jsonSchemaValidator: sharedValidator });
}

export async function connectMcp(
  args: string[],
  env: Record<string, string>,
  name = 'sq-test',
  how: 'in-process' | 'bin' = 'bin',
): Promise<Client> {
  if (how === 'in-process') return (await mcpInProcess(args, env, name)).client;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  const client = newClient(name);
  await client.connect(transport);
  return client;
}

/**
 * The client's end of an in-process `sq mcp`: one JSON-RPC message a line written to the server's stdin, its stdout
 * read line by line (what the SDK's stdio transport does over a child's pipes). close() ends the server's stdin, as a
 * host that closes the pipe does, and resolves once the server has ended.
 */
class StreamPairTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private buf = '';
  private closed = false;
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
    private readonly ended: Promise<unknown>,
  ) {}
  async start(): Promise<void> {
    // A server that ends by itself (a usage error, a crash) closes the connection at once, as a process's exit does
    // for the stdio transport: a request in flight fails with "Connection closed", not at the SDK's 60 s timeout.
    void this.ended.then(
      () => this.closeOnce(),
      (e: unknown) => this.onerror?.(e as Error),
    );
    this.fromServer.setEncoding('utf8');
    this.fromServer.on('data', (chunk: string) => {
      this.buf += chunk;
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (!line.trim()) continue;
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch (e) {
          this.onerror?.(e as Error);
        }
      }
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }
  async close(): Promise<void> {
    this.toServer.end();
    await this.ended;
    this.closeOnce();
  }
  private closeOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

export interface McpInProcess {
  /** The server's stdin (the client writes here) and stdout (protocol messages; over --http its {url, token} line). */
  stdin: PassThrough;
  stdout: PassThrough;
  /** What it wrote to stderr so far. */
  stderr: () => string;
  /** Its exit code, once it has ended. */
  code: Promise<number>;
  /** Stops it as a stop signal does (SIGTERM unless told): the code is then 128 + the signal's number. */
  stop: (signal?: 'SIGTERM' | 'SIGINT' | 'SIGHUP') => Promise<number>;
}

/**
 * `sq mcp ARGS` run in this process (main.ts's run(), as the binary runs it) with `env` as its whole environment (a
 * fresh config dir unless given), on sq's fake clock (test/helpers/clock.ts) as in-process sq runs.
 */
export function startMcpInProcess(args: string[], env: Record<string, string | undefined>): McpInProcess {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = capture();
  const controller = new AbortController();
  const clock = fakeSqClock(controller.signal);
  const code = run(['mcp', ...args], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', SQ_NO_UPDATE_NOTIFIER: '1', ...env },
    now: clock.now,
    sleep: clock.sleep,
    io: {
      stdout,
      stderr: stderr.stream,
      stdin,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: 100,
    },
    signal: controller.signal,
  });
  return {
    stdin,
    stdout,
    stderr: stderr.text,
    code,
    stop: (signal = 'SIGTERM') => {
      controller.abort(new InterruptedError(signal));
      return code;
    },
  };
}

/** An in-process `sq mcp ARGS` on stdio with a client connected to it; client.close() ends its stdin and waits for it. */
export async function mcpInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  name = 'sq-test',
): Promise<{ client: Client; stderr: () => string; code: Promise<number> }> {
  const server = startMcpInProcess(args, env);
  const client = newClient(name);
  await client.connect(new StreamPairTransport(server.stdin, server.stdout, server.code));
  return { client, stderr: server.stderr, code: server.code };
}
