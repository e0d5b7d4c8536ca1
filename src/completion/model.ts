// A shell-neutral picture of the command tree, read from the real commander program so completion can never drift
// from what sq accepts. The three renderers (bash, zsh, fish) only turn this model into script text.
import type { Command, Option } from 'commander';
import type { Completion } from '../cli/command.js';
import { COMPLETION, REPEATABLE, makeOption } from '../cli/global-options.js';
import { GLOBAL_OPTIONS } from '../cli/global-flags.js';
import type { Source } from './values.js';

/** How the value of an option or argument is completed. */
export type ValueKind =
  | { kind: 'none' } // a flag: takes no value
  | { kind: 'free' } // takes a value we cannot guess (a name, a number)
  | { kind: 'file' }
  | { kind: 'words'; words: string[] }
  | { kind: 'list'; words: string[] } // comma-separated subset of words
  | { kind: 'dynamic'; source: Source }; // what `sq __complete <source>` prints at completion time (values.ts)

export interface OptModel {
  /** Every spelling: '-o', '--output'. */
  names: string[];
  description: string;
  value: ValueKind;
  repeatable: boolean;
}

export interface ArgModel {
  name: string;
  variadic: boolean;
  value: ValueKind;
}

export interface CmdModel {
  name: string;
  aliases: string[];
  summary: string;
  /** Canonical names from the root, e.g. ['runs', 'start']; [] for the root. */
  path: string[];
  /** The command's own options (globals live on the root and apply everywhere). */
  options: OptModel[];
  args: ArgModel[];
  commands: CmdModel[];
}

// A declared completion (OptionSpec.complete, or an argument's placeholder) as a value kind.
const SOURCES: Record<Exclude<Completion, 'file' | { list: readonly string[] }>, Source> = {
  squid: 'squids',
  run: 'runs',
  crawler: 'crawlers',
  'account-type': 'account-types',
  profile: 'profiles',
  account: 'accounts',
};

function declared(c: Completion): ValueKind {
  if (typeof c === 'object') return { kind: 'list', words: [...c.list] };
  if (c === 'file') return { kind: 'file' };
  return { kind: 'dynamic', source: SOURCES[c] };
}

// Positional arguments whose values are a fixed set, keyed by argument name.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const ARG_VALUES: Record<string, string[]> = {
  shell: [...SHELLS],
};

// `sq help <topic>` also knows topics that are not commands.
const HELP_TOPICS = ['environment', 'exit-codes', 'globals'];

// 'file', 'cookies-file', 'file.csv', but not 'profile'. Not 'path' or 'directory': in sq those are API paths and
// remote SFTP directories, never local ones.
const FILE_PLACEHOLDER = /(^|[^a-z])file|\.(csv|json|ya?ml|txt|ndjson)$/i;

/** The placeholder inside <...> or [...] of an option's flags, e.g. 'file' for '-o, --output <file>'. */
function placeholder(flags: string): string | undefined {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1]?.replace(/\.\.\.$/, '');
}

/** 'url|params' in a placeholder is an enumeration the command will validate: offer it. */
function alternatives(ph: string | undefined): string[] | undefined {
  if (!ph || !ph.includes('|')) return undefined;
  const parts = ph.split('|').map((p) => p.trim());
  // 'file.yaml|json' is a file hint, not a list of values.
  if (parts.some((p) => !/^[a-z][a-z0-9._-]*$/i.test(p)) || FILE_PLACEHOLDER.test(parts[0])) return undefined;
  return parts;
}

function optionValue(o: Option): ValueKind {
  if (!o.required && !o.optional) return { kind: 'none' };
  const c = COMPLETION.get(o);
  if (c) return declared(c);
  if (o.argChoices?.length) return { kind: 'words', words: [...o.argChoices] };
  const ph = placeholder(o.flags);
  const alts = alternatives(ph);
  if (alts) return { kind: 'words', words: alts };
  if ((ph && FILE_PLACEHOLDER.test(ph)) || /-file$/.test(o.long ?? '')) return { kind: 'file' };
  return { kind: 'free' };
}

function optModel(o: Option, repeatable: boolean): OptModel[] {
  const value = optionValue(o);
  const description = o.description.replace(/\s+/g, ' ').trim();
  // '--[no-]retry' in a spec means both spellings.
  const m = o.long && /^--\[no-\](.+)$/.exec(o.long);
  if (m) {
    return [
      { names: [`--${m[1]}`], description, value, repeatable },
      { names: [`--no-${m[1]}`], description: `not: ${description}`, value, repeatable },
    ];
  }
  const names = [o.short, o.long].filter((n): n is string => typeof n === 'string' && n.length > 0);
  return [{ names, description, value, repeatable }];
}

function isRepeatable(o: Option): boolean {
  return o.variadic || REPEATABLE.has(o);
}

function argModel(cmd: Command, path: string[], siblings: string[]): ArgModel[] {
  return cmd.registeredArguments.map((a) => {
    const name = a.name();
    let value: ValueKind = { kind: 'free' };
    if (a.argChoices?.length) value = { kind: 'words', words: [...a.argChoices] };
    else if (Object.hasOwn(SOURCES, name)) value = declared(name as keyof typeof SOURCES);
    else if (ARG_VALUES[name]) value = { kind: 'words', words: ARG_VALUES[name] };
    else if (path.length === 1 && path[0] === 'help') value = { kind: 'words', words: [...siblings, ...HELP_TOPICS] };
    else if (alternatives(name)) value = { kind: 'words', words: alternatives(name)! };
    else if (FILE_PLACEHOLDER.test(name)) value = { kind: 'file' };
    return { name, variadic: a.variadic, value };
  });
}

const HELP_OPT: OptModel = {
  names: ['-h', '--help'],
  description: 'show help',
  value: { kind: 'none' },
  repeatable: false,
};

function walk(cmd: Command, path: string[], rootNames: string[]): CmdModel {
  const options = cmd.options.filter((o) => !o.hidden).flatMap((o) => optModel(o, isRepeatable(o)));
  const commands = cmd.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => walk(c, [...path, c.name()], rootNames));
  return {
    name: path.length ? path[path.length - 1] : cmd.name(),
    aliases: cmd.aliases(),
    summary: (cmd.summary() || cmd.description()).replace(/\s+/g, ' ').trim(),
    path,
    options: [...options, HELP_OPT],
    args: argModel(cmd, path, rootNames),
    commands,
  };
}

/** The model of a fully loaded program (buildProgram with loadAll). */
export function modelFromProgram(program: Command): CmdModel {
  const rootNames = program.commands.map((c) => c.name()).filter((n) => n !== 'help');
  const root = walk(program, [], rootNames);
  // The root's options are the globals; rebuild them from GLOBAL_OPTIONS so the order is the documented one.
  const globals = GLOBAL_OPTIONS.filter((g) => !g.hidden).flatMap((g) => {
    const o = makeOption(g);
    return optModel(o, isRepeatable(o));
  });
  const version: OptModel = {
    names: ['-V', '--version'],
    description: 'print the version',
    value: { kind: 'none' },
    repeatable: false,
  };
  root.options = [...globals, version, HELP_OPT];
  return root;
}

/** Every command in the tree, parents before children, in tree order. */
export function allCommands(root: CmdModel): CmdModel[] {
  return [root, ...root.commands.flatMap(allCommands)];
}

/** Option spellings that take a value, e.g. for skipping '--squid X' while finding the command path. */
export function valueOptionNames(opts: OptModel[]): string[] {
  return opts.filter((o) => o.value.kind !== 'none').flatMap((o) => o.names);
}

/** A shell single-quoted word (bash and zsh alike). */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
