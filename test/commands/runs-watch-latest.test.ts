// sq runs watch with no <run>: the run in progress of --squid or of the account; several on a terminal → a choice,
// in a script → exit 2 listing them; none → exit 3. `--web` shows which run was picked without waiting on it.
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { gatedSqClock } from '../helpers/clock.js';
import { waitFor } from '../helpers/wait.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

const start = async (name: string) =>
  String((await emu.api('/v1/runs', { method: 'POST', body: { squid: emu.squidId(name) } })).id);

it('none in progress: exit 3 saying how to name one', async () => {
  const r = await sq(['runs', 'watch'], { env: emu.env() });
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('no run in progress in the account');
  expect(r.stderr).toContain('sq runs watch <run>');
});

it('one in progress: it is watched to the end', async () => {
  const run = await start(DEMO_SQUIDS.paris);
  const clock = gatedSqClock();
  let finished = false;
  const p = sq(['runs', 'watch', '--interval', '20ms', '--json'], { env: emu.env(), clock }).finally(
    () => (finished = true),
  );
  for (let i = 0; i < 40 && !finished; i++) {
    await waitFor(() => clock.sleeping || finished, Boolean, 'a poll', 10_000);
    await emu.advance(500);
    clock.step();
  }
  const r = await p;
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ id: run, status: 'done' });
  expect(r.stderr).toContain(`Watching run ${run} (${DEMO_SQUIDS.paris}), the one in progress in the account.`);
}, 60_000);

it("several in progress: a script gets exit 2 listing them; --squid picks among that squid's", async () => {
  const paris = await start(DEMO_SQUIDS.paris);
  const phones = await start(DEMO_SQUIDS.headphones);
  const r = await sq(['runs', 'watch'], { env: emu.env() });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('2 runs are in progress in the account: name the one to watch');
  expect(r.stderr).toMatch(new RegExp(`^${paris}  \\w+  ${DEMO_SQUIDS.paris}`, 'm'));
  expect(r.stderr).toMatch(new RegExp(`^${phones}  \\w+  ${DEMO_SQUIDS.headphones}`, 'm'));
  const one = await sq(['runs', 'watch', '--squid', DEMO_SQUIDS.headphones, '--web'], { env: emu.env() });
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toBe(`${emu.baseUrl}/dashboard/runs/${phones}\n`);
});

it('several in progress on a terminal: a choice, and the one chosen is used', async () => {
  await start(DEMO_SQUIDS.paris);
  await start(DEMO_SQUIDS.headphones);
  const listed = await sq(['runs', 'watch'], { env: emu.env() });
  // The choices are listed newest first, as the exit-2 list shows them: the second line is the one chosen below.
  const second = listed.stderr
    .split('\n')
    .filter((l) => /^[0-9a-f]{32}  /.test(l))[1]
    .slice(0, 32);
  const r = await sq(['runs', 'watch', '--web'], { env: { ...emu.env(), CI: '' }, tty: true, stdin: '\x1b[B\r' });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('2 runs are in progress in the account; which one to watch?');
  expect(r.stdout).toContain(`/dashboard/runs/${second}`);
});
