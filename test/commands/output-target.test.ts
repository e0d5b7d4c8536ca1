// -o only ever replaces a regular file: devices, FIFOs, sockets, directories and symbolic links are refused before any
// request, and again at the rename (the target can change during a long export). A replaced file keeps its mode.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
let runId: string;
let dir: string;
let socket: Server;
const REGULAR_ONLY = 'sq only writes regular files (use -o - for stdout, or redirect)';

beforeAll(async () => {
  runId = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=1`)).data[0].id;
  dir = tempDir('sq-target-');
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  socket = createServer();
  await new Promise<void>((r) => socket.listen(join(dir, 'sock'), r));
  mkdirSync(join(dir, 'subdir'));
  writeFileSync(join(dir, 'real.csv'), 'keep me\n');
  symlinkSync(join(dir, 'real.csv'), join(dir, 'link.csv'));
  symlinkSync('/dev/null', join(dir, 'devnull-link'));
});
afterAll(() => socket?.close());
beforeEach(async () => {
  await emu.clearRequests();
});

const verbs = {
  'results list': () => ['results', 'list', '--run', runId, '--all'],
  'runs download': () => ['runs', 'download', runId],
};

// [-o value, expected message]; paths relative to the temp dir unless absolute.
const kinds: Array<[string, (d: string) => string, (d: string) => string]> = [
  ['/dev/null', () => '/dev/null', () => `-o /dev/null is a character device: ${REGULAR_ONLY}`],
  ['/dev/stdout', () => '/dev/stdout', () => `-o /dev/stdout is a symbolic link to /proc/self/fd/1: ${REGULAR_ONLY}`],
  ['a FIFO', (d) => join(d, 'fifo'), (d) => `-o ${join(d, 'fifo')} is a FIFO (named pipe): ${REGULAR_ONLY}`],
  ['a unix socket', (d) => join(d, 'sock'), (d) => `-o ${join(d, 'sock')} is a socket: ${REGULAR_ONLY}`],
  [
    'a symlink to a regular file',
    (d) => join(d, 'link.csv'),
    (d) =>
      `-o ${join(d, 'link.csv')} is a symbolic link to ${join(d, 'real.csv')}: sq does not write through links (use -o ${realpathSync(join(d, 'real.csv'))})`,
  ],
  [
    'a symlink to /dev/null',
    (d) => join(d, 'devnull-link'),
    (d) => `-o ${join(d, 'devnull-link')} is a symbolic link to /dev/null: ${REGULAR_ONLY}`,
  ],
];

describe.each(Object.entries(verbs))('%s -o onto what is not a regular file', (_verb, args) => {
  it.each(kinds)(
    '%s: exit 2 naming the flag, the path and what it is; no request; nothing touched',
    async (_kind, path, message) => {
      const target = path(dir);
      const before = lstatSync(target);
      const r = await sq([...args(), '-o', target], { env: emu.env() });
      expect(r.stderr).toBe(`error: ${message(dir)}\nRun with --help for usage.\n`);
      expect(r.code).toBe(2);
      expect(await emu.requests()).toEqual([]);
      const after = lstatSync(target);
      expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
      expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toBe('keep me\n');
      expect(readdirSync(dir).sort()).toEqual(['devnull-link', 'fifo', 'link.csv', 'real.csv', 'sock', 'subdir']);
    },
  );
});

describe('results list -o', () => {
  it('--checkpoint onto a device is refused too, without the -o - hint (a checkpoint must be read back)', async () => {
    const r = await sq(
      ['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '--checkpoint', '/dev/null'],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    // ndjson output: the error is the JSON object on stderr.
    expect(JSON.parse(r.stderr).error.message).toBe(
      '--checkpoint /dev/null is a character device: sq only writes regular files',
    );
    expect(await emu.requests()).toEqual([]);
  });

  it('a directory is refused before any request', async () => {
    const r = await sq([...verbs['results list'](), '-o', join(dir, 'subdir')], { env: emu.env() });
    expect(r.stderr).toBe(
      `error: -o ${join(dir, 'subdir')} is a directory: ${REGULAR_ONLY}\nRun with --help for usage.\n`,
    );
    expect(r.code).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  it('- writes to stdout exactly what no -o writes, and creates no file named "-"', async () => {
    const plain = await sq(['results', 'list', '--run', runId, '--all', '--format', 'ndjson'], { env: emu.env() });
    const dashed = await sq(['results', 'list', '--run', runId, '--all', '--format', 'ndjson', '-o', '-'], {
      env: emu.env(),
    });
    expect(dashed.code).toBe(0);
    expect(dashed.stdout).toBe(plain.stdout);
    expect(dashed.stdout.split('\n').length).toBeGreaterThan(2);
    expect(dashed.stderr).toBe(plain.stderr);
  });

  it('an existing file is kept without --force (exit 2, no request); replaced with it, keeping its mode (0640); a new file is 0600', async () => {
    const d = tempDir('sq-mode-');
    const old = join(d, 'old.csv');
    writeFileSync(old, 'previous\n');
    chmodSync(old, 0o640);
    await emu.clearRequests();
    const kept = await sq(['results', 'list', '--run', runId, '--all', '-o', old], { env: emu.env() });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(
      `${old} already exists: pass --force to replace it, or -o FILE to choose another name`,
    );
    expect(readFileSync(old, 'utf8')).toBe('previous\n');
    expect(await emu.requests()).toEqual([]);
    const r = await sq(['results', 'list', '--run', runId, '--all', '-o', old, '--force'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(statSync(old).mode & 0o777).toBe(0o640);
    expect(readFileSync(old, 'utf8')).toMatch(/^id,squid,run,scraping_time,/);
    expect(
      (await sq(['results', 'list', '--run', runId, '--all', '-o', join(d, 'new.csv')], { env: emu.env() })).code,
    ).toBe(0);
    expect(statSync(join(d, 'new.csv')).mode & 0o777).toBe(0o600);
    expect(readdirSync(d).sort()).toEqual(['new.csv', 'old.csv']);
  });

  it('a FIFO made at the target during the export is not replaced: exit 2, the whole pages kept aside for --resume', async () => {
    const run = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: 400,
    })) as J;
    await emu.faults([{ path: '/v1/results', action: 'delay', ms: 300 }]);
    const d = tempDir('sq-race-');
    const target = join(d, 'x.csv');
    const p = sq(['results', 'list', '--run', run.id, '--all', '-o', target], { env: emu.env() });
    await waitFor(
      () => readdirSync(d),
      (names) => names.length > 0,
      'a temp file',
      20_000,
    );
    execFileSync('mkfifo', [target]);
    const r = await p;
    expect(r.stderr).toContain(
      `error: ${target} became a FIFO (named pipe) while sq was writing it: sq only replaces regular files, so nothing was written\n`,
    );
    expect(r.stderr).toContain(`--resume`);
    expect(r.code).toBe(2);
    expect(readdirSync(d).sort()).toEqual(['.x.csv.sq-checkpoint', '.x.csv.sq-partial', 'x.csv']);
    expect(lstatSync(target).isFIFO()).toBe(true);
    await emu.clearFaults();
    // Once the FIFO is gone, the kept pages become the file without another request for them.
    unlinkSync(target);
    const again = await sq(['results', 'list', '--run', run.id, '--all', '-o', target, '--resume'], { env: emu.env() });
    expect(again.code).toBe(0);
    expect(readdirSync(d)).toEqual(['x.csv']);
    expect(readFileSync(target, 'utf8').trimEnd().split('\n')).toHaveLength(401);
  });
});

describe('runs download -o', () => {
  it('an existing file is kept without --force (exit 2, no request), as results list -o does; with it, replaced keeping its mode (0640)', async () => {
    const d = tempDir('sq-mode-');
    const old = join(d, 'old.csv');
    writeFileSync(old, 'previous\n');
    chmodSync(old, 0o640);
    await emu.clearRequests();
    const kept = await sq(['runs', 'download', runId, '-o', old], { env: emu.env() });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(
      `${old} already exists: pass --force to replace it, or -o FILE to choose another name`,
    );
    expect(readFileSync(old, 'utf8')).toBe('previous\n');
    expect(await emu.requests()).toEqual([]);
    const r = await sq(['runs', 'download', runId, '-o', old, '--force'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(statSync(old).mode & 0o777).toBe(0o640);
    expect(readFileSync(old, 'utf8')).not.toBe('previous\n');
    expect(readdirSync(d)).toEqual(['old.csv']);
  });
});
