// Builds the commander tree: global options, nouns (loaded lazily), verbs from their specs.
import { Command } from 'commander';
import { scanArgv } from '../startup/argv.js';
import type { Ctx } from '../cli/context.js';
import type { NounSpec, VerbSpec } from '../cli/command.js';
import { isVerb, loadEntry } from './specs.js';
import { beforeAction, runVerb } from './dispatch.js';
import { NOUNS } from '../commands/index.js';
import { UsageError } from '../errors.js';
import { closest } from '../lib/suggest.js';
import { USES, commandPath, exampleLines, helpConfiguration, helpWidth } from '../cli/help-layout.js';
import { VERSION } from '../version.js';
import { EXAMPLES, makeOption } from '../cli/global-options.js';
import { GLOBAL_OPTIONS } from '../cli/global-flags.js';

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
  const rest = description?.startsWith(summary)
    ? description.slice(summary.length).replace(/^[.;:,]?\s*/, '')
    : description;
  if (!rest) return summary;
  return `${summary}${/[.!?]$/.test(summary) ? '' : '.'}\n\n${rest}`;
}

function addVerb(parent: Command, verb: VerbSpec, ctx: Ctx): Command {
  const cmd = parent
    .command(verb.name)
    .summary(verb.summary)
    .description(helpDescription(verb.summary, verb.description));
  for (const a of verb.aliases ?? []) cmd.alias(a);
  for (const a of verb.args ?? []) cmd.argument(a);
  for (const o of verb.options ?? []) cmd.addOption(makeOption(o));
  refuseBothForms(cmd, verb);
  USES.set(cmd, { output: verb.output !== 'text', writes: verb.writes === true });
  addExamples(cmd, verb.examples);
  for (const sub of verb.subcommands ?? []) addVerb(cmd, sub, ctx);
  cmd.action(async (...params: unknown[]) => {
    // commander passes: ...positional, options, command
    const command = params[params.length - 1] as Command;
    const positional = command.processedArgs.flatMap((v: unknown) =>
      v === undefined ? [] : Array.isArray(v) ? v : [v],
    ) as string[];
    await runVerb(ctx, verb, positional.map(String), command.opts(), command.optsWithGlobals(), command);
  });
  return cmd;
}

/**
 * A verb's `--x` and `--no-x` on one line contradict each other (`--no-schedule --schedule "0 9 * * *"` set a
 * schedule: the last won): exit 2 naming both, before anything is sent.
 */
function refuseBothForms(cmd: Command, verb: VerbSpec): void {
  const longs = new Set(
    (verb.options ?? []).map((o) => /--[\w-]+/.exec(o.flags)?.[0]).filter((l): l is string => l !== undefined),
  );
  for (const no of longs) {
    const yes = `--${no.slice(5)}`;
    if (!no.startsWith('--no-') || !longs.has(yes)) continue;
    const given = new Set<string>();
    const mark = (flag: string, other: string) => () => {
      if (given.has(other)) throw new UsageError(`${yes} and ${no} cannot be used together: give one of them`);
      given.add(flag);
    };
    cmd.on(`option:${yes.slice(2)}`, mark(yes, no));
    cmd.on(`option:${no.slice(2)}`, mark(no, yes));
  }
}

/**
 * `verb`: the verb word of the command line when it names one of the noun's verbs (or an alias). Only that verb is
 * built whole (its options, examples, subcommands); the others get their name, aliases and summary, all commander
 * needs to dispatch to that one verb (`sq squids list` built the options of all 11). Without it (the noun's own
 * help, a word that is no verb: an error that lists them), every verb is built.
 */
function addNoun(program: Command, spec: NounSpec, ctx: Ctx, verb?: string): Command {
  const noun = program
    .command(spec.name)
    .summary(spec.summary)
    .description(helpDescription(spec.summary, spec.description));
  const only =
    verb !== undefined && spec.verbs.some((v) => v.name === verb || v.aliases?.includes(verb)) ? verb : undefined;
  for (const v of spec.verbs) {
    if (only === undefined || v.name === only || v.aliases?.includes(only)) addVerb(noun, v, ctx);
    else {
      const stub = noun.command(v.name).summary(v.summary);
      for (const a of v.aliases ?? []) stub.alias(a);
    }
  }
  const firsts = spec.verbs.flatMap((v) => v.examples.slice(0, 1));
  if (spec.verbs.length) addExamples(noun, firsts);
  return noun;
}

/**
 * Build the program. `load` decides which nouns get their verbs: the invoked one (fast path), or all of them
 * (completion scripts, help tests).
 */
export async function buildProgram(ctx: Ctx, argv: string[], opts: { loadAll?: boolean } = {}): Promise<Command> {
  const program = new Command('sq');
  program
    .description('sq: the command line for the scraping platform: squids, tasks, runs, results')
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
  addExamples(program, ['sq runs start --squid "Paris restaurants" --wait']);
  program.addHelpText(
    'after',
    'More: sq <command> --help, sq help topics, man sq, and the command reference:\n' +
      'https://github.com/lobstr-io/lobstr-sq/tree/main/docs/commands\n',
  );

  const { noun, index } = scanArgv(argv);
  // `sq completion <shell>` renders the whole tree: every noun is loaded, as with loadAll.
  const all = opts.loadAll || noun === 'completion';
  const wanted = all ? null : noun === 'help' ? scanArgv(argv.slice(index + 1)).noun : noun;
  // A command line that names a noun sq has (not `help`) needs only that noun: commander dispatches to it, and the
  // other nouns and the help command would be built for nothing. Any other line (none, `help`, an unknown
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
  const help = program.command('help [topic...]').summary('help on a command, or a topic (sq help topics lists them)');
  help.option(
    '--man',
    'print the manual page (roff) of sq, or of the command named; read it with `sq help --man | man -l -`',
  );
  addExamples(help, [
    'sq help runs start',
    'sq help topics',
    'sq help environment',
    'sq help --man runs start | man -l -',
  ]);
  help.action(async (topic: string[], o: { man?: boolean }) => {
    await beforeAction(ctx, help.optsWithGlobals());
    const { showHelp } = await import('./help.js');
    ctx.exitCode = await showHelp(ctx, program, topic ?? [], {
      man: o.man === true,
      buildAll: () => buildProgram(ctx, [], { loadAll: true }),
    });
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
  const find = (parent: Command, name: string) =>
    parent.commands.find((c) => c.name() === name || c.aliases().includes(name));
  const unknown = (parent: Command, name: string): never => {
    const names = parent.commands.map((c) => c.name());
    const near = closest(name, names);
    const where = ['sq', ...commandPath(parent)].join(' ');
    throw new UsageError(
      `unknown command "${name}" for ${where}${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} (commands: ${names.join(', ')})`,
    );
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
