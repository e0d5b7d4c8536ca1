// What a request of the HTTP client is told (RequestOptions), what its client is made with (HttpOptions), what comes
// back (HttpResponse, StreamResponse), and a request ready to send (Prepared).
import type { RetryBudget } from './retry.js';

export interface HttpOptions {
  baseUrl: string;
  token: string | null;
  /** Write a trace line (already redacted) when --verbose; undefined when not tracing. */
  trace?: (line: string) => void;
  /** Tell the user something on stderr (a long wait for the rate budget, and why). */
  notice?: (line: string) => void;
  /** A warning on stderr (a cache directory that cannot be used). */
  warn?: (line: string) => void;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Retries this client's requests may spend; the factory gives every client of a command the same one. */
  retryBudget?: RetryBudget;
  /** The cache directory where every sq process of the machine shares its pacing state; undefined: this process alone. */
  pacingDir?: string;
  /** Where baseUrl came from ('SQ_BASE_URL', '--base-url', …), named when it cannot be reached. */
  baseUrlFrom?: string;
  /** --dry-run: reads go out (verbs resolve names and read state), writes are recorded instead of sent. */
  dryRun?: boolean;
  /** close() leaves the connections open: the process exits right after (ContextInit.exits). */
  leaveConnections?: boolean;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send without the Authorization header (signed download URLs, public endpoints). */
  noAuth?: boolean;
  /** Statuses that are returned instead of thrown (e.g. 202 is always fine; 404 for existence checks). */
  okStatuses?: number[];
  /** Retries this request may spend, instead of the client's budget (a page of an export has its own). */
  retryBudget?: RetryBudget;
  /** In a dry run, answer a write with this and let the verb go on (a write in a series), instead of stopping it. */
  dryRunAnswer?: unknown;
  /** A POST that changes nothing (the estimate): retried like a read, sent in a dry run, not counted as a write. */
  readOnly?: boolean;
  /**
   * The document the endpoint promises (a check from records.ts: null when the answer is it, else what is wrong), or
   * 'any' for `sq api`. Every other answer must be a document at all: JSON null (unless `nullable`), a bare value or
   * an object holding only an error message is exit 1 naming the endpoint.
   */
  expect?: 'any' | ((data: unknown) => string | null | Promise<string | null>);
  /** A 200 `null` is a documented answer here (GET chain of a squid without one). */
  nullable?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: NodeJS.ReadableStream & AsyncIterable<Buffer>;
}

/** A request ready to send: the same bytes go out on every attempt. */
export interface Prepared {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  /** What the --verbose trace shows of the body. */
  traced: unknown;
  /** RequestOptions.readOnly: a POST treated as a read. */
  readOnly?: boolean;
}
