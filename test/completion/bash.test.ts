// The generated bash script, run by a real bash: source it, set COMP_WORDS/COMP_CWORD as readline would, call _sq
// and read COMPREPLY. Expected values come from the command tree itself (NOUNS, the loaded noun specs,
// GLOBAL_OPTIONS, FORMATS, RUN_EVENTS), so the test follows the CLI as it grows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../../src/commands/index.js';
import { FORMATS } from '../../src/output/types.js';
import { RUN_EVENTS } from '../../src/validate/index.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { longGlobals, verbsOf } from '../helpers/completion.js';

let script: string;
let work: string;

beforeAll(async () => {
  const r = await sq(['completion', 'bash']);
  expect(r.code, r.stderr).toBe(0);
  work = tempDir('sq-bash-comp-');
  script = join(work, 'sq.bash');
  writeFileSync(script, r.stdout);
});

/** What _sq offers when the cursor is on the last word. */
async function complete(...words: string[]): Promise<string[]> {
  const r = await execa(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _sq; printf "%s\\n" "${COMPREPLY[@]}"',
      'bash',
      script,
      ...words,
    ],
    { cwd: work, reject: false },
  );
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('bash completion through a real bash', () => {
  it('registers _sq for sq', async () => {
    const r = await execa('bash', ['--norc', '-c', 'source "$1"; complete -p sq', 'bash', script]);
    expect(r.stdout.trim()).toBe('complete -F _sq sq');
  });

  it('offers every noun after `sq `', async () => {
    const got = await complete('sq', '');
    expect(got.sort()).toEqual([...NOUNS.map((n) => n.name), 'help'].sort());
  });

  it('offers the nouns matching a prefix', async () => {
    expect((await complete('sq', 'b')).sort()).toEqual(
      NOUNS.map((n) => n.name)
        .filter((n) => n.startsWith('b'))
        .sort(),
    );
  });

  it('offers the verbs (and aliases) of runs after `sq runs `', async () => {
    const got = await complete('sq', 'runs', '');
    expect(got).toEqual(expect.arrayContaining(['list', 'start', 'watch', 'abort', 'download']));
    expect(got.sort()).toEqual(await verbsOf('runs'));
  });

  it('finds the noun after global options and their values', async () => {
    const got = await complete('sq', '--format', 'csv', '-q', 'runs', 'st');
    expect(got.sort()).toEqual((await verbsOf('runs')).filter((v) => v.startsWith('st')));
  });

  it('offers the run event names after `sq delivery webhook --events `', async () => {
    expect((await complete('sq', 'delivery', 'webhook', '--events', '')).sort()).toEqual([...RUN_EVENTS, 'all'].sort());
  });

  it('completes a comma-separated event list item by item, without repeats', async () => {
    const got = await complete('sq', 'delivery', 'webhook', '--squid', 'x', '--events', 'run.done,run.');
    expect(got.sort()).toEqual(['run.done,run.error', 'run.done,run.paused', 'run.done,run.running']);
  });

  it('offers the formats after --format, anywhere in the line', async () => {
    expect((await complete('sq', '--format', '')).sort()).toEqual([...FORMATS].sort());
    expect(await complete('sq', 'squids', 'list', '--format', 'n')).toEqual(['ndjson']);
    // readline splits --format=csv at '=' (COMP_WORDBREAKS)
    expect(await complete('sq', 'runs', 'list', '--format', '=', 'ts')).toEqual(['tsv']);
  });

  it("offers the global options, and the verb's own, after `sq squids list --`", async () => {
    const got = await complete('sq', 'squids', 'list', '--');
    expect(got).toEqual(expect.arrayContaining([...longGlobals, '--help']));
    const own = (await import('../../src/commands/squids/list.js')).default.options ?? [];
    for (const o of own) expect(got).toContain(/--[\w-]+/.exec(o.flags)![0]);
    expect(got).not.toContain('--version');
  });

  it("resolves a verb alias to the verb's options", async () => {
    const viaAlias = await complete('sq', 'runs', 'ls', '--');
    const viaName = await complete('sq', 'runs', 'list', '--');
    expect(viaAlias).toEqual(viaName);
    expect(viaName).toContain('--squid');
  });

  it('offers choices of a verb option (emulator start --seed)', async () => {
    expect((await complete('sq', 'emulator', 'start', '--seed', '')).sort()).toEqual(['demo', 'empty']);
  });

  it('offers the shells for `sq completion `', async () => {
    expect((await complete('sq', 'completion', '')).sort()).toEqual(['bash', 'fish', 'zsh']);
  });

  it('completes file names for an option that takes a <file>', async () => {
    mkdirSync(join(work, 'exports'), { recursive: true });
    writeFileSync(join(work, 'exports', 'paris.csv'), 'id\n');
    expect(await complete('sq', 'results', 'list', '-o', 'exports/pa')).toEqual(['exports/paris.csv']);
  });

  it('offers nothing made up for a free value (a squid name)', async () => {
    expect(await complete('sq', 'runs', 'start', '--squid', '')).toEqual([]);
  });

  it('a name with "!" is inserted so that an interactive bash (history expansion on) reads it back as it is', async () => {
    // What `sq __complete squids` answers (one name per line), from a stand-in for sq at COMP_WORDS[0]: the quoting
    // under test is the script's own.
    const name = 'Deals!today "50%" $HOME `x` !!';
    const stub = join(work, 'sq-answers');
    writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' '${name.replace(/'/g, `'\\''`)}'\n`, { mode: 0o755 });
    const replies = [
      ...(await complete(stub, 'squids', 'get', 'Deals')),
      ...(await complete(stub, 'squids', 'get', '"Deals')),
      ...(await complete(stub, 'squids', 'get', "'Deals")),
    ];
    expect(replies).toHaveLength(3);
    // Each as typed at an interactive prompt, where "!" inside "..." would be an event ("event not found").
    const r = await execa('bash', ['--norc', '--noprofile', '-i'], {
      input: replies.map((w) => `printf '%s\\n' ${w}\n`).join(''),
      cwd: work,
      reject: false,
      env: { HOME: work, PS1: '', TERM: 'dumb' },
    });
    expect(r.stderr).not.toContain('event not found');
    expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual([name, name, name]);
  });
});

describe('bash completion below a verb (sq squids chain set)', () => {
  it('offers the subcommands of a verb that has them, then their own options', async () => {
    expect(await complete('sq', 'squids', 'chain', '')).toEqual(expect.arrayContaining(['set', 'delete', 'rm']));
    expect((await complete('sq', 'squids', 'chain', 'set', 'X', '--target-c')).sort()).toEqual([
      '--target-concurrency',
      '--target-crawler',
    ]);
    expect(await complete('sq', 'squids', 'chain', 'set', 'X', '--no-a')).toEqual(['--no-autostart']);
    // After the squid argument of `chain` itself, no subcommand is offered.
    expect(await complete('sq', 'squids', 'chain', 'Paris', '')).not.toContain('set');
  });
});
