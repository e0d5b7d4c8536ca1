// Help is the newcomer's manual: every noun and verb must answer --help with a description and runnable examples,
// and the topics that are not commands (environment, exit-codes) must list what the contract promises.
// The list of commands comes from the loaded tree, so a verb added without examples fails here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../src/cli/global-flags.js';
import { sq } from '../helpers/cli.js';
import { knownFlags, loadTree, sqInvocations, unknownFlags } from './tree.js';

const tree = await loadTree();
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('sq <command> --help, for every noun and verb', () => {
  it('the tree has the nouns and verbs of the contract', () => {
    const names = tree.map((t) => t.words.join(' '));
    for (const n of [
      'auth login',
      'squids create',
      'tasks add',
      'runs start',
      'results list',
      'delivery webhook',
      'billing auto-reset',
      'webhook listen',
    ]) {
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
      // The summary leads and the rest follows the flags (test/help/length.test.ts): each paragraph is shown whole.
      for (const part of t.cmd.description().split('\n\n')) expect(norm(r.stdout)).toContain(norm(part));
      const examples = r.stdout.split(/^Examples:$/m)[1];
      expect(examples, `${name} --help has no "Examples:" section`).toBeDefined();
      expect(
        examples!.match(/^ {2}\$ .*\bsq /gm)?.length ?? 0,
        `${name} --help has no "$ sq …" example`,
      ).toBeGreaterThan(0);
    });

    if (t.examples) {
      it(`${name}: examples call it and use only flags it knows`, () => {
        expect(t.examples!.length, `${name} has no examples`).toBeGreaterThan(0);
        const calls = t.examples!.flatMap(sqInvocations);
        const words = [t.words, ...t.cmd.aliases().map((a) => [...t.words.slice(0, -1), a])];
        const own = calls.filter((c) =>
          words.some((w) => w.every((x, i) => c.filter((a) => !a.startsWith('-'))[i] === x)),
        );
        expect(
          own.length,
          `no example of ${name} actually runs "${name}": ${JSON.stringify(t.examples)}`,
        ).toBeGreaterThan(0);
        const known = knownFlags(t.cmd);
        for (const c of own)
          expect(
            unknownFlags(c, known),
            `an example of ${name} uses flags it does not accept: ${JSON.stringify(t.examples)}`,
          ).toEqual([]);
        // An example that previews or confirms a write is of a verb that writes: its help lists --dry-run and --yes.
        const writesFlags = own.some((c) => c.some((a) => a === '--dry-run' || a === '--yes' || a === '-y'));
        if (writesFlags)
          expect(
            t.spec?.writes,
            `an example of ${name} passes --dry-run or --yes, but its help does not list them (writes is not set)`,
          ).toBe(true);
      });
    }

    it(`${name} --help: says what it does first, then its commands, its flags and the global flags that apply, fits 80 columns when piped`, async () => {
      const r = await sq([...t.words, '--help']);
      // The paragraph after Usage is the summary: what the command does, before any detail.
      const first = r.stdout.split(/\n\n/)[1];
      expect([norm(t.cmd.summary()), `${norm(t.cmd.summary())}.`]).toContain(norm(first));
      // Arguments are listed (after the commands) only when they are described.
      const headings = (r.stdout.split('Examples:')[0].match(/^\S[^\n]*:$/gm) ?? []).filter((h) =>
        /^(Commands|Options|Global Options|Inherited flags .*):$/.test(h),
      );
      const expected = [
        t.cmd.commands.length ? 'Commands:' : '',
        'Options:',
        'Inherited flags (all of them: sq help globals):',
      ];
      expect(headings).toEqual(expected.filter(Boolean));
      expect(r.stdout).not.toContain('Global Options:');
      const globals = r.stdout.split(/^Inherited flags.*$/m)[1]!.split(/^\S/m)[0];
      const uses = { output: t.spec?.output !== 'text', writes: t.spec?.writes === true };
      for (const g of GLOBAL_OPTIONS.filter((o) => !o.hidden)) {
        const flag = /--[\w-]+/.exec(g.flags)![0];
        // A command group (a noun) lists only the flags for every verb; a verb also those its declaration says apply.
        const applies = g.appliesTo === undefined || (t.spec !== undefined && uses[g.appliesTo]);
        expect(globals.includes(`${flag} `) || globals.includes(`${flag}\n`), `${name}: ${flag}`).toBe(applies);
      }
      expect(globals).not.toContain('--version');
      expect(globals.trim().split('\n').length, `${name}: the inherited block is short`).toBeLessThanOrEqual(5);
      for (const line of r.stdout.split('\n'))
        expect(line.length, `${name} --help, piped: a line is wider than 80 columns: ${line}`).toBeLessThanOrEqual(80);
    });

    it(`${name} --help: every example is shown whole, continued with \\ rather than wrapped, at 80 columns and on a terminal`, async () => {
      const examples = t.examples ?? [];
      for (const tty of [false, true]) {
        const r = await sq([...t.words, '--help'], { tty });
        const shown = r.stdout
          .split(/^Examples:$/m)[1]!
          .replace(/ \\\n {6}/g, ' ')
          .split('\n')
          .filter((l) => l.startsWith('  $ '))
          .map((l) => l.slice(4));
        for (const e of examples) expect(shown).toContain(e);
      }
    });

    it(`${name} --help: every default is stated, every number option states its range`, async () => {
      const r = norm((await sq([...t.words, '--help'])).stdout);
      for (const o of t.cmd.options) {
        if (o.hidden) continue;
        if (o.defaultValueDescription !== undefined)
          expect(r, `${name} ${o.long}: default not shown`).toContain(`default: ${o.defaultValueDescription}`);
        if (/<(n|pct|port|duration)>/.test(o.flags))
          expect(o.description, `${name} ${o.long}: no range stated`).toMatch(/\d+\s*-\s*\d+|at most|at least/);
      }
    });

    it(`sq help ${t.words.join(' ')} shows the same help`, async () => {
      const [a, b] = await Promise.all([sq(['help', ...t.words]), sq([...t.words, '--help'])]);
      expect(a.code, a.stderr).toBe(0);
      expect(a.stdout).toBe(b.stdout);
    });
  }
});

describe('help wording and layout', () => {
  it("each noun's summary in `sq --help` (the list that loads no noun) is the one its own help shows", async () => {
    const { NOUNS } = await import('../../src/commands/index.js');
    const differ: string[] = [];
    for (const entry of NOUNS) {
      const own = ((await entry.load()).default as { summary: string }).summary;
      if (own !== entry.summary)
        differ.push(`${entry.name}: "${entry.summary}" in commands/index.ts, "${own}" in its module`);
    }
    expect(differ).toEqual([]);
  });

  it('squids delete says that it deletes the squid', async () => {
    const r = await sq(['squids', 'delete', '--help']);
    expect(r.stdout.split('\n\n')[1]).toMatch(/^Delete a squid with its tasks, runs and results/);
  });

  it('sq help account-file: the file format block is never broken, piped (80 columns) or on a terminal', async () => {
    const block = [
      '      sftp:    { host: sftp.example.com, port: 22, username: deploy,',
      '      webhook: { url: https://ci.example.com/hook,',
      '                 events: [run.done, run.error], retry: true, active: true }',
      '                 secret_key: ${AWS_SECRET_ACCESS_KEY}, active: true }',
    ];
    for (const tty of [false, true]) {
      const lines = (await sq(['help', 'account-file'], { tty })).stdout.split('\n');
      for (const b of block) expect(lines).toContain(b);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(tty ? 120 : 80);
    }
  });

  it('paragraphs are re-flowed to the width, not cut where the source line ended', async () => {
    const r = await sq(['help', 'account-file']);
    expect(r.stdout).toContain(
      'Defaults: port 22, active true, retry true, notifications true, append false.\nevents takes a list',
    );
  });
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
    expect(unknownFlags(['runs', 'start', '--squid', 'x', '--wait', '--json', '-qy', '--format=csv'], known)).toEqual(
      [],
    );
    expect(unknownFlags(['runs', 'start', '--squid', 'x', '--no-such-flag', '-Z'], known)).toEqual([
      '--no-such-flag',
      '-Z',
    ]);
  });
});

describe('help topics', () => {
  it('sq help environment lists the variables sq reads', async () => {
    const r = await sq(['help', 'environment']);
    expect(r.code, r.stderr).toBe(0);
    for (const v of [
      'SQ_TOKEN',
      'SQ_PROFILE',
      'SQ_BASE_URL',
      'SQ_CONFIG_DIR',
      'SQ_NO_INPUT',
      'CI',
      'NO_COLOR',
      'FORCE_COLOR',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${v}\\s+\\S`, 'm'));
    }
  });

  it('sq help environment lists every variable of the README table, and both say XDG_CONFIG_HOME moves the profiles', async () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Environment'), readme.indexOf('## Profiles'));
    const vars = [...table.matchAll(/^\| (.+?) \|/gm)].flatMap((m) =>
      [...m[1].matchAll(/`([A-Z_]+)`/g)].map((v) => v[1]),
    );
    expect(vars).toContain('TZ');
    const r = await sq(['help', 'environment']);
    for (const v of vars) expect(r.stdout, v).toMatch(new RegExp(`^\\s+${v}\\s+\\S`, 'm'));
    expect(r.stdout).toMatch(/SQ_CONFIG_DIR .*\$XDG_CONFIG_HOME\/sq/);
    expect(table).toMatch(/`SQ_CONFIG_DIR` .*`\$XDG_CONFIG_HOME\/sq`/);
  });

  it('sq help exit-codes lists every exit code with its meaning', async () => {
    const r = await sq(['help', 'exit-codes']);
    expect(r.code, r.stderr).toBe(0);
    const listed = [...r.stdout.matchAll(/^\s+(\d+)\s+\S/gm)].map((m) => Number(m[1]));
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130]);
  });

  it('sq --help points at the topics and shows examples', async () => {
    const r = await sq(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sq help topics');
    expect(r.stdout).toMatch(/^ {2}\$ sq /m);
  });

  it('sq help topics lists every topic, and each one prints its text within 80 columns', async () => {
    const { TOPICS } = await import('../../src/shell/help-topics.js');
    const list = await sq(['help', 'topics']);
    expect(list.code, list.stderr).toBe(0);
    for (const name of ['environment', 'exit-codes', 'globals', ...Object.keys(TOPICS)])
      expect(list.stdout).toContain(`  ${name} `);
    for (const name of Object.keys(TOPICS)) {
      const r = await sq(['help', name]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(
        TOPICS[name].text.split('\n\n')[0].replace(/\s+/g, ' ').slice(0, 60),
      );
      for (const l of r.stdout.split('\n')) expect(l.length, `sq help ${name}: ${l}`).toBeLessThanOrEqual(80);
    }
  });

  it("help environment, exit-codes and globals wrap at the terminal's width (80 piped), under their own column", async () => {
    for (const [topic, keyWidth] of [
      ['environment', 20],
      ['exit-codes', 5],
      ['globals', 24],
    ] as const) {
      for (const [tty, columns, width] of [
        [false, 200, 80],
        [true, 70, 70],
        [true, 100, 100],
      ] as const) {
        const r = await sq(['help', topic], { tty, columns });
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.trimEnd().split('\n');
        for (const l of lines) expect(l.length, `${topic} at ${width}: ${l}`).toBeLessThanOrEqual(width);
        // A continued line starts under the text, not at the margin.
        expect(
          lines.some((l) => l.startsWith(' '.repeat(2 + keyWidth + 1)) && l.trim() !== ''),
          topic,
        ).toBe(true);
      }
    }
  });

  it('sq help globals lists every global flag', async () => {
    const { GLOBAL_OPTIONS } = await import('../../src/cli/global-flags.js');
    const r = await sq(['help', 'globals']);
    expect(r.code).toBe(0);
    for (const o of GLOBAL_OPTIONS) expect(r.stdout).toContain(o.flags);
  });

  it('an unknown command is exit 2 with --help too, naming the closest commands', async () => {
    for (const [args, msg] of [
      [['frobnicate', '--help'], 'unknown command "frobnicate" for sq'],
      [['squids', 'lst', '--help'], 'unknown command "lst" for sq squids; did you mean "list"?'],
      [['-h', 'runz'], 'unknown command "runz" for sq; did you mean "runs"?'],
    ] as const) {
      const r = await sq([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(msg);
    }
    expect((await sq(['squids', 'list', '--help'])).code).toBe(0);
    expect((await sq(['api', '/v1/me', '--help'])).code).toBe(0);
  });

  it('an unknown help topic is an error that names the topics', async () => {
    const r = await sq(['help', 'no-such-thing']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/environment, exit-codes/);
  });
});
