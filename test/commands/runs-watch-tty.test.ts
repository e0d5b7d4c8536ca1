// On a terminal, waiting draws a progress bar on stderr (percent, tasks, results, elapsed) and erases it before
// the final record; the virtual clock is moved by the test while the CLI polls in-process.
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator();

it('draws a bar in place with percent, tasks done/total, results and elapsed, then prints the run', async () => {
  const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(DEMO_SQUIDS.paris) } });
  let finished = false;
  const p = sq(['runs', 'watch', run.id, '--interval', '20ms', '--json'], { env: emu.env(), tty: true }).finally(() => (finished = true));
  for (let i = 0; i < 40 && !finished; i++) {
    await new Promise((r) => setTimeout(r, 60));
    await emu.advance(500);
  }
  const r = await p;
  expect(r.code).toBe(0);
  const final = JSON.parse(r.stdout);
  expect(final.status).toBe('done');
  expect(final.export_done).toBe(true);
  // a running frame: bar, percent, tasks, results, elapsed, redrawn with \r and erase-line
  expect(r.stderr).toMatch(new RegExp(`\\r\\x1b\\[2K\\[[#-]{24}\\] run ${run.id}: running \\d+% tasks \\d/3 results \\d+ \\(elapsed 0:\\d\\d\\)`));
  // a status change is kept on screen as its own line
  expect(r.stderr).toMatch(new RegExp(`\\x1b\\[2Krun ${run.id}: [a-z]+ → (uploading|done)\\n`));
  // the last frame shows the finished run, and the bar is erased before the record is printed
  expect(r.stderr).toMatch(new RegExp(`\\[#{24}\\] run ${run.id}: done 100% results ${final.total_results} \\(elapsed 0:\\d\\d\\)\\r\\x1b\\[2K$`));
});
