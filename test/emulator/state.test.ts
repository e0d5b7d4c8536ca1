import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUN_TIMING } from '../../src/emulator/engine.js';
import { startEmulator } from '../../src/emulator/index.js';
import { DEMO_CRAWLERS } from '../../src/emulator/seed.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { listenLocal } from '../helpers/net.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sq-emu-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--state persistence', () => {
  it('keeps state and a run in progress across a restart, and writes atomically', async () => {
    const file = join(dir, 'state.json');
    const a = await startTestEmulator({ stateFile: file });
    const created = await a.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'Persisted' });
    const squid = created.body.id;
    await a.api('POST', '/v1/tasks', { squid, tasks: [{ url: 'https://www.amazon.com/s?k=kettle' }] });
    // A squid created here is not ready until its params are set (SquidNotReady).
    expect((await a.api('POST', `/v1/squids/${squid}`, { params: {} })).status).toBe(201);
    const run = (await a.api('POST', '/v1/runs', { squid })).body.id;
    await a.advance(RUN_TIMING.startMs);
    const t1 = (await a.ctl('GET', '/_emulator/clock')).body.now_ms;
    await a.close();
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.state.squids[squid].name).toBe('Persisted');

    const b = await startTestEmulator({ stateFile: file });
    try {
      expect((await b.ctl('GET', '/_emulator/clock')).body.now_ms).toBe(t1);
      expect((await b.api('GET', `/v1/squids/${squid}`)).body.name).toBe('Persisted');
      expect((await b.api('GET', `/v1/runs/${run}`)).body.status).toBe('running');
      await b.advance(RUN_TIMING.taskMs + RUN_TIMING.finishMs);
      const done = (await b.api('GET', `/v1/runs/${run}`)).body;
      expect(done.status).toBe('done');
      expect((await b.api('GET', `/v1/results?run=${run}`)).body.total_results).toBe(done.total_results);
    } finally {
      await b.close();
    }
  });

  it('writes after changes without waiting for close (debounced)', async () => {
    const file = join(dir, 's.json');
    const a = await startTestEmulator({ stateFile: file });
    try {
      await a.api('POST', '/v1/squids', { crawler: DEMO_CRAWLERS.amazon, name: 'Soon on disk' });
      let found = false;
      for (let i = 0; i < 40 && !found; i++) {
        await new Promise((r) => setTimeout(r, 50));
        found = await readFile(file, 'utf8').then(
          (t) => t.includes('Soon on disk'),
          () => false,
        );
      }
      expect(found).toBe(true);
    } finally {
      await a.close();
    }
  });

  it('refuses a state file that is not JSON instead of overwriting it', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, 'not json');
    await expect(startEmulator({ port: 0, stateFile: file })).rejects.toThrow(/not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('not json');
  });
});

describe('--state keeps waiting webhook retries', () => {
  it('a retry due after a restart is still sent, 15 minutes after the failed attempt', async () => {
    const { createServer } = await import('node:http');
    const got: number[] = [];
    let answers = [500];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        got.push(Date.now());
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    const url = `${await listenLocal(server)}/hook`;
    const file = join(dir, 'hooks.json');
    try {
      const a = await startTestEmulator({ stateFile: file });
      const squid = Object.values(a.emu.state.squids)[0] as { id: string };
      const auth = { Authorization: `Token ${a.token}`, 'Content-Type': 'application/json' };
      const events = { 'run.running': true, 'run.paused': true, 'run.done': true, 'run.error': true };
      const cfg = await fetch(`${a.baseUrl}/v1/delivery?squid=${squid.id}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ webhook_fields: { url, is_active: true, retry: true, events } }),
      });
      expect(cfg.status).toBe(201);
      a.emu.events.emit('run.event', { id: 'run-kept-across-restart', squid: squid.id }, 'run.done');
      for (let i = 0; i < 100 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      expect(got).toHaveLength(1);
      // The failed attempt is recorded after the answer, and its retry kept in the state: wait for that, not a while.
      await waitFor(
        () => a.emu.state.webhookRetries ?? [],
        (r) => (r as unknown[]).length === 1,
        'the pending retry',
      );
      await a.close();

      answers = [];
      const b = await startTestEmulator({ stateFile: file });
      try {
        await fetch(`${b.baseUrl}/_emulator/clock/advance`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ ms: 15 * 60_000 - 1000 }),
        });
        expect(got).toHaveLength(1);
        await fetch(`${b.baseUrl}/_emulator/clock/advance`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ ms: 2000 }),
        });
        for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
        expect(got).toHaveLength(2);
        const log = (await (await fetch(`${b.baseUrl}/_emulator/deliveries?kind=webhook`)).json()) as {
          attempt: number;
          ok: boolean;
        }[];
        expect(log.map((d) => [d.attempt, d.ok])).toEqual([
          [1, false],
          [2, true],
        ]);
      } finally {
        await b.close();
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
