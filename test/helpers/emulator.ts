// A real emulator on loopback for a test file: real HTTP, virtual clock by default, rate limits off unless asked.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { squidIdByName } from '../../src/emulator/seed.js';

export interface TestEmulator extends RunningEmulator {
  /** The /v1 requests the emulator received (secrets masked), oldest first; only those of `method` when given. */
  requests(method?: string): Promise<Array<{ method: string; path: string; query: string | Record<string, string>; status: number; body: unknown; headers: Record<string, unknown> }>>;
  /** The same requests as "METHOD /path" lines, for asserting which calls were made and in what order. */
  requestLines(): Promise<string[]>;
  clearRequests(): Promise<void>;
  advance(ms: number): Promise<void>;
  faults(rules: unknown[], seed?: number): Promise<void>;
  clearFaults(): Promise<void>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Env for running sq against this emulator with a fresh config dir. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** An authorized /v1 call, straight to the emulator (not through sq): the parsed JSON answer, whatever the status. */
  api(path: string, init?: { method?: string; body?: unknown }): Promise<any>;
  /** Hash of the seeded squid with this exact name (use the DEMO_SQUIDS constants); throws when there is none. */
  squidId(name: string): string;
}

export async function startTestEmulator(opts: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const emu = await startEmulator({ port: 0, clock: 'virtual', rateLimits: 'off', seed: 'demo', ...opts });
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.baseUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const requests = async (method?: string) => {
    const all = (await control('GET', '/_emulator/requests')) as Array<{ method: string; path: string }>;
    const list = Array.isArray(all) ? all : ((all as unknown as { data: Array<{ method: string; path: string }> }).data ?? []);
    return list.filter((r) => r.path.startsWith('/v1') && (method === undefined || r.method === method));
  };
  return Object.assign(emu, {
    requests: requests as TestEmulator['requests'],
    async requestLines() {
      return (await requests()).map((r) => `${r.method} ${r.path}`);
    },
    async clearRequests() {
      await control('DELETE', '/_emulator/requests');
    },
    async advance(ms: number) {
      await control('POST', '/_emulator/clock/advance', { ms });
    },
    async faults(rules: unknown[], seed = 1) {
      await control('PUT', '/_emulator/faults', { seed, rules });
    },
    async clearFaults() {
      await control('DELETE', '/_emulator/faults');
    },
    control,
    env(extra: Record<string, string> = {}) {
      return { SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token, ...extra };
    },
    async api(path: string, init: { method?: string; body?: unknown } = {}) {
      const res = await fetch(emu.baseUrl + path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Token ${emu.token}`, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return res.json();
    },
    squidId(name: string) {
      const id = squidIdByName(emu.emu.state, name);
      if (!id) throw new Error(`the emulator has no squid named ${JSON.stringify(name)}`);
      return id;
    },
  });
}

export interface UseEmulatorOptions extends Partial<EmulatorOptions> {
  /**
   * Before each test: 'reset' puts the seed back (which also drops faults and the request log), 'clear' only drops
   * faults and the request log, so every test sees its own requests.
   */
  each?: 'reset' | 'clear';
}

/**
 * One emulator for the whole test file, started in beforeAll and closed in afterAll. The handle can be used at
 * once in the module scope; its members are those of the running emulator (read them inside hooks and tests).
 */
export function useEmulator(opts: UseEmulatorOptions = {}): TestEmulator {
  const { each, ...emulatorOptions } = opts;
  let running: TestEmulator | undefined;
  beforeAll(async () => {
    running = await startTestEmulator(emulatorOptions);
  });
  afterAll(async () => {
    await running?.close();
  });
  if (each === 'reset') beforeEach(() => running!.control('POST', '/_emulator/reset').then(() => undefined));
  if (each === 'clear') beforeEach(() => Promise.all([running!.clearFaults(), running!.clearRequests()]).then(() => undefined));
  return new Proxy({} as TestEmulator, {
    get(_, key) {
      if (!running) throw new Error(`emulator.${String(key)} read before the emulator started (use it inside hooks and tests)`);
      const v = (running as unknown as Record<PropertyKey, unknown>)[key];
      return typeof v === 'function' ? v.bind(running) : v;
    },
  });
}
