// The Emu object shared with feature modules: state, clock, events, router and the indexes that keep
// result listings fast. Persistence is injected (see persist.ts) so this file stays free of I/O.
import { EventEmitter } from 'node:events';
import type { Clock } from './clock.js';
import { Router } from './router.js';
import type { RateLimitSetting } from './ratelimit.js';
import type { Emu, EmuEvents, EmuState, Handler } from './types.js';
import { hashId } from './util.js';
import { type ResultRecord, type RunMeta, resultRecord } from './model/records.js';

export type { RunMeta };

/** Integer result ids start above the counter's range, in the sampled ids' order of size (50017, 8542691, 53557759). */
const INTEGER_RESULT_IDS = 50_000_000;

interface EmuConfig {
  freePlan: boolean;
  rateLimits: RateLimitSetting;
}

export class EmuCore implements Emu {
  readonly events = new EventEmitter<EmuEvents>();
  readonly router = new Router();
  state: EmuState;
  config: EmuConfig;
  /** Absolute origin, e.g. http://127.0.0.1:8787 (set once listening). */
  baseUrl = '';
  onDirty: () => void = () => undefined;
  webhookTimeoutMs?: number;
  private byRun = new Map<string, string[]>();
  private bySquid = new Map<string, string[]>();

  constructor(
    readonly clock: Clock,
    state: EmuState,
    config: EmuConfig,
  ) {
    this.state = state;
    this.config = config;
    this.events.setMaxListeners(50);
    this.rebuildIndexes();
  }

  route(method: string, pattern: string, handler: Handler): void {
    this.router.add(method, pattern, handler);
  }

  markDirty(): void {
    this.onDirty();
  }

  nextId(): number {
    this.state.counter = (this.state.counter ?? 0) + 1;
    return this.state.counter;
  }

  newHash(kind: string): string {
    return hashId(this.nextId(), kind);
  }

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Replace the state in place, so the feature modules holding it see the new one. */
  replaceState(next: EmuState): void {
    const target = this.state as unknown as Record<string, unknown>;
    for (const k of Object.keys(target)) delete target[k];
    Object.assign(target, next);
    this.rebuildIndexes();
  }

  get runMeta(): Record<string, RunMeta> {
    this.state.runMeta ??= {};
    return this.state.runMeta;
  }

  rebuildIndexes(): void {
    this.byRun.clear();
    this.bySquid.clear();
    for (const [id, r] of Object.entries(this.state.results ?? {})) this.index(id, r);
  }

  private index(id: string, r: ResultRecord): void {
    const run = String(r.run);
    const squid = String(r.squid);
    let a = this.byRun.get(run);
    if (!a) this.byRun.set(run, (a = []));
    a.push(id);
    let b = this.bySquid.get(squid);
    if (!b) this.bySquid.set(squid, (b = []));
    b.push(id);
  }

  /**
   * Stores rows, assigning their ids in place (no copies: 100,000-row runs must stay cheap): a 32-hex hash (the
   * get-results reference page), or an integer for a crawler whose own get-results example shows one (`result_id`).
   * The state keys them by the id's text either way.
   */
  addResults(rows: Record<string, unknown>[], idType: 'hash' | 'integer' = 'hash'): ResultRecord[] {
    return rows.map((row) => {
      const id = idType === 'integer' ? INTEGER_RESULT_IDS + this.nextId() : this.newHash('result');
      const result = resultRecord(row, id);
      this.state.results[String(id)] = result;
      this.index(String(id), result);
      return result;
    });
  }

  resultIdsOfRun(run: string): readonly string[] {
    return this.byRun.get(run) ?? [];
  }

  resultIdsOfSquid(squid: string): readonly string[] {
    return this.bySquid.get(squid) ?? [];
  }

  deleteResults(pred: (r: ResultRecord) => boolean): number {
    let n = 0;
    for (const [id, r] of Object.entries(this.state.results)) {
      if (pred(r)) {
        delete this.state.results[id];
        n++;
      }
    }
    if (n) this.rebuildIndexes();
    return n;
  }

  remainingCredits(): number {
    const b = this.state.balance;
    return b.available - b.consumed;
  }
}
