// results --all with the built binary: the export equals the emulator's records exactly; Ctrl-C leaves no file at the
// target. The same export under injected faults (429 bursts with Retry-After, 503s, a connection reset mid-body) is
// logic, tested in-process on the fake clock in test/commands/export-faults.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { BIN, binCacheDir, sqBin, sqIn, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { type J, ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
let runId: string;
let expected: J[];
const COUNT = 1000;

beforeAll(async () => {
  const run = (await emu.control('POST', '/_emulator/generate', {
    squid: emu.squidId(DEMO_SQUIDS.headphones),
    results: COUNT,
  })) as J;
  runId = run.id;
  expected = [];
  for (let page = 1; expected.length < COUNT; page++)
    expected.push(...(await emu.api(`/v1/results?run=${runId}&page=${page}&limit=100`)).data);
  expect(expected).toHaveLength(COUNT);
});

describe('results list --all', () => {
  it('exports every record exactly, reading each page once at 100 per request', async () => {
    const dir = tempDir('sq-exp-');
    const file = join(dir, 'all.ndjson');
    const r = await sqBin(['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '-o', file], {
      env: emu.env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Wrote 1,000 records to ${file} (ndjson)`);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['all.ndjson']);
    const got = await emu.requests();
    const pages = got.map((x) => (x.query as Record<string, string>).page);
    expect(pages).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(got.every((x) => (x.query as Record<string, string>).limit === '100')).toBe(true);
  });

  // The same export as CSV is the CLI's formatting of the same pages: in-process (~0.25 s of CPU less than a process).
  it('CSV export: stable header then one line per record', async () => {
    const dir = tempDir('sq-exp-');
    const file = join(dir, 'all.csv');
    const r = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const rows = text.trimEnd().split('\n');
    expect(rows[0].startsWith('id,squid,run,scraping_time,')).toBe(true);
    expect(rows).toHaveLength(COUNT + 1);
    expect(rows.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((x) => x.id));
  });

  it.each([
    ['SIGINT', 130, 'interrupted'],
    ['SIGHUP', 129, 'interrupted (SIGHUP)'],
    ['SIGQUIT', 131, 'interrupted (SIGQUIT)'],
    ['SIGTERM', 143, 'interrupted (SIGTERM)'],
  ] as const)(
    '%s mid-export exits %i and leaves no file at the target (whole pages are kept aside for --resume)',
    async (signal, code, message) => {
      await emu.faults([{ path: '/v1/results', action: 'delay', ms: 200 }]);
      const dir = tempDir('sq-exp-');
      const p = execa(process.execPath, [BIN, 'results', 'list', '--run', runId, '--all', '-o', join(dir, 'x.csv')], {
        env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
        extendEnv: false,
        reject: false,
      });
      await waitFor(
        () => readdirSync(dir),
        (names) => names.length > 0,
        'a temp file',
        20_000,
      );
      expect(readdirSync(dir)[0]).toMatch(/^\.x\.csv\.sq-(partial|checkpoint)/);
      p.kill(signal);
      const r = await p;
      await emu.clearFaults();
      expect([r.exitCode, r.signal ?? null]).toEqual([code, null]);
      expect(String(r.stderr).split('\n').at(-1)).toBe(message);
      // Either no whole page was written yet (nothing kept) or the partial file and its checkpoint, never x.csv.
      const left = readdirSync(dir).sort();
      if (left.length) {
        expect(left).toEqual(['.x.csv.sq-checkpoint', '.x.csv.sq-partial']);
        expect(String(r.stderr)).toContain('--resume');
      } else expect(String(r.stderr)).not.toContain('--resume');
    },
  );
});
