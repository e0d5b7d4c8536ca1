// `sq mcp`: the MCP server. Each tool call runs verbs in-process with --json (main.ts's run() with captured streams),
// so a tool has exactly the verbs' requests, pacing (shared with every sq process through the cache dir), retries,
// error mapping and masking (src/mcp/tools/ says which verbs). Over stdio (stdio.ts: lines read there, capped, linear)
// or Streamable HTTP (http.ts, --http: the SDK's transport behind a Bearer token and an Origin check). Only protocol
// messages go to stdout.
// The parts: access.ts (who may call what), calls.ts (a tool call), register.ts (the tools and resources), stdio.ts,
// http.ts, and tools/ (one file per noun).
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import type { Ctx } from '../cli/context.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { allowed } from './access.js';
import { DEFAULT_MAX_MESSAGE_BYTES, drain, type Sdk, type ServeOptions, type Shared } from './calls.js';
import { firstAnswers } from './first-answers.js';
import { buildServer } from './register.js';
import { LineTransport } from './stdio.js';
import { toolDefs } from './tools/index.js';
import type { Access } from './tools/kit.js';

/** Serves until the client closes stdin (stdio), or until a stop signal (either). */
export async function serveMcp(ctx: Ctx, opts: ServeOptions): Promise<void> {
  const defs = toolDefs();
  const refused = new Map<string, Access>();
  for (const tool of defs) if (!allowed(opts.allow, tool.name, tool.access)) refused.set(tool.name, tool.access);
  const served = `${defs.length - refused.size} tools (${refused.size ? `${refused.size} write tools off` : 'writes allowed'})`;

  // Only protocol messages on the process's stdout: the transport keeps the real one, anything else written there
  // goes to stderr. A stdout of the caller's own (a stream) is the transport's alone already.
  let protocolOut = opts.stdout as Writable;
  if (opts.stdout === process.stdout) {
    const real = process.stdout.write;
    protocolOut = new Writable({
      write: (chunk, _enc, done) =>
        void real.call(process.stdout, chunk as Uint8Array, undefined, (e?: Error | null) => done(e ?? null)),
    });
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
    ctx.onCleanup(() => {
      process.stdout.write = real;
    });
  }

  const shared = async (): Promise<Shared> => {
    const sdk = await importPackage<Sdk>('#mcp-sdk');
    return { ctx, opts, sdk, defs, refused, keys: new Map(), stopCalls: new AbortController() };
  };
  // Its module (and node:crypto with it) only for --http: a stdio server's start needs neither.
  if (opts.http) return (await import('./http.js')).serveHttp(await shared(), protocolOut, served);

  // stdin is read from now on: initialize and tools/list are answered from the build's answers while the SDK loads.
  const log = (m: string) => ctx.io.stderr.write(`sq mcp: ${m}\n`);
  const max = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const transport = new LineTransport(
    opts.stdin as Readable,
    protocolOut,
    max,
    log,
    firstAnswers(refused, ctx.env, ctx.globals.verbose ? log : undefined),
  );
  const closed = new Promise<void>((resolve) => {
    transport.ended = resolve;
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  transport.listen();
  // A turn of the event loop first: what the client wrote already (an agent host writes initialize and tools/list
  // as it spawns the server) is read and answered before the SDK's evaluation holds the thread.
  await new Promise((resolve) => setImmediate(resolve));
  const s = await shared();
  transport.attach(s.sdk);
  const server = buildServer(s);
  await server.connect(transport);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`sq mcp ${VERSION}: serving ${served} on stdio\n`);
  await closed;
  await drain(s);
  await server.close();
  // A stop signal: its exit code (143, 130, 129), once the calls in flight were cancelled and answered.
  if (ctx.signal.aborted) throw ctx.signal.reason;
}
