// How a command line reaches its verb. A plain line (`sq me --json`, `sq squids list --limit 5 -q`, `sq runs get ID`:
// a noun, its verb, then options and arguments each written out whole) is read straight off the specs the build
// declared, without loading commander: building commander's tree and parsing with it, and deserialising commander's
// code, were a part of every call worth saving (docs/startup.md). Any other line (help,
// an error, a form this reader does not take) goes to commander (program.ts), which stays the parser of record:
// test/unit/plain-line.test.ts checks, over generated command lines of every verb, that whatever this reader takes,
// commander parses to the same arguments and options.
import type { Ctx } from '../cli/context.js';
import type { NounSpec, OptionSpec, VerbSpec } from '../cli/command.js';
import { GLOBAL_OPTIONS, readGlobals } from '../cli/global-flags.js';
import { isVerb, loadEntry } from './specs.js';
import { NOUNS } from '../commands/index.js';
import { cacheDir } from '../lib/cache-dir.js';
import { attributeName } from '../lib/flag-name.js';

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
export function parsePlainLine(
  argv: readonly string[],
  spec: NounSpec | VerbSpec,
  globals: readonly OptionSpec[] = GLOBAL_OPTIONS,
): PlainLine | undefined {
  let verb: VerbSpec | undefined;
  let i = 1;
  if ('verbs' in spec) {
    const word = argv[1];
    verb = spec.verbs.find((v) => v.name === word || v.aliases?.includes(word ?? ''));
    i = 2;
  } else verb = spec;
  if (!verb || verb.subcommands?.length) return undefined;
  const declared = verb.args ?? [];
  if (
    !declared.every(
      (a) => !a.includes('...') && ((a[0] === '<' && a.endsWith('>')) || (a[0] === '[' && a.endsWith(']'))),
    )
  )
    return undefined;
  const own = verb.options ?? [];
  const programOpts = defaults(globals);
  const opts = defaults(own);
  if (!programOpts || !opts) return undefined;
  const seen = new Set<OptionSpec>();
  const attributes = new Set<string>();
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
    const global = optionFor(globals, name);
    const found = global ?? optionFor(own, name);
    if (!found || seen.has(found.option)) return undefined;
    seen.add(found.option);
    const { flag } = found;
    if (!flag) return undefined;
    // `--x` and `--no-x` both: commander's reading says they cannot be used together.
    if (attributes.has(flag.attribute)) return undefined;
    attributes.add(flag.attribute);
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
    (global ? programOpts : opts)[flag.attribute] = value;
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

/** An option's flags as this reader uses them (commander's reading of them, for the forms our specs use). */
function flagsOf(o: OptionSpec): { long?: string; short?: string; arg?: string; flag: Flag } {
  let long: string | undefined;
  let short: string | undefined;
  let arg: string | undefined;
  for (const part of o.flags.split(' ')) {
    const w = part.endsWith(',') ? part.slice(0, -1) : part;
    if (w.startsWith('--')) long ??= w;
    else if (w.startsWith('-') && w.length === 2) short ??= w;
    else if (w.startsWith('<') || w.startsWith('[')) arg ??= w;
  }
  const name = long ? long.slice(2) : short ? short.slice(1) : '';
  const negate = name.startsWith('no-');
  return {
    long,
    short,
    arg,
    flag: {
      attribute: attributeName(negate ? name.slice(3) : name),
      value: arg !== undefined,
      negate,
      choices: o.choices,
    },
  };
}

/**
 * The option of `options` that answers to `name` (`--json`, `-q`), with its flag, or a null flag for one this reader
 * leaves to commander: an optional or variadic value, a repeatable option, one that refuses a secret. Looked up word
 * by word rather than from a table of every option: a plain line names two or three, and reading all of them was most
 * of this reader's cost.
 */
function optionFor(
  options: readonly OptionSpec[],
  name: string,
): { option: OptionSpec; flag: Flag | null } | undefined {
  for (const o of options) {
    if (!o.flags.includes(name)) continue;
    const { long, short, arg, flag } = flagsOf(o);
    if (name !== long && name !== short) continue;
    const plain = !(arg && (arg[0] !== '<' || arg.includes('...'))) && !o.repeatable && !o.secretTrap;
    return { option: o, flag: plain ? flag : null };
  }
  return undefined;
}

/**
 * The values commander sets before parsing: `--no-x` alone defaults x to true (not when a `--x` was declared before
 * it). Undefined for flags written in a way this reader does not follow (commander's `|` separator): the line then
 * goes to commander.
 */
function defaults(options: readonly OptionSpec[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < options.length; i++) {
    const f = options[i]!.flags;
    if (f.includes('|')) return undefined;
    if (!f.includes('--no-')) continue;
    const { long, flag } = flagsOf(options[i]!);
    if (!long?.startsWith('--no-')) continue;
    if (!optionFor(options.slice(0, i), `--${long.slice(5)}`)) out[flag.attribute] = true;
  }
  return out;
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
    await (await import('../output/jq.js')).checkJq(
      ctx.globals.jq,
      ctx.outputSettings().limits,
      dir === undefined ? undefined : `${dir}/jq-known`,
      ctx.signal,
    );
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
