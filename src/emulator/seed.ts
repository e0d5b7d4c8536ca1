// Start states. `demo` fills every list; `empty` has only the user, balance, subscription and crawlers.
// Ids come from a counter hashed, so the same seed always gives the same ids and rows.
import type { EmuCore } from './emu.js';
import { DEFAULT_AUTO_RESET } from './model/billing.js';
import { creditsPerRow } from './collect.js';
import { recordCharge } from './credits.js';
import { CRAWLER_DEFS, crawlerId, crawlerRecord, defaultSquidParams, defOf, isReady } from './crawlers.js';
import { runRecord, runtaskRecord } from './records.js';
import {
  type AccountRecord,
  type CrawlerRecord,
  type LimitDef,
  type Params,
  type SquidRecord,
  squidRecord,
  type TaskRecord,
} from './model/records.js';
import { generateRowFields } from './rows.js';
import { rowsOfTask } from './estimate.js';
import type { EmuState } from './types.js';
import { isoZ, naiveUs, paramsKey, type Rec } from './util.js';
import * as store from './model/store.js';

export const DEMO_TOKEN = 'sq_emulator_demo_token';
export type SeedName = 'demo' | 'empty';

export const DEMO_CRAWLERS = {
  googleMaps: crawlerId('google-maps-search-export'),
  twitter: crawlerId('twitter-profile-scraper'),
  salesNav: crawlerId('sales-navigator-leads-scraper'),
  facebookPages: crawlerId('facebook-pages-search-export'),
  amazon: crawlerId('amazon-products'),
  indeed: crawlerId('indeed-jobs'),
  /** The get-run-credits sample's crawler (get_phone_numbers, "Export Listings (No Phone)"). */
  leboncoinPhone: crawlerId('leboncoin-iter-listings-with-phone'),
} as const;

/** Squid names of the demo seed (ids are deterministic too, see DEMO_SQUID_IDS after a seed). */
export const DEMO_SQUIDS = {
  /** Google Maps, 3 tasks, 2 finished runs with results. */
  paris: 'Paris restaurants',
  /** Twitter, linked to the demo Twitter account (no limits, as sampled): its runs finish. */
  influencers: 'Tech influencers',
  /**
   * Sales Navigator, linked to the demo Sales Navigator account, which is at its sampled daily `profiles` limit
   * (150): its runs pause (no_account_available), then resume when the limit resets.
   */
  leads: 'CTO leads',
  /** Indeed, a crawler with has_issues: its runs end in error. */
  jobs: 'Job board watch',
  /** Amazon, 2 tasks, 1 finished run. */
  headphones: 'Amazon headphones',
  /** Google Maps, no tasks (starting a run gives NoTasksPresent). */
  lyon: 'Lyon bakeries',
} as const;

export const DEMO_ACCOUNT_USERNAMES = { twitter: 'demo_scraper', salesNav: 'jane.doe@acme.test' } as const;
export const DEMO_BALANCE = { available: 10_000, consumed: 2_500 } as const;

const DAY = 86_400_000;

function ddmmyyyy(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export function baseState(token: string, now: number): EmuState {
  const cycleStart = now - 10 * DAY;
  const cycleEnd = cycleStart + 30 * DAY;
  const crawlers: Record<string, CrawlerRecord> = {};
  for (const def of CRAWLER_DEFS) crawlers[crawlerId(def.slug)] = crawlerRecord(def);
  return {
    token,
    user: {
      first_name: 'Ada',
      last_name: 'Demo',
      email: 'demo@sq-emulator.local',
      email_verified: true,
      plan: [{ name: 'Premium', interval: 'monthly', status: 'active' }],
      login_count: 42,
      profile_image: null,
      is_staff: false,
      credit_interval: 'monthly',
    },
    balance: {
      id: 'price_1EmulatorPremiumMonthly',
      object: 'plan',
      name: 'Premium',
      available: DEMO_BALANCE.available,
      consumed: DEMO_BALANCE.consumed,
      bonus_credit: 0,
      rollover_credit: 0,
      rollover_credit_expires_at: null,
      interval: 'monthly',
      used_slots: 0,
      total_available_slots: 20,
      has_unpaid_bill: false,
      reset_time: isoZ(cycleEnd),
    },
    subscription: { active: true, cycle_started_at: cycleStart, cycle_ends_at: cycleEnd },
    crawlers,
    squids: {},
    tasks: {},
    runs: {},
    runtasks: {},
    results: {},
    accounts: {},
    uploads: {},
    syncs: {},
    accountTypes: {},
    runMeta: {},
    autoReset: { ...DEFAULT_AUTO_RESET, reset_times: [] },
    deliveries: [],
    outbox: [],
    counter: 0,
  };
}

/**
 * A squid record with every documented field at its creation default. `paramsSet` false (a squid created through
 * POST /v1/squids): not ready until its params are set, as the vendor's SDK docs require even when all are optional.
 */
export function newSquid(
  emu: EmuCore,
  crawler: CrawlerRecord,
  name: string,
  createdMs: number,
  paramsSet = true,
): SquidRecord {
  const id = emu.newHash('squid');
  const squid = squidRecord({
    id,
    created_at: naiveUs(createdMs),
    name,
    crawler: String(crawler.id),
    crawler_name: String(crawler.name),
    params: defaultSquidParams(defOf(crawler)) as Params,
  });
  squid.is_ready = paramsSet && isReady(defOf(crawler), squid.params);
  store.putRecord(emu, 'squids', squid);
  return squid;
}

export function newTask(emu: EmuCore, squid: SquidRecord, params: Params, createdMs: number): TaskRecord {
  const id = emu.newHash('task');
  // The module an added task shows: the crawler's integer where its add-tasks example gives one (none where that
  // example shows none), else the crawler's hash (the add-tasks reference page).
  const shown = defOf(store.crawlerOf(emu, squid.crawler)).task_module;
  const task: TaskRecord = {
    id,
    object: 'task',
    created_at: naiveUs(createdMs),
    is_active: true,
    params,
    squid: squid.id,
    module: squid.crawler,
    type: typeof params.url === 'string' ? 'url' : 'params',
    ...(shown !== undefined ? { shown_module: shown } : {}),
  };
  store.putRecord(emu, 'tasks', task);
  return task;
}

/** A run that already happened: built synchronously, no events, balance already accounts for it. */
function pastRun(emu: EmuCore, squid: SquidRecord, startMs: number, outcome: 'done' | 'error'): void {
  const crawler = store.crawlerOf(emu, squid.crawler);
  const def = defOf(crawler);
  const id = emu.newHash('run');
  const tasks = store.records(emu, 'tasks').filter((t) => t.squid === squid.id);
  let total = 0;
  let t = startMs + 1000;
  for (const task of tasks) {
    const rtId = emu.newHash('runtask');
    const count = rowsOfTask(task.params as Rec, squid.params as Rec);
    const failed = outcome === 'error';
    if (!failed) {
      emu.addResults(
        generateRowFields(
          {
            def,
            squidParams: squid.params as Rec,
            squid: String(squid.id),
            run: id,
            task: String(task.id),
            taskParams: task.params as Rec,
            basis: paramsKey(task.params as Rec),
            scrapingTimeMs: t,
          },
          count,
        ),
        def.result_id ?? 'hash',
      );
      total += count;
      recordCharge(emu, id, def, squid.params as Rec, count);
    }
    store.putRecord(
      emu,
      'runtasks',
      runtaskRecord(rtId, id, task.id, task.params, {
        status: failed ? 'error' : 'completed',
        started_at: naiveUs(t),
        ended_at: naiveUs(t + 2000),
        last_result: failed ? 0 : count,
        last_page: failed ? 0 : 1,
        done_reason: failed ? 'error' : 'completed',
        done_reason_desc: failed ? 'The page could not be scraped.' : null,
        last_collection_at: naiveUs(t + 2000),
      }),
    );
    t += 2000;
    if (failed) break;
  }
  // The get-run sample's form ("2025-02-10T14:27:45Z"); runs started here get the microsecond form (api-reference §15).
  const ended = isoZ(t + 1000);
  const done = outcome === 'done';
  store.putRecord(
    emu,
    'runs',
    runRecord(id, squid.id, isoZ(startMs), {
      is_done: true,
      started_at: isoZ(startMs + 1000),
      ended_at: ended,
      credit_used: total * creditsPerRow(def, squid.params as Rec),
      status: outcome,
      export_done: done,
      export_count: total,
      export_time: done ? ended : null,
      total_results: total,
      total_unique_results: total,
      done_reason: done ? 'tasks_done' : 'error',
      done_reason_desc: done ? null : `${def.name} is having issues on the target website; the run crashed.`,
    }),
  );
}

// In the list-account-types sample's order: Facebook (no limits, as sampled), Sales Navigator, Twitter.
const ACCOUNT_TYPES: {
  name: string;
  domain: string;
  baseurl: string;
  cookies: string[];
  params: Record<string, LimitDef>;
}[] = [
  {
    name: 'facebook-sync',
    domain: 'Facebook',
    baseurl: 'https://www.facebook.com',
    cookies: ['c_user', 'xs'],
    params: {},
  },
  // The list-account-types sample, word for word: up to 20 profiles a launch, the daily profiles and searches.
  {
    name: 'sales-nav-sync',
    domain: 'Sales Navigator',
    baseurl: 'https://www.linkedin.com',
    cookies: ['li_at', 'JSESSIONID', 'li_a'],
    params: {
      batch: { max: 20, default: 20, attribute: 'profiles', description: 'Number of profiles visited per launch' },
      profiles: { max: 150, default: 150, description: 'Maximum number of profile requests per day' },
      searches: { max: 200, default: 200, description: 'Maximum number of searches per day' },
      batch_hours: { max: 2, default: 2, description: 'Hours between each launch during a day' },
    },
  },
  // No limits, as the get-account-details and list-accounts samples show a Twitter account ({default: {}, user: {}}).
  { name: 'twitter-sync', domain: 'Twitter', baseurl: 'https://x.com', cookies: ['auth_token', 'ct0'], params: {} },
];

function seedAccountTypes(emu: EmuCore): void {
  for (const t of ACCOUNT_TYPES) {
    const id = emu.newHash('account_type');
    store.putRecord(emu, 'accountTypes', {
      id,
      object: 'account_type',
      name: t.name,
      icon: 'https://cdn.sq-emulator.local/icons/' + t.name + '.png',
      domain: t.domain,
      baseurl: t.baseurl,
      cookies: t.cookies.map((name) => ({ name, required: true })),
      params: structuredClone(t.params),
    });
  }
}

/**
 * An account record of the given type; `used` is how much of the daily limit is already spent; `id` the hash a cookie
 * sync reserved for it when it started (check-sync-status shows it while synchronizing).
 */
export function newAccount(
  emu: EmuCore,
  typeName: string,
  username: string,
  nowMs: number,
  used = 0,
  id = emu.newHash('account'),
): AccountRecord {
  const type = store.records(emu, 'accountTypes').find((t) => t.name === typeName);
  if (!type) throw new Error(`unknown account type ${typeName}`);
  const def = type.params;
  // The update-account-limits sample's user counters: batch {max, current, default, attribute, start_time,
  // last_batch_at}, batch_hours {max, value, default, description}, each daily limit {max, value, default, timestamp,
  // start_time}; `used` is spent on the first daily limit.
  const limits = Object.keys(def).filter((k) => k !== 'batch' && k !== 'batch_hours');
  const daily = (k: string, i: number): Rec => {
    const max = Number(def[k].default);
    return {
      max,
      value: i === 0 ? Math.min(used, max) : 0,
      default: max,
      timestamp: Math.floor((nowMs + DAY) / 1000),
      start_time: null,
    };
  };
  const account: AccountRecord = {
    id,
    object: 'account',
    username,
    created_at: naiveUs(nowMs),
    last_synchronization_time: naiveUs(nowMs),
    status: '200',
    status_code_info: 'synchronized',
    status_code_description: 'The account is synchronized.',
    type: typeName,
    // A type without limits (Facebook, as sampled) gives its accounts none: {default: {}, user: {}} (get-account-details).
    params:
      Object.keys(def).length === 0
        ? { default: {}, user: {} }
        : {
            default: def,
            user: {
              batch: {
                max: Number(def.batch?.max ?? 10),
                current: 0,
                default: Number(def.batch?.default ?? 1),
                attribute: def.batch?.attribute ?? 'batch',
                start_time: null,
                last_batch_at: ddmmyyyy(nowMs),
              },
              ...Object.fromEntries(limits.map((k, i) => [k, daily(k, i)])),
              batch_hours: {
                max: Number(def.batch_hours?.max ?? 24),
                value: 0,
                default: Number(def.batch_hours?.default ?? 1),
                description: def.batch_hours?.description,
              },
            },
          },
    updated_at: null,
    account_type_hash: type.id,
    baseurl: type.baseurl,
    cookies: type.cookies,
    icon: type.icon,
  };
  store.putRecord(emu, 'accounts', account);
  return account;
}

/** The get-squid-details sample's state: every function of the squid off, so its runs charge the base rate only. */
function functionsOff(squid: SquidRecord): void {
  const params = squid.params;
  params.functions = Object.fromEntries(Object.keys((params.functions ?? {}) as Rec).map((k) => [k, false]));
}

/**
 * Seeded states already built, by seed, token and clock time: the seed is a function of those three alone (its ids
 * come from the state's own counter, its times from `now`), so a reset at a time already seeded (a test file's
 * emulator reset before each test on a virtual clock that did not move) takes a copy instead of building it again
 * (~4 ms of CPU a seed: 2,000 generated rows, an md5 per id; the suite resets some hundreds of times). A few only:
 * each holds a whole state.
 */
const seeded = new Map<string, EmuState>();
const SEEDED_KEPT = 4;

/**
 * A copy of a seeded state that shares nothing with it but what a fresh seed shares with everything else: each
 * crawler record's `def`, the crawler's definition itself (functions included), and what its `account` took from it.
 */
function copyOfSeeded(state: EmuState): EmuState {
  const { crawlers, ...rest } = state;
  const copy = structuredClone(rest) as Omit<EmuState, 'crawlers'>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(state))
    out[k] =
      k === 'crawlers'
        ? Object.fromEntries(
            Object.entries(crawlers).map(([id, c]) => [id, { ...c, account: c.account ? { ...c.account } : null }]),
          )
        : copy[k as keyof typeof copy];
  return out as unknown as EmuState;
}

export function applySeed(emu: EmuCore, seed: SeedName, token: string): void {
  const now = emu.clock.now();
  const key = `${seed}\0${token}\0${now}`;
  const kept = seeded.get(key);
  if (kept) {
    emu.replaceState(copyOfSeeded(kept));
    return;
  }
  buildSeed(emu, seed, token, now);
  if (seeded.size >= SEEDED_KEPT) seeded.delete(seeded.keys().next().value as string);
  seeded.set(key, copyOfSeeded(emu.state));
}

function buildSeed(emu: EmuCore, seed: SeedName, token: string, now: number): void {
  emu.replaceState(baseState(token, now));
  seedAccountTypes(emu);
  if (seed === 'empty') return;
  const c = (id: string) => store.crawlerOf(emu, id);
  const twitterAccount = newAccount(emu, 'twitter-sync', DEMO_ACCOUNT_USERNAMES.twitter, now - 20 * DAY);
  // At its daily profiles limit (the sampled 150): a run of a squid using it pauses with no_account_available, the
  // documented pause (api-reference: "no_account_available (pauses, auto-resumes)"), and the account shows resets_in.
  const salesNavAccount = newAccount(
    emu,
    'sales-nav-sync',
    DEMO_ACCOUNT_USERNAMES.salesNav,
    now - 15 * DAY,
    Number.MAX_SAFE_INTEGER,
  );

  const paris = newSquid(emu, c(DEMO_CRAWLERS.googleMaps), DEMO_SQUIDS.paris, now - 9 * DAY);
  functionsOff(paris);
  newTask(emu, paris, { url: 'https://www.google.com/maps/search/restaurants+paris+11e' }, now - 9 * DAY);
  newTask(emu, paris, { url: 'https://www.google.com/maps/search/bistro+le+marais' }, now - 9 * DAY);
  newTask(emu, paris, { category: 'pizza', city: 'Paris', country: 'France' }, now - 9 * DAY);
  pastRun(emu, paris, now - 8 * DAY, 'done');
  pastRun(emu, paris, now - 2 * DAY, 'done');

  const influencers = newSquid(emu, c(DEMO_CRAWLERS.twitter), DEMO_SQUIDS.influencers, now - 7 * DAY);
  influencers.accounts = [twitterAccount.id];
  newTask(emu, influencers, { url: 'https://x.com/nasa' }, now - 7 * DAY);
  newTask(emu, influencers, { url: 'https://x.com/github' }, now - 7 * DAY);
  pastRun(emu, influencers, now - 6 * DAY, 'done');

  const leads = newSquid(emu, c(DEMO_CRAWLERS.salesNav), DEMO_SQUIDS.leads, now - 6 * DAY);
  leads.accounts = [salesNavAccount.id];
  newTask(emu, leads, { url: 'https://www.linkedin.com/sales/search/people?query=cto%20paris' }, now - 6 * DAY);
  newTask(emu, leads, { url: 'https://www.linkedin.com/sales/search/people?query=cto%20lyon' }, now - 6 * DAY);

  const jobs = newSquid(emu, c(DEMO_CRAWLERS.indeed), DEMO_SQUIDS.jobs, now - 5 * DAY);
  newTask(emu, jobs, { url: 'https://www.indeed.com/jobs?q=typescript+developer' }, now - 5 * DAY);
  pastRun(emu, jobs, now - 4 * DAY, 'error');

  const headphones = newSquid(emu, c(DEMO_CRAWLERS.amazon), DEMO_SQUIDS.headphones, now - 3 * DAY);
  newTask(emu, headphones, { url: 'https://www.amazon.com/s?k=wireless+headphones' }, now - 3 * DAY);
  newTask(emu, headphones, { url: 'https://www.amazon.com/s?k=noise+cancelling' }, now - 3 * DAY);
  pastRun(emu, headphones, now - 1 * DAY, 'done');

  functionsOff(newSquid(emu, c(DEMO_CRAWLERS.googleMaps), DEMO_SQUIDS.lyon, now - 1 * DAY));
}

/** Hash of a squid by its exact name (tests use it with the DEMO_SQUIDS names). */
export function squidIdByName(state: EmuState, name: string): string | undefined {
  return Object.values(state.squids).find((s) => s.name === name)?.id as string | undefined;
}
