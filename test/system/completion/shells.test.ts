// The generated zsh and fish scripts, run by the real shells (zsh and fish must be installed: apt-get install zsh
// fish). zsh runs interactively in a pseudo-terminal (capture.zsh) and we record what completion offers after a
// Tab; fish answers `complete -C '<line>'` directly. Expected values come from the command tree, as in bash.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOUNS } from '../../../src/commands/index.js';
import { FORMATS } from '../../../src/output/types.js';
import { RUN_EVENTS } from '../../../src/validate/index.js';
import { sq } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/fs.js';
import { longGlobals, verbsOf } from '../../helpers/completion.js';

const LINES = {
  nouns: 'sq ',
  verbs: 'sq runs ',
  afterGlobals: 'sq --format csv -q runs st',
  events: 'sq delivery webhook --events ',
  eventsMore: 'sq delivery webhook --squid x --events run.done,',
  format: 'sq squids list --format ',
  options: 'sq squids list --',
  alias: 'sq runs ls --sq',
  shells: 'sq completion ',
  file: 'sq results list -o exports/pa',
};

const nounNames = [...NOUNS.map((n) => n.name), 'help'].sort();

function workDir(): string {
  const dir = tempDir('sq-shell-comp-');
  mkdirSync(join(dir, 'exports'));
  writeFileSync(join(dir, 'exports', 'paris.csv'), 'id\n');
  return dir;
}

async function script(shell: 'zsh' | 'fish'): Promise<string> {
  const r = await sq(['completion', shell]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('zsh completion through a real interactive zsh', () => {
  const got: Record<string, string[]> = {};
  beforeAll(async () => {
    const dir = workDir();
    writeFileSync(join(dir, '_sq'), await script('zsh'));
    const r = await execa(
      'zsh',
      ['-f', resolve(import.meta.dirname, '../../completion/capture.zsh'), dir, ...Object.values(LINES)],
      { cwd: dir, timeout: 60_000 },
    );
    let cur: string[] = [];
    for (const l of r.stdout.split('\n')) {
      if (l.startsWith('== ')) got[l.slice(3)] = cur = [];
      else if (l) cur.push(l);
    }
  }, 90_000);

  it('offers the nouns, then the verbs of a noun, also after global options', async () => {
    expect(got[LINES.nouns]).toEqual(nounNames);
    expect(got[LINES.verbs]).toEqual(await verbsOf('runs'));
    expect(got[LINES.afterGlobals]).toEqual((await verbsOf('runs')).filter((v) => v.startsWith('st')));
  });

  it('offers run events, comma-separated, and formats', () => {
    expect(got[LINES.events]).toEqual([...RUN_EVENTS, 'all'].sort());
    expect(got[LINES.eventsMore]).toEqual([...RUN_EVENTS, 'all'].filter((e) => e !== 'run.done').sort());
    expect(got[LINES.format]).toEqual([...FORMATS].sort());
  });

  it('offers global and own options, through aliases too', () => {
    expect(got[LINES.options]).toEqual(expect.arrayContaining([...longGlobals, '--help', '--name']));
    expect(got[LINES.alias]).toEqual(['--squid']);
  });

  it('offers shells and file names', () => {
    expect(got[LINES.shells]).toEqual(['bash', 'fish', 'zsh']);
    // _files adds the directory part and the file name separately.
    expect(got[LINES.file]).toContain('paris.csv');
    expect(got[LINES.file]).not.toContain('exports.csv');
  });
});

describe('fish completion through a real fish', () => {
  const got: Record<string, string[]> = {};
  beforeAll(async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'sq.fish'), await script('fish'));
    const program =
      'source $argv[1]; for l in $argv[2..-1]; echo "== $l"; complete -C "$l" | string replace -r "\\t.*" ""; end; true';
    const r = await execa('fish', ['--no-config', '-c', program, join(dir, 'sq.fish'), ...Object.values(LINES)], {
      cwd: dir,
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    let cur: string[] = [];
    for (const l of r.stdout.split('\n')) {
      if (l.startsWith('== ')) got[l.slice(3)] = cur = [];
      else if (l) cur.push(l);
    }
  }, 90_000);

  it('offers the nouns, then the verbs of a noun, also after global options', async () => {
    expect([...got[LINES.nouns]].sort()).toEqual(nounNames);
    expect([...got[LINES.verbs]].sort()).toEqual(await verbsOf('runs'));
    expect([...got[LINES.afterGlobals]].sort()).toEqual((await verbsOf('runs')).filter((v) => v.startsWith('st')));
  });

  it('offers run events, comma-separated, and formats', () => {
    expect([...got[LINES.events]].sort()).toEqual([...RUN_EVENTS, 'all'].sort());
    expect([...got[LINES.eventsMore]].sort()).toEqual(
      [...RUN_EVENTS, 'all']
        .filter((e) => e !== 'run.done')
        .map((e) => `run.done,${e}`)
        .sort(),
    );
    expect([...got[LINES.format]].sort()).toEqual([...FORMATS].sort());
  });

  it('offers global and own options, through aliases too', () => {
    expect(got[LINES.options]).toEqual(expect.arrayContaining([...longGlobals, '--help', '--name']));
    expect(got[LINES.alias]).toEqual(['--squid']);
  });

  it('offers shells and file names', () => {
    expect([...got[LINES.shells]].sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(got[LINES.file]).toEqual(['exports/paris.csv']);
  });
});
