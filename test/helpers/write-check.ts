// The request log checked by default, as gh's httpmock Verify: after each test, a write sq made to the API (POST,
// PUT, PATCH or DELETE under /v1, from a client whose User-Agent is sq's) that the test did not expect fails it.
// Reads are free (POST /v1/squid/estimate is one), and so are the test's own calls (e.api, e.control, a plain fetch: they are in its text already).
//
// A test expects a write in one of two ways:
//   - it declares it: `e.expectWrites('POST /v1/runs', 'POST /v1/squids/*')` (a `*` is one path segment, a RegExp is
//     tried on "METHOD /path"); a declared write that sq then never makes fails the test too;
//   - it looks at the log: `e.requests()`, `e.requestLines()`, `e.clearRequests()` or a reset of the emulator (or
//     the same through `e.control`/`e.ctl`) count every write made so far as seen.
// Only the test's own body counts: writes of its hooks (beforeAll, beforeEach, afterEach) are set-up. The check
// runs for every emulator the test helper started, around each test's body, in the test runner of npm test and
// npm run test:system (test/setup/runner.ts).

import type { LoggedRequest } from '../../src/emulator/requestlog.js';

export type { LoggedRequest };

export type WritePattern = string | RegExp;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// POSTs that change nothing: a read like any GET.
const READS_BY_POST = new Set(['/v1/squid/estimate']);

/** A write to the API made by sq (its User-Agent is `sq/VERSION …`), not by the test's own fetch or curl. */
export function isSqWrite(r: LoggedRequest): boolean {
  const agent = r.headers?.['user-agent'] ?? '';
  return (
    WRITES.has(r.method) &&
    !(r.method === 'POST' && READS_BY_POST.has(r.path)) &&
    (r.path === '/v1' || r.path.startsWith('/v1/')) &&
    agent.startsWith('sq/')
  );
}

function matches(p: WritePattern, r: LoggedRequest): boolean {
  const line = `${r.method} ${r.path}`;
  if (typeof p !== 'string') return p.test(line);
  const [method, path = ''] = p.split(' ');
  if (method !== r.method) return false;
  const want = path.split('/');
  const got = r.path.split('/');
  return want.length === got.length && want.every((seg, i) => seg === '*' || seg === got[i]);
}

const describeWrite = (r: LoggedRequest) =>
  `${r.method} ${r.path}${Object.keys(r.query ?? {}).length ? `?${new URLSearchParams(r.query)}` : ''} (${r.status})`;

// One registry per process, whichever copy of this module a file loaded.
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for('sq.test.writeCheck')] ??= {
  testRunning: false,
  live: new Set(),
}) as {
  testRunning: boolean;
  live: Set<WriteCheck>;
};

/** One emulator's side of the check. `newer(after)` reads the log entries with an id above `after`. */
export class WriteCheck {
  private from = 0;
  private seen = 0;
  private last = 0;
  private writes: LoggedRequest[] = [];
  private expected: WritePattern[] = [];
  private late: string[] = [];
  private closed = false;

  constructor(private readonly newer: (after: number) => Promise<LoggedRequest[]>) {
    shared.live.add(this);
  }

  /** Takes in log entries (any, in id order): the test's writes are kept for the check. */
  collect(log: LoggedRequest[]): void {
    for (const r of log) {
      if (r.id <= this.last) continue;
      this.last = r.id;
      if (shared.testRunning && r.id > this.from && isSqWrite(r)) this.writes.push(r);
    }
  }

  /** The test looked at the log: every write so far is expected. */
  seenAll(): void {
    this.seen = this.last;
  }

  expect(patterns: WritePattern[]): void {
    this.expected.push(...patterns);
  }

  async sync(): Promise<void> {
    if (!this.closed) this.collect(await this.newer(this.last));
  }

  async start(): Promise<void> {
    await this.sync();
    this.from = this.seen = this.last;
    this.writes = [];
    this.expected = [];
  }

  /** What the current test did wrong, and the state put back for the next. */
  async finish(): Promise<string[]> {
    await this.sync();
    const out = [...this.late];
    const unexpected = this.writes.filter((w) => w.id > this.seen && !this.expected.some((p) => matches(p, w)));
    if (unexpected.length)
      out.push(
        `sq made ${unexpected.length} write(s) this test did not expect: ${unexpected.map(describeWrite).join(', ')}.\n` +
          (`Declare them (e.expectWrites('${unexpected[0].method} ${unexpected[0].path}')) or assert ` +
            `on the log (e.requests()); see test/helpers/write-check.ts.`),
      );
    const never = this.expected.filter((p) => !this.writes.some((w) => matches(p, w)));
    if (never.length) out.push(`expected write(s) sq never made: ${never.map(String).join(', ')}`);
    this.late = [];
    this.writes = [];
    this.expected = [];
    return out;
  }

  /** The emulator closes: a test that closes its own emulator is checked now, and fails at its end. */
  async close(): Promise<void> {
    if (shared.testRunning) this.late = await this.finish();
    this.closed = true;
    if (!this.late.length) shared.live.delete(this);
  }

  /** Before a test's body (after its beforeEach hooks). */
  static async startTest(): Promise<void> {
    for (const c of shared.live) if (c.closed) shared.live.delete(c);
    await Promise.all([...shared.live].map((c) => c.start()));
    shared.testRunning = true;
  }

  /** After a test's body: throws what it did wrong. */
  static async finishTest(): Promise<void> {
    const problems = (await Promise.all([...shared.live].map((c) => c.finish()))).flat();
    WriteCheck.endTest();
    if (problems.length) throw new Error(problems.join('\n'));
  }

  /** The body threw (it has failed already) or was checked: nothing carries over to the next test. */
  static endTest(): void {
    shared.testRunning = false;
    for (const c of shared.live) {
      c.late = [];
      c.writes = [];
      c.expected = [];
      if (c.closed) shared.live.delete(c);
    }
  }
}
