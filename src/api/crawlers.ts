// Crawler shapes turned into rows. /params is a pair of name-keyed maps with a reserved `functions` key mixed into
// the squid params (api-reference §6); sq shows one row per parameter and per function instead.
import { isRecord as isRec } from '../output/fields.js';
import type { HttpClient } from './http.js';
import { seg } from './path.js';
type Rec = Record<string, unknown>;

export { isRec };

interface ParamRow extends Rec {
  level: 'task' | 'squid' | 'function';
  name: string;
}

export function paramRows(body: unknown): ParamRow[] {
  const b = isRec(body) ? body : {};
  const rows: ParamRow[] = [];
  const task = isRec(b.task) ? b.task : {};
  const squid = isRec(b.squid) ? b.squid : {};
  for (const [name, spec] of Object.entries(task)) rows.push({ level: 'task', name, ...(isRec(spec) ? spec : { value: spec }) });
  for (const [name, spec] of Object.entries(squid)) {
    if (name === 'functions') continue;
    rows.push({ level: 'squid', name, ...(isRec(spec) ? spec : { value: spec }) });
  }
  // Functions may also sit at the top level in other variants of the shape.
  const fns = isRec(squid.functions) ? squid.functions : isRec(b.functions) ? b.functions : {};
  for (const [name, spec] of Object.entries(fns)) rows.push({ level: 'function', name, ...(isRec(spec) ? spec : { default: spec }) });
  return rows;
}

/** /attributes answers `{data:[…]}`; tolerate a bare array too. */
export function attributeList(body: unknown): unknown[] {
  return Array.isArray(body) ? body : isRec(body) && Array.isArray(body.data) ? body.data : [];
}

export function attributeRows(body: unknown): Rec[] {
  return attributeList(body).filter(isRec);
}

export const CRAWLERS_PATH = '/v1/crawlers';

function crawlerPath(id: string, sub = ''): string {
  return `${CRAWLERS_PATH}/${seg('crawler id', id)}${sub}`;
}

export function getCrawler(http: HttpClient, id: string): Promise<Rec> {
  return http.get<Rec>(crawlerPath(id));
}

export function getCrawlerParams(http: HttpClient, id: string): Promise<unknown> {
  return http.get(crawlerPath(id, '/params'));
}

/** Public: sent without a key when none is configured. */
export function getCrawlerAttributes(http: HttpClient, id: string): Promise<unknown> {
  return http.get(crawlerPath(id, '/attributes'), { noAuth: !http.hasToken });
}
