// createOutput: the only place that decides how data looks. Commands hand over records and lists.

import { FORMAT_SPECS, type Column, type Format, type Output, type OutputSettings, type RenderOptions } from './types.js';
import { makeStyle } from './ansi.js';
import { asRow, cellText, chooseColumns, formulaSafe, isRecord, terminalOutput, terminalSafe } from './cells.js';
import { getPath, pickFields, unknownFields, unknownFieldsMessage } from './fields.js';
import { SqError, UsageError } from '../errors.js';
import { maskSecrets, redactDeep, redactText } from '../lib/secrets.js';
import { Sink } from './sink.js';
import { importPackage } from '../import-package.js';
import { capMessage } from './limits.js';
import { jsonText } from './json-text.js';

export type { Column } from './types.js';
export { resolveOutputSettings, type OutputSettingsInput } from './settings.js';

interface OutputIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

interface CreateOutputOptions {
  /**
   * Known secret strings (API key, SFTP password) redacted from every stderr message, and from everything on stdout
   * unless --show-secrets (a server may echo the key back); read at each use.
   */
  secrets?: readonly string[];
  /** The clock terminal tables count relative times from (ctx.now). */
  now?: () => number;
  /** True once the command sent a write: from then on an unknown --fields name is a warning, not exit 2. */
  writeSent?: () => boolean;
  /** The command's stop signal: it ends a running --jq or --template at once. */
  signal?: AbortSignal;
}

export function createOutput(io: OutputIO, settings: OutputSettings, options: CreateOutputOptions = {}): Output {
  const spec0 = FORMAT_SPECS[settings.format];
  const filtering = settings.jq !== null || settings.template !== null;
  // On a terminal, no format but the table (safe cell by cell, and coloured) passes control characters through.
  const out = new Sink(io.stdout, settings.stdoutIsTTY && (!spec0.terminal || filtering) ? terminalOutput(spec0.json !== null && !filtering) : undefined);
  const err = new Sink(io.stderr);
  const stderrColor = settings.stderrColor ?? settings.color;
  const style = makeStyle(settings.color);
  const errStyle = makeStyle(stderrColor);
  const spec = FORMAT_SPECS[settings.format];
  // Narrowed to the names the answer has when an unknown one turns up after a write (see check).
  let fields = settings.fields;
  const tableOpts = {
    color: settings.color,
    truncate: settings.stdoutIsTTY,
    width: settings.columns,
    fullIds: settings.fullIds,
    absoluteTimes: settings.absoluteTimes,
    now: options.now,
  };

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
    warn(`${text}. The write was done${typeof id === 'string' || typeof id === 'number' ? ` (id ${id})` : ''}: the answer is printed without ${unknown.length === 1 ? 'that field' : 'those fields'}`);
  };
  const pick = (item: unknown): unknown => (Array.isArray(item) ? item.map(pickOne) : pickOne(item));
  const formatOf = (opts: RenderOptions | undefined): Format => (!settings.explicitFormat && opts?.defaultFormat) || settings.format;

  // A message may quote API data (a squid's name): no control characters reach stderr but the colours of errStyle.
  const message = (line: string) => {
    const text = terminalSafe(redactText(line, options.secrets ?? []), stderrColor);
    err.writeNow(text.endsWith('\n') ? text : text + '\n');
  };
  const warn = (msg: string) => message(`${errStyle.yellow('warning:')} ${msg}`);

  // --jq/--template see the document the command would print with --json (after masking and --fields): the whole
  // of it, or each page with --all (RenderOptions.pageOf). Their output streams to stdout as it is made.
  const filtered = settings.jq !== null || settings.template !== null;
  const target = { limits: settings.limits, write: (s: string) => out.write(s), closed: () => out.closed, signal: options.signal, now: options.now };
  async function writeFiltered(doc: unknown): Promise<void> {
    if (settings.template) await settings.template.render(doc, target);
    else await (await import('./jq.js')).runJq(doc, settings.jq!, target);
  }

  async function filteredList(items: AsyncIterable<unknown>, opts: RenderOptions | undefined): Promise<number> {
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
  async function list(items: Iterable<unknown> | AsyncIterable<unknown>, opts?: RenderOptions): Promise<number> {
    if (filtered) return filteredList(items as AsyncIterable<unknown>, opts);
    const { json, line } = FORMAT_SPECS[formatOf(opts)];
    const headed = opts?.header !== false;
    let count = 0;
    let cols: Column[] | null = null;
    const tableRows: Record<string, unknown>[] = [];
    for await (const raw of items as AsyncIterable<unknown>) {
      if (out.closed) break;
      const item = prepare(raw, opts);
      if (count === 0) check(item, opts);
      if (json === 'document') {
        await out.write((count === 0 ? '[\n  ' : ',\n  ') + (jsonText(pick(item), 2) ?? 'null').replace(/\n/g, '\n  '));
      } else if (json === 'lines') {
        await out.write((jsonText(pick(item)) ?? 'null') + '\n');
      } else if (line) {
        if (count === 0) {
          cols = chooseColumns(opts?.columns, fields, item) ?? [];
          if (headed) await out.write(line(cols.map((c) => c.key)));
        }
        const row = asRow(item);
        await out.write(line((cols ?? []).map((c) => (settings.csvSafe ? formulaSafe(cellText(c, row)) : cellText(c, row)))));
      } else {
        cols ??= chooseColumns(opts?.columns, fields, item);
        tableRows.push(asRow(item));
      }
      if (out.closed) break;
      count++;
    }
    if (out.closed || json === 'lines') return count;
    if (json === 'document') {
      await out.write(count === 0 ? '[]\n' : '\n]\n');
    } else if (line) {
      // An empty result with known columns is still a valid, headed file.
      const known = count === 0 && headed ? chooseColumns(opts?.columns, fields, undefined) : null;
      if (known) await out.write(line(known.map((c) => c.key)));
    } else if (count === 0) {
      if (!settings.quiet) message(opts?.empty ?? 'No results');
    } else {
      // The table renderer and its display-width tables load on first use: `sq me --json` needs neither.
      const { renderListTable } = await import('./table.js');
      const { text, hidden } = await renderListTable(cols ?? [], tableRows, tableOpts);
      await out.write(text);
      if (hidden.length && !settings.quiet) {
        message(`${hidden.length} column${hidden.length === 1 ? '' : 's'} left out to fit the terminal (${hidden.join(', ')}): use --fields, or --format tsv/csv/json for everything`);
      }
    }
    return count;
  }

  async function record(data: unknown, opts?: RenderOptions): Promise<void> {
    const { json, line } = FORMAT_SPECS[formatOf(opts)];
    // A list in a format of rows is its rows; one record in a line format is a list of one (CSV/TSV: header and row).
    // (--jq and --template imply the JSON document format.)
    if (json === 'lines' || line || (json === null && Array.isArray(data))) {
      await list(json === null && Array.isArray(data) ? data : [data], opts);
      return;
    }
    const item = prepare(data, opts);
    check(item, opts);
    if (filtered) return writeFiltered(pick(item));
    if (json === 'document') {
      await out.write((jsonText(pick(item), 2) ?? 'null') + '\n');
      return;
    }
    const cols = fields || opts?.columns?.length ? chooseColumns(opts?.columns, fields, item) : null;
    const { renderRecordTable } = await import('./table.js');
    await out.write(await renderRecordTable(asRow(item), cols, { ...tableOpts, title: opts?.title }));
  }

  return {
    settings,
    spec,
    get closed() {
      return out.closed;
    },
    style,
    errStyle,
    record,
    list,
    async json(doc: unknown) {
      const shown = redactDeep(doc, known());
      if (filtered) await writeFiltered(shown);
      else out.writeNow(`${jsonText(shown, 2)}\n`);
    },
    text(s: string) {
      const shown = redactText(s, known());
      out.writeNow(shown === '' || shown.endsWith('\n') ? shown : shown + '\n');
    },
    info(msg, opts) {
      if (settings.quiet && !opts?.force) return;
      message(msg);
    },
    warn,
    success(msg) {
      if (settings.quiet || spec.json) return;
      message(msg.startsWith('✓') ? msg : `${errStyle.green('✓')} ${msg}`);
    },
    to(stream, over = {}) {
      return createOutput({ stdout: stream, stderr: io.stderr }, { ...settings, ...over, color: false, stdoutIsTTY: false, columns: 0 }, options);
    },
    async spin<T>(label: string, task: () => Promise<T>): Promise<T> {
      if (!settings.stderrIsTTY || settings.quiet || spec.json) return task();
      const { default: ora } = await importPackage<typeof import('ora')>('ora');
      const spinner = ora({
        text: label,
        stream: io.stderr,
        // We already decided stderr is a terminal; ora's own probe would be fooled by wrapped streams.
        isEnabled: true,
        // ora would otherwise grab stdin on a TTY and swallow keystrokes meant for prompts.
        discardStdin: false,
        color: stderrColor ? 'cyan' : false,
      }).start();
      try {
        return await task();
      } finally {
        spinner.stop();
      }
    },
  };
}
