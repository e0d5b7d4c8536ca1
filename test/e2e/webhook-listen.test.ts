// End to end with the built binary: `sq delivery webhook` points a squid at a running `sq webhook listen` process;
// the emulator's runs engine POSTs real events to it as the virtual clock advances.
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, binCacheDir, sqBin, tempConfigDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { ndjson } from '../helpers/json.js';

const emu = useEmulator();
let listener: ResultPromise<{ env: Record<string, string>; extendEnv: false; reject: false }> | undefined;
let out = '';
let err = '';

afterAll(() => {
  listener?.kill('SIGKILL');
});

it('the listener prints the subscribed events of the run, never the unsubscribed ones, and stops with exit 0', async () => {
  emu.expectWrites('POST /v1/delivery', 'POST /v1/runs');
  listener = execa(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--json'], {
    env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
  });
  listener.stdout!.on('data', (d) => (out += d));
  listener.stderr!.on('data', (d) => (err += d));
  await waitFor(
    () => ({ out, err }),
    (o) => /Listening on http:\/\/127\.0\.0\.1:\d+/.test(o.err),
    'the listener to start',
  );
  const url = /Listening on (\S+)/.exec(err)![1];

  const env = emu.env();
  // "CTO leads" runs pause on an exhausted account limit, then resume: run.paused happens but is not subscribed.
  const cfg = await sqBin(
    ['delivery', 'webhook', '--squid', 'CTO leads', '--url', url, '--events', 'run.running,run.done'],
    { env },
  );
  expect(cfg.code, cfg.stderr).toBe(0);

  const started = await sqBin(['runs', 'start', '--squid', 'CTO leads', '--json'], { env });
  expect(started.code, started.stderr).toBe(0);
  const run = JSON.parse(started.stdout) as { id: string; squid: string };
  expect(run.id).toMatch(/^[0-9a-f]{32}$/);

  for (let i = 0; i < 12 && !out.includes('"run.done"'); i++) {
    await emu.advance(10 * 60_000);
    await new Promise((r) => setTimeout(r, 100));
  }
  await waitFor(
    () => ({ out, err }),
    (o) => o.out.includes('"run.done"'),
    'run.done at the listener',
  );

  const deliveries = (await emu.control('GET', '/_emulator/deliveries?kind=webhook')) as {
    event: string;
    ok: boolean;
  }[];
  listener.kill('SIGINT');
  const res = await listener;
  expect(res.exitCode).toBe(0);
  expect(err).toMatch(/Stopped\./);

  const events = ndjson(out);
  for (const e of events) {
    expect(e).toMatchObject({ id: run.id, object: 'run', squid: { id: run.squid, name: 'CTO leads' } });
    expect(e.timestamp).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
  }
  const names = events.map((e) => e.event);
  expect(names[0]).toBe('run.running');
  expect(names.at(-1)).toBe('run.done');
  expect(names).not.toContain('run.paused');
  expect(names).not.toContain('run.error');
  // The run did pause in between (running, then running again on resume); unsubscribed, the pause was never sent.
  expect(names).toEqual(['run.running', 'run.running', 'run.done']);
  expect(deliveries.every((d) => d.event !== 'run.paused' && d.ok)).toBe(true);
  const status = await sqBin(['runs', 'get', run.id, '--json'], { env });
  expect(JSON.parse(status.stdout).status).toBe('done');
}, 60_000);
