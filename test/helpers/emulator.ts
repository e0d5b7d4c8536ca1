// A real emulator on loopback for a test file: real HTTP, virtual clock by default, rate limits off unless asked.
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export interface TestEmulator extends RunningEmulator {
  /** The /v1 requests the emulator received (secrets masked), oldest first. */
  requests(): Promise<Array<{ method: string; path: string; query: string | Record<string, string>; status: number; body: unknown; headers: Record<string, unknown> }>>;
  clearRequests(): Promise<void>;
  advance(ms: number): Promise<void>;
  faults(rules: unknown[], seed?: number): Promise<void>;
  clearFaults(): Promise<void>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Env for running sq against this emulator with a fresh config dir. */
  env(extra?: Record<string, string>): Record<string, string>;
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
  return Object.assign(emu, {
    async requests() {
      const all = (await control('GET', '/_emulator/requests')) as Array<{ path: string }>;
      const list = Array.isArray(all) ? all : ((all as unknown as { data: Array<{ path: string }> }).data ?? []);
      return list.filter((r) => r.path.startsWith('/v1')) as never;
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
  });
}
