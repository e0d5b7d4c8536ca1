// Deterministic result rows. One md5 per row seeds a cheap mixer for the fields, so generating
// 100,000 rows stays fast, and the same task always yields the same rows.
import { createHash } from 'node:crypto';
import type { AttrDef, CrawlerDef } from './crawlers.js';
import { hash32, paramsKey } from './util.js';

/** Rows a task yields: 3 to 8, from a hash of its params. */
export function rowsForTask(params: Record<string, unknown>): number {
  return 3 + (hash32(paramsKey(params)) % 6);
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
}

const WORDS = ['Le Petit', 'Chez', 'Maison', 'Atelier', 'Café', 'Bistro', 'La Table', 'Comptoir', 'Sunny', 'Blue'];
const NOUNS = ['Marcel', 'Lumière', 'du Marché', 'Saint-Paul', 'Belle Vue', 'Nord', 'Riviera', 'Harbor', 'Oak', 'Pine'];
const STREETS = ['Rue de Rivoli', 'Boulevard Voltaire', 'Avenue Foch', 'Rue Oberkampf', 'Quai de la Loire'];

/** Columns whose sampled value names one item: varied per row, so rows stay distinct. */
const IDENTITY = /(^|_)(url|id|name|title|link)$/;

/**
 * A column's value: null for a column the docs never fill; for a column an examples page samples, its example (varied
 * where it names the item); else a value of the column's type.
 */
function valueFor(a: AttrDef, h: number, index: number): unknown {
  if (a.always_null) return null;
  if (a.sampled && a.type === 'json' && a.example !== null && a.example !== undefined) return a.example;
  if (a.sampled && (a.type === 'string' || a.type === 'text') && typeof a.example === 'string')
    return IDENTITY.test(a.name) ? `${a.example}${a.example.includes('://') ? '#' : ' '}${h % 100000}` : a.example;
  switch (a.type) {
    case 'integer':
      return h % 5000;
    case 'float':
      return a.name.includes('rating') || a.name === 'score'
        ? Math.round((1 + (h % 400) / 100) * 10) / 10
        : Math.round(h % 100000) / 100;
    case 'boolean':
      return h % 2 === 0;
    case 'json':
      return { remote: h % 3 === 0, score: h % 100 };
    case 'text':
      if (a.name === 'category')
        return ['Restaurant', 'French restaurant', 'Bakery', 'Café', 'Pizza restaurant'][h % 5];
      return `${WORDS[h % WORDS.length]} ${NOUNS[(h >>> 4) % NOUNS.length]} — profile text #${index + 1}.`;
    default:
      break;
  }
  const n = a.name;
  if (n === 'url' || n.endsWith('_url') || n === 'website') return `https://example.com/${n}/${h % 1_000_000}`;
  if (n === 'email') return `contact${h % 10000}@example.com`;
  if (n === 'phone') {
    const pair = (v: number) => String(v % 100).padStart(2, '0');
    return `+33 1 ${String(10 + (h % 90))} ${pair(h)} ${pair(h >>> 8)} ${pair(h >>> 16)}`;
  }
  if (n === 'address')
    return `${1 + (h % 150)} ${STREETS[h % STREETS.length]}, 750${String(1 + (h % 20)).padStart(2, '0')} Paris`;
  if (n === 'currency') return ['USD', 'EUR', 'GBP'][h % 3];
  if (n === 'asin') return `B0${(h % 100_000_000).toString(36).toUpperCase().padStart(8, '0')}`;
  if (n === 'username') return `user_${h % 100000}`;
  if (n.includes('name') || n === 'title' || n === 'job_title' || n === 'company')
    return `${WORDS[h % WORDS.length]} ${NOUNS[(h >>> 4) % NOUNS.length]}`;
  return `${n}-${h % 100000}`;
}

interface RowContext {
  def: CrawlerDef;
  squidParams: Record<string, unknown>;
  squid: string;
  run: string;
  task: string | null;
  /** The task's params: columns of parameter tasks only (match_filters) need them; none = a URL task. */
  taskParams?: Record<string, unknown>;
  /** Seed of the row sequence: the task's params key (or any stable text). */
  basis: string;
  scrapingTimeMs: number;
}

/** Field values of `count` rows, ids left null (EmuCore.addResults assigns them). */
export function generateRowFields(ctx: RowContext, count: number): Record<string, unknown>[] {
  const fns = (ctx.squidParams.functions ?? {}) as Record<string, boolean>;
  const paramsTask = !!ctx.taskParams && typeof ctx.taskParams.url !== 'string';
  const attrs = ctx.def.attributes.filter((a) => (!a.fn || fns[a.fn] === true) && (!a.params_tasks_only || paramsTask));
  const base = createHash('md5').update(ctx.basis).digest().readUInt32BE(4);
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const rowSeed = mix(base ^ mix(i + 1));
    // `id` is filled by EmuCore.addResults; the key comes first so JSON shows it first.
    const row: Record<string, unknown> = {
      id: null,
      object: 'result',
      squid: ctx.squid,
      run: ctx.run,
      task: ctx.task,
      scraping_time: new Date(ctx.scrapingTimeMs + i * 137).toISOString(),
    };
    attrs.forEach((a, k) => {
      const h = mix(rowSeed + Math.imul(k + 1, 0x9e3779b9));
      // Live rows are heterogeneous: optional fields are missing now and then, past a task's first row, which has every
      // column (as the first row of every get-results sample of the docs has).
      if (a.optional && i > 0 && h % 7 === 0) return;
      row[a.name] = valueFor(a, h, i);
    });
    rows.push(row);
  }
  return rows;
}
