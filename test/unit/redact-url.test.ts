// The --verbose trace masks a URL with sq's one URL-masking rule (maskUrlQuery), not a weaker one of its own.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/api/redact.js';
import { maskUrlQuery } from '../../src/lib/secrets.js';

describe('redactUrl', () => {
  it('masks the password and secret query values, and keeps the rest', () => {
    const url = new URL('https://user:hunter2@api.example.com/v1/runs?Signature=abc123&page=2');
    const shown = redactUrl(url);
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('abc123');
    expect(shown).toContain('page=2');
    expect(shown).toBe(maskUrlQuery(url.toString(), '****'));
  });

  it("keeps the API's ids in the path, and masks a webhook service's token segment", () => {
    const id = '0cc85ca9901b10e520de104d323efa7f';
    expect(redactUrl(new URL(`https://api.example.com/v1/squids/${id}`))).toBe(
      `https://api.example.com/v1/squids/${id}`,
    );
    const slack = redactUrl(new URL('https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX'));
    expect(slack).not.toContain('XXXXXXXXXXXXXXXXXXXXXXXX');
    expect(slack).toContain('****');
  });
});
