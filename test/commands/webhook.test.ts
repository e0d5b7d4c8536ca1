// sq webhook listen: payload validation, 200/400 answers, --events filter, --forward-to, clean stop on abort.
import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/shell/main.js';
import { isWebhookTimestamp, validatePayload } from '../../src/webhook/payload.js';
import { tempConfigDir } from '../helpers/cli.js';
import { EVENT_MS, SLOW } from '../helpers/timeouts.js';
import { waitFor } from '../helpers/wait.js';
import { capture } from '../helpers/stream.js';
import { listenLocal } from '../helpers/net.js';
import { ndjson } from '../helpers/json.js';

const EVENT = {
  id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  object: 'run',
  event: 'run.done',
  squid: { id: '0cc85ca9901b10e520de104d323efa7f', name: 'Paris restaurants' },
  timestamp: '2026/11/21 10:00:00',
};

describe('payload validation', SLOW, () => {
  it('accepts the documented payload', () => {
    expect(validatePayload(EVENT)).toEqual({ ok: true, payload: EVENT });
  });
  it.each([
    [{ ...EVENT, id: 7 }, /"id"/],
    [{ ...EVENT, object: 'task' }, /"object" must be "run"/],
    [{ ...EVENT, event: 'run.finished' }, /"event" must be one of/],
    [{ ...EVENT, squid: 'x' }, /"squid" must be an object/],
    [{ ...EVENT, squid: { id: 'x' } }, /"squid.name"/],
    [{ ...EVENT, timestamp: '2026-11-21T10:00:00Z' }, /YYYY\/MM\/DD HH:MM:SS/],
    [[EVENT], /JSON object/],
  ])('refuses %j', (body, reason) => {
    const v = validatePayload(body);
    expect(v.ok).toBe(false);
    expect((v as { reason: string }).reason).toMatch(reason);
  });
  it('checks the timestamp is a real UTC time', () => {
    expect(isWebhookTimestamp('2026/02/28 23:59:59')).toBe(true);
    expect(isWebhookTimestamp('2026/02/30 10:00:00')).toBe(false);
    expect(isWebhookTimestamp('2026/11/21 24:00:00')).toBe(false);
    expect(isWebhookTimestamp('2026/11/21 10:00')).toBe(false);
  });
});

interface Running {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<number>;
}

const stops: (() => Promise<number>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

/** The real command, in-process, stopped through the same abort signal Ctrl-C fires. */
async function listen(args: string[], tty = false): Promise<Running> {
  const stdout = capture();
  const stderr = capture();
  const ac = new AbortController();
  const done = run(['webhook', 'listen', ...args], {
    env: { SQ_CONFIG_DIR: tempConfigDir() },
    io: {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin: new PassThrough(),
      stdoutIsTTY: tty,
      stderrIsTTY: tty,
      stdinIsTTY: false,
      columns: 120,
    },
    signal: ac.signal,
  });
  // Until it says it listens (or ends): 2 s of 10 ms polls was too short on a loaded machine.
  for (const end = Date.now() + EVENT_MS; !/Listening on/.test(stderr.text()); ) {
    const early = await Promise.race([done, new Promise((r) => setTimeout(() => r(null), 10))]);
    if (early !== null) throw new Error(`listen exited ${early}: ${stderr.text()}`);
    if (Date.now() > end) throw new Error(`sq webhook listen never said it listens: ${stderr.text()}`);
  }
  const url = /Listening on (\S+)/.exec(stderr.text())![1];
  let stopped: Promise<number> | null = null;
  const stop = () => {
    stopped ??= (ac.abort(), done);
    return stopped;
  };
  stops.push(stop);
  return { url, stdout: stdout.text, stderr: stderr.text, stop };
}

/** The lines a terminal shows for `text`, for the two controls used here: \r (column 0) and ESC[2K (erase the line). */
function render(text: string): string[] {
  const lines = [''];
  for (const part of text.split(/(\r|\x1b\[2K|\n)/)) {
    if (part === '\n') lines.push('');
    else if (part === '\x1b[2K' || part === '\r')
      lines[lines.length - 1] = part === '\x1b[2K' ? '' : lines[lines.length - 1];
    else lines[lines.length - 1] += part;
  }
  return lines;
}

async function post(url: string, body: string, contentType = 'application/json') {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: res.status, body: await res.text() };
}

describe('sq webhook listen', SLOW, () => {
  it('prints one NDJSON line per valid event with --json, answers 200, and exits 0 when stopped', async () => {
    const l = await listen(['--port', '0', '--json']);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await post(l.url, JSON.stringify(EVENT))).status).toBe(200);
    expect((await post(l.url, JSON.stringify({ ...EVENT, event: 'run.running' }))).status).toBe(200);
    const code = await l.stop();
    expect(code).toBe(0);
    const lines = ndjson(l.stdout());
    expect(lines).toEqual([EVENT, { ...EVENT, event: 'run.running' }]);
  });

  it('--jq runs on each event; an event it fails on is reported and skipped', async () => {
    const l = await listen([
      '--jq',
      '.event + " " + (.squid.name | ascii_downcase) | if startswith("run.error") then error("no errors") else . end',
    ]);
    await post(l.url, JSON.stringify(EVENT));
    await post(l.url, JSON.stringify({ ...EVENT, event: 'run.error' }));
    await post(l.url, JSON.stringify({ ...EVENT, event: 'run.running' }));
    // The filter's output follows the 200 answer: waited for, then stopped (on a loaded machine it came after the stop).
    await waitFor(
      () => l.stdout(),
      (o) => o.split('\n').length > 2,
      'the second line of output',
      EVENT_MS,
    );
    expect(await l.stop()).toBe(0);
    expect(l.stdout()).toBe(
      `${EVENT.event} ${EVENT.squid.name.toLowerCase()}\nrun.running ${EVENT.squid.name.toLowerCase()}\n`,
    );
    expect(l.stderr()).toContain(`warning: event run.error of run ${EVENT.id}: --jq: no errors`);
  });

  it('answers 400 with the reason for an invalid payload and reports it on stderr, nothing on stdout', async () => {
    const l = await listen(['--json']);
    const bad = await post(l.url, JSON.stringify({ ...EVENT, timestamp: 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/timestamp/);
    expect((await post(l.url, 'not json')).status).toBe(400);
    await l.stop();
    expect(l.stdout()).toBe('');
    expect(l.stderr()).toMatch(/rejected a request from 127\.0\.0\.1:\d+ \(answered 400\): "timestamp"/);
    expect(l.stderr()).toMatch(/not valid JSON/);
  });

  it('human line: timestamp, event, run id, squid name', async () => {
    const l = await listen(['--format', 'table', '--no-color']);
    await post(l.url, JSON.stringify(EVENT));
    await l.stop();
    expect(l.stdout()).toBe(`2026/11/21 10:00:00  run.done  ${EVENT.id}  Paris restaurants\n`);
  });

  it('on a terminal, each line first clears the line a progress bar of another sq may be drawn on (no glued lines)', async () => {
    const l = await listen(['--no-color'], true);
    await post(l.url, JSON.stringify(EVENT));
    await l.stop();
    expect(l.stdout()).toBe(`\r\x1b[2K2026/11/21 10:00:00  run.done  ${EVENT.id}  Paris restaurants\n`);
    // What one terminal shows: a bar frame of `sq runs watch` (no newline), then the listener's line, then the next frame.
    const screen = `\r\x1b[2K[#####-------] run a1b2c3d4: running 40%${l.stdout()}\r\x1b[2K[######------] run a1b2c3d4: running 50%`;
    expect(render(screen)).toEqual([
      `2026/11/21 10:00:00  run.done  ${EVENT.id}  Paris restaurants`,
      '[######------] run a1b2c3d4: running 50%',
    ]);
  });

  it('--events filters (still answering 200), --path and the method are enforced', async () => {
    const l = await listen(['--events', 'run.error', '--path', '/hook', '--json']);
    expect(l.url).toMatch(/\/hook$/);
    expect((await post(l.url, JSON.stringify(EVENT))).status).toBe(200);
    expect((await post(l.url, JSON.stringify({ ...EVENT, event: 'run.error' }))).status).toBe(200);
    expect((await post(l.url.replace(/\/hook$/, '/other'), JSON.stringify(EVENT))).status).toBe(404);
    expect((await fetch(l.url)).status).toBe(405);
    await l.stop();
    const lines = l.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).event).toBe('run.error');
  });

  it('--forward-to relays the original body and content type; a failing target is reported, the sender still gets 200', async () => {
    const got: { body: string; type: string | undefined }[] = [];
    let status = 200;
    const target = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        got.push({ body: b, type: req.headers['content-type'] });
        res.writeHead(status).end();
      });
    });
    const to = `${await listenLocal(target)}/in`;
    try {
      const l = await listen(['--forward-to', to, '--json']);
      // Key order and spacing must survive: the original bytes are forwarded, not a re-serialisation.
      const raw = `{ "timestamp": "2026/11/21 10:00:00", "id": "r1", "object": "run", "event": "run.done", "squid": {"id": "s1", "name": "N"} }`;
      expect((await post(l.url, raw, 'application/json; charset=utf-8')).status).toBe(200);
      status = 500;
      expect((await post(l.url, JSON.stringify(EVENT))).status).toBe(200);
      await l.stop();
      expect(got[0]).toEqual({ body: raw, type: 'application/json; charset=utf-8' });
      expect(got).toHaveLength(2);
      expect(l.stderr()).toMatch(
        /forwarding run.done of run .* to http:\/\/127\.0\.0\.1:\d+\/in failed: answered HTTP 500/,
      );
    } finally {
      await new Promise<void>((r) => target.close(() => r()));
    }
  });

  it('the tokens of --forward-to are masked in the start line and every forwarding failure, unless --show-secrets', async () => {
    const closed = http.createServer();
    const port = new URL(await listenLocal(closed)).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const to = `http://127.0.0.1:${port}/fwd?token=FWDSECRET123&sig=ab&x=1`;
    const l = await listen(['--forward-to', to, '--json']);
    expect((await post(l.url, JSON.stringify(EVENT))).status).toBe(200);
    await l.stop();
    const shown = `http://127.0.0.1:${port}/fwd?token=********&sig=********&x=1`;
    expect(l.stderr()).toContain(`Forwarding run.running, run.paused, run.done, run.error to ${shown}`);
    expect(l.stderr()).toContain(`forwarding run.done of run ${EVENT.id} to ${shown} failed: connection refused`);
    expect(l.stderr()).not.toContain('FWDSECRET123');
    expect(l.stderr()).not.toContain('sig=ab');
    const plain = await listen(['--forward-to', to, '--json', '--show-secrets']);
    await post(plain.url, JSON.stringify(EVENT));
    await plain.stop();
    expect(plain.stderr()).toContain(`forwarding run.done of run ${EVENT.id} to ${to} failed: connection refused`);
  });

  it('a body over 1 MiB is answered 413, and logged as 413', async () => {
    const l = await listen(['--json']);
    expect((await post(l.url, 'x'.repeat(1024 * 1024 + 1))).status).toBe(413);
    await l.stop();
    expect(l.stderr()).toMatch(
      /rejected a request from 127\.0\.0\.1:\d+ \(answered 413\): body larger than 1048576 bytes/,
    );
  });

  it('bad flags exit 2 before listening', async () => {
    const r = (args: string[]) =>
      run(['webhook', 'listen', ...args], {
        env: { SQ_CONFIG_DIR: tempConfigDir() },
        io: {
          stdout: new PassThrough(),
          stderr: new PassThrough(),
          stdin: new PassThrough(),
          stdoutIsTTY: false,
          stderrIsTTY: false,
          stdinIsTTY: false,
          columns: 80,
        },
        signal: new AbortController().signal,
      });
    expect(await r(['--port', '70000'])).toBe(2);
    expect(await r(['--events', 'run.finished'])).toBe(2);
    expect(await r(['--forward-to', 'ftp://x'])).toBe(2);
    const stderr = capture();
    const code = await run(['webhook', 'listen', '--forward-to', 'ftp://x?token=FWDLEAK123'], {
      env: { SQ_CONFIG_DIR: tempConfigDir() },
      io: {
        stdout: new PassThrough(),
        stderr: stderr.stream,
        stdin: new PassThrough(),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
        columns: 80,
      },
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(stderr.text()).toContain('--forward-to must be an http(s) URL');
    expect(stderr.text()).toContain('token=********');
    expect(stderr.text()).not.toContain('FWDLEAK123');
    expect(await r(['--path', 'hook'])).toBe(2);
  });
});
