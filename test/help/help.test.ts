// Help is the newcomer's manual: every noun and verb must answer --help with a description and runnable examples,
// and the topics that are not commands (environment, exit-codes) must list what the contract promises.
// The list of commands comes from the loaded tree, so a verb added without examples fails here.
import { describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';
import { knownFlags, loadTree, sqInvocations, unknownFlags } from './tree.js';

const tree = await loadTree();
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('sq <command> --help, for every noun and verb', () => {
  it('the tree has the nouns and verbs of the contract', () => {
    const names = tree.map((t) => t.words.join(' '));
    for (const n of ['auth login', 'squids create', 'tasks add', 'runs start', 'results list', 'delivery webhook', 'billing auto-reset', 'webhook listen']) {
      expect(names, `sq ${n} is missing`).toContain(n);
    }
  });

  for (const t of tree) {
    const name = `sq ${t.words.join(' ')}`;
    it(`${name} --help: exit 0, a description and examples`, async () => {
      const r = await sq([...t.words, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: sq ${t.words.join(' ')}\\b`, 'm'));
      const description = norm(t.cmd.description());
      expect(description.length, `${name} has no description`).toBeGreaterThan(10);
      expect(norm(r.stdout)).toContain(description);
      const examples = r.stdout.split(/^Examples:$/m)[1];
      expect(examples, `${name} --help has no "Examples:" section`).toBeDefined();
      expect(examples!.match(/^ {2}\$ .*\bsq /gm)?.length ?? 0, `${name} --help has no "$ sq …" example`).toBeGreaterThan(0);
    });

    if (t.examples) {
      it(`${name}: examples call it and use only flags it knows`, () => {
        expect(t.examples!.length, `${name} has no examples`).toBeGreaterThan(0);
        const calls = t.examples!.flatMap(sqInvocations);
        const words = [t.words, ...t.cmd.aliases().map((a) => [...t.words.slice(0, -1), a])];
        const own = calls.filter((c) => words.some((w) => w.every((x, i) => c.filter((a) => !a.startsWith('-'))[i] === x)));
        expect(own.length, `no example of ${name} actually runs "${name}": ${JSON.stringify(t.examples)}`).toBeGreaterThan(0);
        const known = knownFlags(t.cmd);
        for (const c of own) expect(unknownFlags(c, known), `an example of ${name} uses flags it does not accept: ${JSON.stringify(t.examples)}`).toEqual([]);
      });
    }

    it(`sq help ${t.words.join(' ')} shows the same help`, async () => {
      const [a, b] = await Promise.all([sq(['help', ...t.words]), sq([...t.words, '--help'])]);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout).toBe(b.stdout);
    });
  }
});

describe('the example checker itself', () => {
  it('splits sq invocations out of shell lines', () => {
    expect(sqInvocations('echo "$KEY" | sq auth login --with-token')).toEqual([['auth', 'login', '--with-token']]);
    expect(sqInvocations('sq results list --squid "Paris restaurants" --all -o out.csv && wc -l out.csv')).toEqual([
      ['results', 'list', '--squid', '"Paris restaurants"', '--all', '-o', 'out.csv'],
    ]);
  });

  it('catches a flag the command does not know, and accepts globals and bundles', () => {
    const runsStart = tree.find((t) => t.words.join(' ') === 'runs start')!;
    const known = knownFlags(runsStart.cmd);
    expect(unknownFlags(['runs', 'start', '--squid', 'x', '--wait', '--json', '-qy', '--format=csv'], known)).toEqual([]);
    expect(unknownFlags(['runs', 'start', '--squid', 'x', '--no-such-flag', '-Z'], known)).toEqual(['--no-such-flag', '-Z']);
  });
});

describe('help topics', () => {
  it('sq help environment lists the variables sq reads', async () => {
    const r = await sq(['help', 'environment']);
    expect(r.code, r.stderr).toBe(0);
    for (const v of ['SQ_TOKEN', 'SQ_PROFILE', 'SQ_BASE_URL', 'SQ_CONFIG_DIR', 'SQ_NO_INPUT', 'CI', 'NO_COLOR', 'FORCE_COLOR']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${v}\\s+\\S`, 'm'));
    }
  });

  it('sq help exit-codes lists every exit code with its meaning', async () => {
    const r = await sq(['help', 'exit-codes']);
    expect(r.code, r.stderr).toBe(0);
    const listed = [...r.stdout.matchAll(/^\s+(\d+)\s+\S/gm)].map((m) => Number(m[1]));
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 130]);
  });

  it('sq --help points at the topics and shows examples', async () => {
    const r = await sq(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sq help environment');
    expect(r.stdout).toContain('sq help exit-codes');
    expect(r.stdout).toMatch(/^ {2}\$ sq /m);
  });

  it('an unknown help topic is an error that names the topics', async () => {
    const r = await sq(['help', 'no-such-thing']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/environment, exit-codes/);
  });
});
