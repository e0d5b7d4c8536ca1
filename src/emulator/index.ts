// startEmulator: builds the state (seed or --state file), registers every route and the feature
// modules, and serves them over node:http.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, RealClock, VirtualClock } from './clock.js';
import { EmuCore } from './emu.js';
import { clearTimers, rescheduleRuns } from './engine.js';
import { registerSchedules } from './scheduler.js';
import { Faults } from './faults.js';
import { registerFeatures } from './features.js';
import { loadSnapshot, Persister, type Snapshot } from './persist.js';
import { RateLimiter, type RateLimitSetting } from './ratelimit.js';
import { RequestLog } from './requestlog.js';
import { registerAccounts, rescheduleSyncs } from './routes/accounts.js';
import { registerBilling } from './routes/billing.js';
import { registerControl } from './routes/control.js';
import { registerCrawlers } from './routes/crawlers.js';
import { registerDashboard } from './routes/dashboard.js';
import { registerCredits } from './routes/credits.js';
import { registerGoogleMaps } from './routes/googlemaps.js';
import { registerResults } from './routes/results.js';
import { registerRuns } from './routes/runs.js';
import { registerSquids } from './routes/squids.js';
import { registerEstimate } from './routes/estimate.js';
import { fireChain, registerChains } from './routes/chains.js';
import { registerTasks } from './routes/tasks.js';
import { registerTasksV2 } from './routes/tasks-v2.js';
import { registerUploads, rescheduleUploads } from './routes/uploads.js';
import { registerUser } from './routes/user.js';
import { applySeed, baseState, DEMO_TOKEN, type SeedName } from './seed.js';
import { createRequestHandler } from './server.js';
import type { Emu } from './types.js';
import * as store from './model/store.js';

export { DEMO_TOKEN } from './seed.js';

export interface EmulatorOptions {
  host?: string;
  port?: number;
  seed?: SeedName;
  clock?: 'real' | 'virtual';
  timeScale?: number;
  freePlan?: boolean;
  rateLimits?: RateLimitSetting;
  stateFile?: string;
  token?: string;
  webhookTimeoutMs?: number;
  /** The clock of the rate-limit windows and their Date header (real time unless a test in-process gives one). */
  rateClock?: () => number;
}

export interface RunningEmulator {
  baseUrl: string;
  token: string;
  emu: Emu;
  /** The request log of GET /_emulator/requests, for a caller in the same process (the tests' write check). */
  log: RequestLog;
  /**
   * What POST /_emulator/reset and DELETE /_emulator/faults do, for a caller in the same process (the test helper's
   * reset or clear before each test, without an HTTP round trip: ~2 ms of CPU each, some 1,000 times a suite).
   */
  inProcess: { reset(): Promise<void>; clearFaults(): void };
  close(): Promise<void>;
}

function registerCore(emu: EmuCore): void {
  registerUser(emu);
  registerCrawlers(emu);
  registerSquids(emu);
  registerEstimate(emu);
  registerChains(emu);
  registerTasks(emu);
  registerTasksV2(emu);
  registerUploads(emu);
  registerRuns(emu);
  registerResults(emu);
  registerAccounts(emu);
  registerCredits(emu);
  registerBilling(emu);
  registerGoogleMaps(emu);
  registerDashboard(emu);
}

function rescheduleAll(emu: EmuCore): void {
  rescheduleRuns(emu);
  rescheduleUploads(emu);
  rescheduleSyncs(emu);
}

/** The emulator's core and state: the state file's when it has one, else the seed's. */
async function createCore(opts: EmulatorOptions) {
  const seed: SeedName = opts.seed ?? 'demo';
  const snap = opts.stateFile ? await loadSnapshot(opts.stateFile) : undefined;
  const token = opts.token ?? snap?.state.token ?? DEMO_TOKEN;
  const clock: Clock =
    opts.clock === 'virtual' ? new VirtualClock(snap?.clock_now ?? Date.now()) : new RealClock(opts.timeScale ?? 1);
  const initialConfig = { freePlan: opts.freePlan ?? false, rateLimits: opts.rateLimits ?? ('on' as RateLimitSetting) };
  const emu = new EmuCore(clock, baseState(token, clock.now()), { ...initialConfig });
  emu.webhookTimeoutMs = opts.webhookTimeoutMs;
  if (snap) {
    emu.replaceState({ ...snap.state, token });
  } else {
    applySeed(emu, seed, token);
  }
  return { emu, seed, snap, token, initialConfig };
}

/** The features, schedules and chain feed, started; the function returned stops them. */
function withChains(emu: EmuCore): () => void {
  const stop = registerFeatures(emu);
  const stopSchedules = registerSchedules(emu);
  const onExported = (run: Record<string, unknown>, rows: Record<string, unknown>[]): void => fireChain(emu, run, rows);
  emu.events.on('run.exported', onExported);
  return () => {
    emu.events.off('run.exported', onExported);
    stopSchedules();
    stop();
  };
}

/** The server listening on host:port (port 0: any free one); the port it got. */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const { emu, seed, snap, token, initialConfig } = await createCore(opts);

  const limiter = new RateLimiter(initialConfig.rateLimits, opts.rateClock);
  const faults = new Faults();
  const log = new RequestLog();
  const persister = opts.stateFile
    ? new Persister(
        opts.stateFile,
        (): Snapshot => ({
          version: 1,
          saved_at: new Date().toISOString(),
          clock_now: emu.clock.now(),
          state: store.wholeState(emu),
        }),
      )
    : undefined;
  if (persister) emu.onDirty = () => persister.schedule();

  let stopFeatures: void | (() => void);
  // Listeners go with every reset: chains are fed again after each (withChains).
  const reset = async (): Promise<void> => {
    if (typeof stopFeatures === 'function') stopFeatures();
    emu.clock.stop();
    clearTimers(emu);
    emu.events.removeAllListeners();
    applySeed(emu, seed, token);
    faults.clear();
    log.clear();
    emu.config = { ...initialConfig };
    limiter.setting = emu.config.rateLimits;
    limiter.clear();
    stopFeatures = withChains(emu);
    emu.markDirty();
  };

  registerCore(emu);
  registerControl(emu, { faults, log, limiter, reset });
  stopFeatures = withChains(emu);
  rescheduleAll(emu);

  const server = createServer({ keepAliveTimeout: 5_000 }, createRequestHandler({ emu, limiter, faults, log }));
  const port = await listen(server, opts.port ?? 8787, host);
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  emu.baseUrl = baseUrl;
  if (persister && !snap) emu.markDirty();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      if (typeof stopFeatures === 'function') stopFeatures();
      emu.clock.stop();
      clearTimers(emu);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging fault sockets and idle keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      if (persister) {
        await persister.flush();
        if (persister.lastError) throw persister.lastError;
      }
    })());

  return { baseUrl, token, emu, log, inProcess: { reset, clearFaults: () => faults.clear() }, close };
}
