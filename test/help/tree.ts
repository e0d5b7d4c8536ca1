// The whole command tree as the help tests see it: every noun and verb, with its examples, read from the real
// commander program (buildProgram with loadAll) and the specs behind it.
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import type { NounSpec, VerbSpec } from '../../src/cli/command.js';
import { NOUNS } from '../../src/commands/index.js';
import { createContext } from '../../src/shell/factory.js';
import { buildProgram } from '../../src/shell/program.js';
import { GLOBAL_OPTIONS } from '../../src/cli/global-flags.js';

export interface TreeCommand {
  /** argv words that name it: ['runs'], ['runs', 'start'] or ['squids', 'chain', 'set']. */
  words: string[];
  cmd: Command;
  /** The examples of a verb (or a leaf noun); undefined for a noun with verbs (its help shows its verbs' first ones). */
  examples?: string[];
  /** The spec of a verb (or a leaf noun); undefined for a noun with verbs. */
  spec?: VerbSpec;
}

export async function loadTree(): Promise<TreeCommand[]> {
  const ctx = createContext({
    env: { SQ_CONFIG_DIR: '/nonexistent-sq-help-test' },
    io: {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: 120,
    },
  });
  const program = await buildProgram(ctx, [], { loadAll: true });
  const out: TreeCommand[] = [];
  for (const entry of NOUNS) {
    const cmd = program.commands.find((c) => c.name() === entry.name);
    if (!cmd) throw new Error(`noun ${entry.name} is in NOUNS but not in the program`);
    const spec = (await entry.load()).default as NounSpec | VerbSpec;
    if ('run' in spec) {
      // As program.ts builds it: the entry's output stands when the leaf's own spec does not say.
      out.push({
        words: [entry.name],
        cmd,
        examples: spec.examples,
        spec: { ...spec, output: spec.output ?? entry.output },
      });
      continue;
    }
    out.push({ words: [entry.name], cmd });
    // Verbs, and their subcommands at any depth (sq squids chain set).
    const below = (parent: Command, words: string[], verbs: VerbSpec[]): void => {
      for (const verb of verbs) {
        const vcmd = parent.commands.find((c) => c.name() === verb.name);
        if (!vcmd) throw new Error(`verb ${[...words, verb.name].join(' ')} is not in the program`);
        out.push({ words: [...words, verb.name], cmd: vcmd, examples: verb.examples, spec: verb });
        below(vcmd, [...words, verb.name], verb.subcommands ?? []);
      }
    };
    below(cmd, [entry.name], spec.verbs);
  }
  return out;
}

/** Every option spelling a command accepts: its own, the globals, --help. */
export function knownFlags(cmd: Command): Set<string> {
  const names = new Set(['--help', '-h']);
  for (const o of cmd.options) for (const n of [o.short, o.long]) if (n) names.add(n);
  for (const g of GLOBAL_OPTIONS) for (const m of g.flags.matchAll(/--?[\w-]+/g)) names.add(m[0]);
  return names;
}

/**
 * The sq invocations inside an example line ("echo $K | sq auth login --with-token" → [["auth","login","--with-token"]]).
 * A rough shell split: enough to read flags and command words; quoted strings stay one word.
 */
export function sqInvocations(example: string): string[][] {
  const words = example.match(/"[^"]*"|'[^']*'|\$\([^)]*\)|[^\s]+/g) ?? [];
  const runs: string[][] = [];
  let cur: string[] | undefined;
  for (const w of words) {
    if (
      ['|', '||', '&&', ';', '&', '>', '>>', '<', '2>', '2>&1'].includes(w) ||
      w.startsWith('>') ||
      w.startsWith('2>')
    ) {
      cur = undefined;
      continue;
    }
    if (w === 'sq' && !cur) {
      cur = [];
      runs.push(cur);
      continue;
    }
    cur?.push(w);
  }
  return runs;
}

/** Flags in one invocation that the command does not accept (-abc counts as -a -b -c). */
export function unknownFlags(call: string[], known: Set<string>): string[] {
  const bad: string[] = [];
  for (const a of call) {
    if (!/^--?[A-Za-z]/.test(a)) continue;
    const flag = a.split('=')[0];
    const parts = /^-[A-Za-z]{2,}$/.test(flag) ? [...flag.slice(1)].map((ch) => `-${ch}`) : [flag];
    bad.push(...parts.filter((p) => !known.has(p)));
  }
  return bad;
}
