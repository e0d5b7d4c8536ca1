import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EmulatorOptionError, parseEmulatorOptions, runEmulatorCommand } from '../../src/emulator/cli.js';
import { capture } from '../helpers/stream.js';
import { waitFor } from '../helpers/wait.js';

const firstLine = async (out: { text: () => string }) =>
  (await waitFor(out.text, (t) => t.includes('\n'), 'a line printed', 15_000)).split('\n')[0];

describe('runEmulatorCommand', () => {
  it('prints exactly one JSON line, the export hint on stderr, serves, and exits 0 when stopped', async () => {
    const out = capture();
    const err = capture();
    const stop = new AbortController();
    const done = runEmulatorCommand(
      { port: 0, clock: 'virtual', seed: 'empty' },
      { stdout: out.stream, stderr: err.stream, signal: stop.signal },
    );
    const line = await firstLine(out);
    const info = JSON.parse(line);
    expect(Object.keys(info)).toEqual(['base_url', 'token']);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.token).toBe('sq_emulator_demo_token');
    expect(err.text()).toContain(`export SQ_BASE_URL=${info.base_url} SQ_TOKEN=${info.token}`);
    // The banner names the clock, its time scale and the seed, and ends its line.
    expect(err.text()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(clock virtual, time scale 1x, seed empty\)/);
    expect(err.text().endsWith('\n')).toBe(true);
    const me = await fetch(`${info.base_url}/v1/me`, { headers: { Authorization: `Token ${info.token}` } });
    expect(me.status).toBe(200);
    const squids = (await (
      await fetch(`${info.base_url}/v1/squids`, { headers: { Authorization: `Token ${info.token}` } })
    ).json()) as { total_results: number };
    expect(squids.total_results).toBe(0);
    stop.abort();
    expect(await done).toBe(0);
    expect(out.text().trimEnd().split('\n')).toHaveLength(1);
    await expect(fetch(`${info.base_url}/v1/me`)).rejects.toThrow();
  });

  it('returns 2 and names the flag for a bad option', async () => {
    const err = capture();
    const code = await runEmulatorCommand({ port: 70000 }, { stdout: new PassThrough(), stderr: err.stream });
    expect(code).toBe(2);
    expect(err.text()).toMatch(/--port/);
  });

  it('returns 1 with a hint when the port is taken', async () => {
    const stop = new AbortController();
    const out = capture();
    const first = runEmulatorCommand(
      { port: 0, clock: 'virtual' },
      { stdout: out.stream, stderr: new PassThrough(), signal: stop.signal },
    );
    const port = Number(new URL(JSON.parse(await firstLine(out)).base_url).port);
    const err = capture();
    expect(await runEmulatorCommand({ port }, { stdout: new PassThrough(), stderr: err.stream })).toBe(1);
    expect(err.text()).toMatch(/already in use/);
    stop.abort();
    expect(await first).toBe(0);
  });
});

describe('parseEmulatorOptions', () => {
  it('accepts commander strings and returns typed options', () => {
    expect(
      parseEmulatorOptions({
        host: '127.0.0.1',
        port: '0',
        seed: 'empty',
        clock: 'virtual',
        timeScale: '60',
        freePlan: true,
        rateLimits: '0.05',
        state: 'x.json',
      }),
    ).toEqual({
      host: '127.0.0.1',
      port: 0,
      seed: 'empty',
      clock: 'virtual',
      timeScale: 60,
      freePlan: true,
      rateLimits: 0.05,
      stateFile: 'x.json',
    });
    expect(parseEmulatorOptions({ rateLimits: 'off' })).toEqual({ rateLimits: 'off' });
  });

  it.each([
    [{ port: '65536' }, '--port'],
    [{ port: 'abc' }, '--port'],
    [{ seed: 'full' }, '--seed'],
    [{ clock: 'fast' }, '--clock'],
    [{ timeScale: '0' }, '--time-scale'],
    [{ rateLimits: 'sometimes' }, '--rate-limits'],
    [{ rateLimits: '-1' }, '--rate-limits'],
    [{ state: '' }, '--state'],
    [{ host: '' }, '--host'],
  ])('rejects %j naming %s', (raw, flag) => {
    try {
      parseEmulatorOptions(raw);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EmulatorOptionError);
      expect((e as EmulatorOptionError).flag).toBe(flag);
      expect((e as Error).message.startsWith(flag)).toBe(true);
    }
  });

  // The bounds `sq emulator start` documents hold for the programmatic API too (one validator).
  it.each([
    [{ timeScale: '3601' }, '--time-scale'],
    [{ timeScale: 1.5 }, '--time-scale'],
    [{ port: '0x10' }, '--port'],
    [{ rateLimits: '1001' }, '--rate-limits'],
  ])('rejects %j, outside the bounds of sq emulator start', (raw, flag) => {
    expect(() => parseEmulatorOptions(raw)).toThrow(expect.objectContaining({ flag }));
  });
});
