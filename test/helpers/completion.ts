// What shell completion must offer, read from the command tree itself so the completion tests follow the CLI.
import type { NounSpec } from '../../src/cli/command.js';
import { NOUNS } from '../../src/commands/index.js';
import { GLOBAL_OPTIONS } from '../../src/cli/global-flags.js';

/** The long form of every global option (--format, --quiet, …). */
export const longGlobals = GLOBAL_OPTIONS.map((g) => /--[\w-]+/.exec(g.flags)![0]);

/** A noun's verbs and their aliases, sorted. */
export async function verbsOf(noun: string): Promise<string[]> {
  const spec = (await NOUNS.find((n) => n.name === noun)!.load()).default as NounSpec;
  return spec.verbs.flatMap((v) => [v.name, ...(v.aliases ?? [])]).sort();
}
