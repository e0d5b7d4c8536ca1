// Crawler shapes turned into rows. /params is a pair of name-keyed maps with a reserved `functions` key mixed into
// the squid params (api-reference §6); sq shows one row per parameter and per function instead.
import { isRecord, type Rec } from '../lib/guards.js';
import type { HttpClient } from './http.js';
import { seg } from './path.js';
import { closest } from '../lib/suggest.js';
import { checks } from './checks.js';
import type { Crawler } from './records.js';

interface ParamRow extends Rec {
  level: 'task' | 'squid' | 'function';
  name: string;
}

export function paramRows(body: unknown): ParamRow[] {
  const b = isRecord(body) ? body : {};
  const rows: ParamRow[] = [];
  const task = isRecord(b.task) ? b.task : {};
  const squid = isRecord(b.squid) ? b.squid : {};
  for (const [name, spec] of Object.entries(task))
    rows.push({ level: 'task', name, ...(isRecord(spec) ? spec : { value: spec }) });
  for (const [name, spec] of Object.entries(squid)) {
    if (name === 'functions') continue;
    rows.push({ level: 'squid', name, ...(isRecord(spec) ? spec : { value: spec }) });
  }
  // Functions may also sit at the top level in other variants of the shape.
  const fns = isRecord(squid.functions) ? squid.functions : isRecord(b.functions) ? b.functions : {};
  for (const [name, spec] of Object.entries(fns))
    rows.push({ level: 'function', name, ...(isRecord(spec) ? spec : { default: spec }) });
  return rows;
}

/** /attributes answers `{data:[…]}`; tolerate a bare array too. */
export function attributeList(body: unknown): unknown[] {
  return Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.data) ? body.data : [];
}

export function attributeRows(body: unknown): Rec[] {
  return attributeList(body).filter(isRecord);
}

export const CRAWLERS_PATH = '/v1/crawlers';

const folded = (v: unknown) =>
  typeof v === 'string'
    ? v
        .toLowerCase()
        .replace(/[-_\s]+/g, ' ')
        .trim()
    : '';

/** `sq crawlers list --search`: the text in the name, slug or description, case-insensitively ("-", "_" as spaces). */
export function crawlerMatches(c: Crawler, text: string): boolean {
  const t = folded(text);
  return [c.name, c.slug, c.description].some((v) => folded(v).includes(t));
}

function crawlerPath(id: string, sub = ''): string {
  return `${CRAWLERS_PATH}/${seg('crawler id', id)}${sub}`;
}

export function getCrawler(http: HttpClient, id: string): Promise<Crawler> {
  return http.get<Crawler>(crawlerPath(id), { expect: checks.crawler });
}

export function getCrawlerParams(http: HttpClient, id: string): Promise<unknown> {
  return http.get(crawlerPath(id, '/params'));
}

/** Public: sent without a key when none is configured. */
export function getCrawlerAttributes(http: HttpClient, id: string): Promise<unknown> {
  return http.get(crawlerPath(id, '/attributes'), { noAuth: !http.hasToken });
}

/**
 * The squid parameters a crawler declares (GET /crawlers/{id}/params): names, and functions as `functions.<name>`.
 * Undefined when the answer has no squid map to check against (an unknown shape is never a reason to refuse).
 */
export function squidParamNames(body: unknown): string[] | undefined {
  const b = isRecord(body) ? body : {};
  if (!isRecord(b.squid)) return undefined;
  return paramRows(body).flatMap((r) =>
    r.level === 'squid' ? [r.name] : r.level === 'function' ? [`functions.${r.name}`] : [],
  );
}

/** Task values a task parameter's `regex` rejects, each worded with where it was given, found before anything is
 * created; matched anywhere in the value, never stricter than the API (a regex JavaScript cannot read is its). */
export function badTaskValues(
  body: unknown,
  tasks: readonly Record<string, unknown>[],
  where: (index: number) => string,
): string[] {
  const formats = new Map<string, { re: RegExp; text: string }>();
  for (const r of paramRows(body)) {
    if (r.level !== 'task' || typeof r.regex !== 'string') continue;
    try {
      formats.set(r.name, { re: new RegExp(r.regex), text: r.regex });
    } catch {
      // Python's syntax where it differs from JavaScript's: the API still checks it.
    }
  }
  return tasks.flatMap((t, i) =>
    Object.entries(t).flatMap(([k, v]) => {
      const format = formats.get(k);
      return format && typeof v === 'string' && !format.re.test(v)
        ? [`${where(i)}: ${JSON.stringify(v)} is not a ${k} this crawler takes (its format: ${format.text})`]
        : [];
    }),
  );
}

/**
 * Squid params the crawler does not declare, each worded with where it was written (`--param max_result`,
 * `squids."Paris".params.max_result`), a did-you-mean from the declared names, and the allowed ones.
 */
export function unknownSquidParams(
  params: Record<string, unknown>,
  declared: readonly string[],
  where: (key: string) => string,
  crawler: string,
): string[] {
  const keys = Object.entries(params).flatMap(([k, v]) =>
    k === 'functions' && isRecord(v) ? Object.keys(v).map((f) => `functions.${f}`) : [k],
  );
  return keys
    .filter((k) => !declared.includes(k))
    .map((k) => {
      const near = closest(k, declared);
      return (
        `${where(k)}: crawler ${crawler} has no parameter "${k}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} ` +
        `(allowed: ${declared.join(', ') || 'none'})`
      );
    });
}
