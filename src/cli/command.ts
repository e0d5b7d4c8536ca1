// How a command is declared. One verb per file: src/commands/<noun>/<verb>.ts default-exports a VerbSpec;
// src/commands/<noun>/index.ts default-exports the NounSpec that lists them. A verb may have subcommands of its own
// (`sq squids chain SQUID`, `sq squids chain set SQUID`), to any depth: help, completion and the generated docs walk
// the tree. program.ts turns specs into commander commands and loads a noun's module only when that noun is invoked.
import type { Command } from 'commander';
import type { Ctx } from './context.js';

/**
 * Where shell completion takes an option's value from (src/completion/model.ts):
 * - 'squid', 'run', 'crawler', 'account-type', 'profile': what only the service (or the local profiles) knows,
 *   asked of `sq __complete` at completion time;
 * - 'file': a local path;
 * - { list: [...] }: a comma-separated subset of these words.
 * Without it, `choices` are offered, a placeholder 'a|b' offers a and b, one naming a file (<file>, <x.csv>) paths,
 * and anything else nothing.
 * A positional argument completes from the source its placeholder names: '<squid>', '<run>', '<crawler>', '<profile>'.
 */
export type Completion =
  | 'squid'
  | 'run'
  | 'crawler'
  | 'account'
  | 'account-type'
  | 'profile'
  | 'file'
  | { list: readonly string[] };

export interface OptionSpec {
  /** Commander flags, e.g. '--limit <n>', '-o, --output <file>', '--[no-]retry', '--param <k=v...>'. */
  flags: string;
  description: string;
  /** Shown in help as "(default: …)"; not applied (commands apply defaults so they can tell "not given"). */
  defaultText?: string;
  /** Allowed values, shown in help and offered by shell completion. Validation stays in the command. */
  choices?: readonly string[];
  /** Repeatable option: values collect into an array. */
  repeatable?: boolean;
  hidden?: boolean;
  /**
   * A hidden option that refuses a secret typed on the command line, as it is parsed (before any other check);
   * the text says what to use instead, e.g. '--password-env VAR'. The value is never echoed.
   */
  secretTrap?: string;
  /** Where shell completion takes the value from (see Completion). */
  complete?: Completion;
  /**
   * Global flags only: the verbs it applies to, for the "Inherited flags" block of their help (every command accepts
   * every global flag; `sq help globals` lists them all). 'output': verbs that print data (VerbSpec.output);
   * 'writes': verbs that change something (VerbSpec.writes). Without it, every verb.
   */
  appliesTo?: 'output' | 'writes';
}

export interface VerbSpec<Os extends readonly OptionSpec[] = readonly OptionSpec[]> {
  name: string;
  aliases?: string[];
  /** One line, shown in lists. */
  summary: string;
  /** Longer help text (optional). */
  description?: string;
  /** Commander argument syntax: '<squid>', '[values...]'. */
  args?: string[];
  options?: Os & LiteralFlags<Os>;
  /**
   * Commands under this one: `sq squids chain set SQUID` is the subcommand `set` of the verb `chain`. A word after the
   * verb that names one runs it; any other runs this verb's own `run` with it as an argument.
   */
  subcommands?: VerbSpec[];
  /**
   * What the verb prints, which decides the global flags its help lists as inherited: 'data' (the default) is records
   * or a document, shaped by --json, --format, --fields, --jq, --template…; 'text' is text of its own (a script, a
   * log, a server's banner) that those flags do not change.
   */
  output?: 'data' | 'text';
  /** The verb changes something (on the service, or the local profiles): --dry-run and --yes apply to it. */
  writes?: boolean;
  /** At least one runnable example, e.g. 'sq squids list --limit 20'. */
  examples: string[];
  /**
   * Receives the positional arguments and the verb's own options, typed from `options` (OptionsOf): `opts.squid` is
   * a string or undefined, and a flag the verb does not declare is a compile error. Returns an exit code (default
   * 0). Errors are thrown as SqError subclasses. `command` is the commander command invoked (its parents lead to the
   * whole tree); undefined when the line was plain and read without commander (src/shell/dispatch.ts), which never
   * happens for `sq completion`.
   */
  run(ctx: Ctx, args: string[], opts: OptionsOf<Os>, command?: Command): Promise<number | void>;
}

// The type of a verb's options, read off its flags as commander parses them (camelCased long name, value by form):
// '--limit <n>' → limit?: string; '-y, --yes' → yes?: boolean; '--no-retry' → retry?: boolean; '--x [v]' →
// x?: string | true; repeatable → string[].
type LongFlag<F extends string> = F extends `${string}--${infer R}` ? R : never;
type FlagName<R extends string> = R extends `no-${infer N}` ? FlagName<N> : R extends `${infer N} ${string}` ? N : R;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type OptionValue<O extends OptionSpec> = O['repeatable'] extends true
  ? string[]
  : LongFlag<O['flags']> extends `${string} <${string}>`
    ? string
    : LongFlag<O['flags']> extends `${string} [${string}]`
      ? string | true
      : boolean;
export type OptionsOf<Os extends readonly OptionSpec[]> = {
  [O in Os[number] as Camel<FlagName<LongFlag<O['flags']>>>]?: OptionValue<O>;
};
/** Options whose flags are a plain `string` (an OptionSpec[] variable rather than a literal or defineOptions) would
 * type every option as anything: refused at compile time. */
type LiteralFlags<Os extends readonly OptionSpec[]> = {
  [K in keyof Os]: string extends Os[K]['flags']
    ? { flags: 'declare options with literal flags (defineOptions)' }
    : unknown;
};

export interface NounSpec {
  name: string;
  summary: string;
  description?: string;
  verbs: VerbSpec[];
}

export function defineVerb<const Os extends readonly OptionSpec[] = []>(spec: VerbSpec<Os>): VerbSpec {
  return spec as unknown as VerbSpec;
}

/** Options shared by several verbs, with their flags kept literal so that each verb's `opts` stays typed. */
export function defineOptions<const Os extends readonly OptionSpec[]>(options: Os): Os {
  return options;
}

export function defineNoun(spec: NounSpec): NounSpec {
  return spec;
}

/** The nouns sq knows, with their summaries, so top-level help needs no module loads. */
export interface NounEntry {
  name: string;
  summary: string;
  /** A top-level command with no verbs (sq me, sq balance, sq api) loads a VerbSpec instead. */
  leaf?: boolean;
  /**
   * A leaf's VerbSpec.output, when its own spec does not say: 'text' for a command whose stdout is not records (sq mcp
   * speaks JSON-RPC), so that its help lists none of the output flags as inherited.
   */
  output?: 'data' | 'text';
  load: () => Promise<{ default: NounSpec | VerbSpec }>;
}
