// The emulator's multipart/form-data parser (POST /v1/tasks/upload): a part's name is a key of its own, whatever it is.
import { describe, expect, it } from 'vitest';
import { parseMultipart } from '../../src/emulator/multipart.js';

const body = (parts: string[]) => Buffer.from(`${parts.map((p) => `--b\r\n${p}\r\n`).join('')}--b--\r\n`, 'utf8');

describe('parseMultipart', () => {
  it('reads fields and files', () => {
    const out = parseMultipart(
      body([
        'Content-Disposition: form-data; name="squid"\r\n\r\nabc',
        'Content-Disposition: form-data; name="file"; filename="t.csv"\r\n\r\nurl\nhttps://x',
      ]),
      'b',
    );
    expect(out.fields.squid).toBe('abc');
    expect(out.files.file.filename).toBe('t.csv');
    expect(out.files.file.content.toString()).toBe('url\nhttps://x');
  });

  it('a part named __proto__ or constructor is stored under that name and changes no prototype', () => {
    const out = parseMultipart(
      body([
        'Content-Disposition: form-data; name="__proto__"; filename="p.csv"\r\n\r\nx',
        'Content-Disposition: form-data; name="constructor"\r\n\r\ny',
      ]),
      'b',
    );
    expect(Object.getPrototypeOf(out.files)).toBe(null);
    expect(Object.hasOwn(out.files, '__proto__')).toBe(true);
    expect(out.fields.constructor).toBe('y');
    expect(({} as Record<string, unknown>).filename).toBeUndefined();
  });
});
