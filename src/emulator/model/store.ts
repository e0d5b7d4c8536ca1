// The one way in to the emulator's state: records by kind and id, the user, the balance, the subscription and the
// other sections. Routes and feature modules call these; none reads `emu.state` itself. A lookup by id is an own
// property only, so an id such as "constructor" or "__proto__" finds nothing rather than a prototype member.
import type { AutoResetState, DeliveryRecord, Emu, EmuState, OutboxMail, UserRecord } from '../types.js';
import type {
  AccountRecord,
  AccountTypeRecord,
  CrawlerRecord,
  ResultRecord,
  RunRecord,
  RuntaskRecord,
  SquidRecord,
  SyncRecord,
  TaskRecord,
  UploadRecord,
} from './records.js';

/** The record type kept under each kind. */
export interface Kinds {
  crawlers: CrawlerRecord;
  squids: SquidRecord;
  tasks: TaskRecord;
  runs: RunRecord;
  runtasks: RuntaskRecord;
  results: ResultRecord;
  accounts: AccountRecord;
  accountTypes: AccountTypeRecord;
  uploads: UploadRecord;
  syncs: SyncRecord;
}
export type Kind = keyof Kinds;

const mapOf = <K extends Kind>(emu: Emu, kind: K): Record<string, Kinds[K]> =>
  emu.state[kind] as Record<string, Kinds[K]>;

/** The record of `kind` with id `id`, or undefined (an own key only). */
export function record<K extends Kind>(emu: Emu, kind: K, id: unknown): Kinds[K] | undefined {
  const map = mapOf(emu, kind);
  return typeof id === 'string' && Object.hasOwn(map, id) ? map[id] : undefined;
}

/** Every record of `kind`, in the order they were stored. */
export function records<K extends Kind>(emu: Emu, kind: K): Kinds[K][] {
  return Object.values(mapOf(emu, kind));
}

/** The ids of every record of `kind`. */
export function recordIds(emu: Emu, kind: Kind): string[] {
  return Object.keys(mapOf(emu, kind));
}

/** Stores `rec` under its own id (replacing one of that id); returns it. */
export function putRecord<K extends Kind>(emu: Emu, kind: K, rec: Kinds[K]): Kinds[K] {
  mapOf(emu, kind)[rec.id] = rec;
  return rec;
}

/**
 * Changes the fields `patch` names on the record of `kind` with id `id` (which must exist), a field given as
 * undefined removed; returns it.
 */
export function updateRecord<K extends Kind>(emu: Emu, kind: K, id: string, patch: Partial<Kinds[K]>): Kinds[K] {
  const rec = record(emu, kind, id);
  if (!rec) throw new Error(`no ${kind} record ${JSON.stringify(id)}`);
  const fields = rec as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete fields[k];
    else fields[k] = v;
  }
  emu.markDirty();
  return rec;
}

/** Changes the fields `patch` names on the balance (slots in use, the plan's slots). */
export function updateBalance(emu: Emu, patch: Partial<EmuState['balance']>): void {
  Object.assign(emu.state.balance, patch);
  emu.markDirty();
}

/** Removes the record of `kind` with id `id`; whether there was one. */
export function dropRecord(emu: Emu, kind: Kind, id: string): boolean {
  const map = mapOf(emu, kind);
  if (!Object.hasOwn(map, id)) return false;
  delete map[id];
  return true;
}

/** The crawler a squid (or a chain's target) is of: every squid's crawler is in the catalogue, so none is a broken state. */
export function crawlerOf(emu: Emu, id: unknown): CrawlerRecord {
  const crawler = record(emu, 'crawlers', id);
  if (!crawler) throw new Error(`the state has no crawler ${JSON.stringify(id)}`);
  return crawler;
}

export const token = (emu: Emu): string => emu.state.token;
export const user = (emu: Emu): UserRecord => emu.state.user;
export const balance = (emu: Emu): EmuState['balance'] => emu.state.balance;
export const autoReset = (emu: Emu): AutoResetState => emu.state.autoReset;
export const deliveries = (emu: Emu): DeliveryRecord[] => emu.state.deliveries;
export const outbox = (emu: Emu): OutboxMail[] => emu.state.outbox;

/** The whole state, for the state file (persist.ts). */
export const wholeState = (emu: Emu): EmuState => emu.state;

type Section = 'runMeta' | 'webhookRetries' | 'creditLedger' | 'creditArchive' | 'conversions';

/**
 * A section a feature module keeps in the state (webhook retries, the credit ledger, export conversions), made with
 * `init` the first time, or when a state file written before it left it out.
 */
export function section<N extends Section>(
  emu: Emu,
  name: N,
  valid: (v: unknown) => boolean,
  init: () => NonNullable<EmuState[N]>,
): NonNullable<EmuState[N]> {
  const value = emu.state[name];
  if (value !== undefined && value !== null && valid(value)) return value;
  const made = init();
  emu.state[name] = made;
  return made;
}
