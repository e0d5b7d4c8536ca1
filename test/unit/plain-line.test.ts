// A plain command line is read without commander (src/shell/dispatch.ts, parsePlainLine); commander stays the parser of
// record. Over generated command lines of every verb: whatever the plain reader takes, commander parses without an
// error to the same arguments, the same options (in the same order) and the same globals.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { NounSpec, OptionSpec, VerbSpec } from '../../src/cli/command.js';
import { parsePlainLine, plainLine } from '../../src/shell/dispatch.js';
import { createContext } from '../../src/shell/factory.js';
import { GLOBAL_OPTIONS } from '../../src/cli/global-flags.js';
import { buildProgram } from '../../src/shell/program.js';
import { NOUNS } from '../../src/commands/index.js';

interface Parsed {
  args: string[];
  opts: Record<string, unknown>;
  withGlobals: Record<string, unknown>;
}

const ctx = createContext({
  env: { SQ_CONFIG_DIR: '/nonexistent-sq-plain-line-test' },
  io: {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: 100,
  },
});

/** commander's parse of `argv`: what the leaf's action would receive, or the error it stopped with. */
async function commanderParse(argv: string[]): Promise<Parsed | { error: unknown }> {
  try {
    const program = await buildProgram(ctx, argv);
    let parsed: Parsed | undefined;
    // The action is replaced on every command of the line's noun: the one commander dispatches to reports.
    const capture = (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const args = command.processedArgs
        .flatMap((v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
        .map(String);
      parsed = { args, opts: { ...command.opts() }, withGlobals: { ...command.optsWithGlobals() } };
    };
    const noun = program.commands.find((c) => c.name() === argv[0]);
    for (const c of [noun, ...(noun?.commands ?? [])]) c?.action(capture);
    await program.parseAsync(argv, { from: 'user' });
    return parsed ?? { error: 'no action ran' };
  } catch (error) {
    return { error };
  }
}

/** Every verb a plain line can name, with the argv words that name it. */
async function verbs(): Promise<{ words: string[]; spec: NounSpec | VerbSpec; verb: VerbSpec }[]> {
  const out: { words: string[]; spec: NounSpec | VerbSpec; verb: VerbSpec }[] = [];
  for (const entry of NOUNS) {
    const spec = (await entry.load()).default;
    if ('verbs' in spec) for (const v of spec.verbs) out.push({ words: [entry.name, v.name], spec, verb: v });
    else {
      const leaf = { ...spec, name: entry.name };
      out.push({ words: [entry.name], spec: leaf, verb: leaf });
    }
  }
  return out;
}

/** The words of one option as a line may write it: the flag, with a value where it takes one. */
function optionWords(o: OptionSpec): fc.Arbitrary<string[]> {
  const words = o.flags.split(/[ |,]+/);
  const flags = words.filter((w) => w.startsWith('-'));
  const takes = words.some((w) => w.startsWith('<') || w.startsWith('['));
  const flag = fc.constantFrom(...flags);
  if (!takes)
    return fc.oneof(
      flag.map((f) => [f]),
      flag.map((f) => [`${f}=1`]),
    );
  const value = fc.constantFrom('v', 'a b', '', 'k=v', '5', '-5', '-x', '--json', 'nope', ...(o.choices ?? []));
  return fc.oneof(
    fc.tuple(flag, value).map(([f, v]) => [f, v]),
    fc.tuple(flag, value).map(([f, v]) => [`${f}=${v}`]),
    flag.map((f) => [f]),
  );
}

const stray = fc.constantFrom(
  'word',
  'list',
  'me',
  '-',
  '--',
  '-h',
  '--help',
  '-V',
  '--version',
  '-qv',
  '--nope',
  '-Z',
  '--json=1',
  '--no-color',
  '--color',
  '--no-input',
);

describe('plain command lines', () => {
  it('the lines scripts and loops use most are plain, and read as commander reads them', async () => {
    const lines = [
      ['me', '--json'],
      ['me'],
      ['squids', 'list', '--json'],
      ['squids', 'ls', '--limit', '5', '--fields=id,name', '-q'],
      ['profiles', 'list', '--json'],
      ['runs', 'get', 'abc', '--json'],
      ['runs', 'list', '--squid', 'Paris restaurants', '--format', 'csv'],
      ['tasks', 'list', '--json', '--squid', 'x', '--no-color', '--profile', 'work'],
    ];
    for (const argv of lines) {
      const spec = (await NOUNS.find((e) => e.name === argv[0])!.load()).default;
      const plain = parsePlainLine(argv, 'verbs' in spec ? spec : { ...spec, name: argv[0]! });
      expect(plain, argv.join(' ')).toBeDefined();
      const { verb: _verb, ...read } = plain!;
      expect(JSON.stringify(read), argv.join(' ')).toBe(JSON.stringify(await commanderParse(argv)));
    }
  });

  it('help, errors and the forms it does not read go to commander', async () => {
    for (const argv of [
      ['me', '--help'],
      ['me', '-h'],
      ['me', 'extra'],
      ['me', '-qv'],
      ['me', '--json=1'],
      ['me', '--jsn'],
      ['squids', 'list', '--limit', '-5'],
      ['squids', 'list', '--limit'],
      ['squids', 'list', '--format', 'yaml-ish'],
      ['squids', 'list', '--json', '--json'],
      ['squids', 'lst'],
      ['squids'],
      ['squids', 'chain', 'x'],
      ['runs', 'get'],
      ['completion', 'bash'],
      ['help', 'me'],
      ['--json', 'me'],
      ['nope'],
      [],
    ]) {
      expect(await plainLine(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it('whatever it reads, commander reads the same (generated lines of every verb)', async () => {
    const all = await verbs();
    let read = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...all).chain((v) =>
          fc.tuple(
            fc.constant(v),
            fc.array(
              fc.oneof(
                ...[...GLOBAL_OPTIONS, ...(v.verb.options ?? [])].map(optionWords),
                stray.map((w) => [w]),
              ),
              { maxLength: 6 },
            ),
            fc.constantFrom(v.verb.aliases?.[0] ?? v.verb.name, v.verb.name),
          ),
        ),
        async ([v, pieces, verbWord]) => {
          runs++;
          const argv = [...(v.words.length > 1 ? [v.words[0]!, verbWord] : v.words), ...pieces.flat()];
          const plain = parsePlainLine(argv, v.spec);
          if (!plain) return;
          read++;
          const { verb, ...got } = plain;
          expect(verb).toBe(v.verb);
          expect(JSON.stringify(got), argv.join(' ')).toBe(JSON.stringify(await commanderParse(argv)));
        },
      ),
      { numRuns: 3000 },
    );
    // Not a property that holds by reading nothing: a good share of the generated lines are plain.
    expect(read).toBeGreaterThan(runs / 10);
  });
});
