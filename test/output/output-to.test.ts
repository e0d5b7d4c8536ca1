// Output.to(stream): the same output writing to another stream (an -o FILE, a page buffer), never as a terminal.
import { describe, expect, it } from 'vitest';
import { capture } from '../helpers/stream.js';
import { make } from './helpers.js';

describe('Output.to', () => {
  it('writes to the other stream in the format it is given, nothing to stdout', async () => {
    const c = make({ json: true });
    const file = capture();
    const n = await c.out.to(file.stream, { format: 'csv' }).list(
      [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ],
      { columns: [{ key: 'id' }, { key: 'n' }] },
    );
    expect(n).toBe(2);
    expect(file.text()).toBe('id,n\na,1\nb,2\n');
    expect(c.stdout()).toBe('');
  });

  it('is never a terminal: no colour and no table width, even from a terminal output', async () => {
    const c = make({ stdoutIsTTY: true, color: true, env: { COLUMNS: '20' } });
    const to = c.out.to(capture().stream);
    expect(c.out.settings.color).toBe(true);
    expect(to.settings).toMatchObject({ color: false, stdoutIsTTY: false, columns: 0 });
    expect(to.style.bold('x')).toBe('x');
  });

  it('keeps the known secrets: a key echoed in a record is redacted in the file too', async () => {
    const c = make({ format: 'ndjson' }, ['sk_live_0123456789abcdef']);
    const file = capture();
    await c.out.to(file.stream).list([{ note: 'key sk_live_0123456789abcdef' }], { maskSecrets: false });
    expect(file.text()).not.toContain('sk_live_0123456789abcdef');
    expect(file.text()).toContain('"note"');
  });
});
