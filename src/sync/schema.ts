// The table a squid syncs into: typed columns from the crawler's result attributes, sq's own four columns, and how
// an existing table must compare (columns are only ever added; a column of another type is a usage error).
import { UsageError } from '../errors.js';

export type ColumnType = 'text' | 'integer' | 'real' | 'boolean' | 'timestamp' | 'json';
export type Dialect = 'sqlite' | 'postgres';

export interface Column {
  name: string;
  type: ColumnType;
  /** Where the value comes from in a result record. */
  field: string;
}

export const SQ_COLUMNS: readonly Column[] = [
  { name: 'sq_result_id', type: 'text', field: 'id' },
  { name: 'sq_run_id', type: 'text', field: 'run' },
  { name: 'sq_squid_id', type: 'text', field: 'squid' },
  { name: 'sq_synced_at', type: 'timestamp', field: '' },
];
const SCRAPING_TIME: Column = { name: 'scraping_time', type: 'timestamp', field: 'scraping_time' };
/** Keys of a result record that are bookkeeping, not scraped data. */
const NOT_DATA = new Set(['id', 'run', 'squid', 'object', 'task', 'scraping_time']);

const ATTRIBUTE_TYPES: Record<string, ColumnType> = {
  string: 'text',
  text: 'text',
  integer: 'integer',
  int: 'integer',
  float: 'real',
  number: 'real',
  boolean: 'boolean',
  bool: 'boolean',
  json: 'json',
  object: 'json',
  array: 'json',
  list: 'json',
  dict: 'json',
  datetime: 'timestamp',
  timestamp: 'timestamp',
  date: 'timestamp',
};

/** The crawler's attributes (`{name, type}`) as columns, in their documented order, after sq's own and scraping_time. */
export function columnsOf(attributes: readonly { name: string; type?: unknown }[]): Column[] {
  const cols: Column[] = [...SQ_COLUMNS, SCRAPING_TIME];
  const seen = new Set(cols.map((c) => c.name.toLowerCase()));
  for (const a of attributes) {
    if (NOT_DATA.has(a.name) || seen.has(a.name.toLowerCase()) || a.name.length > 63) continue;
    seen.add(a.name.toLowerCase());
    cols.push({
      name: a.name,
      type: ATTRIBUTE_TYPES[String(a.type ?? 'string').toLowerCase()] ?? 'text',
      field: a.name,
    });
  }
  return cols;
}

/** The data columns: those whose values say whether a row changed (not sq's bookkeeping). */
export function dataColumns(cols: readonly Column[]): Column[] {
  return cols.filter((c) => !c.name.startsWith('sq_'));
}

const SQL_TYPES: Record<Dialect, Record<ColumnType, string>> = {
  sqlite: { text: 'TEXT', integer: 'INTEGER', real: 'REAL', boolean: 'BOOLEAN', timestamp: 'TIMESTAMP', json: 'JSON' },
  postgres: {
    text: 'text',
    integer: 'bigint',
    real: 'double precision',
    boolean: 'boolean',
    timestamp: 'timestamp',
    json: 'jsonb',
  },
};

export function sqlType(d: Dialect, c: Column): string {
  return c.name === 'sq_synced_at' && d === 'postgres' ? 'timestamptz' : SQL_TYPES[d][c.type];
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The family a declared column type belongs to, for comparing an existing table's columns with the crawler's. */
export function typeFamily(declared: string): ColumnType | 'other' {
  const t = declared.toLowerCase().trim();
  if (t === '') return 'other';
  if (/json/.test(t)) return 'json';
  if (/^bool/.test(t)) return 'boolean';
  if (/timestamp|datetime|^date$/.test(t)) return 'timestamp';
  if (/int/.test(t)) return 'integer';
  if (/real|floa|doub|numeric|decimal/.test(t)) return 'real';
  if (/char|text|clob|string/.test(t)) return 'text';
  return 'other';
}

export interface TablePlan {
  /** CREATE TABLE, or the ALTER TABLE … ADD COLUMN statements (empty: the table is as wanted). */
  ddl: string[];
  create: boolean;
  added: string[];
}

/**
 * What to run so that `table` has every column of `cols`: a CREATE TABLE, or ALTER TABLE ADD COLUMN for the missing
 * ones. A column that exists with a type of another family is a UsageError naming it (nothing is changed).
 * `existing`: the table's columns and declared types, null when there is no table.
 */
export function planTable(
  d: Dialect,
  table: string,
  cols: readonly Column[],
  key: readonly string[],
  existing: Map<string, string> | null,
): TablePlan {
  const t = quoteIdent(table);
  if (existing === null) {
    const defs = cols.map(
      (c) =>
        `${quoteIdent(c.name)} ${sqlType(d, c)}${c.name === 'sq_result_id' || key.includes(c.name) ? ' NOT NULL' : ''}`,
    );
    const pk = (key.length ? key : ['sq_result_id']).map(quoteIdent).join(', ');
    return { ddl: [`CREATE TABLE ${t} (${defs.join(', ')}, PRIMARY KEY (${pk}))`], create: true, added: [] };
  }
  const lower = new Map([...existing].map(([n, ty]) => [n.toLowerCase(), { n, ty }]));
  const missing: Column[] = [];
  for (const c of cols) {
    const have = existing.has(c.name)
      ? { n: c.name, ty: existing.get(c.name)! }
      : d === 'sqlite'
        ? lower.get(c.name.toLowerCase())
        : undefined;
    if (!have) {
      missing.push(c);
      continue;
    }
    const fam = typeFamily(have.ty);
    const want = c.name === 'sq_synced_at' ? 'timestamp' : c.type;
    // A text column takes any value as text; any other family must match.
    if (fam !== want && !(fam === 'text' && want !== 'json') && !(fam === 'json' && want === 'text')) {
      throw new UsageError(
        `column "${have.n}" of table ${table} is ${have.ty || 'untyped'}, but the crawler's attribute ` +
          `is ${c.type} (${sqlType(d, c)}): sync into another --table, or change the column`,
      );
    }
  }
  return {
    ddl: missing.map((c) => `ALTER TABLE ${t} ADD COLUMN ${quoteIdent(c.name)} ${sqlType(d, c)}`),
    create: false,
    added: missing.map((c) => c.name),
  };
}

/** sq's own bookkeeping: which runs went into which table, and how many pages of each (the cursor). */
export function stateDdl(d: Dialect): string[] {
  const ts = d === 'postgres' ? 'timestamptz' : 'TIMESTAMP';
  const bool = d === 'postgres' ? 'boolean' : 'BOOLEAN';
  const int = d === 'postgres' ? 'bigint' : 'INTEGER';
  return [
    `CREATE TABLE IF NOT EXISTS sq_sync_tables (table_name TEXT NOT NULL PRIMARY KEY, key_columns TEXT NOT NULL, created_at ${ts} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS sq_sync_runs (table_name TEXT NOT NULL, run_id TEXT NOT NULL, squid_id TEXT NOT NULL, page_size ${int} NOT NULL, ` +
      `pages ${int} NOT NULL, rows ${int} NOT NULL, done ${bool} NOT NULL, synced_at ${ts} NOT NULL, PRIMARY KEY (table_name, run_id))`,
  ];
}
