// The contract between commands and the output module. Commands hand over data; src/output decides how it looks.

import type { Style } from './ansi.js';
import type { Format, FormatSpec } from './formats.js';
import type { FilterLimits } from './limits.js';
import type { Template } from './template.js';

export { FORMAT_SPECS, FORMATS, type Format, type FormatSpec } from './formats.js';

export interface Column {
  /** Dotted path into the record, e.g. "squid.name" or "events.run.done" (a literal key with dots wins over nesting). */
  key: string;
  /** Table header; defaults to the key upper-cased with dots/underscores as spaces. */
  header?: string;
  /** Render a value for table/tsv/csv (json/ndjson always keep raw values). */
  format?: (value: unknown, record: Record<string, unknown>) => string;
  /** Truncate in a terminal table to this many columns of display width (never when piped). */
  maxWidth?: number;
  /**
   * What the values are, for a terminal table only: `id` (shortened to a unique prefix in lists; a column keyed
   * `id` is one by default), `time` (relative, or local with --absolute-times), `status` (lower case, coloured).
   * Ignored when `format` is given, and for every piped format.
   */
  kind?: 'id' | 'time' | 'status';
  /** Never cut when a terminal table is fitted to the width (a slug is typed back whole); ids never are either. */
  whole?: boolean;
}

export interface RenderOptions {
  /** Default columns for table/csv/tsv when --fields is not given. Without them, the record's own keys are used. */
  columns?: Column[];
  /** Mask keys named like secrets unless --show-secrets (on by default); known secret values are masked either way. */
  maskSecrets?: boolean;
  /** The format when the user chose none (--json, --format, --jq, --template): `sq api` prints JSON, like gh api. */
  defaultFormat?: Format;
  /** CSV/TSV: false when the list continues an earlier output that already has the header (a resumed export). */
  header?: boolean;
  /** For a single record in table mode: title line printed above the key/value table. */
  title?: string;
  /**
   * Table mode, an empty list: the line on stderr that names the noun and the next step ("No squids. Create one: sq
   * squids create …"); default "No results". JSON prints `[]`, CSV/TSV the header, whatever this says.
   */
  empty?: string;
  /** With --all (not --slurp): the page of the record just handed over; --jq/--template run once per page (as gh's
   * --paginate --jq). */
  pageOf?: () => number;
  /** True while the record after the one just handed over is already in memory: those are written in one write. */
  buffered?: () => boolean;
}

export interface OutputSettings {
  /** Resolved format: explicit --format/--json, else table on a TTY stdout, else tsv. */
  format: Format;
  /** True when the user chose the format explicitly (--json or --format). */
  explicitFormat: boolean;
  fields: string[] | null;
  /** --jq: the jq expression the JSON output goes through (format is then json). */
  jq: string | null;
  /** --template: the parsed template the JSON output goes through (format is then json). */
  template: Template | null;
  /** The caps on --jq and --template (src/output/limits.ts; from the environment). */
  limits: FilterLimits;
  /** Colour on stdout (table headers, `style`). */
  color: boolean;
  /** Colour on stderr (info/warn/success, `errStyle`); when absent, `color` is used. */
  stderrColor?: boolean;
  quiet: boolean;
  showSecrets: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns: number;
  /** --full-ids: terminal tables show whole ids. */
  fullIds?: boolean;
  /** --absolute-times: terminal tables show local times with their UTC offset, not "3 min ago". */
  absoluteTimes?: boolean;
  /** --wide: terminal tables show every column whole (no fitting, no constant columns left out, whole ids). */
  wide?: boolean;
  /** --csv-safe / SQ_CSV_SAFE=1: formula-looking CSV/TSV text cells start with '. */
  csvSafe?: boolean;
}

export interface Output {
  readonly settings: OutputSettings;
  /** What the format in use is (FORMAT_SPECS[settings.format]): ask it, rather than compare the format's name. */
  readonly spec: FormatSpec;
  /** One record: a JSON object, an NDJSON line, a CSV/TSV header + row, or a key/value table. Always `await` it. */
  record(data: unknown, opts?: RenderOptions): void | Promise<void>;
  /** A list, streamed as it arrives (a table is printed at the end). Returns the number of records written. */
  list(items: Iterable<unknown> | AsyncIterable<unknown>, opts?: RenderOptions): Promise<number>;
  /**
   * One JSON document as given (no masking by key name, no --fields; known secret values masked unless
   * --show-secrets), pretty-printed, or through --jq/--template: a command's own fixed document (plans, dry runs).
   */
  json(doc: unknown): Promise<void>;
  /** Plain text on stdout (e.g. `sq completion bash`), whatever the format; a final newline is added if missing. */
  text(s: string): void;
  /** A human message on stderr (hints, "showing 10 of 2,431", warnings). Suppressed by --quiet unless `force`. */
  info(msg: string, opts?: { force?: boolean }): void;
  /** "warning: <msg>" on stderr; never suppressed. */
  warn(msg: string): void;
  /** A success line on stderr: "Squid deleted" prints "✓ Squid deleted". Suppressed by --quiet and in JSON modes. */
  success(msg: string): void;
  /** True once the reader of stdout went away (EPIPE, e.g. `sq … | head`): further output is dropped quietly. */
  readonly closed: boolean;
  /** The same output writing to another stream (a file or a buffer, never a terminal); `settings` overrides some. */
  to(stream: NodeJS.WritableStream, settings?: Partial<OutputSettings>): Output;
  /** Colour helpers for stdout text; no-ops when colour is off. */
  readonly style: Style;
  /** The same helpers following stderr's colour policy, for text passed to info/warn/success. */
  readonly errStyle: Output['style'];
  /** A spinner on stderr while `task` runs, when stderr is a TTY, not quiet and the format is not json/ndjson. */
  spin<T>(label: string, task: () => Promise<T>): Promise<T>;
}
