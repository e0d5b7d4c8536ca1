// How a command is declared. One verb per file: src/commands/<noun>/<verb>.ts default-exports a VerbSpec;
// src/commands/<noun>/index.ts default-exports the NounSpec that lists them. program.ts turns specs into commander
// commands and loads a noun's module only when that noun is invoked.
import type { Ctx } from './context.js';

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
}

export interface VerbSpec {
  name: string;
  aliases?: string[];
  /** One line, shown in lists. */
  summary: string;
  /** Longer help text (optional). */
  description?: string;
  /** Commander argument syntax: '<squid>', '[values...]'. */
  args?: string[];
  options?: OptionSpec[];
  /** At least one runnable example, e.g. 'sq squids list --limit 20'. */
  examples: string[];
  /**
   * Receives the positional arguments and the verb's own options (camelCased by commander).
   * Returns an exit code (default 0). Errors are thrown as SqError subclasses.
   */
  run(ctx: Ctx, args: string[], opts: Record<string, unknown>): Promise<number | void>;
}

export interface NounSpec {
  name: string;
  summary: string;
  description?: string;
  verbs: VerbSpec[];
}

export function defineVerb(spec: VerbSpec): VerbSpec {
  return spec;
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
  load: () => Promise<{ default: NounSpec | VerbSpec }>;
}
