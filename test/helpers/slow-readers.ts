// Several `sq me --jq 'limit(5e6; repeat(.))'` at once under a 1 MB output cap, each read only after its pause, so
// sq's last writes are still queued when the command ends: shared by test/e2e/jq-runaway.test.ts (npm test, a few
// readers) and test/system/jq-slow-readers.test.ts (npm run test:system, twelve).
import { spawn } from 'node:child_process';
import { BIN, tempConfigDir } from './cli.js';
import type { TestEmulator } from './emulator.js';

/** `n` readers whose pauses spread from 100 to 870 ms: each one's exit code, stderr (trimmed) and bytes read. */
export async function slowReaders(emu: TestEmulator, n: number) {
  const one = async (pause: number) => {
    const child = spawn(process.execPath, [BIN, 'me', '--jq', 'limit(5e6; repeat(.))'], {
      env: { SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...emu.env(), SQ_FILTER_MAX_OUTPUT_MB: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const closed = new Promise((done) => child.stdout.once('close', done));
    await new Promise((r) => setTimeout(r, pause));
    let bytes = 0;
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    const code = await exited;
    await closed;
    return { code, stderr: stderr.trim(), bytes };
  };
  return Promise.all(Array.from({ length: n }, (_, i) => one(100 + Math.round((i * 770) / Math.max(1, n - 1)))));
}

export const OUTPUT_CAP_LINE =
  '{"error":{"code":1,"status":null,"message":"--jq: stopped at the output cap of 1 MB for one ' +
  'document (SQ_FILTER_MAX_OUTPUT_MB raises it)","retry_after":null}}';
