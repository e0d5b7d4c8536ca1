// The global options as data, and what their parsed values mean: no commander here, so that a plain command line
// (src/shell/dispatch.ts) is parsed without loading it. global-options.ts turns these into commander Options.
import type { OptionSpec } from './command.js';
import { DEFAULT_GLOBALS, type Globals } from './context.js';
import { FORMATS } from '../output/types.js';

export const GLOBAL_OPTIONS: OptionSpec[] = [
  {
    flags: '--profile <name>',
    description: 'stored profile to use (env SQ_PROFILE; default: the active one, else "default")',
    complete: 'profile',
  },
  {
    flags: '--base-url <url>',
    description:
      "API origin, paths start with /v1 (env SQ_BASE_URL; default: the profile's, else https://api.lobstr.io)",
  },
  {
    flags: '--insecure-http',
    description:
      'allow a plain http:// base URL to a host other than loopback (env SQ_INSECURE_HTTP=1): the key travels unencrypted',
  },
  {
    appliesTo: 'output',
    flags: '--json',
    description: 'machine output: exactly one JSON document on stdout (same as --format json)',
  },
  {
    appliesTo: 'output',
    flags: '--format <format>',
    description: 'output format (default: table on a terminal, tsv when piped)',
    choices: FORMATS,
  },
  {
    appliesTo: 'output',
    flags: '--fields <list>',
    description: 'comma-separated fields/columns to show; dotted paths allowed (e.g. id,squid.name)',
  },
  {
    appliesTo: 'output',
    flags: '--jq <expression>',
    description:
      'filter the JSON output with jq (implies --json; strings print unquoted, other values as compact JSON, one per line)',
  },
  {
    appliesTo: 'output',
    flags: '--template <template>',
    description:
      'format the JSON output with Go template syntax as gh does: range, if/else, with, printf, join, tablerow… (implies --json)',
  },
  {
    appliesTo: 'output',
    flags: '--full-ids',
    description:
      'whole ids in terminal tables (they show the shortest unique prefix, 8 characters or more; piped output is always whole)',
  },
  {
    appliesTo: 'output',
    flags: '--wide',
    description:
      'terminal tables show every column whole: no column left out or cut, none hidden for saying the same on every row, whole ids',
  },
  {
    appliesTo: 'output',
    flags: '--absolute-times',
    description:
      'local date, time and UTC offset in terminal tables instead of "3 min ago" (piped output keeps the API\'s timestamps)',
  },
  {
    appliesTo: 'output',
    flags: '--csv-safe',
    description:
      "CSV and TSV: a text cell starting with =, +, -, @, a tab or a CR gets a leading ' so a spreadsheet never runs it as a formula (also SQ_CSV_SAFE=1)",
  },
  { flags: '--no-color', description: 'no colour (also NO_COLOR; FORCE_COLOR forces it)' },
  { flags: '-q, --quiet', description: 'no hints or progress on stderr' },
  { flags: '-v, --verbose', description: 'HTTP trace on stderr (secrets redacted)' },
  { appliesTo: 'writes', flags: '-y, --yes', description: 'answer yes to confirmations' },
  { flags: '--no-input', description: 'never prompt (also SQ_NO_INPUT, CI); a missing answer is a usage error' },
  {
    appliesTo: 'writes',
    flags: '--dry-run',
    description: 'on writes: print the request (secrets masked) and send nothing',
  },
  {
    appliesTo: 'output',
    flags: '--show-secrets',
    description: 'show passwords, keys and webhook URL tokens the API echoes back (they are masked otherwise)',
  },
];

/**
 * The parsed options as Globals: a switch takes the value that is not its default only when given so (--json true,
 * --no-color false); a value option only when it is a string.
 */
export function readGlobals(o: Record<string, unknown>): Globals {
  const g: Record<string, unknown> = { ...DEFAULT_GLOBALS };
  for (const k of Object.keys(g)) if (o[k] === !g[k]) g[k] = o[k];
  for (const k of VALUE_KEYS) if (typeof o[k] === 'string') g[k] = o[k];
  return g as unknown as Globals;
}

/** The attribute names of the global options that take a value (`--base-url <url>` → baseUrl), read off the list. */
const VALUE_KEYS = GLOBAL_OPTIONS.filter((o) => o.flags.includes(' <')).map((o) =>
  o.flags
    .split(' ')[0]
    .slice(2)
    .replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
);
