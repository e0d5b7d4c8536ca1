// --resume's refusals (exit 2, before any request): a checkpoint of another export, a partial file that is missing,
// short, a symlink or damaged, a new export over an interrupted one, and the flag checks. Logic, so sq runs
// in-process; the built binary's exports, stops and resumes are in test/e2e/results-resume.test.ts.
import { readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
const COUNT = 450; // 5 pages of 100
let runId: string;

beforeAll(async () => {
  const run = (await emu.control('POST', '/_emulator/generate', {
    squid: emu.squidId(DEMO_SQUIDS.headphones),
    results: COUNT,
  })) as J;
  runId = run.id;
});

/** Page `n` of /v1/results fails once with a 400 (not retried): pages before it pass untouched. */
async function failPage(n: number): Promise<void> {
  await emu.faults([
    { path: '/v1/results', action: 'delay', ms: 0, count: n - 1 },
    { path: '/v1/results', action: 'status', status: 400, count: 1 },
  ]);
}

describe('resume refusals: exit 2 before any request', () => {
  async function interrupted(dir: string, name: string): Promise<string> {
    const file = join(dir, name);
    await failPage(2);
    expect((await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    await emu.clearFaults();
    await emu.clearRequests();
    return file;
  }

  it('a checkpoint of another export is refused, naming what differs', async () => {
    const dir = tempDir('sq-resume-');
    const file = await interrupted(dir, 'out.ndjson');
    const cases: [string[], RegExp][] = [
      [
        ['--run', 'ffffffffffffffffffffffffffffffff', '--all', '-o', file, '--resume'],
        /cannot resume: --run: the checkpoint is for \w+, this command asks for f+/,
      ],
      [
        ['--run', runId, '--all', '-o', file, '--format', 'csv', '--resume'],
        /cannot resume: --format: the checkpoint has ndjson, this command has csv/,
      ],
      [
        ['--run', runId, '--all', '-o', file, '--fields', 'id', '--resume'],
        /cannot resume: --fields: the checkpoint has none, this command has id/,
      ],
      [
        ['--run', runId, '--task', 'abc', '--all', '-o', file, '--resume'],
        /cannot resume: --task: the checkpoint has none, this command has abc/,
      ],
      [
        ['--squid', 'x', '--all', '-o', file, '--resume'],
        /cannot resume: the checkpoint is for --run \w+, this command uses --squid/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await sq(['results', 'list', ...args], { env: emu.env() });
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
    }
    expect(await emu.requests()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['.out.ndjson.sq-checkpoint', '.out.ndjson.sq-partial']);
  });

  it('a partial file that is missing, short, or a symlink is refused', async () => {
    const dir = tempDir('sq-resume-');
    const file = await interrupted(dir, 'out.ndjson');
    const partial = join(dir, '.out.ndjson.sq-partial');
    const data = readFileSync(partial);
    const resume = () => sq(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    writeFileSync(partial, data.subarray(0, data.length - 1));
    let r = await resume();
    expect(r.stderr).toContain(`has ${data.length - 1} bytes, fewer than the ${data.length} its checkpoint counts`);
    expect(r.code).toBe(2);
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, data);
    rmSync(partial);
    symlinkSync(elsewhere, partial);
    r = await resume();
    expect(r.stderr).toContain('is not a regular file');
    expect(r.code).toBe(2);
    rmSync(partial);
    r = await resume();
    expect(r.stderr).toContain('is missing; to start over, delete');
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
    expect(readFileSync(elsewhere)).toEqual(data);
  });

  // Issue 25 item 3: every field is checked, and the partial file is counted, before anything is trusted.
  it('a damaged checkpoint or partial file is refused, naming the checkpoint, before any request', async () => {
    const dir = tempDir('sq-resume-');
    await failPage(3);
    const file = join(dir, 'out.csv');
    expect((await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    await emu.clearFaults();
    await emu.clearRequests();
    const checkpoint = join(dir, '.out.csv.sq-checkpoint');
    const partial = join(dir, '.out.csv.sq-partial');
    const good = JSON.parse(readFileSync(checkpoint, 'utf8')) as J;
    const data = readFileSync(partial);
    expect(good).toMatchObject({ pages: 2, records: 200, page_size: 100 });
    const resume = () => sq(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    const damaged = `error: the checkpoint "${checkpoint}" is damaged: `;
    const cases: [J, string][] = [
      [{ pages: good.pages + 3 }, `${damaged}records must be pages × page_size (5 × 100 = 500), got 200`],
      [
        { pages: good.pages + 3, records: good.records + 300 },
        `cannot resume: "${partial}" holds 200 records in its first ${good.bytes} bytes, but its checkpoint counts 500`,
      ],
      [{ pages: -1 }, `${damaged}pages must be a whole number of pages, at least 1, got -1`],
      [{ pages: 0, records: 0 }, `${damaged}pages must be a whole number of pages, at least 1, got 0`],
      [{ pages: 2.5 }, `${damaged}pages must be a whole number of pages, at least 1, got 2.5`],
      [{ pages: 'x' }, `${damaged}pages must be a whole number of pages, at least 1, got "x"`],
      [{ pages: null }, `${damaged}pages must be a whole number of pages, at least 1, got null`],
      [{ records: 2.5 }, `${damaged}records must be an integer of at least 1, got 2.5`],
      [{ bytes: 0 }, `${damaged}bytes must be an integer of at least 201 for 200 records, got 0`],
      [{ bytes: '1000' }, `${damaged}bytes must be an integer of at least 201 for 200 records, got "1000"`],
      [
        { bytes: good.bytes - 1 },
        `cannot resume: "${partial}" does not end with a whole record at byte ${good.bytes - 1}`,
      ],
      [{ page_size: 2.5 }, `${damaged}page_size must be an integer from 1 to 100, got 2.5`],
      [{ total_results: 'x' }, `${damaged}total_results must be null or an integer of at least 0, got "x"`],
      [
        { columns: ['id'] },
        `cannot resume: "${partial}" starts with a header other than the one its checkpoint's columns make ("id")`,
      ],
      [{ columns: [] }, `${damaged}columns must be a list of column names, got []`],
      [{ scope: { run: 5 } }, `${damaged}scope must be {"squid": id} or {"run": id}, got {"run":5}`],
      [{ format: 'json' }, `${damaged}format must be one of ndjson, csv, tsv, got "json"`],
    ];
    for (const [edit, message] of cases) {
      writeFileSync(checkpoint, JSON.stringify({ ...good, ...edit }));
      const r = await resume();
      expect(r.stderr, JSON.stringify(edit)).toContain(message);
      expect(r.stderr).toContain(checkpoint);
      expect(r.code, JSON.stringify(edit)).toBe(2);
    }
    writeFileSync(checkpoint, JSON.stringify(good));
    // the partial file itself: a NUL inside it, or a record fewer (two lines joined, the size kept)
    const withNul = Buffer.from(data);
    withNul[100] = 0;
    writeFileSync(partial, withNul);
    let r = await resume();
    expect(r.stderr).toContain(`cannot resume: "${partial}" holds a NUL byte at offset 100`);
    expect(r.code).toBe(2);
    const lines = data.toString().split('\n');
    writeFileSync(partial, [lines[0], `${lines[1]} ${lines[2]}`, ...lines.slice(3)].join('\n'));
    expect(statSync(partial).size).toBe(data.length);
    r = await resume();
    expect(r.stderr).toContain(
      `cannot resume: "${partial}" holds 199 records in its first ${good.bytes} bytes, but its checkpoint counts 200`,
    );
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);

    // put back as it was, it resumes to the whole export
    writeFileSync(partial, data);
    r = await resume();
    expect(r.code).toBe(0);
    const clean = join(dir, 'clean.csv');
    expect((await sq(['results', 'list', '--run', runId, '--all', '-o', clean], { env: emu.env() })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(clean, 'utf8'));
  });

  it('a new export does not reuse or overwrite an interrupted one', async () => {
    const dir = tempDir('sq-resume-');
    const file = await interrupted(dir, 'out.ndjson');
    const partial = readFileSync(join(dir, '.out.ndjson.sq-partial'));
    const r = await sq(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('an interrupted export is waiting to be continued (1 page in');
    expect(r.stderr).toContain('add --resume');
    expect(await emu.requests()).toEqual([]);
    expect(readFileSync(join(dir, '.out.ndjson.sq-partial'))).toEqual(partial);
  });

  it('flag checks', async () => {
    const dir = tempDir('sq-resume-');
    const cases: [string[], string][] = [
      [['--resume', '-o', join(dir, 'a.ndjson')], '--resume needs --all'],
      [['--checkpoint', join(dir, 'c.json'), '--format', 'ndjson'], '--checkpoint needs --all'],
      [['--limit', '5', '--resume', '--checkpoint', join(dir, 'c.json')], '--resume and --checkpoint need --all'],
      [
        ['--all', '-o', join(dir, 'a.ndjson'), '--checkpoint', join(dir, 'c.json')],
        '--checkpoint is for exports to stdout',
      ],
      [['--all', '--format', 'ndjson', '--resume'], '--resume needs -o FILE or --checkpoint FILE'],
      [
        ['--all', '--format', 'json', '--checkpoint', join(dir, 'c.json')],
        '--checkpoint: the format must be one of ndjson, csv, tsv (got json)',
      ],
      [
        ['--all', '-o', join(dir, 'a.json'), '--resume'],
        '--resume: the format must be one of ndjson, csv, tsv (got json)',
      ],
      [['--all', '-o', join(dir, 'none.ndjson'), '--resume'], '--resume: there is no interrupted export to continue'],
      [
        ['--all', '--format', 'csv', '--checkpoint', join(dir, 'none.json'), '--resume'],
        '--resume: there is no interrupted export to continue',
      ],
      [['--all', '--format', 'csv', '--checkpoint', join(dir, 'no-such-dir', 'c.json')], 'does not exist'],
      [
        ['--all', '--format', 'csv', '--force'],
        '--force goes with -o FILE (replace an existing FILE) or with --resume --checkpoint FILE',
      ],
      // With -o, --force lets the finished export replace FILE: still nothing to resume here.
      [
        ['--all', '-o', join(dir, 'a.csv'), '--resume', '--force'],
        '--resume: there is no interrupted export to continue',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await sq(['results', 'list', '--run', runId, ...args], { env: emu.env() });
      expect(r.stderr).toContain(message);
      expect(r.code).toBe(2);
    }
    expect(await emu.requests()).toEqual([]);
  });
});
