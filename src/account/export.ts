// The live account as an account file: what `sq plan` compares, written so that export → plan shows no change.
// Secrets are never written: each becomes a ${SQ_…} reference to set before an apply that must send it.
import type { HttpClient } from '../api/http.js';
import { recordId } from '../api/resolve.js';
import { SQUIDS_PATH } from '../api/squids.js';
import { CRAWLERS_PATH } from '../api/crawlers.js';
import { getAutoReset } from '../api/billing.js';
import { storedDelivery, storedEvents } from '../api/delivery.js';
import { RUN_EVENTS } from '../api/events.js';
import { compareApiTime } from '../lib/api-time.js';
import { linkedAccounts, listAccounts, listAll, squidDetail, squidTasks, liveSchedule } from './state.js';
import { taskValue } from './diff.js';
import type { Crawler, Squid, Task } from '../api/records.js';
import { maskUrlAsWritten } from '../lib/secrets.js';
import { isRecord, type Rec } from '../lib/guards.js';
import { chainEntry } from './chain.js';
import { VERSION } from '../version.js';

/**
 * Where editors find the file's JSON Schema: the copy in this version's npm package, by URL, which every install
 * reaches alike (a path under ./node_modules/ held only for a project that installs sq locally, not for a global
 * install, the CI action or the standalone executable).
 */
export const SCHEMA_URL = `https://unpkg.com/lobstr-sq@${VERSION}/schema/sq.schema.json`;
export const SCHEMA_LINE = `# yaml-language-server: $schema=${SCHEMA_URL}`;

function envName(kind: string, squid: string, used: Set<string>): string {
  const base = `SQ_${kind}_${
    squid
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'SQUID'
  }`;
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  used.add(name);
  return `\${${name}}`;
}

/**
 * A webhook or sheet URL as the file writes it: each credential it carries (a secret query value, a password, a path
 * segment that is a token: maskUrlAsWritten's rule) becomes a \${SQ_…_TOKEN_<SQUID>} reference, listed in `refs`.
 */
function urlWithRefs(url: unknown, kind: string, squid: string, used: Set<string>, refs: string[] | null): unknown {
  if (typeof url !== 'string' || refs === null) return url;
  return maskUrlAsWritten(url, () => listedRef(refs, envName(kind, squid, used)));
}

/** A \${…} reference, listed in `refs` too. */
function listedRef(refs: string[], ref: string): string {
  refs.push(ref);
  return ref;
}

/**
 * A webhook URL as the file writes it: never its path or query in clear (issue 33, E3: a Telegram bot token, Zapier
 * keys and short path tokens on unknown hosts slipped past any rule by looks). The host stays readable; everything
 * after it becomes one \${SQ_WEBHOOK_PATH_<SQUID>} reference (its value: the path without its first "/", with the query),
 * listed in `refs`; a password in it becomes a reference of its own. A URL with nothing after the host is kept.
 */
export function webhookUrlWithRef(url: unknown, squid: string, used: Set<string>, refs: string[] | null): unknown {
  if (typeof url !== 'string' || refs === null || /^\$\{\w+\}$/.test(url)) return url;
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/is.exec(url);
  const whole = () => listedRef(refs, envName('WEBHOOK_URL', squid, used));
  if (!m) return url === '' ? url : whole();
  const origin = urlWithRefs(m[1], 'WEBHOOK_PASSWORD', squid, used, refs) as string;
  const rest = m[2];
  if (rest === '' || rest === '/' || /^\/?\$\{\w+\}$/.test(rest)) return origin + rest;
  return `${origin}/${listedRef(refs, envName('WEBHOOK_PATH', squid, used))}`;
}

function squidEntry(
  rec: Squid,
  tasks: Task[],
  crawlers: Crawler[],
  accounts: string[],
  used: Set<string>,
  refs: string[] | null,
): Rec {
  const crawler = crawlers.find((c) => recordId(c) === rec.crawler);
  const name = String(rec.name ?? recordId(rec));
  const run = (rec.notifications_params as Rec | undefined)?.run_notify;
  const out: Rec = {
    crawler: String(crawler?.slug ?? crawler?.name ?? rec.crawler ?? ''),
    active: rec.is_active === true,
    concurrency: rec.concurrency,
    schedule: liveSchedule(rec),
    notify: run === 'on_success' || run === 'on_error' ? run : 'none',
    unique_results: rec.export_unique_results === true,
    params: rec.params ?? {},
    tasks: tasks.map((t) => taskValue((t.params ?? {}) as Rec)),
    // Only linked accounts are written: without the key, a plan leaves the squid's links as they are.
    ...(accounts.length ? { accounts } : {}),
  };
  const d = storedDelivery(rec);
  const active = (f: Rec) => (typeof f.is_active === 'boolean' ? { active: f.is_active } : {});
  if (d.ftp_fields) {
    const f = d.ftp_fields;
    // The service answers {host, port, is_active} only: what it leaves out becomes a reference to set, like a secret.
    const orRef = (v: unknown, kind: string) => (typeof v === 'string' && v !== '' ? v : envName(kind, name, used));
    out.sftp = {
      host: f.host,
      port: typeof f.port === 'string' ? Number(f.port) : f.port,
      username: orRef(f.username, 'SFTP_USERNAME'),
      password: envName('SFTP_PASSWORD', name, used),
      directory: orRef(f.directory, 'SFTP_DIRECTORY'),
      ...active(f),
    };
  }
  if (d.webhook_fields) {
    const f = d.webhook_fields;
    const ev = storedEvents(f);
    // Events the service did not answer with ({url, is_active} only) become a reference to set.
    const events = ev ? RUN_EVENTS.filter((e) => ev[e]) : envName('WEBHOOK_EVENTS', name, used);
    out.webhook = {
      url: webhookUrlWithRef(f.url, name, used, refs),
      events,
      ...(typeof f.retry === 'boolean' ? { retry: f.retry } : {}),
      ...active(f),
    };
  }
  if (d.email !== null) out.email = { address: d.email, notifications: d.notifications === true };
  if (d.google_sheet_fields) {
    const f = d.google_sheet_fields;
    out.sheet = { url: urlWithRefs(f.url, 'SHEET_TOKEN', name, used, refs), append: f.append === true, ...active(f) };
  }
  if (d.s3_fields) {
    const f = d.s3_fields;
    const keys =
      f.aws_access_key || f.aws_secret_key
        ? { access_key: envName('S3_ACCESS_KEY', name, used), secret_key: envName('S3_SECRET_KEY', name, used) }
        : {};
    out.s3 = { bucket: f.bucket, target_path: f.target_path ?? '', ...keys, ...active(f) };
  }
  if (isRecord(rec.chain)) out.chain = chainEntry(rec.chain, crawlers);
  return out;
}

/**
 * `urlRefs`: where the \${…} references written in place of URL credentials are listed; null writes URLs as stored
 * (--show-secrets).
 */
export async function exportAccount(
  http: HttpClient,
  warn?: (w: string) => void,
  urlRefs: string[] | null = [],
): Promise<Rec> {
  const [list, crawlers, ar] = [
    await listAll<Squid>(http, SQUIDS_PATH, undefined, warn),
    await listAll<Crawler>(http, CRAWLERS_PATH, undefined, warn),
    await getAutoReset(http),
  ];
  const accounts = await listAccounts(http, warn);
  const squids: Rec = {};
  const used = new Set<string>();
  // Oldest first, so the file reads in creation order and stays stable as squids are added.
  const ordered = [...list].sort(
    (a, b) => compareApiTime(a.created_at, b.created_at) || recordId(a).localeCompare(recordId(b)),
  );
  for (const s of ordered) {
    const id = recordId(s);
    const rec = await squidDetail(http, id);
    const tasks = await squidTasks(http, id, warn);
    const name = String(rec.name ?? s.name ?? id);
    squids[name in squids ? id : name] = squidEntry(rec, tasks, crawlers, linkedAccounts(accounts, id), used, urlRefs);
  }
  return {
    version: 1,
    billing: {
      auto_reset: { enabled: ar.enabled === true, threshold: ar.threshold_pct, max_resets: ar.max_resets_per_24h },
    },
    squids,
  };
}
