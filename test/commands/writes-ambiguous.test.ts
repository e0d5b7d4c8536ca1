// Writes whose outcome sq cannot know: Ctrl-C while a write is in flight (exit 130, but saying it may have happened),
// an empty run list after an ambiguous start (proves nothing), a DELETE whose retry finds the object gone (this
// command deleted it), and 5xx statuses that are not retried (reliability.md: only 502/503/504).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { fakeSqClock } from '../helpers/clock.js';
import { listenLocal } from '../helpers/net.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { InterruptedError } from '../../src/errors.js';

const emu = useEmulator({ each: 'reset' });

/**
 * A loopback proxy to the emulator that forwards every request at once, but holds the answer to the first request
 * `hold` picks until the client has gone (or 5 s): the server acted, the client never heard. `held` resolves once the
 * server has acted on it.
 */
async function holdingProxy(
  hold: (method: string, path: string) => boolean,
): Promise<{ url: string; held: Promise<void>; server: Server }> {
  let arrived!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  let holding = false;
  const server = createServer((req: IncomingMessage, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type', 'accept'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      const upstream = await fetch(emu.baseUrl + req.url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (!holding && hold(req.method ?? '', new URL(req.url ?? '/', 'http://x').pathname)) {
        holding = true;
        arrived();
        await new Promise<void>((r) => {
          const t = setTimeout(r, 5000);
          res.on('close', () => (clearTimeout(t), r()));
        });
      }
      if (res.destroyed) return;
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    })();
  });
  return { url: await listenLocal(server as unknown as import('node:net').Server), held, server };
}

let proxy: Server | undefined;
afterEach(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r) ?? r(null));
  proxy = undefined;
});

/** Runs sq through a holding proxy and presses Ctrl-C once the held write has reached the server. */
async function interruptedWrite(
  args: string[],
  hold: (method: string, path: string) => boolean,
  extraEnv: Record<string, string> = {},
) {
  const p = await holdingProxy(hold);
  proxy = p.server;
  const controller = new AbortController();
  void p.held.then(() => setTimeout(() => controller.abort(new InterruptedError('SIGINT')), 50));
  return sq(args, { env: emu.env({ SQ_BASE_URL: p.url, ...extraEnv }), signal: controller.signal });
}

describe('Ctrl-C while a write is in flight: exit 130, saying it may have happened', () => {
  it("runs start lists the squid's recent runs, where the run it started shows", async () => {
    const squid = emu.squidId(DEMO_SQUIDS.headphones);
    const before = (await emu.api(`/v1/runs?squid=${squid}&limit=100`)).data.map((r: { id: string }) => r.id);
    const r = await interruptedWrite(
      ['runs', 'start', '--squid', squid],
      (m, path) => m === 'POST' && path === '/v1/runs',
    );
    expect(r.code).toBe(130);
    const started = (await emu.api(`/v1/runs?squid=${squid}&limit=100`)).data
      .map((x: { id: string }) => x.id)
      .filter((id: string) => !before.includes(id));
    expect(started).toHaveLength(1);
    expect(r.stderr).toContain('interrupted while POST /v1/runs was in flight');
    expect(r.stderr).toContain('The request may have reached the server');
    expect(r.stderr).toContain(`Most recent runs of squid ${squid}`);
    expect(r.stderr).toContain(`  ${started[0]}  `);
    expect((await emu.requests('POST')).filter((q) => q.path === '/v1/runs')).toHaveLength(1);
  });

  it('billing auto-reset uses the billing wording', async () => {
    const r = await interruptedWrite(
      ['billing', 'auto-reset', '--enable', '--threshold', '90', '--yes', '--json'],
      (m, path) => m === 'POST' && path === '/v1/plans/auto-reset',
    );
    expect(r.code).toBe(130);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(err.error.code).toBe(130);
    expect(err.error.message).toContain('interrupted while POST /v1/plans/auto-reset was in flight');
    expect(err.error.message).toContain(
      'the setting may or may not have changed (and a reset may have charged the card)',
    );
    expect((await emu.api('/v1/plans/auto-reset')).enabled).toBe(true);
  });

  it('tasks add: the in-flight batch may or may not have been added, the earlier ones were; exit 130, not 8', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const file = join(tempDir('sq-writes-'), 'many.txt');
    writeFileSync(
      file,
      Array.from({ length: 600 }, (_, i) => `https://www.google.com/maps/search/cafe+${i}`).join('\n'),
    );
    let posts = 0;
    const r = await interruptedWrite(
      ['tasks', 'add', '--squid', paris, '--file', file],
      (m, path) => m === 'POST' && path === '/v1/tasks' && ++posts === 2,
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(
      'adding tasks stopped at request 2 of 2: interrupted while POST /v1/tasks was in flight',
    );
    expect(r.stderr).toContain(
      'The first 500 of 600 tasks were accepted (500 new, 0 duplicates); request 2 may or may not have added its 100',
    );
    expect(r.stderr).not.toContain('the rest were not added');
    // It did add them: the proxy forwarded the batch before the client left.
    expect((await emu.api(`/v1/tasks?squid=${paris}&limit=1`)).total_results).toBe(3 + 600);
  });
});

describe('Ctrl-C while a DELETE is being retried', () => {
  it('after a 503 (an attempt that may have reached the server), it says the delete may have happened', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.faults([{ method: 'DELETE', path: `/v1/squids/${paris}`, action: 'status', status: 503 }]);
    const controller = new AbortController();
    // Ctrl-C in the back-off before the retry, on sq's fake clock: the event is sq's first wait once the DELETE
    // was answered (no fixed delay that the back-off may outlast or not reach).
    const clock = fakeSqClock(controller.signal);
    const sleep = clock.sleep;
    clock.sleep = async (ms) => {
      if ((await emu.requests('DELETE')).length > 0) controller.abort(new InterruptedError('SIGINT'));
      return sleep(ms);
    };
    const r = await sq(['squids', 'delete', paris, '--yes'], { env: emu.env(), signal: controller.signal, clock });
    expect(controller.signal.aborted).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(
      `interrupted while DELETE /v1/squids/${paris} was in flight. The request may have reached the server`,
    );
  });
});

describe('an ambiguous runs start whose listing is empty', () => {
  it('says no run is listed yet and the server may still start one, not that none was started', async () => {
    emu.expectWrites('POST /v1/runs');
    const lyon = emu.squidId(DEMO_SQUIDS.lyon);
    await emu.faults([{ method: 'POST', path: '/v1/runs', action: 'status', status: 504, count: 1 }]);
    const r = await sq(['runs', 'start', '--squid', lyon], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`No run of squid ${lyon} is listed yet, but the server may still start one.`);
    expect(r.stderr).toContain(`Check again with \`sq runs list --squid ${lyon}\` before starting another.`);
    expect(r.stderr).not.toContain('none was started');
  });
});

describe('retries (reliability.md: GET/HEAD/DELETE on 502/503/504, connection reset, or timeout)', () => {
  it("a DELETE reset mid-answer is retried, and the retry's 404 means this command deleted it: exit 0", async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.faults([{ method: 'DELETE', path: `/v1/squids/${paris}`, action: 'reset_mid_body', count: 1 }]);
    const r = await sq(['squids', 'delete', paris, '--yes', '--json', '-v'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: paris, object: 'squid', deleted: true });
    expect(r.stderr).toContain(
      `* DELETE ${emu.baseUrl}/v1/squids/${paris}: 404 on a retry: an earlier attempt deleted it`,
    );
    expect((await emu.requests('DELETE')).map((q) => q.status)).toEqual([200, 404]);
  });

  it('a DELETE of an unknown object is still "not found" (exit 3) when no earlier attempt reached the server', async () => {
    emu.expectWrites('DELETE /v1/squids/*');
    const r = await sq(['squids', 'delete', '0'.repeat(32), '--yes'], { env: emu.env() });
    expect(r.code).toBe(3);
  });

  it('a 500 on GET is not retried (it is no passing failure): exit 1 after one request', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/me', action: 'status', status: 500 }]);
    const r = await sq(['me'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect((await emu.requests()).filter((q) => q.path === '/v1/me')).toHaveLength(1);
  });
});
