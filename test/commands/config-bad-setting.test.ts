// A value stored in the profile file that its key does not take (the file edited by hand, `"max-credits": "abc"`):
// `sq config list` still lists every key and marks it invalid, `config get` of that key and the commands that read it
// stop with exit 2 naming the key, the file and `sq config unset KEY`, and `config unset` fixes it. The stored value
// is never quoted (it may be a key pasted in the wrong place). The other keys and commands go on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

function profileWith(settings: Record<string, string>): { cfg: string; file: string } {
  const cfg = tempConfigDir();
  const file = join(cfg, 'config.json');
  writeFileSync(file, JSON.stringify({ profiles: { default: { settings } } }), { mode: 0o600 });
  return { cfg, file };
}

describe('a bad setting stored in the profile file', () => {
  it('config list lists every key, the bad one as invalid without its value, and says how to fix it (exit 0)', async () => {
    const { cfg, file } = profileWith({ 'max-credits': 'abcSECRET', 'confirm-above': '250' });
    const r = await sq(['config', 'list', '--json'], { env: { SQ_CONFIG_DIR: cfg } });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { key: string; value: string | null; source: string }[];
    expect(rows.map((x) => [x.key, x.value, x.source])).toEqual([
      ['max-credits', null, 'invalid'],
      ['confirm-above', '250', 'profile'],
      ['update-notifier', 'on', 'default'],
      ['csv-safe', 'off', 'default'],
    ]);
    expect(r.stderr).toBe(
      `warning: the max-credits setting stored in profile "default" of ${file} is not valid (it ` +
        `takes a number of credits, 0 or more): run \`sq config unset max-credits\` (back to its default) ` +
        `or \`sq config set max-credits VALUE\`\n`,
    );
    expect(r.stdout + r.stderr).not.toContain('abcSECRET');
  });

  it('config get of the bad key is exit 2 naming key, file and the fix; of another key, its value', async () => {
    const { cfg, file } = profileWith({ 'max-credits': 'abcSECRET', 'confirm-above': '250' });
    const bad = await sq(['config', 'get', 'max-credits'], { env: { SQ_CONFIG_DIR: cfg } });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain(`the max-credits setting stored in profile "default" of ${file} is not valid`);
    expect(bad.stderr).toContain('sq config unset max-credits');
    expect(bad.stderr).not.toContain('abcSECRET');
    const good = await sq(['config', 'get', 'confirm-above'], { env: { SQ_CONFIG_DIR: cfg } });
    expect(good).toMatchObject({ code: 0, stdout: '250\n' });
  });

  it('a command that reads it stops before any request (exit 2); one that does not goes on; config unset fixes it', async () => {
    const { cfg, file } = profileWith({ 'max-credits': 'abc' });
    const env = emu.env({ SQ_CONFIG_DIR: cfg });
    const start = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris], { env });
    expect(start.code).toBe(2);
    expect(start.stderr).toContain(`the max-credits setting stored in profile "default" of ${file} is not valid`);
    expect(start.stderr).toContain('sq config unset max-credits');
    expect(await emu.requests('POST')).toEqual([]);
    expect((await sq(['squids', 'list', '--json'], { env })).code).toBe(0);
    const unset = await sq(['config', 'unset', 'max-credits'], { env });
    expect(unset.code, unset.stderr).toBe(0);
    const list = await sq(['config', 'list', '--json'], { env });
    expect(list.stderr).toBe('');
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ key: 'max-credits', value: null, source: 'unset' });
  });

  it('a bad csv-safe, read while CSV cells are written, makes them safe and says so (never silently off)', async () => {
    const { cfg, file } = profileWith({ 'csv-safe': 'maybe' });
    const id = emu.squidId(DEMO_SQUIDS.paris);
    await emu.api(`/v1/squids/${id}`, { method: 'POST', body: { name: '=HYPERLINK("x")' } });
    const r = await sq(['squids', 'list', '--format', 'csv', '--fields', 'name'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"'=HYPERLINK(""x"")"`);
    expect(r.stderr).toContain(
      `the csv-safe setting stored in profile "default" of ${file} is not valid (it takes on or off)`,
    );
    expect(r.stderr).toContain('CSV cells are made safe meanwhile');
  });
});

// Issue 46, 7: `config set max-credits 9999999999999999999999` stored "1e+22", which every run then refused.
describe('config set refuses what a command would refuse', () => {
  it.each([
    ['max-credits', '9999999999999999999999', 'must be at most'],
    ['confirm-above', '9999999999999999999999', 'must be at most'],
    ['max-credits', '0.0000001', 'at most 6 decimals'],
  ])('config set %s %s is exit 2; nothing stored; runs start still works', async (key, value, message) => {
    const cfg = tempConfigDir();
    const set = await sq(['config', 'set', key, value], { env: { SQ_CONFIG_DIR: cfg } });
    expect(set.code, set.stderr).toBe(2);
    expect(set.stderr).toContain(message);
    expect((await sq(['config', 'get', key, '--json'], { env: { SQ_CONFIG_DIR: cfg } })).code).toBe(0);
    const start = await sq(['runs', 'start', '--squid', emu.squidId(DEMO_SQUIDS.headphones), '--dry-run'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
    });
    expect(start.code, start.stderr).toBe(0);
  });

  it('a value as large as allowed is stored and read back by the commands', async () => {
    const cfg = tempConfigDir();
    expect((await sq(['config', 'set', 'max-credits', '1000000000000'], { env: { SQ_CONFIG_DIR: cfg } })).code).toBe(0);
    const start = await sq(['runs', 'start', '--squid', emu.squidId(DEMO_SQUIDS.headphones), '--dry-run'], {
      env: emu.env({ SQ_CONFIG_DIR: cfg }),
    });
    expect(start.code, start.stderr).toBe(0);
  });
});
