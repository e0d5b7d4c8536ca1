import { defineVerb } from '../../cli/command.js';
import { resolveAccount, resolveSquid } from '../../api/resolve.js';
import { getSquid, parseParams, updateSquid, withLiveParams } from '../../api/squids.js';
import type { Squid } from '../../api/records.js';
import { getCrawler, getCrawlerParams, squidParamNames, unknownSquidParams } from '../../api/crawlers.js';
import { changeLinks, refuseWrongTypes } from '../../api/account-links.js';
import { firstAccount, getAccount } from '../../api/accounts.js';
import { SQUID_DETAIL_COLUMNS } from './_shared/columns.js';
import { SqError, UsageError, refuseProblems } from '../../errors.js';
import { enumFlag, exclusive, intFlag, nameFlag, nonEmpty } from '../../validate/index.js';
import { cronFlag, timezoneFlag } from './_shared/schedule.js';
import { scheduleAfter } from '../_shared/schedule-after.js';
import { guardSchedule, MAX_CREDITS_OPTION, spendPolicy } from '../../billing/guard.js';

/** The account flags, each reference trimmed, checked for contradictions; exit 2 when nothing at all is to be updated. */
function linkFlags(
  opts: { account?: string[]; addAccount?: string[]; removeAccount?: string[]; accounts?: boolean },
  settings: boolean,
): { accounts: string[]; adds: string[]; removes: string[] } {
  const refs = (flag: string, v: string[] | undefined) => (v ?? []).map((a) => nonEmpty(flag, a).trim());
  const accounts = refs('--account', opts.account);
  const adds = refs('--add-account', opts.addAccount);
  const removes = refs('--remove-account', opts.removeAccount);
  const both = adds.find((a) => removes.includes(a));
  if (both !== undefined)
    throw new UsageError(
      `--add-account and --remove-account both name ${JSON.stringify(both)}: give it to one of them`,
    );
  const given = [
    accounts.length && '--account',
    opts.accounts === false && '--no-accounts',
    (adds.length || removes.length) && '--add-account/--remove-account',
  ].filter(Boolean);
  if (given.length > 1)
    throw new UsageError(
      `${given.join(' and ')} cannot be used together: --account replaces the links, --add-account/--remove-account change them`,
    );
  if (!settings && !accounts.length && !adds.length && !removes.length && opts.accounts !== false) {
    throw new UsageError(
      'nothing to update: pass --name, --concurrency, --param key=value, --schedule, --timezone, --no-schedule, --to-complete, --no-line-breaks, ' +
        '--export-unique-results, --run-notify, --active, --inactive, --add-account, --remove-account, --account or --no-accounts',
    );
  }
  return { accounts, adds, removes };
}

/** Accounts of a type the squid's crawler does not take are refused before anything is sent. */
async function refuseLinkTypes(
  http: Parameters<typeof getSquid>[0],
  squid: Squid,
  flag: string,
  links: [string, Record<string, unknown>][],
) {
  const crawler = await getCrawler(http, String(squid?.crawler ?? ''));
  const crawlerName = JSON.stringify(String(crawler.name ?? squid?.crawler_name ?? squid?.crawler));
  // A full id resolves without a lookup: its record is read for its type.
  const records = await Promise.all(
    links.map(async ([a, r]) => (typeof r.type === 'string' ? r : firstAccount(await getAccount(http, a), a))),
  );
  refuseWrongTypes(flag, records, crawler, crawlerName);
}

export default defineVerb({
  name: 'update',
  writes: true,
  summary: "Change a squid's name, concurrency, params, schedule or accounts (POST /v1/squids/{id}), then show it",
  description:
    'Only the given fields change. --param keys are checked against the crawler first (exit 2 with the closest names); ' +
    'the other params are kept. More: sq help squid-settings (each flag), sq help spending (a schedule starts runs).',
  args: ['<squid>'],
  options: [
    { flags: '--name <name>', description: 'new name (at most 255 characters)' },
    { flags: '--concurrency <n>', description: 'parallel workers, 1-20 (the crawler and plan may cap it)' },
    { flags: '--param <key=value>', description: 'set a squid parameter (repeatable)', repeatable: true },
    { flags: '--schedule <cron>', description: 'run on this cron schedule, e.g. "0 9 * * 1"' },
    { flags: '--timezone <tz>', description: 'IANA time zone of the schedule, e.g. Europe/Paris (exit 2 if unknown)' },
    { flags: '--no-schedule', description: 'remove the schedule' },
    { flags: '--to-complete', description: 'each run continues where the last one stopped' },
    { flags: '--no-to-complete', description: 'each run starts over' },
    { flags: '--line-breaks', description: 'keep line breaks in exported cells' },
    { flags: '--no-line-breaks', description: 'strip line breaks from exported cells' },
    { flags: '--export-unique-results', description: 'exports keep one row per unique result (export_unique_results)' },
    { flags: '--no-export-unique-results', description: 'exports keep every row, duplicates too' },
    { flags: '--run-notify <when>', description: "e-mail a run's end: on_success, on_error or none (run_notify)" },
    { flags: '--active', description: 'let the squid run (is_active; a schedule then fires)' },
    { flags: '--inactive', description: 'stop the squid from running (is_active false)' },
    {
      flags: '--add-account <account>',
      description: 'link this account too, keeping the others (repeatable)',
      repeatable: true,
      complete: 'account',
    },
    {
      flags: '--remove-account <account>',
      description: 'unlink this account, keeping the others (repeatable)',
      repeatable: true,
      complete: 'account',
    },
    {
      flags: '--account <account>',
      description: 'REPLACE the linked accounts with exactly these (repeatable)',
      repeatable: true,
      complete: 'account',
    },
    { flags: '--no-accounts', description: 'unlink every account' },
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq squids update "Paris restaurants" --concurrency 4',
    'sq squids update "Paris restaurants" --schedule "0 9 * * 1" --timezone Europe/Paris',
    'sq squids update "Paris restaurants" --param max_results=200 --param ratings=4.0+',
    'sq squids update 3fa8 --param functions.extract_emails_from_website=true --dry-run',
    'sq squids update "Tech influencers" --add-account demo_scraper',
    'sq squids update "Paris restaurants" --export-unique-results --run-notify on_error',
  ],
  async run(ctx, [ref], opts) {
    const body = settingsBody(opts);
    const { accounts, adds, removes } = linkFlags(opts, Object.keys(body).length > 0);

    const schedules =
      typeof body.cron_expression === 'string' || body.timezone !== undefined || body.is_active === true;
    // New params change what each run of an active schedule costs: held to a cap too (read before any request).
    const capped = schedules || body.params !== undefined ? await spendPolicy(ctx, opts.maxCredits) : null;
    const policy = schedules || capped?.cap != null ? capped : null;
    const http = await ctx.http();
    const { id, record } = await resolveSquid(http, ref);
    // The squid as it is, read once for the checks that need it (params, account types, the schedule).
    let live: Promise<Squid> | undefined;
    const liveSquid = () => (live ??= getSquid(http, id));
    // Whether a schedule will fire needs is_active, and the zone it keeps: a name or prefix resolved from the list
    // says both when its record has them (the list may leave fields out; then the squid is read).
    const listedState =
      typeof record.is_active === 'boolean' &&
      (body.timezone !== undefined || (record.schedule !== null && typeof record.schedule === 'object'));
    // What turns the schedule on is sent after the estimate: the schedule, its zone, and is_active: true.
    const scheduleState = () => (listedState && !body.params ? Promise.resolve(record) : liveSquid());
    const paramsBefore = body.params ? liveSquid().then((l) => l?.params) : undefined;
    if (opts.accounts === false) body.accounts = [];
    // Every reference is looked up before the write: an unknown or ambiguous one sends nothing.
    const resolve = async (list: string[]) => [
      ...new Map((await Promise.all(list.map((a) => resolveAccount(http, a)))).map((r) => [r.id, r.record])).entries(),
    ];
    const [replace, added, removed] = [await resolve(accounts), await resolve(adds), await resolve(removes)];
    const same = added.find(([a]) => removed.some(([r]) => r === a));
    if (same)
      throw new UsageError(
        `--add-account and --remove-account both name account ${same[0]}: give it to one of them; nothing was sent`,
      );
    if (replace.length || added.length)
      await refuseLinkTypes(http, await liveSquid(), replace.length ? '--account' : '--add-account', [
        ...replace,
        ...added,
      ]);
    if (replace.length) body.accounts = replace.map(([a]) => a);
    // The API replaces params whole: the live ones are sent with the given keys laid over them.
    if (body.params)
      body.params = withLiveParams(
        (await refuseUnknownParams(http, await liveSquid(), body.params as Record<string, unknown>))?.params,
        body.params as Record<string, unknown>,
      );
    // A schedule that will fire (the squid is active, and after this update has one): its runs' cost first.
    const turnsOn = policy ? scheduleAfter(await scheduleState(), body) : null;
    if (turnsOn && policy) {
      const { cron_expression, timezone, is_active, ...rest } = body;
      const later = Object.fromEntries(
        Object.entries({ cron_expression, timezone, is_active }).filter(([, v]) => v !== undefined),
      );
      // The estimate is of the squid as the runs will find it: params change first, then the schedule is written.
      if (rest.params !== undefined) await updateSquid(http, id, rest);
      try {
        await guardSchedule(ctx, http, id, policy, turnsOn, ref);
      } catch (err) {
        if (rest.params !== undefined && err instanceof SqError)
          err.details.push(await putBack(http, id, rest, await paramsBefore));
        throw err;
      }
      await updateSquid(http, id, rest.params !== undefined ? later : body);
    } else if (Object.keys(body).length) await updateSquid(http, id, body);
    if (added.length || removed.length) {
      const plus = added.map(([a]) => a);
      const minus = new Set(removed.map(([a]) => a));
      const { before, after } = await changeLinks(http, id, (linked) =>
        [...new Set([...linked, ...plus])].filter((a) => !minus.has(a)).sort(),
      );
      ctx.out.info(
        `accounts linked: ${after.length ? after.join(', ') : 'none'} (were: ${before.length ? before.join(', ') : 'none'})`,
      );
      body.accounts = after;
    }
    const s = await getSquid(http, id);
    ctx.out.success(`Updated ${Object.keys(body).join(', ')} of squid ${String(s?.name ?? id)}`);
    await ctx.out.record(s, { title: `Squid ${String(s?.name ?? id)}`, columns: SQUID_DETAIL_COLUMNS });
  },
});

/**
 * The params were written so that the estimate is of the squid the runs will find; refused, they are put back. The
 * line says exactly what stays written.
 */
async function putBack(
  http: Parameters<typeof getSquid>[0],
  id: string,
  written: Record<string, unknown>,
  before: unknown,
): Promise<string> {
  const others = Object.keys(written).filter((k) => k !== 'params');
  const kept = others.length ? ` ${others.join(', ')} ${others.length === 1 ? 'was' : 'were'} written and kept.` : '';
  try {
    await updateSquid(http, id, { params: before ?? {} });
    return `The new params were written for the estimate, then put back as they were: the squid's params are unchanged.${kept}`;
  } catch (e) {
    return `The new params were written for the estimate and could NOT be put back (${(e as Error).message}): \`sq squids get ${id}\` shows them.${kept}`;
  }
}

interface SettingsFlags {
  name?: string;
  concurrency?: string;
  param?: string[];
  schedule?: string | boolean;
  timezone?: string;
  toComplete?: boolean;
  lineBreaks?: boolean;
  exportUniqueResults?: boolean;
  runNotify?: string;
  active?: boolean;
  inactive?: boolean;
}

/** The update body of the squid's own settings (accounts aside), each flag checked: exit 2 before any request. */
function settingsBody(opts: SettingsFlags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (opts.name !== undefined) body.name = nameFlag('--name', opts.name);
  if (opts.concurrency !== undefined) body.concurrency = intFlag('--concurrency', opts.concurrency, 1, 20);
  const pairs = opts.param ?? [];
  if (pairs.length) body.params = parseParams(pairs);
  if (typeof opts.schedule === 'string') body.cron_expression = cronFlag(opts.schedule);
  else if (opts.schedule === false) {
    if (opts.timezone !== undefined) throw new UsageError('--timezone and --no-schedule cannot be used together');
    body.cron_expression = null;
  }
  if (opts.timezone !== undefined) body.timezone = timezoneFlag(opts.timezone);
  if (opts.toComplete !== undefined) body.to_complete = opts.toComplete;
  if (opts.lineBreaks !== undefined) body.no_line_breaks = !opts.lineBreaks;
  if (opts.exportUniqueResults !== undefined) body.export_unique_results = opts.exportUniqueResults;
  if (opts.runNotify !== undefined) {
    const when = enumFlag('--run-notify', opts.runNotify, ['on_success', 'on_error', 'none'] as const);
    body.run_notify = when === 'none' ? null : when;
  }
  exclusive(opts, [['--active', '--inactive']]);
  if (opts.active || opts.inactive) body.is_active = !!opts.active;
  return body;
}

/** A typo in a --param key would be stored silently: checked against what the squid's crawler declares. Returns the squid read. */
async function refuseUnknownParams(
  http: Parameters<typeof getSquid>[0],
  squid: Squid,
  params: Record<string, unknown>,
): Promise<Squid> {
  const crawler = typeof squid?.crawler === 'string' ? squid.crawler : '';
  if (!crawler) return squid;
  const declared = squidParamNames(await getCrawlerParams(http, crawler));
  if (!declared) return squid;
  const name = typeof squid.crawler_name === 'string' ? squid.crawler_name : crawler;
  refuseProblems(
    unknownSquidParams(params, declared, (k) => `--param ${k}`, JSON.stringify(name)),
    '',
    '; nothing was sent',
  );
  return squid;
}
