// How an option spec becomes a commander Option (the global options themselves are data in global-flags.ts). A leaf
// module: help, completion and the program builder read it, so none of them imports program.ts back.
import { Option, type Command } from 'commander';
import type { Completion, OptionSpec } from './command.js';
import { UsageError } from '../errors.js';
import { APPLIES } from './help-layout.js';

/** The options makeOption made repeatable, for the completion model (a parser alone does not say so). */
export const REPEATABLE = new WeakSet<Option>();
/** Each option's declared completion source (OptionSpec.complete), for the completion model. */
export const COMPLETION = new WeakMap<Option, Completion>();

export function makeOption(o: OptionSpec): Option {
  const opt = new Option(o.flags, o.description);
  if (o.choices) opt.choices(o.choices as string[]);
  if (o.defaultText) opt.default(undefined, o.defaultText);
  if (o.hidden) opt.hideHelp();
  if (o.complete) COMPLETION.set(opt, o.complete);
  if (o.appliesTo) APPLIES.set(opt, o.appliesTo);
  if (o.repeatable) {
    opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    REPEATABLE.add(opt);
  }
  if (o.secretTrap) {
    const instead = o.secretTrap;
    opt.hideHelp().argParser(() => {
      throw new UsageError(
        `${opt.long} is not accepted: a secret on the command line is visible to other users (ps) and stays in your shell history. ` +
          `Use ${instead} instead, and consider changing the secret you just typed`,
      );
    });
  }
  return opt;
}

/** Each command's examples, for the generated reference and manual pages (help-docs.ts). */
export const EXAMPLES = new WeakMap<Command, string[]>();
