// stdout that fails or goes away, with the built binary against the emulator (and in-process runs for a stdout that
// fails mid-export, and for the interrupted export the resumes start from). A write error is exit 1 with a clean message, cleanup run and, for an export with
// --checkpoint, a checkpoint that counts only pages written whole; /dev/full is a device that fails every write.
import { createWriteStream, existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { BIN, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { capture } from '../helpers/stream.js';
import { run } from '../../src/shell/main.js';

const emu = useEmulator({ each: 'clear' });
const COUNT = 450; // 5 pages of 100
let runId: string;

beforeAll(async () => {
  runId = (
    (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: COUNT,
    })) as { id: string }
  ).id;
});

/** The built binary through bash, so that its stdout can be redirected (`> /dev/full`, `>> FILE`, `| head`). */
async function shell(script: string): Promise<{ code: number; stderr: string }> {
  const r = await execa('bash', ['-c', script], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', PATH: process.env.PATH ?? '', ...emu.env() },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    // Not a socket, which bash takes for a remote shell and reads ~/.bashrc for.
    stdin: 'ignore',
  });
  return { code: r.exitCode ?? 1, stderr: String(r.stderr) };
}
const SQ = `"${process.execPath}" "${BIN}"`;
const pagesAsked = async () =>
  (await emu.requests()).filter((r) => r.path === '/v1/results').map((r) => (r.query as Record<string, string>).page);

describe('a stdout that fails (a full disk)', () => {
  it('the last write of a command failing is exit 1 with a clean message (JSON on stderr with --json), no stack trace', async () => {
    const me = await shell(`${SQ} me --json > /dev/full`);
    expect(me.stderr).toBe(
      '{"error":{"code":1,"status":null,"message":"cannot write to stdout: ENOSPC: no space left on device, write","retry_after":null}}',
    );
    expect(me.code).toBe(1);

    const list = await shell(`${SQ} results list --run ${runId} --limit 5 --format csv > /dev/full`);
    expect(list.stderr).toBe('error: cannot write to stdout: ENOSPC: no space left on device, write');
    expect(list.code).toBe(1);
  });

  it('an --all --checkpoint export to /dev/full: exit 1, no checkpoint (no page was written), its lock removed', async () => {
    const ck = join(tempDir('sq-stdout-'), 'ck.json');
    const r = await shell(`${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} > /dev/full`);
    expect(r.stderr).toBe(
      '{"error":{"code":1,"status":null,"message":"cannot write to stdout: ENOSPC: no space left on device, write","retry_after":null}}',
    );
    expect(r.code).toBe(1);
    expect(existsSync(ck)).toBe(false);
    expect(existsSync(`${ck}.lock`)).toBe(false);
  });

  it('a write failing on page 3: the checkpoint counts the two pages written whole, and says how to continue', async () => {
    const ck = join(tempDir('sq-stdout-'), 'ck.json');
    let accepted = 0;
    let writes = 0;
    const disk = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (++writes > 2)
          return cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        accepted += chunk.length;
        cb();
      },
    });
    const stderr = capture();
    const stdin = new PassThrough();
    stdin.end();
    const code = await run(['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '--checkpoint', ck], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), ...emu.env() },
      io: {
        stdout: disk,
        stderr: stderr.stream,
        stdin,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
        columns: 120,
      },
      signal: new AbortController().signal,
    });
    expect(stderr.text()).toContain('"message":"ENOSPC: no space left on device, write"');
    expect(stderr.text()).toContain(`stdout got 2 whole pages (200 of ${COUNT} records), ${accepted} bytes`);
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(ck, 'utf8'))).toMatchObject({ pages: 2, records: 200, bytes: accepted });
    expect(existsSync(`${ck}.lock`)).toBe(false);
  });
});

describe('a reader that goes away (`| head`)', () => {
  it('with --checkpoint: exit 1, the checkpoint kept and the resume hint; without: a quiet exit 0', async () => {
    const ck = join(tempDir('sq-stdout-'), 'ck.json');
    const r = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} | head -c 50000 > /dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`,
    );
    const saved = JSON.parse(readFileSync(ck, 'utf8'));
    expect(saved.pages).toBeGreaterThan(0);
    expect(saved.pages).toBeLessThan(5);
    expect(r.stderr).toContain(`stdout was closed after ${saved.pages} whole page`);
    expect(r.stderr).toContain(
      `truncate -s ${saved.bytes} OUT && sq results list --run ${runId} --all --format ndjson --checkpoint ${ck} --resume >> OUT`,
    );
    expect(r.stderr).toMatch(/rc=1$/);
    expect(existsSync(`${ck}.lock`)).toBe(false);

    const quiet = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson | head -c 50000 > /dev/null; echo "rc=\${PIPESTATUS[0]}" >&2`,
    );
    expect(quiet.stderr).toBe('rc=0');
  });
});

describe('--resume with --checkpoint, stdout a file', () => {
  /**
   * An export stopped by a failing page 3: a checkpoint of 2 pages, and stdout's bytes. In-process, its stdout a stream
   * on a file descriptor of OUT (as `> OUT` gives the built binary: src/results/stdout-checkpoint.ts reads the fd): the
   * state the resumes below start from, which a process of its own made at ~0.25 s of CPU. The resumes, whose check
   * is of fd 1 as the shell set it up (`>` or `>>`), stay the built binary.
   */
  async function interrupted(dir: string): Promise<{ ck: string; out: string; bytes: number }> {
    const ck = join(dir, 'ck.json');
    const out = join(dir, 'out.ndjson');
    await emu.faults([
      { path: '/v1/results', action: 'delay', ms: 0, count: 2 },
      { path: '/v1/results', action: 'status', status: 400, count: 1 },
    ]);
    const stdout = createWriteStream('', { fd: openSync(out, 'w') });
    const stderr = capture();
    const stdin = new PassThrough();
    stdin.end();
    const code = await run(['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '--checkpoint', ck], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...emu.env() },
      io: {
        stdout,
        stderr: stderr.stream,
        stdin,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
        columns: 120,
      },
      signal: new AbortController().signal,
    });
    await new Promise<void>((done) => stdout.end(done));
    expect(code, stderr.text()).toBe(1);
    await emu.clearFaults();
    await emu.clearRequests();
    const bytes = JSON.parse(readFileSync(ck, 'utf8')).bytes as number;
    expect(statSync(out).size).toBe(bytes);
    return { ck, out, bytes };
  }

  it('a saved output not cut back to the checkpoint is refused (exit 2, before any request); an empty new file needs --force', async () => {
    const dir = tempDir('sq-stdout-');
    const { ck, out, bytes } = await interrupted(dir);
    writeFileSync(out, `${readFileSync(out, 'utf8')}{"id":"half`);
    const r = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} --resume >> ${out}`,
    );
    expect(JSON.parse(r.stderr).error.message).toContain(
      `cannot resume: stdout ("${out}") is a file of ${bytes + 11} bytes, but the checkpoint "${ck}" counts ${bytes}: cut it back to ${bytes} bytes first`,
    );
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
    expect(existsSync(ck)).toBe(true);

    const rest = join(dir, 'rest.ndjson');
    const refused = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} --resume > ${rest}`,
    );
    expect(JSON.parse(refused.stderr).error.message).toContain('cannot resume into an empty file');
    expect(refused.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
    const ok = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} --resume --force > ${rest}`,
    );
    expect(ok.code).toBe(0);
    expect(readFileSync(rest, 'utf8').trim().split('\n')).toHaveLength(COUNT - 200);
    expect(await pagesAsked()).toEqual(['3', '4', '5']);
  });

  it("a resumed export that ends below total_results warns like a fresh one, counting the checkpoint's records", async () => {
    const { ck, out } = await interrupted(tempDir('sq-stdout-'));
    await emu.faults([
      {
        path: '/v1/results',
        action: 'status',
        status: 200,
        count: 1,
        body: { total_results: COUNT, page: 3, limit: 100, next: null, data: [] },
      },
    ]);
    const r = await shell(
      `${SQ} results list --run ${runId} --all --format ndjson --checkpoint ${ck} --resume >> ${out}`,
    );
    expect(r.stderr).toContain(`total_results said ${COUNT} but 200 records arrived`);
    expect(r.code).toBe(0);
  });
});
