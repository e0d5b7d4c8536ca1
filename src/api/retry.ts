// The retry and 429 policy of one request (reliability.md): what may be retried, how long to wait, when to give up.
import { RateLimitError } from '../errors.js';
import { errorMessage } from './messages.js';
import { NOT_SENT_CODES, REFUSED_RETRIES, REFUSED_RETRY_MS, retryAfterSeconds, safeParse } from './http-errors.js';

export const MAX_RETRIES = 4;
const MAX_CONSECUTIVE_429 = 5;
const MAX_429_WAIT_MS = 5 * 60_000;

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
// reliability.md: retry only on 502/503/504 (a 500 is the server's own failure, not a passing one), reset or timeout.
const RETRY_STATUSES = new Set([502, 503, 504]);
const TRANSIENT_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Retries a group of requests may spend between them, on top of each request's own; a success earns some back. */
export class RetryBudget {
  private tokens: number;
  constructor(readonly max = 10) {
    this.tokens = max;
  }
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  giveBack(): void {
    this.tokens = Math.min(this.max, this.tokens + 0.1);
  }
}

/** The retry state of one request, from its first attempt to its last. */
export class RetryPolicy {
  private attempt = 0;
  private consecutive429 = 0;
  private first429At: number | null = null;
  readonly safe: boolean;

  constructor(
    method: string,
    private readonly budget: RetryBudget,
    private readonly now: () => number,
    private readonly random: () => number,
  ) {
    this.safe = SAFE_METHODS.has(method);
  }

  /** The wait before retrying a request that failed with this network error code, or null: do not retry. */
  afterNetworkError(code: string | undefined, inBody = false): number | null {
    // A write goes again only if it certainly never reached the server; a failure in the middle of its answer means
    // the server may have acted.
    const retriable = this.safe ? TRANSIENT_CODES.has(code ?? '') : !inBody && NOT_SENT_CODES.has(code ?? '');
    if (!retriable) return null;
    // Nothing listens there: one quick second try (a service restarting), then say so at once, not after seconds
    // of silent backoff.
    if (code === 'ECONNREFUSED')
      return this.attempt < REFUSED_RETRIES && this.budget.take() ? (this.attempt++, REFUSED_RETRY_MS) : null;
    return this.nextRetry();
  }

  /** The wait before retrying a request answered with this status (a 5xx), or null. */
  afterStatus(status: number): number | null {
    this.consecutive429 = 0;
    return this.safe && RETRY_STATUSES.has(status) ? this.nextRetry() : null;
  }

  /** The pause of the whole bucket after a 429 (Retry-After; else the seconds a DRF-style body states; else an
   * exponential back-off), or a RateLimitError once the 429s go on too long. */
  afterRateLimit(headers: Record<string, string | string[] | undefined>, text: string, pathname: string): number {
    this.consecutive429++;
    const retryAfter =
      retryAfterSeconds(headers) ?? secondsInMessage(text) ?? Math.min(30, 2 ** (this.consecutive429 - 1));
    this.first429At ??= this.now();
    const waited = this.now() - this.first429At;
    if (this.consecutive429 >= MAX_CONSECUTIVE_429 || waited + retryAfter * 1000 > MAX_429_WAIT_MS) {
      throw new RateLimitError(
        `rate limited on ${pathname} after ${this.consecutive429} attempts; retry after ${retryAfter} s` +
          (text ? ` (${errorMessage(safeParse(text)) ?? 'Rate limit exceeded'})` : ''),
        { status: 429, retryAfter },
      );
    }
    return retryAfter * 1000 + Math.floor(this.random() * 1000);
  }

  succeeded(): void {
    this.budget.giveBack();
  }

  private nextRetry(): number | null {
    if (this.attempt >= MAX_RETRIES || !this.budget.take()) return null;
    // Full jitter: random(0, min(20 s, 0.5 s × 2^attempt)).
    return Math.floor(this.random() * Math.min(20_000, 500 * 2 ** this.attempt++));
  }
}

/** "Request was throttled. Expected available in 2 seconds." (the documented DRF 429 body) → 2. */
export function secondsInMessage(text: string): number | null {
  const m = /available in (\d+(?:\.\d+)?) seconds?/i.exec(text);
  return m ? Math.ceil(Number(m[1])) : null;
}
