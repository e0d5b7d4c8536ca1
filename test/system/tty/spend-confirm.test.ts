// A real terminal (tmux): `sq runs start` on a run estimated above confirm-above shows the estimate and asks once;
// "n" starts nothing (exit 11, cancelled; no POST /v1/runs), "y" starts it.
import { expect, it } from 'vitest';
import { tempConfigDir } from '../../helpers/cli.js';
import { berlinSquid } from '../../helpers/spend.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open: openTerm } = useTmuxEmulator();
let term: Term | undefined;

/** A fresh seed with the Berlin squid of the issue: emails on by default, two tasks, about 100 credits. */
async function berlin(): Promise<number> {
  await emu.control('POST', '/_emulator/reset');
  const s = { id: await berlinSquid(emu) };
  const est = await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: s.id } });
  await emu.clearRequests();
  return est.total_credits;
}

async function open(total: number): Promise<Term> {
  const env = { SQ_CONFIG_DIR: tempConfigDir() };
  // The question's threshold just under this run's estimate.
  const set = await openTerm(['config', 'set', 'confirm-above', String(total - 1)], env);
  await set.waitFor(/EXIT:0/);
  await set.close();
  return openTerm(['runs', 'start', '--squid', 'Berlin cafés'], env);
}

it('shows the estimate, asks once, and on "n" starts nothing (exit 11, cancelled)', async () => {
  const total = await berlin();
  term = await open(total);
  const screen = await term.waitFor(/Start the run\?/);
  expect(screen).toContain(`Estimate: ${total} credits`);
  expect(screen).toMatch(/Paid function extract_emails_from_website is on/);
  expect(screen.match(/Start the run\?/g)).toHaveLength(1);
  await term.keys('n', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:11/);
  expect(after).toMatch(/cancelled: no run was started/);
  expect((await emu.requests('POST')).map((r) => r.path)).toEqual(['/v1/squid/estimate']);
}, 60_000);

it('on "y" starts the run (exit 0)', async () => {
  const total = await berlin();
  term = await open(total);
  await term.waitFor(/Start the run\?/);
  await term.keys('y', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:0/);
  expect(after).toMatch(/Started run [0-9a-f]{32}/);
  expect((await emu.requests('POST')).map((r) => r.path)).toEqual(['/v1/squid/estimate', '/v1/runs']);
}, 60_000);

// A schedule starts runs, each charged: `sq squids update --schedule` of an active squid asks as runs start does.
async function openSchedule(total: number): Promise<Term> {
  const env = { SQ_CONFIG_DIR: tempConfigDir() };
  const set = await openTerm(['config', 'set', 'confirm-above', String(total - 1)], env);
  await set.waitFor(/EXIT:0/);
  await set.close();
  return openTerm(['squids', 'update', 'Berlin cafés', '--schedule', '0 9 * * 1', '--timezone', 'Europe/Paris'], env);
}

it('squids update --schedule: the estimate of each run, one question; "n" writes nothing, "y" writes the schedule', async () => {
  const total = await berlin();
  term = await openSchedule(total);
  const screen = await term.waitFor(/Turn the schedule on\?/);
  expect(screen).toContain(`Estimate: ${total} credits`);
  expect(screen).toMatch(/Each scheduled run is estimated at/);
  await term.keys('n', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:11/);
  expect(after).toMatch(/cancelled: the schedule was not turned on/);
  expect((await emu.requests('POST')).map((r) => r.path)).toEqual(['/v1/squid/estimate']);
  await term.close();

  await emu.clearRequests();
  term = await openSchedule(total);
  await term.waitFor(/Turn the schedule on\?/);
  await term.keys('y', 'Enter');
  const yes = await term.waitFor(/EXIT:\d+/);
  expect(yes).toMatch(/EXIT:0/);
  expect(yes).toMatch(/Schedule: Mondays at 09:00 Europe\/Paris; next run/);
  expect((await emu.requests('POST')).map((r) => r.path).filter((p) => p !== '/v1/squid/estimate')).toHaveLength(1);
}, 60_000);
