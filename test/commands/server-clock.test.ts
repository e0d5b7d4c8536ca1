// Relative times ("3 min ago") count from the API's clock, read from its Date header: a machine whose clock is
// behind the server's never shows a run that just started as "in 10 min" (issue 22 item 6).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { fakeTime } from '../helpers/clock.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });

/** sq's clock, `offsetMs` away from the real one (the emulator's Date header is real time). */
function skewedClock(offsetMs: number) {
  const t = fakeTime(Date.now() + offsetMs);
  return { now: t.now, slept: [] as number[], sleep: async (ms: number) => t.sleep(ms) };
}

describe('relative times against the server clock', () => {
  it.each([
    ['ours 10 min behind', -10 * 60_000],
    ['ours 10 min ahead', 10 * 60_000],
  ])('%s: a run started now shows "just now" in the table and in {{timeago}}', async (_name, offset) => {
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const started = await emu.api('/v1/runs', { method: 'POST', body: { squid } });
    expect(typeof started.id).toBe('string');
    const table = await sq(['runs', 'list', '--squid', squid, '--fields', 'id,created_at'], {
      env: { ...emu.env(), NO_COLOR: '1' },
      tty: true,
      columns: 120,
      clock: skewedClock(offset),
    });
    expect(table.code, table.stderr).toBe(0);
    const line = table.stdout.split('\n').find((l) => l.includes(String(started.id).slice(0, 8)));
    expect(line, table.stdout).toMatch(/just now/);
    expect(table.stdout).not.toMatch(/in 10 min|10 min ago/);
    const tpl = await sq(
      ['runs', 'list', '--squid', squid, '--template', '{{range .}}{{.id}} {{timeago .created_at}}{{"\\n"}}{{end}}'],
      { env: emu.env(), clock: skewedClock(offset) },
    );
    expect(tpl.code, tpl.stderr).toBe(0);
    expect(tpl.stdout).toContain(`${String(started.id)} just now\n`);
  });

  it('a clock that agrees with the server within a second is taken as it is', async () => {
    const r = await sq(['squids', 'list', '--fields', 'name,last_run_at'], {
      env: { ...emu.env(), NO_COLOR: '1' },
      tty: true,
      columns: 120,
      clock: skewedClock(0),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Paris restaurants\s+2 d ago/);
  });
});
