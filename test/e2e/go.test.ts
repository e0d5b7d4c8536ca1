// sq go as a user runs it (the built binary): killed mid-wait (SIGTERM, as a CI timeout does), then run again, it
// reuses the squid and resumes the run instead of starting a second one, and exports the results to the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { tempConfigDir } from '../helpers/cli.js';
import { start } from '../helpers/go-rerun.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';

const emu = useEmulator({ each: 'reset' });

it('killed mid-wait, then run again: one run, resumed, and its results in the file', SLOW, async () => {
  const file = join(tempDir('sq-go-e2e-'), 'out.csv');
  const args = [
    'go',
    'amazon-products',
    'https://www.amazon.com/s?k=e2e+go',
    '-p',
    'max_results=20',
    '-o',
    file,
    '--interval',
    '200ms',
  ];
  // The emulator's clock stands still: the run stays in progress while sq waits.
  const { child, stderr } = start(emu, args, tempConfigDir());
  await waitFor(stderr, (e) => /run [0-9a-f]+ started/.test(e), 'the run to start', EVENT_MS);
  // Killed while it waits for the run: once it has asked for the run's state (not a fixed sleep).
  const started = /run ([0-9a-f]+) started/.exec(stderr())![1];
  await waitFor(
    () => emu.requests('GET'),
    (rs) => rs.some((r) => r.path.startsWith(`/v1/runs/${started}`)),
    'a poll of the run',
    EVENT_MS,
  );
  child.kill('SIGTERM');
  const first = await child;
  expect(first.exitCode, stderr()).toBe(143);
  const runId = /run ([0-9a-f]+) started/.exec(stderr())![1];

  // The clock moves only once the rerun has chosen its run: moved earlier (a slow start on a loaded machine), the
  // first run could finish before it is looked for, and a finished run is rightly not resumed.
  const second = start(emu, args, tempConfigDir());
  await waitFor(
    () => second.done() || /run [0-9a-f]+ (resumed|started)/.test(second.stderr()),
    Boolean,
    'the rerun to choose its run',
    EVENT_MS,
  );
  while (!second.done()) {
    await emu.advance(1000);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await second.child;
  const again = { code: res.exitCode, stderr: second.stderr() };
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(
    /squid "go amazon-products [0-9a-f]{16}" \([0-9a-f]+\) reused\nparams set: max_results\n0 tasks added, 1 already there\n/,
  );
  expect(again.stderr).toContain(`run ${runId} resumed (`);
  expect((await emu.requests('POST')).filter((r) => r.path === '/v1/runs')).toHaveLength(1);
  const run = await emu.api(`/v1/runs/${runId}`);
  expect(run.status).toBe('done');
  expect(again.stderr).toContain(
    `exported ${run.total_results} record${run.total_results === 1 ? '' : 's'} to ${file}`,
  );
  expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(run.total_results + 1);
});
