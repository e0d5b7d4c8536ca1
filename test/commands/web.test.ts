// --web on squids get, runs get, runs watch, billing auto-reset and status: the dashboard page's URL (one pattern per
// base URL, src/api/dashboard.ts), printed on stdout with no browser (no terminal, CI), opened with $BROWSER on a
// terminal; the emulator serves a page at that URL.
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { dashboardUrl } from '../../src/api/dashboard.js';

const emu = useEmulator();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function firstRun(squid: string): Promise<string> {
  const runs = await emu.api(`/v1/runs?squid=${emu.squidId(squid)}`);
  return String(runs.data[0].id);
}

describe('--web', () => {
  it('the live API has its dashboard on app.lobstr.io; any other base URL under its own origin', () => {
    expect(dashboardUrl('https://api.lobstr.io', { kind: 'squid', id: 'abc' })).toBe(
      'https://app.lobstr.io/dashboard/squids/abc',
    );
    expect(dashboardUrl('http://127.0.0.1:8787', { kind: 'run', id: 'r1' })).toBe(
      'http://127.0.0.1:8787/dashboard/runs/r1',
    );
    expect(dashboardUrl('http://127.0.0.1:8787', { kind: 'home' })).toBe('http://127.0.0.1:8787/dashboard');
  });

  it('with no terminal, each verb prints the page URL on stdout, and the emulator serves the page', async () => {
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const run = await firstRun(DEMO_SQUIDS.paris);
    const cases: [string[], string, string][] = [
      [['squids', 'get', DEMO_SQUIDS.paris, '--web'], `/dashboard/squids/${squid}`, `Squid ${DEMO_SQUIDS.paris}`],
      [['runs', 'get', run.slice(0, 8), '--web'], `/dashboard/runs/${run}`, `Run ${run}`],
      [['runs', 'watch', run, '--web'], `/dashboard/runs/${run}`, 'status'],
      [['billing', 'auto-reset', '--web'], '/dashboard/billing/auto-reset', 'Automatic billing reset'],
      [['status', '--web'], '/dashboard', 'Dashboard'],
    ];
    for (const [args, path, text] of cases) {
      const r = await sq(args, { env: emu.env() });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(`${emu.baseUrl}${path}\n`);
      const page = await fetch(r.stdout.trim());
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(text);
    }
  });

  it('on a terminal in CI, the URL is printed, no browser started', async () => {
    const d = tempDir('sq-web-');
    dirs.push(d);
    const r = await sq(['status', '--web'], {
      env: { ...emu.env(), CI: 'true', BROWSER: join(d, 'never') },
      tty: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${emu.baseUrl}/dashboard\n`);
  });

  it('on a terminal, $BROWSER is started with the URL', async () => {
    const d = tempDir('sq-web-');
    dirs.push(d);
    const browser = join(d, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${join(d, 'opened')}'\n`);
    chmodSync(browser, 0o755);
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const r = await sq(['squids', 'get', squid, '--web'], { env: { ...emu.env(), BROWSER: browser }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Opening ${emu.baseUrl}/dashboard/squids/${squid} in your browser.`);
    await waitFor(() => existsSync(join(d, 'opened')), Boolean, 'the browser to run');
    await waitFor(
      () => readFileSync(join(d, 'opened'), 'utf8'),
      (s) => s.length > 0,
      'the URL',
    );
    expect(readFileSync(join(d, 'opened'), 'utf8')).toBe(`${emu.baseUrl}/dashboard/squids/${squid}`);
  });

  it('a $BROWSER that cannot be started: a warning, and the URL printed', async () => {
    const r = await sq(['status', '--web'], { env: { ...emu.env(), BROWSER: '/nonexistent/browser' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('could not start /nonexistent/browser');
    expect(r.stdout).toBe(`${emu.baseUrl}/dashboard\n`);
  });

  it('billing auto-reset --web with a flag that changes the settings is exit 2 before any request', async () => {
    const r = await sq(['billing', 'auto-reset', '--web', '--enable'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--web and --enable cannot be used together');
  });
});
