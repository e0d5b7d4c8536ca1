// Shared by the core emulator tests: an in-process emulator on a free port with a virtual clock,
// and a small fetch wrapper that returns status, headers and parsed JSON.
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { squidIdByName } from '../../src/emulator/seed.js';
import { RUN_TIMING } from '../../src/emulator/engine.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestEmu extends RunningEmulator {
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  ctl(method: string, path: string, body?: unknown): Promise<Reply>;
  advance(ms: number): Promise<Reply>;
  squid(name: string): string;
}

export async function startTestEmulator(opts: EmulatorOptions = {}): Promise<TestEmu> {
  const running = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', ...opts });
  const raw = async (method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof FormData ? (body as string | FormData) : JSON.stringify(body);
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
  const t: TestEmu = {
    ...running,
    api: (method, path, body, headers) =>
      raw(method, path, body, { Authorization: `Token ${running.token}`, ...(headers ?? {}) }),
    ctl: (method, path, body) => raw(method, path, body, {}),
    advance: (ms) => raw('POST', '/_emulator/clock/advance', { ms }, {}),
    squid: (name) => {
      const id = squidIdByName(running.emu.state, name);
      if (!id) throw new Error(`no squid named ${name}`);
      return id;
    },
  };
  return t;
}

/** An authorized JSON call: the status and the parsed body (null when the answer is empty). */
export async function jsonCall(e: RunningEmulator, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(e.baseUrl + path, {
    method,
    headers: { Authorization: `Token ${e.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The squid the delivery tests configure on an otherwise empty emulator. */
export const BARE_SQUID = 'feedface00000000000000000000beef';

/** No seed data but BARE_SQUID, rate limits as the service has them: the delivery tests build the rest themselves. */
export async function startBareEmulator(squidName: string): Promise<RunningEmulator> {
  const e = await startEmulator({ port: 0, clock: 'virtual', seed: 'empty' });
  e.emu.state.squids[BARE_SQUID] = { id: BARE_SQUID, name: squidName, crawler: 'x', params: {} };
  return e;
}

/** The run once it is done and no longer uploading, stepping the emulator's clock (at most 50 steps of 10 tasks). */
export async function finishRun(e: TestEmu, run: string): Promise<Record<string, any>> {
  for (let i = 0; i < 50; i++) {
    const r = (await e.api('GET', `/v1/runs/${run}`)).body;
    if (r.is_done && r.status !== 'uploading') return r;
    await e.advance(10 * RUN_TIMING.taskMs);
  }
  throw new Error(`run ${run} did not finish`);
}
