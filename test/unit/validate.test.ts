import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/validate/duration.js';
import { durationFlag, eventsFlag, httpUrlFlag, intFlag, portFlag } from '../../src/validate/index.js';
import { UsageError } from '../../src/errors.js';
import { errorMessage } from '../../src/api/messages.js';
import { secondsInMessage } from '../../src/api/http.js';
import { serverNow } from '../../src/api/pacing.js';
import { GLOBAL_OPTIONS } from '../../src/cli/global-flags.js';
import { VALUE_GLOBALS, scanArgv } from '../../src/startup/argv.js';

describe('durations', () => {
  it.each([
    ['30s', 30_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['1500ms', 1500],
    ['1h30m', 5_400_000],
    ['5', 5000],
  ])('%s = %i ms', (t, ms) => expect(parseDuration(t)).toBe(ms));
  it.each(['', 'abc', '10x', 's', '-5s', '5s garbage'])('%j is not a duration', (t) =>
    expect(parseDuration(t)).toBeNull(),
  );
});

describe('flag validation names the flag and the allowed range', () => {
  it.each([
    ['--threshold', '0', 1, 100],
    ['--threshold', '101', 1, 100],
    ['--threshold', '1.5', 1, 100],
    ['--threshold', 'abc', 1, 100],
    ['--max-resets', '11', 1, 10],
  ])('%s %s', (flag, v, min, max) => {
    expect(() => intFlag(flag, v, min, max)).toThrow(UsageError);
    expect(() => intFlag(flag, v, min, max)).toThrow(`${flag} must be an integer from ${min} to ${max} (got "${v}")`);
  });
  it('accepts in-range integers', () => expect(intFlag('--threshold', '80', 1, 100)).toBe(80));
  it('port', () => {
    expect(() => portFlag('--port', '70000')).toThrow('--port must be an integer from 1 to 65535');
    expect(portFlag('--port', '22')).toBe(22);
  });
  it('url must be http(s)', () => {
    expect(() => httpUrlFlag('--url', 'ftp://x')).toThrow('--url must be an http(s) URL');
    expect(httpUrlFlag('--url', 'https://x.test/h')).toBe('https://x.test/h');
  });
  it('events', () => {
    expect(eventsFlag('--events', 'run.done,run.error')).toEqual(['run.done', 'run.error']);
    expect(eventsFlag('--events', 'all')).toHaveLength(4);
    expect(() => eventsFlag('--events', 'run.done,run.finished')).toThrow(
      '--events: unknown event "run.finished"; allowed: run.running, run.paused, run.done, run.error',
    );
  });
  it('durations with a floor', () => {
    expect(() => durationFlag('--interval', '1s', { minMs: 5000 })).toThrow(
      '--interval must be a duration like 30s, 10m or 2h of at least 5s',
    );
  });
});

describe('API error bodies (four documented shapes)', () => {
  it.each([
    [{ detail: 'Invalid token.' }, 'Invalid token.'],
    [
      { error: { message: 'Run not found', type: 'not_found_error', param: 'run_hash' } },
      'Run not found (param: run_hash)',
    ],
    [{ error: 'This squid already has a chain configured.' }, 'This squid already has a chain configured.'],
    [{ error: 'Rate limit exceeded.', type: 'RateLimitExceeded', code: 429 }, 'Rate limit exceeded.'],
    [{ nothing: 1 }, null],
  ])('%j', (body, msg) => expect(errorMessage(body)).toBe(msg));
});

describe('server time for X-RateLimit-Reset', () => {
  it('uses our sub-second clock when the Date header agrees to the second', () => {
    const local = Date.parse('2026-11-21T10:00:00.700Z');
    expect(serverNow('Sat, 21 Nov 2026 10:00:00 GMT', local)).toBe(local);
  });
  it('uses the Date header when clocks disagree', () => {
    const local = Date.parse('2026-11-21T10:05:00.000Z');
    expect(serverNow('Sat, 21 Nov 2026 10:00:00 GMT', local)).toBe(Date.parse('2026-11-21T10:00:00Z'));
  });
});

describe('finding the noun in argv', () => {
  it.each([
    [['squids', 'list'], 'squids'],
    [['--json', 'squids', 'list'], 'squids'],
    [['--profile', 'squids', 'runs', 'list'], 'runs'],
    [['--format', 'csv', 'results', 'list'], 'results'],
    [['--format=csv', 'results'], 'results'],
    [['-q'], undefined],
    [['--jq', '.email', 'me'], 'me'],
    [['--template', '{{.email}}', 'me'], 'me'],
    [['--', 'me'], 'me'],
  ])('%j', (argv, noun) => expect(scanArgv(argv).noun).toBe(noun));

  it('the pre-scanner knows exactly the global options that take a value', () => {
    const taking = GLOBAL_OPTIONS.filter((g) => g.flags.includes('<')).map((g) =>
      g.flags.split(/[ ,]+/).find((f) => f.startsWith('--')),
    );
    expect([...VALUE_GLOBALS].sort()).toEqual(taking.sort());
  });

  it('reads the values of value-taking globals after the noun too, in both spellings', () => {
    const { options } = scanArgv(['me', '--jq', '.a', '--format=csv', '-q', '--', '--json']);
    expect(Object.fromEntries(options)).toEqual({ '--jq': '.a', '--format': 'csv', '-q': true });
  });
});

describe('429 bodies without Retry-After', () => {
  it.each([
    ['{"detail":"Request was throttled. Expected available in 2 seconds."}', 2],
    ['{"detail":"Request was throttled. Expected available in 1.2 seconds."}', 2],
    ['{"detail":"Request was throttled. Expected available in 1 second."}', 1],
    ['{"error":"Rate limit exceeded."}', null],
  ])('%s', (text, s) => expect(secondsInMessage(text)).toBe(s));
});
