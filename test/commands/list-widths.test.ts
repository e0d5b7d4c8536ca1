// Every list verb on a terminal at 80 and 120 columns (issue 48): the table fits the width, the columns that say the
// same on every row are named once under it instead, ids are short, and names are cut last.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { displayWidth } from '../../src/output/width.js';

const emu = useEmulator();

const LISTS: string[][] = [
  ['squids', 'list'],
  ['tasks', 'list', '--squid', DEMO_SQUIDS.paris],
  ['runs', 'list'],
  ['runs', 'list', '--squid', DEMO_SQUIDS.paris],
  ['runs', 'tasks', 'RUN'],
  ['results', 'list', '--squid', DEMO_SQUIDS.paris],
  ['crawlers', 'list'],
  ['crawlers', 'attributes', 'google-maps-search-export'],
  ['crawlers', 'params', 'google-maps-search-export'],
  ['accounts', 'list'],
  ['accounts', 'types'],
  ['credits', 'squids'],
  ['squids', 'credits', DEMO_SQUIDS.paris],
  ['profiles', 'list'],
  ['config', 'list'],
];

describe.each([80, 120])('every list at %i columns', (columns) => {
  it.each(LISTS.map((a) => [a.join(' '), a]))('%s: every line fits, ids are short', async (_, args) => {
    // A finished run of the Paris squid stands for RUN.
    const run = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}`)).data[0].id as string;
    const r = await sq(
      (args as string[]).map((a) => (a === 'RUN' ? run : a)),
      { env: { ...emu.env(), NO_COLOR: '1' }, tty: true, columns },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    // No 32-character id on a terminal: the shortest unique prefix (8 or more) stands for it.
    expect(r.stdout).not.toMatch(/\b[0-9a-f]{32}\b/);
  });
});

describe('squids list on the demo seed', () => {
  it("at 80 columns shows every squid's full name, and names the constant columns under the table", async () => {
    const r = await sq(['squids', 'list'], { env: { ...emu.env(), NO_COLOR: '1' }, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    for (const name of Object.values(DEMO_SQUIDS)) expect(r.stdout).toContain(name);
    expect(r.stdout.split('\n')[0]).not.toMatch(/ACTIVE/);
    expect(r.stderr).toMatch(/Same on every row: all active/);
  });

  it('--wide shows every column, whole ids and no line under the table', async () => {
    const r = await sq(['squids', 'list', '--wide'], { env: { ...emu.env(), NO_COLOR: '1' }, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/ACTIVE .*NEXT RUN/);
    expect(r.stdout).toContain(emu.squidId(DEMO_SQUIDS.paris));
    expect(r.stderr).toBe('');
  });

  it('--fields keeps a column asked for by name, even when every row says the same', async () => {
    const r = await sq(['squids', 'list', '--fields', 'name,is_active'], {
      env: { ...emu.env(), NO_COLOR: '1' },
      tty: true,
      columns: 80,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/ACTIVE/);
    expect(r.stderr).not.toMatch(/Same on every row/);
  });
});
