// Resumable exports against the emulator: an --all export stopped by a failing page or by Ctrl-C keeps its whole
// pages beside the target (never at it), and --resume reads only the missing pages and ends with a file equal to a
// fault-free export. Also: stdout with --checkpoint through a real shell's pipes. The built binary where the process
// matters (Ctrl-C, pipes, a lock held by another process or left by a killed one); the exports a failing page stops
// and their resumes are the CLI's own logic, run in-process (sqIn). Every refusal (exit 2, no request) is logic,
// tested in-process: test/commands/results-resume-refusals.test.ts.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execa } from 'execa';
import { useEmulator } from '../helpers/emulator.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { BIN, binCacheDir, sq, sqBin, sqIn, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { type J, ndjson } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
const COUNT = 450; // 5 pages of 100
let runId: string;
let expected: J[];

beforeAll(async () => {
  const run = (await emu.control('POST', '/_emulator/generate', {
    squid: emu.squidId(DEMO_SQUIDS.headphones),
    results: COUNT,
  })) as J;
  runId = run.id;
  expected = [];
  for (let page = 1; expected.length < COUNT; page++)
    expected.push(...(await emu.api(`/v1/results?run=${runId}&page=${page}&limit=100`)).data);
});

/** The pages of /v1/results the emulator was asked for, in order, with their status. */
async function pagesAsked(): Promise<string[]> {
  return (await emu.requests())
    .filter((r) => r.path === '/v1/results')
    .map((r) => `${(r.query as Record<string, string>).page}:${r.status}`);
}
/** Page `n` of /v1/results fails once with a 400 (not retried): pages before it pass untouched. */
async function failPage(n: number): Promise<void> {
  await emu.faults([
    { path: '/v1/results', action: 'delay', ms: 0, count: n - 1 },
    { path: '/v1/results', action: 'status', status: 400, count: 1 },
  ]);
}
/** The built binary with stdout kept byte for byte (sqBin strips the final newline). */
async function raw(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [BIN, ...args], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: EVENT_MS,
  });
  return { code: r.exitCode ?? 1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

let clean: Promise<{ code: number; stdout: string }> | undefined;
/**
 * The fault-free CSV export of the run to stdout, byte for byte, made once (the run's results do not change): what it
 * is compared with is the binary's, and it need not be (in-process, a few ms of CPU against ~0.2 s a start).
 */
async function cleanCsv() {
  clean ??= sq(['results', 'list', '--run', runId, '--all', '--format', 'csv'], {
    env: { ...emu.env(), NO_COLOR: '1' },
  });
  const r = await clean;
  expect(r.code).toBe(0);
  return r;
}

/** An export to stdout with --checkpoint that page 3 stopped (2 pages out); faults and the request log cleared. */
async function stoppedAtPage3(format: string) {
  const dir = tempDir('sq-resume-');
  const ckpt = join(dir, 'ckpt.json');
  await failPage(3);
  const r1 = await raw(['results', 'list', '--run', runId, '--all', '--format', format, '--checkpoint', ckpt]);
  expect(r1.code).toBe(1);
  await emu.clearFaults();
  await emu.clearRequests();
  return { dir, ckpt, r1 };
}
/**
 * A bash script run as a user would, with `sq` as the built binary: the pipes and redirections are the shell's own.
 * "$1", "$2"… are `args`.
 */
async function shell(script: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await execa(
    'bash',
    ['--norc', '--noprofile', '-c', `sq() { "$SQ_NODE" "$SQ_BIN" "$@"; }\n${script}`, 'bash', ...args],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: tempDir('sq-home-'),
        SQ_NODE: process.execPath,
        SQ_BIN: BIN,
        SQ_CONFIG_DIR: tempConfigDir(),
        SQ_CACHE_DIR: binCacheDir(),
        NO_COLOR: '1',
        ...emu.env(),
      },
      extendEnv: false,
      reject: false,
      timeout: EVENT_MS,
    },
  );
  return { code: r.exitCode ?? 1, stdout: String(r.stdout), stderr: String(r.stderr) };
}
/** The recipe sq prints after a failed export to stdout (the line after the message), with OUT made the file `out`. */
function recipe(stderr: string, out: string): string {
  const line = stderr.split('\n').find((l) => l.startsWith('  if [ "$(wc -c < OUT)"'));
  expect(line, stderr).toBeDefined();
  return line!.trim().replaceAll('OUT', `'${out}'`);
}

describe('results list --all -o FILE, interrupted then --resume', SLOW, () => {
  it('keeps the whole pages beside the target after a failing page, and --resume reads only the rest', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    await failPage(4);
    const r1 = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(r1.code).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.out.ndjson.sq-checkpoint', '.out.ndjson.sq-partial']);
    expect(r1.stderr).toContain('Kept 3 whole pages (300 of 450 records)');
    expect(r1.stderr).toContain(`sq results list --run ${runId} --all -o ${file} --resume`);
    const ck = JSON.parse(readFileSync(join(dir, '.out.ndjson.sq-checkpoint'), 'utf8'));
    expect(ck).toMatchObject({
      version: 1,
      scope: { run: runId },
      format: 'ndjson',
      page_size: 100,
      pages: 3,
      records: 300,
      total_results: COUNT,
    });
    expect(statSync(join(dir, '.out.ndjson.sq-partial')).size).toBe(ck.bytes);
    expect(await pagesAsked()).toEqual(['1:200', '2:200', '3:200', '4:400']);

    // a resume that fails on its very first request keeps everything and says again how to continue
    await failPage(1);
    const again = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Kept 3 whole pages (300 of 450 records)`);
    expect(again.stderr).toContain(`-o ${file} --resume`);
    expect(statSync(join(dir, '.out.ndjson.sq-partial')).size).toBe(ck.bytes);

    await emu.clearFaults();
    await emu.clearRequests();
    const r2 = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(r2.stderr).toBe(`Wrote 450 records to ${file} (ndjson; resumed after 300)`);
    expect(r2.code).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
    // only the missing pages: 4 (whose first request failed) and 5
    expect(await pagesAsked()).toEqual(['4:200', '5:200']);
  });

  it('Ctrl-C: exit 130, no target file; a page cut mid-write is cut off and read again on --resume', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    const checkpoint = join(dir, '.out.ndjson.sq-checkpoint');
    const p = execa(process.execPath, [BIN, 'results', 'list', '--run', runId, '--all', '-o', file], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
      extendEnv: false,
      reject: false,
    });
    await waitFor(() => existsSync(checkpoint), Boolean, 'a checkpoint', EVENT_MS);
    p.kill('SIGINT');
    const r1 = await p;
    expect(r1.exitCode).toBe(130);
    expect(existsSync(file)).toBe(false);
    expect(String(r1.stderr)).toContain(`-o ${file} --resume`);
    const ck = JSON.parse(readFileSync(checkpoint, 'utf8'));
    expect(ck.pages).toBeGreaterThanOrEqual(1);
    expect(ck.pages).toBeLessThan(5);
    // What a kill in the middle of a page write leaves: bytes past the checkpoint's offset.
    appendFileSync(join(dir, '.out.ndjson.sq-partial'), '{"id":"half a rec');
    const asked1 = (await pagesAsked()).filter((x) => x.endsWith(':200')).map((x) => Number(x.split(':')[0]));

    await emu.clearRequests();
    const r2 = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(r2.code).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    const asked2 = (await pagesAsked()).map((x) => Number(x.split(':')[0]));
    const wanted = [1, 2, 3, 4, 5].filter((n) => n > ck.pages);
    expect(asked2).toEqual(wanted);
    // at most one page was read twice across both runs (the one in flight at Ctrl-C)
    expect(asked1.filter((n) => asked2.includes(n)).length).toBeLessThanOrEqual(1);
  });

  it('CSV: the header is written once, and the resumed file equals a fault-free export byte for byte', async () => {
    const dir = tempDir('sq-resume-');
    const clean = join(dir, 'clean.csv');
    expect((await sqIn(['results', 'list', '--run', runId, '--all', '-o', clean], { env: emu.env() })).code).toBe(0);
    const file = join(dir, 'out.csv');
    await failPage(3);
    expect((await sqIn(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    await emu.clearFaults();
    await emu.clearRequests();
    const r = await sqIn(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').filter((l) => l.startsWith('id,squid,run,scraping_time,'))).toHaveLength(1);
    expect(text).toBe(readFileSync(clean, 'utf8'));
    // the header's columns come from the checkpoint: no crawler lookup, only pages 3-5
    expect((await emu.requests()).map((x) => x.path)).toEqual(['/v1/results', '/v1/results', '/v1/results']);
  });

  it('refuses to resume when the results changed meanwhile (exit 1), leaving the partial export as it was', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    await failPage(2);
    expect((await sqIn(['results', 'list', '--squid', squid, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    const before = readFileSync(join(dir, '.out.ndjson.sq-partial'));
    await emu.control('POST', '/_emulator/generate', { squid, results: 3 });
    const r = await sqIn(['results', 'list', '--squid', squid, '--all', '-o', file, '--resume'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot resume: the results changed since the export was interrupted \(\d+ then, \d+ now/);
    expect(r.stderr).toContain('delete');
    expect(readFileSync(join(dir, '.out.ndjson.sq-partial'))).toEqual(before);
    expect(existsSync(file)).toBe(false);
  });
});

describe('results list --all --checkpoint FILE (stdout)', SLOW, () => {
  it('records the bytes of whole pages on stdout; truncate + --resume >> gives the fault-free CSV, header once', async () => {
    const dir = tempDir('sq-resume-');
    const ckpt = join(dir, 'ckpt.json');
    const clean = await cleanCsv();

    await failPage(3);
    const r1 = await raw(['results', 'list', '--run', runId, '--all', '--format', 'csv', '--checkpoint', ckpt]);
    expect(r1.code).toBe(1);
    const ck = JSON.parse(readFileSync(ckpt, 'utf8'));
    expect(ck).toMatchObject({ pages: 2, records: 200, target: null, format: 'csv' });
    expect(Buffer.byteLength(r1.stdout)).toBe(ck.bytes);
    expect(r1.stderr).toContain(
      `  if [ "$(wc -c < OUT)" -ge ${ck.bytes} ]; then truncate -s ${ck.bytes} OUT && sq results ` +
        `list --run ${runId} --all --format csv --checkpoint ${ckpt} --resume >> OUT; else echo`,
    );

    // a script's saved output, with the start of a page that was cut mid-write: the printed recipe completes it
    const out = join(dir, 'out.csv');
    writeFileSync(out, r1.stdout + 'abc,half');
    await emu.clearRequests();
    const r2 = await shell(recipe(r1.stderr, out));
    expect(r2.stderr).toBe('');
    expect(r2.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(clean.stdout);
    expect(existsSync(ckpt)).toBe(false);
    expect(await pagesAsked()).toEqual(['3:200', '4:200', '5:200']);
  });

  // Issue 25 item 1: the checkpoint counts what went into the pipe; `head -c` kept less.
  it('| head -c: the recipe never extends the saved output, and --resume refuses one padded with NULs (exit 2, naming it)', async () => {
    const dir = tempDir('sq-resume-');
    const ckpt = join(dir, 'ckpt.json');
    const out = join(dir, 'out.csv');
    const KEEP = 100_000; // the issue's `| head -c 100000 > out.csv`, over a run big enough to go on past it
    const big = String(
      (
        (await emu.control('POST', '/_emulator/generate', {
          squid: emu.squidId(DEMO_SQUIDS.headphones),
          results: 1000,
        })) as J
      ).id,
    );
    const cut = await shell(
      `sq results list --run "$1" --all --format csv --checkpoint "$2" | head -c ${KEEP} > "$3"`,
      [big, ckpt, out],
    );
    expect(cut.stderr).toContain('stdout was closed after');
    const ck = JSON.parse(readFileSync(ckpt, 'utf8'));
    expect(ck.bytes).toBeGreaterThan(KEEP);
    expect(statSync(out).size).toBe(KEEP);
    expect(cut.stderr).toContain(
      "if it went into a pipe, the pipe's reader may have lost the last page(s) it was given",
    );

    // sq's recipe checks the size first: nothing is cut, nothing extended, nothing appended
    await emu.clearRequests();
    const r = await shell(recipe(cut.stderr, out));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`holds fewer than ${ck.bytes} bytes: it lost data and cannot be continued; start over`);
    expect(statSync(out).size).toBe(KEEP);
    expect(await emu.requests()).toEqual([]);

    // the old recipe (truncate -s extends the file with NULs): --resume refuses before any request
    const old = await shell(
      `truncate -s ${ck.bytes} "$1" && sq results list --run "$2" --all --format csv --checkpoint "$3" --resume >> "$1"`,
      [out, big, ckpt],
    );
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(`error: cannot resume: stdout ("${out}") holds a NUL byte at offset ${KEEP}`);
    expect(statSync(out).size).toBe(ck.bytes);
    expect(await emu.requests()).toEqual([]);
    expect(existsSync(ckpt)).toBe(true);
  });

  it('--resume >> a file of the right size whose tail is not a whole record, or with a record too few: exit 2 naming it', async () => {
    const { dir, ckpt, r1 } = await stoppedAtPage3('ndjson');
    const saved = Buffer.from(r1.stdout);
    const out = join(dir, 'out.ndjson');
    const resume = () =>
      shell(`sq results list --run "$1" --all --format ndjson --checkpoint "$2" --resume >> "$3"`, [runId, ckpt, out]);
    // the same size, shifted by a byte: the last record is cut
    writeFileSync(out, Buffer.concat([saved.subarray(1), Buffer.from('x')]));
    let r = await resume();
    // (with --format ndjson the error is one JSON line on stderr)
    expect(JSON.parse(r.stderr).error.message).toContain(
      `cannot resume: stdout ("${out}") does not end with a whole record at byte ${saved.length}`,
    );
    expect(r.code).toBe(2);
    // two records joined into one line, padded back to the same size
    const text = saved.toString();
    const joined = text.replace('}\n{', '},{') + ' ';
    writeFileSync(out, joined.slice(0, -2) + '\n');
    expect(statSync(out).size).toBe(saved.length);
    r = await resume();
    expect(JSON.parse(r.stderr).error.message).toContain(
      `holds 199 records in its first ${saved.length} bytes, but its checkpoint counts 200`,
    );
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  // Issue 25 item 4: `--resume > out` (one >) truncates the saved output before sq starts.
  it('--resume > an empty file is refused without --force (use >>); with --force it warns and writes the rest', async () => {
    const { dir, ckpt, r1 } = await stoppedAtPage3('csv');
    const out = join(dir, 'out.csv');
    writeFileSync(out, r1.stdout);
    const r = await shell(`sq results list --run "$1" --all --format csv --checkpoint "$2" --resume > "$3"`, [
      runId,
      ckpt,
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: cannot resume into an empty file: stdout ("${out}") would get only pages 3 on, without the header`,
    );
    expect(r.stderr).toContain(
      'Append to the file that holds them with >> (… --resume >> OUT, not > OUT), or add --force',
    );
    expect(await emu.requests()).toEqual([]);
    expect(existsSync(ckpt)).toBe(true);

    const forced = await shell(
      `sq results list --run "$1" --all --format csv --checkpoint "$2" --resume --force > "$3"`,
      [runId, ckpt, out],
    );
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(
      `warning: --force: stdout ("${out}") is an empty file: it gets only pages 3 on, without the header`,
    );
    // only the rest: with the pages saved elsewhere, the whole export
    const clean = await cleanCsv();
    expect(r1.stdout + readFileSync(out, 'utf8')).toBe(clean.stdout);
    expect((await pagesAsked()).slice(0, 3)).toEqual(['3:200', '4:200', '5:200']);
  });
});

describe('the checkpoint is written and read only as a regular file of its own', SLOW, () => {
  it('a symlink planted at the old temp name or at the checkpoint is never written through', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, join(dir, '.out.ndjson.sq-checkpoint.tmp'));
    await failPage(3);
    expect((await sqIn(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(dir, '.out.ndjson.sq-checkpoint')).isFile()).toBe(true);

    const ck = join(dir, 'ck.json');
    symlinkSync(victim, ck);
    const r = await sqIn(
      ['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '--checkpoint', ck, '--resume'],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });
});

describe('one export at a time per file', SLOW, () => {
  /** Starts `sq results list … -o file` in the background and resolves once it holds the export's lock. */
  async function startSlow(file: string, extra: string[] = []) {
    const p = execa(process.execPath, [BIN, 'results', 'list', '--run', runId, '--all', '-o', file, ...extra], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
      extendEnv: false,
      reject: false,
      timeout: EVENT_MS,
    });
    // A test that fails half-way must not leave it running into the next test's faults.
    onTestFinished(() => void p.kill());
    const lock = join(file, '..', `.${file.split('/').pop()}.sq-checkpoint.lock`);
    // The lock file is created, then its pid written: until then a second sq would see a lock with no owner named.
    const owner = () => (existsSync(lock) ? readFileSync(lock, 'utf8').trim() : '');
    await waitFor(owner, (pid) => pid !== '', 'the first export to take its lock and write its pid', EVENT_MS);
    return { p, lock };
  }

  it('a second export of the same file while one runs: exit 2 naming the first, which completes whole', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    // Every page slow until the second has been refused (its start-up takes seconds on a loaded machine), then fast.
    await emu.faults([{ path: '/v1/results', action: 'delay', ms: 3000, count: 100 }]);
    const first = await startSlow(file);
    expect(readFileSync(first.lock, 'utf8').trim()).toBe(String(first.p.pid));
    const second = await sqBin(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    await emu.clearFaults();
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`another sq (pid ${first.p.pid}) is running this export`);
    const r = await first.p;
    expect(r.exitCode).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('two --resume of one interrupted export: the second is refused, the first ends with the whole file', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    await failPage(3);
    expect((await sqBin(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() })).code).toBe(1);
    await emu.faults([{ path: '/v1/results', action: 'delay', ms: 3000, count: 100 }]);
    const first = await startSlow(file, ['--resume']);
    const second = await sqBin(['results', 'list', '--run', runId, '--all', '-o', file, '--resume'], {
      env: emu.env(),
    });
    await emu.clearFaults();
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`another sq (pid ${first.p.pid}) is running this export`);
    expect((await first.p).exitCode).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('a lock left by a process that is gone (kill -9) is taken over', async () => {
    const dir = tempDir('sq-resume-');
    const file = join(dir, 'out.ndjson');
    const gone = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(join(dir, '.out.ndjson.sq-checkpoint.lock'), `${gone.stdout}\n`);
    const r = await sqBin(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });
});
