import { describe, expect, it } from 'vitest';
import { isSecretKey, maskKey, maskSecrets, redactText } from '../../src/output/secrets.js';

describe('isSecretKey', () => {
  it.each([
    'password', 'PASSWORD', 'passwd', 'secret', 'client_secret', 'token', 'access_token', 'api_key', 'apiKey',
    'x-api-key', 'aws_access_key', 'aws_secret_key', 'Authorization', 'cookies', 'private_key', 'sftp_password',
    'sftpPassword',
  ])('%s is secret', (k) => expect(isSecretKey(k)).toBe(true));
  it.each(['name', 'host', 'username', 'cookies_expired', 'tokens_used', 'hash_value', 'port', 'password_set_at'])(
    '%s is not secret',
    (k) => expect(isSecretKey(k)).toBe(false),
  );
});

describe('maskSecrets', () => {
  const input = {
    name: 'daily',
    ftp_fields: { host: 'h', port: 22, password: 'hunter22', directory: '/in' },
    list: [{ token: 'abc123' }, { token: null }, { api_key: '' }, 'plain'],
    cookies: { sid: 'xyz' },
    aws_secret_key: 12345,
  };

  it('masks nested values and arrays, keeps null/empty, does not mutate', () => {
    const before = structuredClone(input);
    expect(maskSecrets(input, false)).toEqual({
      name: 'daily',
      ftp_fields: { host: 'h', port: 22, password: '********', directory: '/in' },
      list: [{ token: '********' }, { token: null }, { api_key: '' }, 'plain'],
      cookies: '********',
      aws_secret_key: '********',
    });
    expect(input).toEqual(before);
  });

  it('returns the data unchanged with --show-secrets', () => {
    expect(maskSecrets(input, true)).toEqual(input);
  });

  it('leaves primitives alone', () => {
    expect(maskSecrets('password', false)).toBe('password');
    expect(maskSecrets(null, false)).toBeNull();
  });
});

describe('maskKey', () => {
  it.each([
    ['sk_live_0123456789abcdef', '****cdef'],
    ['12345678', '****5678'],
    ['short', '****'],
    ['', '****'],
  ])('%j → %j', (k, m) => expect(maskKey(k)).toBe(m));
});

describe('redactText', () => {
  it('replaces every occurrence of each known secret', () => {
    expect(redactText('key abcd1234 then abcd1234 and pw hunter22', ['abcd1234', 'hunter22'])).toBe(
      'key ******** then ******** and pw ********',
    );
  });
  it('ignores secrets shorter than 4 characters and replaces longer ones first', () => {
    expect(redactText('a abc abcdefgh', ['abc', 'abcd', 'abcdefgh'])).toBe('a abc ********');
  });
  it('handles regex metacharacters literally', () => {
    expect(redactText('x a.b*c+ y', ['a.b*c+'])).toBe('x ******** y');
  });
});
