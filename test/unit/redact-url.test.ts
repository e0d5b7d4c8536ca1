// The --verbose trace masks a URL with sq's one URL-masking rule (maskUrlQuery), not a weaker one of its own.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/api/redact.js';
import { maskUrlQuery } from '../../src/output/secrets.js';

describe('redactUrl', () => {
  it('masks the password and secret query values, and keeps the rest', () => {
    const url = new URL('https://user:hunter2@api.example.com/v1/runs?Signature=abc123&page=2');
    const shown = redactUrl(url);
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('abc123');
    expect(shown).toContain('page=2');
    expect(shown).toBe(maskUrlQuery(url.toString(), '****'));
  });
});
