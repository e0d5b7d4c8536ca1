// Builds the commander tree: global options, nouns (loaded lazily), verbs from their specs.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { scanArgv } from './argv.js';
import { cacheDir } from '../lib/cache-dir.js';
import type { Ctx } from './context.js';
import type { NounEntry, NounSpec, VerbSpec } from './command.js';
import { NOUNS } from '../commands/index.js';
import { UsageError } from '../errors.js';
import { closest } from '../lib/suggest.js';
import { USES, commandPath, exampleLines, helpConfiguration, helpWidth } from './help-layout.js';
import { VERSION } from '../version.js';
import { EXAMPLES, GLOBAL_OPTIONS, makeOption, readGlobals } from './global-options.js';

export { GLOBAL_OPTIONS, readGlobals };

function addGlobals(cmd: Command) {
  for (const g of GLOBAL_OPTIONS) cmd.addOption(makeOption(g));
}

function addExamples(cmd: Command, examples: string[]): void {
  EXAMPLES.set(cmd, examples);
  // Laid out when the help is printed, not on every call.
  cmd.addHelpText('after', () => examplesText(examples));
}

function examplesText(examples: string[]): string {
  return `\nExamples:\n${examples.flatMap((e) => exampleLines(e)).join('\n')}\n`;
}

/** A command's help starts by saying what it does (its summary); the longer description, when there is one, follows. */
function helpDescription(summary: string, description: string | undefined): string {
  const rest = description?.startsWith(summary) ? description.slice(summary.length).replace(/^[.;:,]?\s*/, '') : description;
  if (!rest) return summary;
  return `${summary}${/[.!?]$/.test(summary) ? '' : '.'}\n\n${rest}`;
}

function addVerb(parent: Command, verb: VerbSpec, ctx: Ctx): Command {
  const cmd = parent.command(verb.name).summary(verb.summary).description(helpDescription(verb.summary, verb.description));
  for (const a of verb.aliases ?? []) cmd.alias(a);
  for (const a of verb.args ?? []) cmd.argument(a);
  for (const o of verb.options ?? []) cmd.addOption(makeOption(o));
  USES.set(cmd, { output: verb.output !== 'text', writes: verb.writes === true });
  addExamples(cmd, verb.examples);
  for (const sub of verb.subcommands ?? []) addVerb(cmd, sub, ctx);
  cmd.action(async (...params: unknown[]) => {
    // commander passes: ...positional, options, command
    const command = params[params.length - 1] as Command;
    const positional = command.processedArgs.flatMap((v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v])) as string[];
    const code = await verb.run(ctx, positional.map(String), command.opts(), command);
    if (typeof code === 'number') ctx.exitCode = code;
  });
  return cmd;
}

/**
 * `verb`: the verb word of the command line when it names one of the noun's verbs (or an alias). Only that verb is
 * built whole (its options, examples, subcommands); the others get their name, aliases and summary, all commander
 * needs to dispatch to that one verb (`sq squids list` built the options of all 11). Without it (the noun's own
 * help, a word that is no verb: an error that lists them), every verb is built.
 */
function addNoun(program: Command, spec: NounSpec, ctx: Ctx, verb?: string): Command {
  const noun = program.command(spec.name).summary(spec.summary).description(helpDescription(spec.summary, spec.description));
  const only = verb !== undefined && spec.verbs.some((v) => v.name === verb || v.aliases?.includes(verb)) ? verb : undefined;
  for (const v of spec.verbs) {
    if (only === undefined || v.name === only || v.aliases?.includes(only)) addVerb(noun, v, ctx);
    else {
      const stub = noun.command(v.name).summary(v.summary);
      for (const a of v.aliases ?? []) stub.alias(a);
    }
  }
  const first = spec.verbs[0];
  if (first) addExamples(noun, spec.verbs.flatMap((v) => v.examples.slice(0, 1)));
  return noun;
}

function isVerb(m: NounSpec | VerbSpec): m is VerbSpec {
  return typeof (m as VerbSpec).run === 'function';
}

/**
 * Each noun's spec as JSON, written by the build from its modules (esbuild.config.mjs: dist/specs/<noun>.json), with
 * `true` for each `run`. The command tree is built from it, and a noun's modules load only when one of its verbs runs:
 * help (`sq squids --help`) evaluates none of them, nor what they import. A verb declared the usual way is in it.
 * Without the file (src/ run by the tests, the standalone executable) the modules are loaded.
 */
function declaredSpec(name: string): string | undefined {
  // The bundle (dist/sq.cjs) sits beside dist/specs/; this module unbundled (dist/cli/program.js) one level below.
  for (const dir of ['./specs/', '../specs/']) {
    try {
      return readFileSync(new URL(`${dir}${name}.json`, import.meta.url), 'utf8');
    } catch {
      // not there: the next place, then the modules themselves
    }
  }
  return undefined;
}

async function loadEntry(entry: NounEntry): Promise<NounSpec | VerbSpec> {
  const declared = /^[a-z][a-z0-9-]*$/.test(entry.name) ? declaredSpec(entry.name) : undefined;
  if (declared === undefined) return (await entry.load()).default;
  const spec = JSON.parse(declared) as NounSpec | VerbSpec;
  const lazy = (v: VerbSpec, path: string[], file?: string) => {
    v.run = async (...args) => (await verbAt(entry, path, file)).run(...args);
    for (const sub of v.subcommands ?? []) lazy(sub, [...path, sub.name], file);
  };
  if ('verbs' in spec) for (const v of spec.verbs) lazy(v, [v.name], (v as VerbSpec & { module?: string }).module);
  else lazy(spec, []);
  return spec;
}

/**
 * In the bundle (esbuild.config.mjs): each verb's own file, to import alone, by the `module` its spec names. Not
 * defined in the unbundled dist/, which loads the noun's index.
 */
declare const sqVerbModules: Readonly<Record<string, () => Promise<{ default: VerbSpec }>>> | undefined;

/** The verb at `path` (verb, subcommand…) in its own file if the bundle has it, else in the noun's module. */
async function verbAt(entry: NounEntry, path: string[], file?: string): Promise<VerbSpec> {
  const own = file !== undefined && typeof sqVerbModules === 'object' ? sqVerbModules[file] : undefined;
  const spec = own ? { verbs: [(await own()).default] } : (await entry.load()).default;
  let verb = 'verbs' in spec ? spec.verbs.find((v) => v.name === path[0]) : spec;
  for (const name of path.slice('verbs' in spec ? 1 : 0)) verb = verb?.subcommands?.find((v) => v.name === name);
  if (!verb) throw new Error(`the command ${[entry.name, ...path].join(' ')} is not in its module`);
  return verb;
}

/**
 * Build the program. `load` decides which nouns get their verbs: the invoked one (fast path), or all of them
 * (completion scripts, help tests).
 */
export async function buildProgram(ctx: Ctx, argv: string[], opts: { loadAll?: boolean } = {}): Promise<Command> {
  const program = new Command('sq');
  program
    .description('sq: the command line for the scraping platform (squids, tasks, runs, results, delivery, billing)')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand(false)
    .showSuggestionAfterError(true)
    .configureHelp(helpConfiguration())
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
      // Laid out for the terminal it goes to; 80 columns when piped, so pasted help never breaks mid-line.
      getOutHelpWidth: () => helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns),
      getErrHelpWidth: () => helpWidth(ctx.io.stderrIsTTY, ctx.io.columns),
      outputError: () => undefined, // main.ts prints errors, once, in the right format
    })
    .exitOverride();
  addGlobals(program);
  addExamples(program, [
    'sq emulator start --port 8787 &',
    'sq squids list',
    'sq runs start --squid "Paris restaurants" --wait',
    'sq results list --squid "Paris restaurants" --all --format csv -o results.csv',
  ]);
  program.addHelpText(
    'after',
    '\nMore: sq <command> --help, sq help environment, sq help exit-codes, sq version;\n' +
      'man sq or sq help --man (manual page); docs/commands/ in the package (reference),\n' +
      'also at https://github.com/lobstr-io/lobstr-sq/tree/main/docs/commands\n',
  );
  program.hook('preAction', async (_this, action) => {
    ctx.globals = readGlobals(action.optsWithGlobals());
    if (ctx.globals.template !== undefined) await (await import('../output/settings.js')).loadTemplates();
    // Conflicting or unknown output flags, a bad template or jq expression: usage errors before any request.
    ctx.outputSettings();
    if (ctx.globals.jq !== undefined) {
      const dir = cacheDir(ctx.env);
      await (await import('../output/jq.js')).checkJq(ctx.globals.jq, ctx.outputSettings().limits, dir === undefined ? undefined : `${dir}/jq-known`, ctx.signal);
    }
  });

  const { noun, index } = scanArgv(argv);
  // `sq completion <shell>` renders the whole tree: every noun is loaded, as with loadAll.
  const all = opts.loadAll || noun === 'completion';
  const wanted = all ? null : noun === 'help' ? scanArgv(argv.slice(index + 1)).noun : noun;
  // A command line that names a noun sq has (not `help`) needs only that noun: commander dispatches to it, and the
  // other nouns and the help command would be built for nothing (~1 ms). Any other line (none, `help`, an unknown
  // word: an error that lists the nouns) gets them all.
  const alone = !all && noun !== 'help' && NOUNS.some((e) => e.name === wanted);
  for (const entry of NOUNS) {
    if (alone && entry.name !== wanted) continue;
    if (all || entry.name === wanted) {
      const spec = await loadEntry(entry);
      if (isVerb(spec)) addVerb(program, { ...spec, name: entry.name, output: spec.output ?? entry.output }, ctx);
      else addNoun(program, spec, ctx, noun === entry.name ? scanArgv(argv.slice(index + 1)).noun : undefined);
    } else {
      program.command(entry.name).summary(entry.summary).description(entry.summary);
    }
  }
  if (alone) {
    if (argv.includes('--help') || argv.includes('-h')) refuseUnknownCommand(program, argv);
    return program;
  }
  const help = program.command('help [topic...]').summary('help on a command, or a topic: environment, exit-codes');
  help.option('--man', 'print the manual page (roff) of sq, or of the command named; read it with `sq help --man | man -l -`');
  addExamples(help, ['sq help runs start', 'sq help environment', 'sq help exit-codes', 'sq help --man runs start | man -l -']);
  help.action(async (topic: string[], o: { man?: boolean }) => {
    const { showHelp } = await import('./help.js');
    ctx.exitCode = await showHelp(ctx, program, topic ?? [], { man: o.man === true, buildAll: () => buildProgram(ctx, [], { loadAll: true }) });
  });
  if (argv.includes('--help') || argv.includes('-h')) refuseUnknownCommand(program, argv);
  return program;
}

/**
 * `sq go --help` and `sq squids lst --help` showed the parent's help and exited 0, as if the command existed: an
 * unknown command is exit 2 with the closest names, with --help as without it, at any depth. Under a command that
 * takes arguments of its own (`sq squids chain SQUID`), a word that is not a subcommand is its argument.
 */
function refuseUnknownCommand(program: Command, argv: string[]): void {
  const find = (parent: Command, name: string) => parent.commands.find((c) => c.name() === name || c.aliases().includes(name));
  const unknown = (parent: Command, name: string): never => {
    const names = parent.commands.map((c) => c.name());
    const near = closest(name, names);
    const where = ['sq', ...commandPath(parent)].join(' ');
    throw new UsageError(`unknown command "${name}" for ${where}${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} (commands: ${names.join(', ')})`);
  };
  let cmd = program;
  let rest = argv;
  while (cmd.commands.length > 0) {
    const word = scanArgv(rest);
    if (!word.noun) return;
    const next = find(cmd, word.noun);
    if (!next) {
      if (cmd.registeredArguments.length > 0) return;
      unknown(cmd, word.noun);
    }
    cmd = next!;
    rest = rest.slice(word.index + 1);
  }
}
