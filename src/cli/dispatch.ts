// How a command line reaches its verb. A plain line (`sq me --json`, `sq squids list --limit 5 -q`, `sq runs get ID`:
// a noun, its verb, then options and arguments each written out whole) is read straight off the specs the build
// declared, without loading commander: building commander's tree and parsing with it was ~3 ms of a ~75 ms call, a
// third of it V8 deserialising commander's code (docs/performance.md). Any other line (help, an error, a form this
// reader does not take) goes to commander (program.ts), which stays the parser of record:
// test/unit/plain-line.test.ts checks, over generated command lines of every verb, that whatever this reader takes,
// commander parses to the same arguments and options.
import type { Ctx } from './context.js';
import type { NounSpec, OptionSpec, VerbSpec } from './command.js';
import { GLOBAL_OPTIONS, readGlobals } from './global-flags.js';
import { isVerb, loadEntry } from './specs.js';
import { NOUNS } from '../commands/index.js';
import { cacheDir } from '../lib/cache-dir.js';

export { readGlobals };

/** A plain command line, read: the verb, its arguments, its own options, and those with the globals (optsWithGlobals). */
export interface PlainLine {
  verb: VerbSpec;
  args: string[];
  opts: Record<string, unknown>;
  withGlobals: Record<string, unknown>;
}

/**
 * The line as commander would parse it, if it is plain, else undefined (commander then parses it, errors and all).
 * Plain: the noun first, then the verb (a name or an alias; none for a leaf such as `me`) when it has no subcommands
 * and no variadic argument; then only global options and the verb's own, each once, as `--long`, `-x` or
 * `--long=value`, a value in the next word unless that starts with `-` (commander takes a global option wherever it
 * stands, even as another option's value), a listed choice where there are choices; and as many arguments as the
 * verb declares. Not `--help`, `--version`, `--`, grouped short flags (`-qv`), repeatable or optional-value options,
 * or one that refuses a secret: commander handles each of those.
 */
export function parsePlainLine(argv: readonly string[], spec: NounSpec | VerbSpec, globals: readonly OptionSpec[] = GLOBAL_OPTIONS): PlainLine | undefined {
  let verb: VerbSpec | undefined;
  let i = 1;
  if ('verbs' in spec) {
    const word = argv[1];
    verb = spec.verbs.find((v) => v.name === word || v.aliases?.includes(word ?? ''));
    i = 2;
  } else verb = spec;
  if (!verb || verb.subcommands?.length) return undefined;
  const declared = verb.args ?? [];
  if (!declared.every((a) => /^(<[^.>]+>|\[[^.\]]+\])$/.test(a))) return undefined;
  const program = flagTable(globals);
  const own = flagTable(verb.options ?? []);
  const programOpts = program.defaults;
  const opts = own.defaults;
  const seen = new Set<Flag>();
  const args: string[] = [];
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-')) {
      args.push(word);
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    // commander's program takes its own options first, wherever they stand.
    const flag = program.flags.get(name) ?? own.flags.get(name);
    if (!flag || seen.has(flag)) return undefined;
    seen.add(flag);
    let value: string | boolean;
    if (flag.value) {
      if (eq > 0) value = word.slice(eq + 1);
      else {
        const next = argv[++i];
        if (next === undefined || next.startsWith('-')) return undefined;
        value = next;
      }
      if (flag.choices && !flag.choices.includes(value)) return undefined;
    } else {
      if (eq > 0) return undefined;
      value = !flag.negate;
    }
    (program.flags.get(name) === flag ? programOpts : opts)[flag.attribute] = value;
  }
  const required = declared.filter((a) => a.startsWith('<')).length;
  if (args.length < required || args.length > declared.length) return undefined;
  // As commander's optsWithGlobals(): the command's own, then its ancestors', an ancestor's value winning.
  return { verb, args, opts, withGlobals: { ...opts, ...programOpts } };
}

interface Flag {
  attribute: string;
  value: boolean;
  negate: boolean;
  choices?: readonly string[];
}

/**
 * The flags a command's options answer to, and the values commander sets before parsing: `--no-x` alone defaults x
 * to true (not when a `--x` was declared before it). An option this reader does not take is left out, so a line
 * using it goes to commander; its default is kept, as commander would set it.
 */
function flagTable(options: readonly OptionSpec[]): { flags: Map<string, Flag>; defaults: Record<string, unknown> } {
  const flags = new Map<string, Flag>();
  const defaults: Record<string, unknown> = {};
  const longs = new Set<string>();
  for (const o of options) {
    const words = o.flags.split(/[ |,]+/).filter(Boolean);
    const long = words.find((w) => w.startsWith('--'));
    const short = words.find((w) => /^-[^-]$/.test(w));
    const arg = words.find((w) => w.startsWith('<') || w.startsWith('['));
    const name = (long ?? short ?? '').replace(/^--?/, '');
    const negate = long?.startsWith('--no-') === true;
    const attribute = name.replace(/^no-/, '').replace(/-(.)/g, (_m, c: string) => c.toUpperCase());
    if (negate && !longs.has(`--${name.slice(3)}`)) defaults[attribute] = true;
    if (long) longs.add(long);
    // Left to commander: optional and variadic values, repeatable options, options that refuse a secret.
    if ((arg && (!arg.startsWith('<') || arg.includes('...'))) || o.repeatable || o.secretTrap) continue;
    const flag: Flag = { attribute, value: arg !== undefined, negate, choices: o.choices };
    for (const w of [long, short]) if (w) flags.set(w, flag);
  }
  return { flags, defaults };
}

/**
 * The verb of a plain line, ready to run, or undefined when commander must parse the line. `completion` walks
 * commander's tree, so it always goes there.
 */
export async function plainLine(argv: readonly string[]): Promise<{ run(ctx: Ctx): Promise<void> } | undefined> {
  const entry = argv[0] === 'completion' ? undefined : NOUNS.find((e) => e.name === argv[0]);
  if (!entry) return undefined;
  const spec = await loadEntry(entry);
  const line = parsePlainLine(argv, isVerb(spec) ? { ...spec, name: entry.name } : spec);
  return line && { run: (ctx) => runVerb(ctx, line.verb, line.args, line.opts, line.withGlobals) };
}

/**
 * What every action starts with, however its line was parsed: the globals read, the output settings checked
 * (conflicting or unknown output flags, a bad template or jq expression: usage errors before any request).
 */
export async function beforeAction(ctx: Ctx, withGlobals: Record<string, unknown>): Promise<void> {
  ctx.globals = readGlobals(withGlobals);
  if (ctx.globals.template !== undefined) await (await import('../output/settings.js')).loadTemplates();
  ctx.outputSettings();
  if (ctx.globals.jq !== undefined) {
    const dir = cacheDir(ctx.env);
    await (await import('../output/jq.js')).checkJq(ctx.globals.jq, ctx.outputSettings().limits, dir === undefined ? undefined : `${dir}/jq-known`, ctx.signal);
  }
}

/** Runs a verb: beforeAction, then its run. `command` is commander's, when it parsed the line. */
export async function runVerb(
  ctx: Ctx,
  verb: VerbSpec,
  args: string[],
  opts: Record<string, unknown>,
  withGlobals: Record<string, unknown>,
  command?: Parameters<VerbSpec['run']>[3],
): Promise<void> {
  await beforeAction(ctx, withGlobals);
  const code = await verb.run(ctx, args, opts as Parameters<VerbSpec['run']>[2], command);
  if (typeof code === 'number') ctx.exitCode = code;
}
