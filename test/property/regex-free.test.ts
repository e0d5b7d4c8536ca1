// Property: the checks every call runs, written without regular expressions (a regular expression is compiled on its
// first use, ~40 µs of a call each: docs/performance.md), answer exactly what the regular expressions they replace
// answered, for any text: ASCII, any case, and characters whose case maps onto ASCII letters (the Kelvin sign, a
// dotted capital I).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/lib/loopback.js';
import { isSecretKey, webhookKey } from '../../src/lib/secrets.js';
import { bucketFor } from '../../src/api/pacing.js';
import { checkApiKey, normaliseBaseUrl } from '../../src/config/resolve.js';

const SECRET_NAMES = [
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'aws_access_key',
  'aws_secret_key',
  'secret_key',
  'authorization',
  'cookie',
  'cookies',
  'private_key',
];

/** Text made of the pieces these checks look for, mixed with anything. */
const pieces = (words: string[]) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...words),
        fc.constantFrom(...words).map((w) => w.toUpperCase()),
        fc.constantFrom(...words).map((w) => [...w].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')),
        fc.constantFrom(
          '\u212a',
          '\u0130',
          '\u017f',
          '\u0131',
          '[',
          ']',
          '/',
          '.',
          '-',
          '_',
          ' ',
          '\n',
          '?',
          '#',
          '0',
          '9',
        ),
        fc.string({ maxLength: 4 }),
        fc.string({ unit: 'binary', maxLength: 3 }),
      ),
      { maxLength: 8 },
    )
    .map((a) => a.join(''));

const runs = { numRuns: 3000 };

describe('regular expressions replaced by string operations', () => {
  it('isLoopbackHost', () => {
    const reference = (hostname: string) => {
      const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
      return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
    };
    for (const h of [
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
      'LOCALHOST',
      '[localhost]',
      '127.0.0',
      '127.0.0.1.',
      '127..0.1',
      '128.0.0.1',
      '127.0.0.x',
      '[',
      ']',
      '[]',
      '[[::1]]',
      '127.0.0.\u0661',
    ]) {
      expect(isLoopbackHost(h), h).toBe(reference(h));
    }
    fc.assert(
      fc.property(
        pieces(['127', '127.', '.0', '.1', 'localhost', '::1', '[', ']']),
        (h) => isLoopbackHost(h) === reference(h),
      ),
      runs,
    );
  });

  it('isSecretKey and webhookKey', () => {
    const secret = (key: string) => {
      const k = key.toLowerCase().replace(/-/g, '_');
      return SECRET_NAMES.some((name) => k === name || k.endsWith(name));
    };
    const webhook = (key: string) => /webhook|hook_?url/i.test(key);
    for (const k of [
      'webhook',
      'WebHook_URL',
      'hookurl',
      'hook_url',
      'hook-url',
      'my_webhook',
      'webhoo\u212a',
      'HOOK_URL',
      'hoo',
      'x-api-key',
      'sftp_password',
    ]) {
      expect(webhookKey(k), k).toBe(webhook(k));
      expect(isSecretKey(k), k).toBe(secret(k));
    }
    fc.assert(
      fc.property(
        pieces(['web', 'hook', 'url', '_url', 'hoo', 'k', ...SECRET_NAMES, 'api-key']),
        (k) => webhookKey(k) === webhook(k) && isSecretKey(k) === secret(k),
      ),
      runs,
    );
  });

  it('bucketFor', () => {
    const reference = (path: string) => /^\/v1\/([a-z_]{1,40})(?:\/|$)/.exec(path)?.[1] ?? 'other';
    for (const p of [
      '/v1/squids',
      '/v1/squids/x',
      '/v1/',
      '/v1//x',
      '/v1/runtasks?x=1',
      `/v1/${'a'.repeat(40)}`,
      `/v1/${'a'.repeat(41)}`,
      `/v1/${'a'.repeat(41)}/x`,
      '/v2/x',
      'v1/x',
      '/v1/Squids',
    ]) {
      expect(bucketFor(p), p).toBe(reference(p));
    }
    fc.assert(
      fc.property(
        fc.tuple(
          fc.constantFrom('/v1/', '/v1', '', '/v2/', '/V1/'),
          fc.stringMatching(/^[a-z_]{0,45}$/),
          pieces(['/', '?', 'a', '_', 'A']),
        ),
        ([a, b, c]) => bucketFor(a + b + c) === reference(a + b + c),
      ),
      runs,
    );
  });

  it('normaliseBaseUrl and checkApiKey', () => {
    const normalised = (url: string) => url.replace(/\/+$/, '').replace(/\/v1$/, '');
    const printable = (token: string) => /^[\x21-\x7e]+$/.test(token);
    const accepted = (token: string) => {
      try {
        checkApiKey('SQ_TOKEN', token);
        return true;
      } catch {
        return false;
      }
    };
    for (const u of [
      'https://h',
      'https://h/',
      'https://h/v1',
      'https://h/v1/',
      'https://h/v1//',
      'https://h//v1',
      'https://h/v1/v1',
      '/',
      '',
      '/v1',
    ]) {
      expect(normaliseBaseUrl(u), u).toBe(normalised(u));
    }
    for (const t of ['', 'abc', 'a b', 'tok\u00e9n', '~', '!', '\x7f', 'sq_x'])
      expect(accepted(t), t).toBe(printable(t));
    fc.assert(
      fc.property(pieces(['https://h', '/', '/v1', 'v1', 'x']), (u) => normaliseBaseUrl(u) === normalised(u)),
      runs,
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 8 })),
        (t) => accepted(t) === printable(t),
      ),
      runs,
    );
  });
});
