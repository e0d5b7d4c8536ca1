// The README's "Everyday commands" block, run line by line by bash against a real emulator (its clock sped up so runs
// end in moments), each `sq` the command tree in this process (test/helpers/sq-shell.ts: ~0.2 s of CPU less a line
// than the built binary, whose start is test/e2e's). Only what a reader fills in is filled in: <run> and <hash> (the run the
// block's `runs start` made, the squid's id) and the two input files the block names (tasks.csv, cookies.json).
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { useSqShell } from '../helpers/sq-shell.js';

const root = resolve(import.meta.dirname, '../..');
const emu = useEmulator({ clock: 'real', timeScale: 200 });
const shell = useSqShell();

function everydayBlock(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const m = /## Everyday commands\s*```bash\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README has no Everyday commands block');
  return m[1].split('\n').filter((l) => l.trim() !== '');
}

describe('README everyday commands', () => {
  it('run as written, each line exit 0', async () => {
    emu.expectWrites(
      'POST /v1/squids',
      'POST /v1/squids/*',
      'POST /v1/tasks',
      'POST /v1/tasks/upload',
      'POST /v1/runs',
      'POST /v1/accounts/cookies',
    );
    const cwd = tempDir('sq-everyday-');
    writeFileSync(join(cwd, 'tasks.csv'), 'url\nhttps://www.google.com/maps/search/cafe+kreuzberg\n');
    writeFileSync(join(cwd, 'cookies.json'), JSON.stringify({ auth_token: 'a1b2c3', ct0: 'd4e5f6' }));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      NO_COLOR: '1',
      SQ_BASE_URL: emu.baseUrl,
      SQ_TOKEN: emu.token,
      SQ_CONFIG_DIR: join(cwd, '.sq'),
    };
    const ids: Record<string, string> = {};
    for (const line of everydayBlock()) {
      const script = line.replaceAll('<run>', ids.run ?? '<run>').replaceAll('<hash>', ids.squid ?? '<hash>');
      const r = await execa('bash', ['-c', `set -euo pipefail\n${shell.prelude}\n${script}`], {
        cwd,
        env,
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      if (line.startsWith('sq squids create'))
        ids.squid = String(Object.values(emu.emu.state.squids).find((s) => s.name === 'Berlin cafés')!.id);
      if (line.startsWith('sq runs start'))
        ids.run = String(Object.values(emu.emu.state.runs).find((x) => x.squid === ids.squid)!.id);
    }
    expect(readdirSync(cwd)).toContain('berlin.csv');
    expect(readFileSync(join(cwd, 'berlin.csv'), 'utf8')).toMatch(/^id,name/);
  }, 180_000);
});

describe('chain examples name crawlers the emulator has (README, docs/everyday.md, docs/account-as-code.md)', () => {
  it("every --target-crawler and target_crawler in them is an emulated crawler's slug", async () => {
    const { CRAWLER_DEFS } = await import('../../src/emulator/crawlers.js');
    const slugs = new Set(CRAWLER_DEFS.map((d) => d.slug));
    const named: string[] = [];
    for (const f of ['README.md', 'docs/everyday.md', 'docs/account-as-code.md']) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(/--target-crawler\s+([\w-]+)|target_crawler:\s*([\w-]+)/g))
        named.push(m[1] ?? m[2]);
    }
    expect(named.length).toBeGreaterThanOrEqual(3);
    expect(named.filter((s) => !slugs.has(s))).toEqual([]);
  });
});
