// `sq help <command…>` and the topics that are not commands: environment, exit-codes.
import type { Command } from 'commander';
import type { Ctx } from './context.js';
import { UsageError } from './errors.js';
import { helpWidth } from './help-layout.js';

export const ENVIRONMENT: [string, string][] = [
  ['SQ_TOKEN', 'API key; overrides the profile\'s stored key (for CI). There is no --token flag.'],
  ['SQ_PROFILE', 'profile to use (like --profile); default: the active profile, else "default"'],
  ['SQ_BASE_URL', 'API origin, e.g. http://127.0.0.1:8787 (like --base-url); default: the profile\'s, else https://api.lobstr.io'],
  ['SQ_INSECURE_HTTP', 'set to 1 to allow a plain http:// base URL to a host other than loopback (like --insecure-http)'],
  ['SQ_CONFIG_DIR', 'where profiles are stored (default: $XDG_CONFIG_HOME/sq, else ~/.config/sq on Linux; ~/Library/Preferences/sq on macOS; %APPDATA%\\sq\\Config on Windows)'],
  ['SQ_NO_INPUT', 'never prompt (like --no-input)'],
  ['CI', 'when set, never prompt'],
  ['NO_COLOR', 'no colour'],
  ['FORCE_COLOR', 'colour even when not on a terminal'],
  ['TZ', 'time zone of --absolute-times in terminal tables (default: the system\'s)'],
  ['SQ_CONNECT_TIMEOUT', 'connect timeout (default 10s)'],
  ['SQ_HEADERS_TIMEOUT', 'time to wait for response headers (default 30s)'],
  ['SQ_BODY_TIMEOUT', 'longest silence while reading a body (default 60s)'],
  ['SQ_FILTER_MAX_OUTPUT_MB', 'what one run of --jq/--template may print, per page with --all (default 64; for --jq 4 times the document if more); past it, exit 1'],
  ['SQ_FILTER_MAX_MEMORY_MB', 'the memory jq may grow to (default 512, at most 2047); past it, exit 1'],
  ['SQ_SLURP_MAX_MB', 'the list --jq/--template hold for one run: with --slurp, or a whole list without --all (default 256); past it, exit 1'],
  ['SQ_CACHE_DIR', 'where compiled code is cached, parallel sq calls share their pacing, completion keeps its answers and --jq the fingerprints of expressions that compiled (default: $XDG_CACHE_HOME/sq, else ~/.cache/sq); files unused for a day are removed; empty: off'],
];

export const EXIT_CODES: [number, string][] = [
  [0, 'success (an empty list is success)'],
  [1, 'API or network failure, unexpected error'],
  [2, 'usage or validation error (detected before any request is sent)'],
  [3, 'not found'],
  [4, 'authentication: no key, or key rejected'],
  [5, 'rate limited: gave up after the retry budget'],
  [6, 'a waited-for run ended in error or aborted'],
  [7, 'waiting timed out (--timeout)'],
  [8, 'partial failure of a batch (delivery apply, multi-item commands); per-item report on stderr (interrupted: 130, 143 or 129 with the same report)'],
  [10, 'sq plan --detailed-exitcode: the account differs from the file (as terraform plan -detailed-exitcode); 0 means no change'],
  [130, 'interrupted (Ctrl-C); never a partial file at an -o target (a resumable export keeps its pages aside). SIGHUP, SIGQUIT, SIGTERM: the same, exit 129, 131, 143'],
];

export async function showHelp(ctx: Ctx, program: Command, topic: string[], opts: { man?: boolean } = {}): Promise<number> {
  const t = topic.join(' ');
  if (t === 'environment' || t === 'env') {
    ctx.out.text(`Environment variables:\n${definitions(ENVIRONMENT, 20, width(ctx))}\n`);
    return 0;
  }
  if (t === 'exit-codes' || t === 'exit-code') {
    ctx.out.text(`Exit codes:\n${definitions(EXIT_CODES.map(([k, v]) => [String(k), v]), 5, width(ctx))}\n` +
      'With --json, an error is also written to stderr\nas one JSON object:\n' +
      '  {"error":{"code":<exit>,"status":<http|null>,"message":"...",\n' +
      '            "retry_after":<s|null>}}\n');
    return 0;
  }
  if (t === 'globals' || t === 'global') {
    const { GLOBAL_OPTIONS } = await import('./program.js');
    ctx.out.text(`Global flags (every command takes them):\n${definitions(GLOBAL_OPTIONS.map((o) => [o.flags, o.description]), 24, width(ctx))}\n`);
    return 0;
  }
  if (opts.man) {
    // The manual covers every command: build the whole tree, not only the noun asked about.
    const [{ buildProgram }, { manPage }, { VERSION }] = await Promise.all([import('./program.js'), import('./help-docs.js'), import('./version.js')]);
    const full = await buildProgram(ctx, [], { loadAll: true });
    ctx.out.text(manPage(full, findCommand(full, topic), VERSION));
    return 0;
  }
  findCommand(program, topic).outputHelp();
  return 0;
}

function findCommand(program: Command, topic: string[]): Command {
  const t = topic.join(' ');
  let cmd: Command = program;
  for (const name of topic) {
    const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    // Bad input before any request, like an unknown command: exit 2.
    if (!next) throw new UsageError(`no help topic or command "${t}" (topics: environment, exit-codes, globals)`);
    cmd = next;
  }
  return cmd;
}

function width(ctx: Ctx): number {
  return helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns);
}

/** `  KEY   text…` rows, the text wrapped at `width` under itself (a hanging indent), as the rest of help is. */
export function definitions(rows: readonly (readonly [string, string])[], keyWidth: number, width: number): string {
  const indent = 2 + keyWidth + 1;
  return rows
    .map(([k, v]) => {
      const lines: string[] = [];
      let cur = `  ${k.padEnd(keyWidth)}`;
      if (cur.length > indent - 1) {
        lines.push(cur);
        cur = ' '.repeat(indent - 1);
      }
      let empty = true;
      for (const w of v.split(/\s+/).filter(Boolean)) {
        if (!empty && cur.length + 1 + w.length > width) {
          lines.push(cur);
          cur = ' '.repeat(indent - 1);
          empty = true;
        }
        cur += ` ${w}`;
        empty = false;
      }
      lines.push(cur);
      return lines.join('\n');
    })
    .join('\n');
}
