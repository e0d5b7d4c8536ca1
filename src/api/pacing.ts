// Client-side pacing, per path prefix (/v1/squids, /v1/me, …). The budget is what the server last said (its
// X-RateLimit-Limit, -Remaining and -Reset), less what was sent since and a small reserve; spent, a request waits for
// the window's Reset. Before any answer, a documented limit is kept at 90% as a count per rolling window; other
// prefixes are not paced until the server states a limit. A 429 pauses its prefix for its Retry-After. The state lives
// in this process's memory, or in a file every sq process of the machine shares (pacing-state.ts).
//
// The decisions are pure functions of a prefix's state and the time (verdict, markSent, markAnswer, markPause), so
// they are tested by table; the Bucket only runs them in the store and sleeps outside it.
import { RATE_LIMITS } from './rate-limits.js';
import { sleep as wait } from '../lib/sleep.js';

/** A documented limit, as sq keeps it: at most `count` requests in any `windowMs`. */
export interface WindowRule {
  count: number;
  windowMs: number;
}

/** The documented limits (rate-limits.ts) at 90%, as counts per rolling window. */
export const DOCUMENTED: Readonly<Record<string, WindowRule>> = Object.fromEntries(
  Object.entries(RATE_LIMITS).map(([prefix, { limit, windowMs }]) => {
    const count = Math.floor(limit * 0.9);
    // Under two per window at 90%: one request at a time, spaced 10% wider than the limit allows.
    return [prefix, count >= 2 ? { count, windowMs } : { count: 1, windowMs: Math.round((windowMs / limit) * 1.1) }];
  }),
);

/** The longest wait an X-RateLimit-Reset may impose: every documented window is a minute or shorter, so a reset
 * further away (beyond clock skew and rounding) is garbage; then the next request goes and the 429 give-up applies. */
export const MAX_RESET_WAIT_MS = 65_000;
/** A prefix is never paused longer than this, whatever a shared state file says: longer than any 429 give-up. */
export const MAX_PAUSE_MS = 6 * 60_000;
/** X-RateLimit-Reset below this (September 2001) cannot be a UNIX time of now: it is seconds until the reset. */
const EPOCH_SECONDS_MIN = 1e9;
/** Sent this long after the window's reset, a request cannot land in the old window on a clock-aligned server. */
const RESET_SLACK_MS = 10;
/** After a window reset, until an answer says when the new one ends: how long the last Limit is trusted, and how
 * often a caller that used it up looks again. */
const NEW_WINDOW_TRUST_MS = 60_000;
const NEW_WINDOW_POLL_MS = 200;
/** A request sent this long ago without an answer belongs to a process that died: it no longer counts. */
const INFLIGHT_MS = 30_000;
/** A wait longer than this is told on stderr, with its reason. */
export const NOTICE_AFTER_MS = 2000;

/** How long to wait for the server's window to reset, from X-RateLimit-Reset (a UNIX time on the server's clock, or,
 * when small, seconds until the reset). Null when there is nothing to wait for; a far reset is capped. */
export function resetWaitMs(reset: number | null, serverNowMs: number): number | null {
  if (reset === null || !Number.isFinite(reset) || reset < 0) return null;
  const ms = reset < EPOCH_SECONDS_MIN ? reset * 1000 : reset * 1000 - serverNowMs;
  return Math.min(MAX_RESET_WAIT_MS, Math.max(0, ms));
}

/**
 * The prefix a path is paced under: /v1/runs/x/tasks is a runs request; /v1/runtasks has its own. The segment after
 * /v1/ when it is 1 to 40 of a-z and _, up to a / or the end; any other path is 'other'. (Read character by character,
 * so that no regular expression is compiled on a command's path.)
 */
export function bucketFor(path: string): string {
  if (!path.startsWith('/v1/')) return 'other';
  let end = 4;
  while (end < path.length && end - 4 <= 40) {
    const c = path.charCodeAt(end);
    if (!((c >= 97 && c <= 122) || c === 95)) break;
    end++;
  }
  const n = end - 4;
  return n >= 1 && n <= 40 && (end === path.length || path[end] === '/') ? path.slice(4, end) : 'other';
}

/** The small reserve kept below the server's Remaining (other machines with the key, answers reordered): 5% of Limit. */
export function reserveOf(limit: number | null): number {
  return limit === null ? 0 : Math.floor(limit / 20);
}

/** What the server said of a prefix's window in one answer. */
export interface ServerSaid {
  limit: number | null;
  remaining: number;
  /** Local ms at which the window resets (from resetWaitMs, when the answer came): a window whose reset cannot be
   * read is not recorded. */
  resetAt: number;
}

/**
 * What an answer's X-RateLimit-* headers say of its prefix's window: the budget pacing follows. Null when they say
 * nothing usable: no Remaining, or a Reset that is not a time (then the documented limit, or none, applies).
 */
export function serverSaidOf(h: Record<string, string | string[] | undefined>, now: number): ServerSaid | null {
  // A 429's Retry-After is the server's instruction for when to come back (the 429 handling pauses for it); the
  // window's Reset, which some services send as garbage, only decides the wait when there is no such instruction.
  if (h['retry-after'] !== undefined) return null;
  const remaining = num(h['x-ratelimit-remaining']);
  const resetInMs = resetWaitMs(num(h['x-ratelimit-reset']), serverNow(h.date, now));
  if (remaining === null || resetInMs === null) return null;
  const limit = num(h['x-ratelimit-limit']);
  return {
    limit: limit !== null && limit > 0 ? limit : null,
    remaining: Math.max(0, remaining),
    resetAt: now + resetInMs,
  };
}

/** The server's "now", for measuring X-RateLimit-Reset: our clock when the Date header agrees with it to within its
 * whole-second resolution, else the Date header. */
export function serverNow(date: string | string[] | undefined, local = Date.now()): number {
  const d = typeof date === 'string' ? Date.parse(date) : NaN;
  if (!Number.isFinite(d)) return local;
  const skew = d - local;
  return skew > -1500 && skew < 500 ? local : d;
}

/** A header's number, or null (absent, empty, or not a number). */
function num(v: string | string[] | undefined): number | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** The server's budget for a prefix, as last stated. */
export interface ServerBudget {
  limit: number | null;
  /** Remaining as said, less the requests then unanswered (the server may not have counted them yet); after a reset,
   * the Limit. */
  remaining: number;
  /** The prefix's send count when it was said: the requests sent since are `seq` of the state less this. */
  seq: number;
  /** Local ms at which the window resets; null: a window began, and no answer has said yet when it ends. */
  resetAt: number | null;
  /** With resetAt null: after this, nothing is known of the server's budget any more. */
  until: number;
}

/** One prefix's pacing state (for one key and service). */
export interface PaceState {
  /** Requests sent on the prefix (while its state is kept). */
  seq: number;
  /** Send times within the documented window, oldest first (documented prefixes only). */
  sent: number[];
  /** [seq, time] of the requests sent and not answered yet. */
  inflight: [number, number][];
  server: ServerBudget | null;
  /** Local ms before which nothing may be sent (a 429). */
  pausedUntil: number;
}

export type WaitReason = 'paused' | 'budget' | 'window';

export interface Verdict {
  /** 0: send now; else the ms to wait before asking again. */
  wait: number;
  reason?: WaitReason;
}

export function emptyState(): PaceState {
  return { seq: 0, sent: [], inflight: [], server: null, pausedUntil: 0 };
}

/** Forgets what time has made obsolete: sends out of the window, requests that will never be answered, a window
 * that has reset (its Limit is then the budget until an answer says more). */
export function settle(s: PaceState, rule: WindowRule | undefined, now: number): void {
  if (rule) {
    const from = now - rule.windowMs;
    let i = 0;
    while (i < s.sent.length && s.sent[i] <= from) i++;
    if (i) s.sent.splice(0, i);
  } else if (s.sent.length) s.sent = [];
  s.inflight = s.inflight.filter(([, t]) => now - t < INFLIGHT_MS);
  const b = s.server;
  if (!b) return;
  if (b.resetAt !== null && now >= b.resetAt) {
    s.server =
      b.limit === null
        ? null
        : { limit: b.limit, remaining: b.limit, seq: s.seq, resetAt: null, until: now + NEW_WINDOW_TRUST_MS };
  } else if (b.resetAt === null && now >= b.until) {
    s.server = null;
  }
}

/** Whether a request may go now, and if not, how long to wait and why. */
export function verdict(s: PaceState, rule: WindowRule | undefined, now: number): Verdict {
  if (now < s.pausedUntil) return { wait: s.pausedUntil - now, reason: 'paused' };
  settle(s, rule, now);
  const b = s.server;
  if (b) {
    if (b.remaining - (s.seq - b.seq) - unsure(s, b) - reserveOf(b.limit) > 0) return { wait: 0 };
    if (b.resetAt !== null)
      return { wait: Math.min(MAX_RESET_WAIT_MS, b.resetAt - now + RESET_SLACK_MS), reason: 'budget' };
    // A new window used up, its end still untold: the answers to the requests in flight will tell it. With none in
    // flight nothing will, so the server's word is forgotten and the documented limit (if any) applies.
    if (s.inflight.length > 0) return { wait: NEW_WINDOW_POLL_MS, reason: 'budget' };
    s.server = null;
  }
  if (rule && s.sent.length >= rule.count)
    return { wait: Math.max(1, s.sent[s.sent.length - rule.count] + rule.windowMs - now), reason: 'window' };
  return { wait: 0 };
}

/** In a new window whose end no answer has told yet: the requests of the old one still unanswered, which the server
 * may count in the new one, until each is answered. */
function unsure(s: PaceState, b: ServerBudget): number {
  return b.resetAt === null ? s.inflight.filter(([q]) => q <= b.seq).length : 0;
}

/** Records a request sent now; returns its ticket, for markAnswer. */
export function markSent(s: PaceState, rule: WindowRule | undefined, now: number): number {
  const seq = ++s.seq;
  if (rule) {
    s.sent.push(now);
    if (s.sent.length > rule.count) s.sent.splice(0, s.sent.length - rule.count);
  }
  s.inflight.push([seq, now]);
  return seq;
}

/** Requests other sq processes may send unseen at once (a request on a comfortable budget is recorded only with its
 * answer): a budget is comfortable only with more than this many to spare. */
export const UNSEEN_MARGIN = 32;

/** Whether a request may go now without being recorded first (Bucket.take): nothing paused, and both the server's
 * budget and the documented window have more than UNSEEN_MARGIN requests to spare. */
export function comfortable(s: PaceState, rule: WindowRule | undefined, now: number): boolean {
  if (now < s.pausedUntil) return false;
  settle(s, rule, now);
  const b = s.server;
  if (b && b.remaining - (s.seq - b.seq) - unsure(s, b) - reserveOf(b.limit) <= UNSEEN_MARGIN) return false;
  return !rule || rule.count - s.sent.length > UNSEEN_MARGIN;
}

/** The ticket of a request sent on a comfortable budget (Bucket.take): recorded with its answer (markAnswer). */
export const UNSEEN = -1;

/** Records the answer to request `ticket` (or its failure), and what the server said. A request sent UNSEEN is
 * counted as sent now: later than it went, so it counts in the documented window a little longer, never less. */
export function markAnswer(
  s: PaceState,
  ticket: number,
  said: ServerSaid | null,
  now: number,
  rule?: WindowRule,
): void {
  const t = ticket === UNSEEN ? markSent(s, rule, now) : ticket;
  s.inflight = s.inflight.filter(([q]) => q !== t);
  if (!said) return;
  const { resetAt } = said;
  // An answer about a window that is over (it reset while the answer was on its way) says nothing about the current
  // one: believing it would forget what was sent in the new window so far.
  if (resetAt <= now) return;
  const left = said.remaining - s.inflight.length;
  const b = s.server;
  if (b && b.resetAt !== null) {
    // A late answer about a window that a newer one has replaced.
    if (resetAt < b.resetAt - 500) return;
    // About the same window, the lower count is the truer one: answers arrive out of order, and one that left the
    // server first may be answered last, with a Remaining that misses requests counted (and answered) since.
    if (resetAt <= b.resetAt + 500 && b.remaining - (s.seq - b.seq) <= left) return;
  }
  s.server = { limit: said.limit, remaining: left, seq: s.seq, resetAt, until: resetAt };
}

/** A 429: nothing goes on the prefix for `ms`, and the server's window counts as spent until then. */
export function markPause(s: PaceState, ms: number, now: number): void {
  s.pausedUntil = Math.max(s.pausedUntil, now + Math.min(ms, MAX_PAUSE_MS));
  const b = s.server;
  if (b)
    s.server = {
      ...b,
      remaining: 0,
      seq: s.seq,
      resetAt: Math.max(b.resetAt ?? 0, s.pausedUntil),
      until: s.pausedUntil,
    };
}

/** Nothing worth keeping: no pause, no server budget, nothing sent in the window or unanswered. */
export function isIdle(s: PaceState, now: number): boolean {
  return s.pausedUntil <= now && !s.server && !s.sent.length && !s.inflight.length;
}

/** The stderr line for a long wait: which prefix, how long, and why. */
export function waitNotice(name: string, v: Verdict, rule: WindowRule | undefined): string {
  const what = name === 'other' ? 'request outside /v1' : `/v1/${name} request`;
  const s = Math.ceil(v.wait / 1000);
  const how = v.wait < 1000 ? 'waiting' : `waiting ${s} s`;
  const why =
    v.reason === 'paused'
      ? 'the server refused a request there (429) and asked sq to wait'
      : v.reason === 'budget'
        ? "the server's rate budget for it is spent until its window resets"
        : `sq keeps to ${rule?.count} requests per ${(rule?.windowMs ?? 0) / 1000} s there (90% of the documented limit) until the server states its own`;
  return `${how} before the next ${what}: ${why}`;
}

/** Where the prefixes keep their state. `update` runs one decision on a prefix's state at a time, with the time to use. */
export interface BucketStore {
  update<T>(name: string, fn: (s: PaceState, now: number) => T): T | Promise<T>;
  /** A prefix's state as it is now, read without the lock; undefined when it cannot be read that way. */
  peek?(name: string): { state: PaceState; now: number } | undefined;
  /** Resolves when every update asked for so far is written. */
  idle(): Promise<void>;
}

export class MemoryStore implements BucketStore {
  private states = new Map<string, PaceState>();
  constructor(private readonly now: () => number) {}

  update<T>(name: string, fn: (s: PaceState, now: number) => T): T {
    const now = this.now();
    let s = this.states.get(name);
    if (!s) this.states.set(name, (s = emptyState()));
    return fn(s, now);
  }

  async idle(): Promise<void> {}
}

type Taken = { wait: 0; ticket: number } | (Verdict & { ticket?: undefined });

export class Bucket {
  private queue: Promise<unknown> = Promise.resolve();
  private toldAddedUp = false;
  readonly rule: WindowRule | undefined;

  constructor(
    readonly name: string,
    now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly store: BucketStore = new MemoryStore(now),
    private readonly notice?: (line: string) => void,
  ) {
    this.rule = Object.hasOwn(DOCUMENTED, name) ? DOCUMENTED[name] : undefined;
  }

  /** Wait for the budget to allow a request; resolves to its ticket (for `answered`). Callers are served in order. */
  acquire(): Promise<number> {
    const next = this.queue.then(() => this.take());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async take(): Promise<number> {
    let told = false;
    // Many short waits (a new window's polls) add up: the notice comes once they pass NOTICE_AFTER_MS.
    let waited = 0;
    // One read of the shared state, without its lock: with plenty to spare, the request goes at once and is recorded
    // with its answer (answered), one locked write per request instead of two.
    const seen = this.store.peek?.(this.name);
    if (seen && comfortable(seen.state, this.rule, seen.now)) return UNSEEN;
    for (;;) {
      // Waiting happens here, outside the store's update (for a shared store: outside the lock).
      const r: Taken = await this.store.update(this.name, (s, now): Taken => {
        const v = verdict(s, this.rule, now);
        return v.wait > 0 ? v : { wait: 0, ticket: markSent(s, this.rule, now) };
      });
      if (r.ticket !== undefined) return r.ticket;
      // A long wait is told each time; short waits adding up, once per process and prefix.
      const long = r.wait > NOTICE_AFTER_MS;
      const addedUp = !long && !this.toldAddedUp && waited + r.wait > NOTICE_AFTER_MS;
      if (!told && (long || addedUp) && this.notice) {
        told = true;
        if (addedUp) this.toldAddedUp = true;
        this.notice(waitNotice(this.name, r, this.rule));
      }
      await this.sleep(r.wait);
      waited += r.wait;
    }
  }

  /** The answer to the request of `ticket` came (with what the server said of its window), or it failed (null). */
  answered(ticket: number, said: ServerSaid | null): void {
    this.apply((s, now) => markAnswer(s, ticket, said, now, this.rule));
  }

  /** Stop the whole prefix for `ms` (a 429's Retry-After). */
  pause(ms: number): void {
    this.apply((s, now) => markPause(s, ms, now));
  }

  /** Applied at once for memory; for a shared store, in order before this process's next decision. */
  private apply(fn: (s: PaceState, now: number) => void): void {
    try {
      const r = this.store.update(this.name, fn);
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // A store that cannot be written only costs what this answer said.
    }
  }
}

export class Pacer {
  private buckets = new Map<string, Bucket>();
  private readonly store: BucketStore;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => wait(ms),
    store?: BucketStore,
    private readonly notice?: (line: string) => void,
  ) {
    this.store = store ?? new MemoryStore(now);
  }

  bucket(path: string): Bucket {
    const key = bucketFor(path);
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = new Bucket(key, this.now, this.sleep, this.store, this.notice)));
    return b;
  }

  /** Resolves when every answer and pause so far is stored (so a process about to exit shares them). */
  idle(): Promise<void> {
    return this.store.idle();
  }
}
