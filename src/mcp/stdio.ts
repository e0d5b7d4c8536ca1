// `sq mcp` over stdio: one JSON-RPC message per line.
import type { Readable, Writable } from 'node:stream';
import type { Sdk } from './calls.js';
import type { FirstAnswers } from './first-answers.js';

/**
 * stdio, line by line, as MCP's stdio transport asks (one JSON-RPC message per line), read here rather than by the
 * SDK's transport: a line over --max-message-bytes is answered -32600 and skipped as it streams in, never held whole;
 * a line is kept as its chunks and joined once at its newline (the SDK's buffer grows by concatenation, quadratic on a
 * long line); a line that is not JSON-RPC 2.0 is answered with its id when it has one.
 */
export class LineTransport {
  onmessage?: (message: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  ended: () => void = () => {};
  private parts: Buffer[] = [];
  private size = 0;
  /** The start of an over-long line (for its id), while the rest of it is skipped. */
  private skipping: Buffer | null = null;
  private closed = false;
  private listening = false;
  /** Until the SDK's server is connected: the messages read, in order, for it. */
  private early: unknown[] | null = [];
  /** Requests answered from the build's answers: the SDK's answer to each is dropped. */
  private answered = new Set<string | number>();
  private sdk: Sdk | null = null;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly max: number,
    private readonly log: (message: string) => void,
    private readonly first: FirstAnswers | null = null,
  ) {}

  /** Starts reading stdin before the SDK is there: initialize and tools/list are answered from `first` meanwhile. */
  listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.input.on('data', (chunk: Buffer | string) =>
      this.data(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    const end = () => {
      if (this.parts.length && !this.skipping) this.line();
      this.ended();
    };
    this.input.once('end', end);
    this.input.once('close', end);
    this.input.once('error', end);
    // A client that stopped reading (its end of stdout closed) has ended the session as one that closes stdin has: the
    // server ends as it does then, exit 0, where the write's EPIPE was an uncaught error and a stack trace.
    this.output.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') this.log(`cannot write to stdout: ${e.message}`);
      end();
    });
  }

  /** The SDK, once loaded: the messages it validates, read before and from now on. */
  attach(sdk: Sdk): void {
    this.sdk = sdk;
  }

  /** Called by the SDK's connect(): the messages read so far go to it, in order. */
  async start(): Promise<void> {
    this.listen();
    const early = this.early ?? [];
    this.early = null;
    for (const msg of early) this.deliver(msg);
  }

  private data(chunk: Buffer) {
    let at = 0;
    while (at <= chunk.length) {
      const nl = chunk.indexOf(10, at);
      this.take(chunk.subarray(at, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.line();
      at = nl + 1;
    }
  }

  private take(part: Buffer) {
    if (!part.length) return;
    if (this.skipping) return;
    this.size += part.length;
    if (this.size > this.max) {
      // Over the cap: keep its first KiB (where "id" usually stands) and drop the rest as it comes.
      const head = Buffer.concat([...this.parts, part.subarray(0, 1024)]).subarray(0, 1024);
      this.parts = [];
      this.skipping = head;
      // Answered now, not at the line's end (which may never come): the client stops waiting for this id.
      const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})\s*[,}]/.exec(head.toString('utf8'))?.[1];
      this.reply(
        id === undefined ? null : (JSON.parse(id) as string | number),
        -32600,
        `Invalid Request: the message is over ${this.max} bytes (sq mcp --max-message-bytes)`,
      );
      this.log(`a message over ${this.max} bytes was skipped`);
      return;
    }
    this.parts.push(part);
  }

  private line() {
    const skipped = this.skipping;
    const text = skipped ? '' : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.skipping = null;
    if (skipped) return;
    if (!text.trim()) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      this.reply(null, -32700, `Parse error: ${(e as Error).message.split('\n')[0].slice(0, 200)}`);
      this.log('a line that is not JSON');
      return;
    }
    const id = invalidRequestId(msg);
    if (id !== undefined) return this.notJsonRpc(id);
    if (this.early) {
      this.answerEarly(msg);
      this.early.push(msg);
      return;
    }
    this.deliver(msg);
  }

  /** Before the SDK: initialize (first) and then tools/list, answered from the build's answers. */
  private answerEarly(msg: unknown) {
    if (!this.first || typeof msg !== 'object' || msg === null) return;
    const m = msg as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    if (typeof m.id !== 'string' && typeof m.id !== 'number') return;
    const initialized = this.answered.size > 0;
    const p = m.params;
    // Only a well-formed initialize: the SDK answers any other with its own error.
    const init = typeof p?.protocolVersion === 'string' && isObject(p.capabilities) && isObject(p.clientInfo);
    let result: Record<string, unknown> | undefined;
    if (m.method === 'initialize' && init && !initialized && this.early?.length === 0)
      result = this.first.initialize(p.protocolVersion);
    else if (m.method === 'tools/list' && initialized && m.params?.cursor === undefined)
      result = this.first.toolsList();
    if (!result) return;
    this.answered.add(m.id);
    this.first.trace?.(`${m.method} answered from the build's answers, before the MCP SDK loaded`);
    // In the SDK's key order (result first), so the text is the SDK's to the byte.
    void this.write({ result, jsonrpc: '2.0', id: m.id });
  }

  private deliver(msg: unknown) {
    const parsed = this.sdk?.JSONRPCMessageSchema.safeParse(msg);
    if (!parsed?.success) {
      const id = (msg as { id?: unknown } | null)?.id;
      return this.notJsonRpc(typeof id === 'string' || typeof id === 'number' ? id : null);
    }
    this.onmessage?.(parsed.data);
  }

  /** A message that is not JSON-RPC 2.0: answered -32600 (with its id, or null), and logged. */
  private notJsonRpc(id: string | number | null) {
    this.reply(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
    this.log('a message that is not JSON-RPC 2.0');
  }

  private reply(id: string | number | null, code: number, message: string) {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  send(message: unknown): Promise<void> {
    // The SDK's answer to a request answered early: the client has its answer already.
    const m = message as { id?: string | number; method?: unknown };
    if (m.method === undefined && m.id !== undefined && this.answered.delete(m.id)) return Promise.resolve();
    return this.write(message);
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (!this.output.write(`${JSON.stringify(message)}\n`)) this.output.once('drain', () => resolve());
      else resolve();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.pause();
    this.onclose?.();
  }
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The id of a message that is a JSON object with a usable id but is not a JSON-RPC 2.0 message; else undefined. */
export function invalidRequestId(msg: unknown): string | number | undefined {
  if (typeof msg === 'string') {
    try {
      return invalidRequestId(JSON.parse(msg));
    } catch {
      return undefined;
    }
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (typeof m.id !== 'string' && !(typeof m.id === 'number' && Number.isInteger(m.id))) return undefined;
  const valid = m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
  return valid ? undefined : m.id;
}
