// The one emulator helper of the tests: a real emulator on loopback (real HTTP, virtual clock by default, rate limits
// off unless asked), started for a whole file by useEmulator() or by hand with startTestEmulator(). Every emulator
// it starts has its request log checked after each test (test/helpers/write-check.ts): a write sq made that the
// test did not expect fails the test; declare one with e.expectWrites('POST /v1/runs'), or assert on e.requests().
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { squidIdByName } from '../../src/emulator/seed.js';
import { squidRecord } from '../../src/emulator/model/records.js';
import * as store from '../../src/emulator/model/store.js';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { type LoggedRequest, WriteCheck, type WritePattern } from './write-check.js';

export type { LoggedRequest, WritePattern } from './write-check.js';

/** A whole answer: status, headers, the parsed JSON body (undefined when the body is not JSON) and the raw text. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestEmulator extends RunningEmulator {
  /** The /v1 requests the emulator received (secrets masked), oldest first; only those of `method` when given. */
  requests(method?: string): Promise<LoggedRequest[]>;
  /** The same requests as "METHOD /path" lines, for asserting which calls were made and in what order. */
  requestLines(): Promise<string[]>;
  clearRequests(): Promise<void>;
  /** Writes sq is expected to make in this test ("POST /v1/runs", "POST /v1/squids/*", or a RegExp on "METHOD /path"). */
  expectWrites(...patterns: WritePattern[]): void;
  /** Moves the virtual clock: the control plane's answer (400 on a real clock). */
  advance(ms: number): Promise<Reply>;
  faults(rules: unknown[], seed?: number): Promise<void>;
  clearFaults(): Promise<void>;
  /** A control-plane call (/_emulator/…): the parsed JSON answer; throws when the status is not 2xx. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** A control-plane call: the whole answer, whatever the status. */
  ctl(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Env for running sq against this emulator with a fresh config dir. */
  env(extra?: Record<string, string>): Record<string, string>;
  /**
   * An authorized call straight to the emulator (not through sq). `api(path, { method, body })`: the parsed JSON
   * answer, whatever the status. `api(METHOD, path, body?, headers?)`: the whole answer (a string or FormData body is
   * sent as it is).
   */
  api(path: string, init?: { method?: string; body?: unknown }): Promise<any>;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Hash of the seeded squid with this exact name (use the DEMO_SQUIDS constants); throws when there is none. */
  squidId(name: string): string;
  /** What POST /_emulator/reset does (the seed back, faults and the log dropped), called in-process: each: 'reset'. */
  reset(): Promise<void>;
  /** What DELETE /_emulator/faults and DELETE /_emulator/requests do, called in-process: each: 'clear'. */
  clear(): Promise<void>;
}

/** /_emulator/… calls that read or drop the log: the test has looked at the writes made so far. */
const LOOKS_AT_LOG = /^(GET|DELETE) \/_emulator\/requests$|^POST \/_emulator\/reset$/;

export async function startTestEmulator(opts: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const running = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo', ...opts });
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body);
      if (!(body instanceof FormData)) (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await fetch(running.baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  // In-process: the check reads the log after each test without an HTTP round trip (~1 ms of CPU each).
  const check = new WriteCheck(async (after) => running.log.list().filter((r) => r.id > after));
  // Every control-plane call goes through here, so that a test reading, clearing or resetting the log by hand has
  // looked at it too.
  const ctl = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const looks = LOOKS_AT_LOG.test(`${method} ${path.split('?')[0]}`);
    if (looks) await check.sync();
    const r = await send(method, path, body, {});
    if (looks && method === 'GET' && Array.isArray(r.body)) check.collect(r.body);
    if (looks) check.seenAll();
    return r;
  };
  const control = async (method: string, path: string, body?: unknown) => {
    const r = await ctl(method, path, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path} -> ${r.status} ${r.text}`);
    return r.text ? JSON.parse(r.text) : null;
  };
  // The log read in-process, as the write check reads it: tests poll this while sq runs, and the control plane's GET
  // serialised the whole log (thousands of entries in a long test) at every poll. Copies, as that JSON gave them.
  const requests = async (method?: string) => {
    await check.sync();
    check.seenAll();
    return running.log
      .list()
      .filter((r) => r.path.startsWith('/v1') && (method === undefined || r.method === method))
      .map((r) => JSON.parse(JSON.stringify(r)) as LoggedRequest);
  };
  const squidId = (name: string) => {
    const id = squidIdByName(running.emu.state, name);
    if (!id) throw new Error(`the emulator has no squid named ${JSON.stringify(name)}`);
    return id;
  };
  function api(path: string, init?: { method?: string; body?: unknown }): Promise<any>;
  function api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  async function api(
    a: string,
    b?: string | { method?: string; body?: unknown },
    body?: unknown,
    headers?: Record<string, string>,
  ) {
    const auth = { Authorization: `Token ${running.token}` };
    if (typeof b === 'string') return send(a, b, body, { ...auth, ...(headers ?? {}) });
    const r = await send(b?.method ?? 'GET', a, b?.body, { ...auth, 'Content-Type': 'application/json' });
    return JSON.parse(r.text);
  }
  const close = running.close;
  return Object.assign(running, {
    requests,
    async requestLines() {
      return (await requests()).map((r) => `${r.method} ${r.path}`);
    },
    async clearRequests() {
      await control('DELETE', '/_emulator/requests');
    },
    expectWrites(...patterns: WritePattern[]) {
      check.expect(patterns);
    },
    advance: (ms: number) => ctl('POST', '/_emulator/clock/advance', { ms }),
    async faults(rules: unknown[], seed = 1) {
      await control('PUT', '/_emulator/faults', { seed, rules });
    },
    async clearFaults() {
      await control('DELETE', '/_emulator/faults');
    },
    control,
    ctl,
    env(extra: Record<string, string> = {}) {
      return { SQ_BASE_URL: running.baseUrl, SQ_TOKEN: running.token, ...extra };
    },
    api,
    squidId,
    // useEmulator's hooks before each test: the control plane's own functions without its HTTP round trip, the log
    // looked at as ctl() has it looked at for these calls.
    async reset() {
      await check.sync();
      await running.inProcess.reset();
      check.seenAll();
    },
    async clear() {
      running.inProcess.clearFaults();
      await check.sync();
      running.log.clear();
      check.seenAll();
    },
    async close() {
      await check.close();
      await close();
    },
  });
}

export interface UseEmulatorOptions extends Partial<EmulatorOptions> {
  /**
   * Before each test: 'reset' puts the seed back (which also drops faults and the request log), 'clear' only drops
   * faults and the request log, so every test sees its own requests; 'new' starts a fresh emulator for each test
   * (in beforeEach) and closes it after (afterEach), for tests that change its clock or options.
   */
  each?: 'reset' | 'clear' | 'new';
}

/**
 * One emulator for the whole test file, started in beforeAll and closed in afterAll (or one per test, with
 * each: 'new'). The handle can be used at once in the module scope; its members are those of the running emulator
 * (read them inside hooks and tests).
 */
export function useEmulator(opts: UseEmulatorOptions = {}): TestEmulator {
  const { each, ...emulatorOptions } = opts;
  let running: TestEmulator | undefined;
  const [start, stop] = each === 'new' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  start(async () => {
    running = await startTestEmulator(emulatorOptions);
  });
  stop(async () => {
    await running?.close();
  });
  if (each === 'reset') beforeEach(() => running!.reset());
  if (each === 'clear') beforeEach(() => running!.clear());
  return new Proxy({} as TestEmulator, {
    get(_, key) {
      if (!running)
        throw new Error(`emulator.${String(key)} read before the emulator started (use it inside hooks and tests)`);
      const v = (running as unknown as Record<PropertyKey, unknown>)[key];
      return typeof v === 'function' ? v.bind(running) : v;
    },
  });
}

/** Older name of TestEmulator (test/emulator/helpers.ts). */
export type TestEmu = TestEmulator;

/** An authorized JSON call: the status and the parsed body (null when the answer is empty). */
export async function jsonCall(
  e: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(e.baseUrl + path, {
    method,
    headers: {
      Authorization: `Token ${e.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The squid the delivery tests configure on an otherwise empty emulator. */
export const BARE_SQUID = 'feedface00000000000000000000beef';

/** No seed data but BARE_SQUID, rate limits as the service has them: the delivery tests build the rest themselves. */
export async function startBareEmulator(squidName: string): Promise<TestEmulator> {
  const e = await startTestEmulator({ seed: 'empty', rateLimits: 'on' });
  store.putRecord(
    e.emu,
    'squids',
    squidRecord({
      id: BARE_SQUID,
      name: squidName,
      crawler: 'x',
      crawler_name: 'x',
      params: {},
      created_at: e.emu.nowIso(),
    }),
  );
  return e;
}

/** The run once it is done and no longer uploading, stepping the emulator's clock (at most 50 steps of 10 tasks). */
export async function finishRun(e: TestEmulator, run: string): Promise<Record<string, any>> {
  for (let i = 0; i < 50; i++) {
    const r = (await e.api('GET', `/v1/runs/${run}`)).body;
    if (r.is_done && r.status !== 'uploading') return r;
    await e.advance(10 * RUN_TIMING.taskMs);
  }
  throw new Error(`run ${run} did not finish`);
}
