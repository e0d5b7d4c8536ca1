// Webhook delivery (spec Events rules 1-4) to a real node:http receiver, retries on the virtual clock.
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { RunEvent } from '../../src/emulator/types.js';
import { BARE_SQUID as SQUID, jsonCall, startBareEmulator } from '../helpers/emulator.js';
import { waitFor as waitUntil } from '../helpers/wait.js';
import { listenLocal } from '../helpers/net.js';
import type { J } from '../helpers/json.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: J;
  at: number;
}

/** A receiver whose n-th answer is scripted: a status, or 'slow' (answers after 1.5 s). */
async function receiver(script: (number | 'slow')[] = [], fallback = 200) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        at: e.emu.clock.now(),
      });
      const step = script[got.length - 1] ?? fallback;
      if (step === 'slow') setTimeout(() => res.writeHead(200).end('late'), 1500).unref();
      else res.writeHead(step).end();
    });
  });
  const url = `${await listenLocal(server)}/hook`;
  servers.push(server);
  return { url, got };
}

let e: RunningEmulator;
let servers: http.Server[] = [];

const call = (method: string, path: string, body?: unknown) => jsonCall(e, method, path, body);

// Webhook attempts come within milliseconds here; give up well inside the test's own timeout.
const waitFor = <T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, what: string) => waitUntil(fn, ok, what, 5000);

const deliveries = async (): Promise<J[]> => (await call('GET', '/_emulator/deliveries?kind=webhook')).body;
const advance = (ms: number) => call('POST', '/_emulator/clock/advance', { ms });

async function configure(
  url: string,
  opts: { active?: boolean; retry?: boolean; events?: Partial<Record<RunEvent, boolean>> } = {},
) {
  const events = { 'run.running': true, 'run.paused': true, 'run.done': true, 'run.error': true, ...opts.events };
  const r = await call('POST', `/v1/delivery?squid=${SQUID}`, {
    webhook_fields: { url, is_active: opts.active ?? true, retry: opts.retry ?? false, events },
  });
  expect(r.status).toBe(201);
}

function fire(runId: string, event: RunEvent): void {
  e.emu.events.emit('run.event', { id: runId, object: 'run', squid: SQUID, status: event.slice(4) }, event);
}

beforeEach(async () => {
  e = await startBareEmulator('Cafés de Paris');
});

afterEach(async () => {
  await e.close();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

describe('webhook events', () => {
  it('POSTs the spec payload, as JSON, with a UTC YYYY/MM/DD HH:MM:SS timestamp', async () => {
    const rx = await receiver();
    await configure(rx.url);
    const when = new Date(e.emu.clock.now()).toISOString();
    fire('run0000000000000000000000000001', 'run.done');
    const [got] = await waitFor(
      () => rx.got,
      (g) => g.length === 1,
      'one webhook',
    );
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.body).toEqual({
      id: 'run0000000000000000000000000001',
      object: 'run',
      event: 'run.done',
      squid: { id: SQUID, name: 'Cafés de Paris' },
      timestamp: `${when.slice(0, 4)}/${when.slice(5, 7)}/${when.slice(8, 10)} ${when.slice(11, 19)}`,
    });
    expect(got.body.timestamp).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
    const d = await waitFor(deliveries, (x) => x.length === 1, 'a delivery record');
    expect(d[0]).toMatchObject({
      kind: 'webhook',
      squid: SQUID,
      run: 'run0000000000000000000000000001',
      event: 'run.done',
      attempt: 1,
      ok: true,
      status_code: 200,
      error: null,
      target: rx.url,
    });
  });

  it('sends only subscribed events', async () => {
    const rx = await receiver();
    await configure(rx.url, {
      events: { 'run.running': false, 'run.paused': false, 'run.done': true, 'run.error': true },
    });
    for (const ev of ['run.running', 'run.paused', 'run.done', 'run.error'] as RunEvent[]) fire('r1', ev);
    // No fixed sleep: the subscription is checked in emit(), so a webhook for any of the four would have started
    // before this subscribed one for another run, the event waited for.
    fire('r9', 'run.done');
    await waitFor(deliveries, (d) => d.length >= 3, 'three delivery records');
    expect(rx.got.map((g) => `${g.body.id} ${g.body.event}`).sort()).toEqual([
      'r1 run.done',
      'r1 run.error',
      'r9 run.done',
    ]);
  });

  it('sends nothing while the configuration is inactive, nor for another squid', async () => {
    const rx = await receiver();
    await configure(rx.url, { active: false });
    fire('r1', 'run.done');
    e.emu.events.emit('run.event', { id: 'r2', squid: 'someothersquid', object: 'run' }, 'run.done');
    expect(rx.got).toHaveLength(0);
    expect(await deliveries()).toHaveLength(0);
    // Turned on again, the same event is delivered: the silence above was the flag, not a broken pipe. No fixed
    // sleep: the flag is read in emit(), so a webhook of the two above would have started before this one, the
    // event waited for, and only this one is there.
    await configure(rx.url, { active: true });
    fire('r3', 'run.done');
    await waitFor(deliveries, (d) => d.length === 1, 'the delivery record after activation');
    expect(rx.got.map((g) => g.body.id)).toEqual(['r3']);
  });

  it('retries a failed delivery 15 minutes of business time apart when retry is on (500, 500, 200)', async () => {
    const rx = await receiver([500, 500, 200]);
    await configure(rx.url, { retry: true });
    const t0 = e.emu.clock.now();
    fire('r1', 'run.error');
    await waitFor(deliveries, (d) => d.length === 1, 'attempt 1');
    // advance() resolves once every timer due in the window has run to its end (the attempt recorded), so nothing
    // is left to wait for: the retry is still pending.
    await advance(15 * 60_000 - 1);
    expect(rx.got).toHaveLength(1);
    expect(e.emu.state.webhookRetries).toHaveLength(1);
    await advance(1);
    await waitFor(deliveries, (d) => d.length === 2, 'attempt 2');
    await advance(15 * 60_000);
    const d = await waitFor(deliveries, (x) => x.length === 3, 'attempt 3');
    expect(d.map((x) => [x.attempt, x.ok, x.status_code])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    expect(d[0].error).toMatch(/500/);
    expect(rx.got.map((g) => g.at - t0)).toEqual([0, 15 * 60_000, 30 * 60_000]);
    // Every attempt carries the same payload (same original timestamp).
    expect(new Set(rx.got.map((g) => JSON.stringify(g.body))).size).toBe(1);
    await advance(60 * 60_000);
    expect(rx.got).toHaveLength(3);
    expect(e.emu.state.webhookRetries).toEqual([]);
  });

  it('gives up after 3 retries (4 attempts in all)', async () => {
    const rx = await receiver([], 503);
    await configure(rx.url, { retry: true });
    fire('r1', 'run.done');
    await waitFor(deliveries, (d) => d.length === 1, 'attempt 1');
    for (let i = 2; i <= 4; i++) {
      await advance(15 * 60_000);
      await waitFor(deliveries, (d) => d.length === i, `attempt ${i}`);
    }
    await advance(5 * 60 * 60_000);
    // advance() ran every due timer to its end; and no retry is left to come.
    expect(e.emu.state.webhookRetries).toEqual([]);
    const d = await deliveries();
    expect(d.map((x) => x.attempt)).toEqual([1, 2, 3, 4]);
    expect(d.every((x) => x.ok === false && x.status_code === 503)).toBe(true);
  });

  it('the delivery log masks the token of the target URL (query and path), as the request log does', async () => {
    const rx = await receiver();
    await configure(`${rx.url}/q8Xf2LmP9zR4tW7vK1nB3yC6?token=QUERYTOKEN1&x=1`);
    fire('r1', 'run.done');
    await waitFor(deliveries, (d) => d.length === 1, 'attempt 1');
    expect(rx.got).toHaveLength(1);
    const [d] = await deliveries();
    expect(d.target).toBe(`${rx.url}/****?token=****&x=1`);
    expect(JSON.stringify(await deliveries())).not.toMatch(/QUERYTOKEN1|q8Xf2LmP9zR4tW7vK1nB3yC6/);
  });

  it('does not retry when retry is false', async () => {
    const rx = await receiver([500]);
    await configure(rx.url, { retry: false });
    fire('r1', 'run.done');
    await waitFor(deliveries, (d) => d.length === 1, 'attempt 1');
    await advance(2 * 60 * 60_000);
    expect(e.emu.state.webhookRetries).toEqual([]);
    expect(rx.got).toHaveLength(1);
    expect((await deliveries()).map((x) => [x.attempt, x.ok])).toEqual([[1, false]]);
  });

  it('counts 204 and other non-200/201/202 answers as failed, and 201/202 as delivered', async () => {
    const rx = await receiver([204, 201, 202, 301]);
    await configure(rx.url);
    for (const id of ['a', 'b', 'c', 'd']) {
      fire(id, 'run.done');
      await waitFor(
        () => rx.got,
        (g) => g.some((x) => x.body.id === id),
        `webhook ${id}`,
      );
    }
    const d = await waitFor(deliveries, (x) => x.length === 4, 'four records');
    const byRun = Object.fromEntries(d.map((x) => [x.run, [x.ok, x.status_code]]));
    expect(byRun).toEqual({ a: [false, 204], b: [true, 201], c: [true, 202], d: [false, 301] });
  });

  it('counts an answer slower than the timeout as failed', async () => {
    e.emu.webhookTimeoutMs = 300;
    const rx = await receiver(['slow']);
    await configure(rx.url);
    fire('r1', 'run.done');
    const d = await waitFor(deliveries, (x) => x.length === 1, 'a failed attempt');
    expect(d[0]).toMatchObject({ ok: false, status_code: null });
    expect(d[0].error).toMatch(/300 ms/);
    expect(rx.got).toHaveLength(1);
  });

  it('records an unreachable receiver as a failed delivery without crashing', async () => {
    const rx = await receiver();
    const dead = rx.url;
    await new Promise((r) => servers.pop()!.close(r));
    await configure(dead, { retry: false });
    fire('r1', 'run.done');
    const d = await waitFor(deliveries, (x) => x.length === 1, 'a failed attempt');
    expect(d[0]).toMatchObject({ ok: false, status_code: null });
    expect(d[0].error).toMatch(/ECONNREFUSED/);
    // The emulator still answers.
    expect((await call('GET', '/v1/plans/auto-reset')).status).toBe(200);
  });
});
