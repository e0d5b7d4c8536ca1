// Accounts, account types (both spellings), limit updates, and cookie synchronization that progresses
// over business time: 100 created → 120 synchronizing → 200 synchronized (or ≥ 400 failed).
import type { EmuCore } from '../emu.js';
import type { EmuRequest, EmuResponse } from '../types.js';
import { paginate } from '../pagination.js';
import { newAccount } from '../seed.js';
import { detail, hashId, isRecord, json, naiveUs } from '../util.js';
import { accountView } from '../views.js';
import { statusFilter } from '../model/account-status.js';
import { bodyObject, type Rec } from './common.js';
import { paramsOf, type SyncRecord } from '../model/records.js';
import * as store from '../model/store.js';

const SYNC_TIMING = { syncingMs: 1_000, doneMs: 3_000 } as const;

function publicSync(s: SyncRecord): Rec {
  return {
    id: s.id,
    object: 'synchronize-cookies',
    status_code: s.status_code,
    status_text: s.status_text,
    account_hash: s.account_hash ?? null,
  };
}

function finishSync(emu: EmuCore, sync: SyncRecord): void {
  // The sync as stored now (a reset may have replaced the state since its timer was set).
  const s = store.record(emu, 'syncs', sync.id);
  if (!s || Number(s.status_code) >= 200) return;
  const type = store.records(emu, 'accountTypes').find((t) => t.name === s.type);
  const cookies = (s.cookies ?? {}) as Record<string, string>;
  const required = (type?.cookies ?? []).filter((c) => c.required);
  const missing = required.filter((c) => typeof cookies[c.name] !== 'string' || cookies[c.name].trim() === '');
  store.updateRecord(emu, 'syncs', s.id, { cookies: undefined, due_at: null });
  if (!type || missing.length) {
    const text = `cookies_invalid: missing or empty ${missing.map((c) => c.name).join(', ') || 'cookies'}`;
    store.updateRecord(emu, 'syncs', s.id, {
      // The hash reserved for a new account is given up: no account was made.
      ...(s.account_hash && !store.record(emu, 'accounts', String(s.account_hash)) ? { account_hash: null } : {}),
      status_code: 401,
      status_text: text,
    });
    return;
  }
  const now = emu.clock.now();
  let account = s.account_hash ? store.record(emu, 'accounts', String(s.account_hash)) : undefined;
  if (account) {
    const at = naiveUs(now);
    store.updateRecord(emu, 'accounts', account.id, {
      last_synchronization_time: at,
      updated_at: at,
      status: '200',
      status_code_info: 'synchronized',
    });
  } else {
    const n = store.records(emu, 'accounts').filter((a) => a.type === type.name).length + 1;
    const username =
      typeof cookies.username === 'string' && cookies.username
        ? cookies.username
        : `${String(type.domain).toLowerCase().replace(/\s+/g, '_')}_user_${n}`;
    account = newAccount(emu, String(type.name), username, now, 0, s.account_hash ?? undefined);
  }
  store.updateRecord(emu, 'syncs', s.id, { account_hash: account.id, status_code: 200, status_text: 'synchronized' });
}

function scheduleSync(emu: EmuCore, s: SyncRecord): void {
  const now = emu.clock.now();
  const due = Number(s.due_at ?? now);
  if (Number(s.status_code) === 100) {
    const at = due - (SYNC_TIMING.doneMs - SYNC_TIMING.syncingMs);
    emu.clock.schedule(Math.max(0, at - now), () => {
      if (store.record(emu, 'syncs', s.id)?.status_code === 100)
        store.updateRecord(emu, 'syncs', s.id, { status_code: 120, status_text: 'synchronizing' });
    });
  }
  emu.clock.schedule(Math.max(0, due - now), () => finishSync(emu, s));
}

export function rescheduleSyncs(emu: EmuCore): void {
  for (const s of store.records(emu, 'syncs')) if (Number(s.status_code) < 200) scheduleSync(emu, s);
}

export function registerAccounts(emu: EmuCore): void {
  const opts = () => ({ freePlan: emu.config.freePlan, style: 'detail' as const });

  // ?type= and ?status= filter the list (list-accounts page's query parameters).
  emu.route('GET', '/v1/accounts', (req) => {
    const type = req.query.get('type');
    const status = statusFilter(req.query.get('status'));
    const list = store.records(emu, 'accounts').filter((a) => (!type || a.type === type) && (!status || status(a)));
    return paginate(req, list, (a) => accountView(emu, a), opts());
  });
  for (const path of ['/v1/accounts/types', '/v1/account_types'])
    emu.route('GET', path, (req) => paginate(req, store.records(emu, 'accountTypes'), (t) => t, opts()));

  emu.route('GET', '/v1/accounts/:hash', (req) => {
    const a = store.record(emu, 'accounts', req.params.hash);
    // The live service answers one account inside a list envelope.
    return a ? paginate(req, [a], (x) => accountView(emu, x), opts()) : detail(404, 'Not found.');
  });

  emu.route('DELETE', '/v1/accounts/:hash', (req) => {
    const a = store.record(emu, 'accounts', req.params.hash);
    if (!a) return detail(404, 'Account not found.');
    store.dropRecord(emu, 'accounts', req.params.hash);
    for (const s of store.records(emu, 'squids'))
      if (Array.isArray(s.accounts))
        store.updateRecord(emu, 'squids', s.id, { accounts: s.accounts.filter((x) => x !== a.id) });
    emu.markDirty();
    return json(200, { id: a.id, object: 'account', deleted: true });
  });

  emu.route('POST', '/v1/accounts', (req) => setLimits(emu, req));

  emu.route('POST', '/v1/synchronize', (req) => syncCookies(emu, req));
  emu.route('POST', '/v1/accounts/cookies', (req) => syncCookies(emu, req));

  emu.route('GET', '/v1/synchronize/:id', (req) => {
    const s = store.record(emu, 'syncs', req.params.id);
    return s ? json(200, publicSync(s)) : detail(404, 'Synchronization task not found.');
  });
}

/** The fields the update-account-limits page sends. */
const LIMIT_FIELDS = ['account', 'type', 'params'];

/** POST /v1/accounts: an account's limits, each one its type declares and within its maximum. */
function setLimits(emu: EmuCore, req: EmuRequest): EmuResponse {
  const b = bodyObject(req);
  const unknown = Object.keys(b).find((k) => !LIMIT_FIELDS.includes(k));
  if (unknown !== undefined) return detail(400, `Unknown field "${unknown}"; allowed: ${LIMIT_FIELDS.join(', ')}.`);
  if (typeof b.account !== 'string' || !b.account) return detail(400, 'account is required.');
  const a = store.record(emu, 'accounts', b.account);
  if (!a) return detail(404, 'Account not found.');
  if (b.type !== undefined && b.type !== a.type) return detail(400, `type must be ${String(a.type)} for this account.`);
  if (!isRecord(b.params)) return detail(400, 'params must be an object of limits.');
  const params = a.params as { default: Record<string, Rec>; user: Record<string, Rec> };
  for (const [k, v] of Object.entries(b.params)) {
    // Own keys only: a prototype name (constructor, __proto__, toString) is no limit of any type.
    const def = Object.hasOwn(params.default, k) ? params.default[k] : undefined;
    if (!def) {
      const allowed = Object.keys(params.default);
      // Facebook and Twitter accounts have none, as sampled ({default: {}, user: {}}).
      return detail(
        400,
        allowed.length
          ? `Unknown limit "${k}"; allowed: ${allowed.join(', ')}.`
          : `Unknown limit "${k}": ${String(a.type)} accounts have no limits.`,
      );
    }
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > Number(def.max))
      return detail(400, `${k} must be an integer between 1 and ${String(def.max)}.`);
  }
  const user = { ...a.params.user };
  for (const [k, v] of Object.entries(b.params))
    user[k] = { ...(Object.hasOwn(user, k) ? user[k] : {}), max: Number(v) };
  const updated = { params: { ...a.params, user }, updated_at: naiveUs(emu.clock.now()) };
  return json(200, accountView(emu, store.updateRecord(emu, 'accounts', a.id, updated)));
}

/** POST /v1/synchronize (and /v1/accounts/cookies): a cookie sync task, checked at once, finished later. */
function syncCookies(emu: EmuCore, req: EmuRequest): EmuResponse {
  const b = bodyObject(req);
  // The sync and refresh pages' 400 texts, word for word: answered at once, not by a sync that fails later.
  const type = store.records(emu, 'accountTypes').find((t) => t.name === b.type);
  const cookies = isRecord(b.cookies) ? b.cookies : {};
  const required = (type?.cookies ?? []).filter((c) => c.required);
  if (
    !type ||
    !isRecord(b.cookies) ||
    required.some((c) => typeof cookies[c.name] !== 'string' || cookies[c.name] === '')
  )
    return detail(400, 'Invalid account type or missing required cookies.');
  if (b.account !== undefined && b.account !== null) {
    const account = typeof b.account === 'string' ? store.record(emu, 'accounts', b.account) : undefined;
    if (!account) return detail(404, 'Account not found.');
    if (account.type !== b.type) return detail(400, 'Invalid cookies or account type mismatch.');
  }
  const id = hashId(emu.nextId(), 'sync');
  // A new account's hash is known from the start: check-sync-status shows the same account_hash at 120 (synchronizing)
  // as at 200 (synchronized), as its two samples do; the account itself is made when the sync succeeds.
  const accountHash = typeof b.account === 'string' ? b.account : emu.newHash('account');
  const s: SyncRecord = {
    id,
    object: 'synchronize-cookies',
    status_code: 100,
    status_text: 'created',
    type: type.name,
    cookies: paramsOf(b.cookies),
    account_hash: accountHash,
    due_at: emu.clock.now() + SYNC_TIMING.doneMs,
  };
  store.putRecord(emu, 'syncs', s);
  scheduleSync(emu, s);
  emu.markDirty();
  const { account_hash: _a, ...created } = publicSync(s);
  return json(200, created);
}
