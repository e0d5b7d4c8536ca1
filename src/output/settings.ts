// Turns flags, environment and terminal facts into OutputSettings. Pure, so every combination is testable.

import { UsageError } from '../errors.js';
import { FORMATS, type Format, type OutputSettings } from './types.js';
import type { parseTemplate as ParseTemplate } from './template.js';
import { filterLimits } from './limits.js';

export interface OutputSettingsInput {
  json?: boolean;
  format?: string;
  fields?: string;
  /** --jq EXPR / --template TMPL: JSON output run through jq or a Go-style template (gh's flags). */
  jq?: string;
  template?: string;
  /** false when --no-color was given (commander's default for a negatable option is true). */
  color?: boolean;
  quiet?: boolean;
  showSecrets?: boolean;
  fullIds?: boolean;
  absoluteTimes?: boolean;
  wide?: boolean;
  csvSafe?: boolean;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width; falls back to $COLUMNS, then 80. */
  columns?: number;
}

function resolveFormat(input: OutputSettingsInput): { format: Format; explicit: boolean } {
  let named: Format | undefined;
  if (input.format !== undefined) {
    const f = input.format.trim().toLowerCase();
    if (!(FORMATS as readonly string[]).includes(f)) {
      throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
    }
    named = f as Format;
  }
  const filter = input.jq !== undefined ? '--jq' : input.template !== undefined ? '--template' : null;
  if (filter) {
    // Like gh: both work on the JSON the command would print, so they imply --json and exclude other formats.
    if (input.jq !== undefined && input.template !== undefined)
      throw new UsageError('--jq and --template cannot be used together; pass only one of them');
    if (named !== undefined && named !== 'json')
      throw new UsageError(
        `${filter} works on JSON output and conflicts with --format ${named}; drop --format (${filter} implies --json)`,
      );
    return { format: 'json', explicit: true };
  }
  if (input.json) {
    if (named !== undefined && named !== 'json') {
      throw new UsageError(`--json conflicts with --format ${named}; pass only one of them`);
    }
    return { format: 'json', explicit: true };
  }
  if (named !== undefined) return { format: named, explicit: true };
  return { format: input.stdoutIsTTY ? 'table' : 'tsv', explicit: false };
}

function resolveFields(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.some((p) => p === '')) {
    throw new UsageError(`--fields needs a comma-separated list of field names without empty entries (got "${raw}")`);
  }
  return parts;
}

/**
 * Colour for one stream. NO_COLOR (any non-empty value) and --no-color always win; FORCE_COLOR (non-empty, not "0")
 * turns it on even when piped; otherwise only on a terminal that is not TERM=dumb.
 */
function colorFor(isTTY: boolean, flag: boolean | undefined, env: Record<string, string | undefined>): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

function resolveColumns(columns: number | undefined, env: Record<string, string | undefined>): number {
  if (columns !== undefined && Number.isFinite(columns) && columns > 0) return Math.floor(columns);
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

let parseTemplate: typeof ParseTemplate | undefined;

/** --template's parser is loaded only for a call that has one (program.ts's preAction, before settings are read). */
export async function loadTemplates(): Promise<void> {
  parseTemplate ??= (await import('./template.js')).parseTemplate;
}

function templateOf(text: string) {
  if (!parseTemplate)
    throw new Error('--template read before output/template.js was loaded: await loadTemplates() first');
  return parseTemplate(text);
}

export function resolveOutputSettings(input: OutputSettingsInput): OutputSettings {
  const { format, explicit } = resolveFormat(input);
  return {
    format,
    explicitFormat: explicit,
    fields: resolveFields(input.fields),
    jq: input.jq ?? null,
    template: input.template === undefined ? null : templateOf(input.template),
    // Read only when a filter is given: a bad SQ_FILTER_* value is exit 2 for --jq/--template, and ignored otherwise.
    limits: filterLimits(input.jq !== undefined || input.template !== undefined ? input.env : {}),
    color: colorFor(input.stdoutIsTTY, input.color, input.env),
    stderrColor: colorFor(input.stderrIsTTY, input.color, input.env),
    quiet: input.quiet === true,
    showSecrets: input.showSecrets === true,
    stdoutIsTTY: input.stdoutIsTTY,
    stderrIsTTY: input.stderrIsTTY,
    columns: resolveColumns(input.columns, input.env),
    fullIds: input.fullIds === true,
    absoluteTimes: input.absoluteTimes === true,
    wide: input.wide === true,
    // The flag, or SQ_CSV_SAFE=1 for every call of a job (a profile setting is for `sq config`: see docs/output.md).
    // (Not tested when unset: a regular expression is compiled on its first use, on every call.)
    csvSafe:
      input.csvSafe === true ||
      (input.env.SQ_CSV_SAFE !== undefined && /^(1|true|yes|on)$/i.test(input.env.SQ_CSV_SAFE.trim())),
  };
}
