// The lock of a resumable export (issue 25, item 11): a takeover file left by a killed sq, or a lock whose pid now
// belongs to a program other than sq, no longer blocks the export (and --resume) for ever; a live sq still does.
// Real processes hold the pids; the export that finds their lock is the CLI's logic (src/lib/lock.ts reads their
// /proc entries, the same from any process): in-process (sqIn) against a real emulator, ~0.25 s of CPU less a call
// than the built binary. The worker's own pid is never a lock's here: each lock names one of the held processes.
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sqIn } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { ndjson } from '../helpers/json.js';
import { waitFor } from '../helpers/wait.js';

const emu = useEmulator({ each: 'clear' });
const COUNT = 150;
let runId: string;
const held: ResultPromise[] = [];
afterEach(() => {
  for (const p of held.splice(0)) p.kill('SIGKILL');
});

beforeAll(async () => {
  runId = (
    (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: COUNT,
    })) as { id: string }
  ).id;
});

/**
 * A live process with the given argv, kept until the test ends: once its /proc/PID/cmdline names it (where there is
 * a /proc), which is what sq reads. (A fixed 100 ms wait stood here: not enough on a loaded machine.)
 */
async function live(file: string, args: string[]): Promise<number> {
  const p = execa(file, args, { reject: false });
  held.push(p);
  await new Promise((spawned, failed) => p.once('spawn', spawned).once('error', failed));
  const cmdline = () => {
    try {
      return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
    } catch {
      return null;
    }
  };
  if (cmdline() !== null)
    await waitFor(cmdline, (c) => c?.split('\0').includes(args[0]) === true, `${file} ${args[0]} running`);
  return p.pid!;
}

function lockFor(dir: string, pid: number, ageMs = 0): string {
  const lock = join(dir, '.out.ndjson.sq-checkpoint.lock');
  writeFileSync(lock, `${pid}\n`);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(lock, t, t);
  return lock;
}

const exportTo = (file: string) => sqIn(['results', 'list', '--run', runId, '--all', '-o', file], { env: emu.env() });

describe('the lock of an export', () => {
  it('a takeover file left by a killed sq (older than 10 s) does not block taking over a dead lock', async () => {
    const dir = tempDir('sq-lock-');
    const gone = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const lock = lockFor(dir, Number(gone.stdout));
    writeFileSync(`${lock}.takeover`, '12345\n');
    const t = (Date.now() - 60_000) / 1000;
    utimesSync(`${lock}.takeover`, t, t);
    const r = await exportTo(join(dir, 'out.ndjson'));
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(readFileSync(join(dir, 'out.ndjson'), 'utf8'))).toHaveLength(COUNT);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('a lock whose pid is a live program other than sq is taken over', async () => {
    const dir = tempDir('sq-lock-');
    lockFor(dir, await live('sleep', ['30']));
    const r = await exportTo(join(dir, 'out.ndjson'));
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(readFileSync(join(dir, 'out.ndjson'), 'utf8'))).toHaveLength(COUNT);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('a lock older than the live sq now holding its pid is taken over; a lock that sq wrote still blocks', async () => {
    const dir = tempDir('sq-lock-');
    // A program that runs as sq does (node …/sq.js): the only difference between the two cases is the lock's age.
    const script = join(tempDir('sq-fake-'), 'sq.js');
    writeFileSync(script, 'setTimeout(() => {}, 30_000);\n');
    const pid = await live(process.execPath, [script]);
    lockFor(dir, pid);
    const blocked = await exportTo(join(dir, 'out.ndjson'));
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`another sq (pid ${pid}) is running this export`);

    lockFor(dir, pid, 3_600_000);
    const r = await exportTo(join(dir, 'out.ndjson'));
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });
});
