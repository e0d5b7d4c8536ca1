// How records become bytes: each one shaped (masked, --fields checked and picked), then written as a list or one
// record in the format's way, or handed to --jq/--template. createOutput (index.ts) puts these together per Output.
import { FORMAT_SPECS, type Column, type Format, type OutputSettings, type RenderOptions } from './types.js';
import { asRow, cellText, chooseColumns, formulaSafe } from './cells.js';
import { isRecord } from '../lib/guards.js';
import { getPath, pickFields, unknownFields, unknownFieldsMessage } from './fields.js';
import { SqError, UsageError } from '../errors.js';
import { maskSecrets, redactDeep } from '../lib/secrets.js';
import type { Sink } from './sink.js';
import { capMessage } from './limits.js';
import { jsonText } from './json-text.js';

export interface CreateOutputOptions {
  /** Known secrets redacted from every stderr message, and from stdout unless --show-secrets; read at each use. */
  secrets?: readonly string[];
  /** The clock terminal tables count relative times from (ctx.now). */
  now?: () => number;
  /** True once the command sent a write: from then on an unknown --fields name is a warning, not exit 2. */
  writeSent?: () => boolean;
  /** The command's stop signal: it ends a running --jq or --template at once. */
  signal?: AbortSignal;
}

export interface Shaper {
  /** The secret values masked on stdout (none with --show-secrets). */
  known(): readonly string[];
  prepare(item: unknown, opts: RenderOptions | undefined): unknown;
  check(first: unknown, opts: RenderOptions | undefined): void;
  pick(item: unknown): unknown;
  formatOf(opts: RenderOptions | undefined): Format;
  /** --fields as they stand (narrowed by check after a write). */
  readonly fields: string[] | null;
}

/** What the writers of one Output share. */
export interface Rendering {
  out: Sink;
  settings: OutputSettings;
  shape: Shaper;
  /** A line on stderr (secrets and control characters out). */
  message(line: string): void;
  tableOpts: {
    color: boolean;
    truncate: boolean;
    width: number;
    fullIds?: boolean;
    absoluteTimes?: boolean;
    wide?: boolean;
    keepColumns?: boolean;
    now?: () => number;
  };
  /** --jq or --template is given: the output goes through it. */
  filtered: boolean;
  writeFiltered(doc: unknown): Promise<void>;
}

/** How terminal tables are laid out: from the settings, relative times counted from `now`. */
export function tableOptions(settings: OutputSettings, now: (() => number) | undefined): Rendering['tableOpts'] {
  return {
    color: settings.color,
    truncate: settings.stdoutIsTTY,
    width: settings.columns,
    fullIds: settings.fullIds,
    absoluteTimes: settings.absoluteTimes,
    wide: settings.wide,
    // Columns asked for by name (--fields) are shown even when every row says the same.
    keepColumns: settings.fields !== null,
    now,
  };
}

/**
 * How each record is shaped before it is written: secrets masked, --fields checked against the first record (exit 2
 * before any byte; after a write, narrowed with a warning) and picked, and the format a command asks for by default.
 */
export function recordShaper(
  settings: OutputSettings,
  options: CreateOutputOptions,
  warn: (msg: string) => void,
): Shaper {
  // Narrowed to the names the answer has when an unknown one turns up after a write (see check).
  let fields = settings.fields;
  const known = (): readonly string[] => (settings.showSecrets ? [] : (options.secrets ?? []));
  const prepare = (item: unknown, opts: RenderOptions | undefined): unknown =>
    opts?.maskSecrets === false ? redactDeep(item, known()) : maskSecrets(item, settings.showSecrets, known());
  const pickOne = (item: unknown): unknown => (fields && isRecord(item) ? pickFields(item, fields) : item);
  // Before the first byte of a list or record is written, so a typo never leaves half an output behind.
  const check = (first: unknown, opts: RenderOptions | undefined) => {
    if (!fields) return;
    const record = Array.isArray(first) ? first[0] : first;
    const columns = opts?.columns?.map((c) => c.key);
    const unknown = unknownFields(fields, record, columns);
    if (unknown.length === 0) return;
    const text = unknownFieldsMessage(unknown, record, columns);
    // Exit 2 means "nothing was done": after a write a script would retry it (a second run, a second charge). So the
    // answer is printed with the names it has (whole when it has none of them), and the warning says the write was done.
    if (!options.writeSent?.()) throw new UsageError(text);
    fields = fields.filter((f) => !unknown.includes(f));
    if (fields.length === 0) fields = null;
    const id = getPath(record, 'id');
    warn(
      `${text}. The write was done${typeof id === 'string' || typeof id === 'number' ? ` (id ${id})` : ''}: ` +
        `the answer is printed without ${unknown.length === 1 ? 'that field' : 'those fields'}`,
    );
  };
  const pick = (item: unknown): unknown => (Array.isArray(item) ? item.map(pickOne) : pickOne(item));
  const formatOf = (opts: RenderOptions | undefined): Format =>
    (!settings.explicitFormat && opts?.defaultFormat) || settings.format;
  return {
    known,
    prepare,
    check,
    pick,
    formatOf,
    get fields() {
      return fields;
    },
  };
}

async function filteredList(
  r: Rendering,
  items: AsyncIterable<unknown>,
  opts: RenderOptions | undefined,
): Promise<number> {
  const { settings, writeFiltered, out } = r;
  const { prepare, check, pick } = r.shape;
  const flag = settings.jq !== null ? '--jq' : '--template';
  let group: unknown[] = [];
  let page: number | undefined;
  let size = 0;
  let n = 0;
  for await (const raw of items) {
    const item = prepare(raw, opts);
    if (n === 0) check(item, opts);
    const picked = pick(item);
    if (opts?.pageOf) {
      const p = opts.pageOf();
      if (group.length && p !== page) {
        await writeFiltered(group);
        group = [];
        if (out.closed) return n;
      }
      page = p;
    } else {
      // The whole list is held for one run of the filter: within a stated cap, not until memory runs out.
      size += (jsonText(picked)?.length ?? 4) + 1;
      if (size > settings.limits.maxSlurp) throw new SqError(capMessage(flag, 'maxSlurp', settings.limits));
    }
    group.push(picked);
    n++;
  }
  // An empty list is one (empty) document too: `length` prints 0.
  if (group.length || page === undefined) await writeFiltered(group);
  return n;
}

// What is written follows the format's descriptor: a JSON document, JSON lines, delimited lines, or a table.
export async function renderList(
  r: Rendering,
  items: Iterable<unknown> | AsyncIterable<unknown>,
  opts?: RenderOptions,
): Promise<number> {
  const { out, settings, shape, message } = r;
  const { prepare, check, pick, formatOf } = shape;
  if (r.filtered) return filteredList(r, items as AsyncIterable<unknown>, opts);
  const { json, line } = FORMAT_SPECS[formatOf(opts)];
  const headed = opts?.header !== false;
  let count = 0;
  let cols: Column[] | null = null;
  const tableRows: Record<string, unknown>[] = [];
  // The records already in memory (an array, or the rest of a page) go out in one write, up to the stream's high-water
  // mark, so a slow reader still holds the rendering back; the next page is awaited only once they are written.
  const buffered = Array.isArray(items) ? () => true : (opts?.buffered ?? (() => false));
  const batchSize = out.batchSize;
  let batch = '';
  const flush = async () => {
    const text = batch;
    batch = '';
    await out.write(text);
  };
  try {
    for await (const raw of items as AsyncIterable<unknown>) {
      if (out.closed) break;
      const item = prepare(raw, opts);
      if (count === 0) check(item, opts);
      if (json === 'document') {
        batch += (count === 0 ? '[\n  ' : ',\n  ') + (jsonText(pick(item), 2) ?? 'null').replaceAll('\n', '\n  ');
      } else if (json === 'lines') {
        batch += (jsonText(pick(item)) ?? 'null') + '\n';
      } else if (line) {
        if (count === 0) {
          cols = chooseColumns(opts?.columns, shape.fields, item) ?? [];
          if (headed) batch += line(cols.map((c) => c.key));
        }
        const row = asRow(item);
        batch += line((cols ?? []).map((c) => (settings.csvSafe ? formulaSafe(cellText(c, row)) : cellText(c, row))));
      } else {
        cols ??= chooseColumns(opts?.columns, shape.fields, item);
        tableRows.push(asRow(item));
      }
      if (batch !== '' && (batch.length >= batchSize || !buffered())) await flush();
      if (out.closed) break;
      count++;
    }
  } catch (err) {
    // What was rendered before the failure is written, as it would have been record by record.
    if (batch !== '' && !out.closed) await flush();
    throw err;
  }
  // (A JSON document's last records go out with its closing bracket.)
  if (json !== 'document' && batch !== '' && !out.closed) await flush();
  if (out.closed || json === 'lines') return count;
  if (json === 'document') {
    await out.write(batch + (count === 0 ? '[]\n' : '\n]\n'));
  } else if (line) {
    // An empty result with known columns is still a valid, headed file.
    const known = count === 0 && headed ? chooseColumns(opts?.columns, shape.fields, undefined) : null;
    if (known) await out.write(line(known.map((c) => c.key)));
  } else if (count === 0) {
    if (!settings.quiet) message(opts?.empty ?? 'No results');
  } else {
    // The table renderer and its display-width tables load on first use: `sq me --json` needs neither.
    const { renderListTable } = await import('./table.js');
    const { text, hidden, same } = await renderListTable(cols ?? [], tableRows, r.tableOpts);
    await out.write(text);
    if (same.length && !settings.quiet) message(`Same on every row: ${same.join(', ')} (--wide shows every column)`);
    if (hidden.length && !settings.quiet) {
      message(
        `${hidden.length} column${hidden.length === 1 ? '' : 's'} left out to fit the terminal (${hidden.join(', ')}): ` +
          `use --fields, or --format tsv/csv/json for everything`,
      );
    }
  }
  return count;
}

export async function renderRecord(r: Rendering, data: unknown, opts?: RenderOptions): Promise<void> {
  const { out, shape } = r;
  const { prepare, check, pick, formatOf } = shape;
  const { json, line } = FORMAT_SPECS[formatOf(opts)];
  // A list in a format of rows is its rows; one record in a line format is a list of one (CSV/TSV: header and row).
  // (--jq and --template imply the JSON document format.)
  if (json === 'lines' || line || (json === null && Array.isArray(data))) {
    await renderList(r, json === null && Array.isArray(data) ? data : [data], opts);
    return;
  }
  const item = prepare(data, opts);
  check(item, opts);
  if (r.filtered) return r.writeFiltered(pick(item));
  if (json === 'document') {
    await out.write((jsonText(pick(item), 2) ?? 'null') + '\n');
    return;
  }
  const cols = shape.fields || opts?.columns?.length ? chooseColumns(opts?.columns, shape.fields, item) : null;
  const { renderRecordTable } = await import('./table.js');
  await out.write(await renderRecordTable(asRow(item), cols, { ...r.tableOpts, title: opts?.title }));
}
