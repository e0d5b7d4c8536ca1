import { describe, expect, it } from 'vitest';
import type { Column } from '../../src/output/types.js';
import { make, slowly } from './helpers.js';

const squids = [
  { id: 's1', name: 'daily', squid: { crawler: 'maps' }, delivery: { password: 'hunter22' }, count: 3 },
  { id: 's2', name: 'a,"b"\nc', squid: { crawler: 'x\ty\\z' }, delivery: { password: null }, count: null },
];
const cols: Column[] = [{ key: 'id' }, { key: 'name' }, { key: 'squid.crawler', header: 'CRAWLER' }, { key: 'count' }];

describe('json', () => {
  it('prints one record as pretty JSON with secrets masked', async () => {
    const c = make({ json: true });
    await c.out.record(squids[0]);
    expect(c.stdout()).toBe(JSON.stringify({ ...squids[0], delivery: { password: '********' } }, null, 2) + '\n');
    expect(c.stderr()).toBe('');
  });

  it('streams a list as exactly the same document JSON.stringify would produce', async () => {
    const c = make({ json: true });
    const n = await c.out.list(slowly(squids));
    expect(n).toBe(2);
    const expected = [{ ...squids[0], delivery: { password: '********' } }, squids[1]];
    expect(c.stdout()).toBe(JSON.stringify(expected, null, 2) + '\n');
  });

  it('prints [] for an empty list', async () => {
    const c = make({ json: true });
    expect(await c.out.list([])).toBe(0);
    expect(c.stdout()).toBe('[]\n');
  });

  it('with --fields, objects have exactly those keys in order (dotted paths and dotted literal keys)', async () => {
    const c = make({ json: true, fields: 'events.run.done,squid.crawler,id' });
    const hook = { id: 'h', squid: { crawler: 'c' }, events: { 'run.done': true, 'run.error': false } };
    await c.out.list([hook]);
    expect(c.stdout()).toBe('[\n  {\n    "events.run.done": true,\n    "squid.crawler": "c",\n    "id": "h"\n  }\n]\n');
  });

  it('shows secrets with --show-secrets', async () => {
    const c = make({ json: true, showSecrets: true });
    await c.out.record(squids[0]);
    expect(JSON.parse(c.stdout())).toEqual(squids[0]);
  });

  it('keeps raw data when the command opts out of masking', async () => {
    const c = make({ json: true });
    await c.out.record({ cookies: [{ name: 'sid', required: true }] }, { maskSecrets: false });
    expect(JSON.parse(c.stdout())).toEqual({ cookies: [{ name: 'sid', required: true }] });
  });
});

describe('ndjson', () => {
  it('writes one compact object per line', async () => {
    const c = make({ format: 'ndjson' });
    await c.out.list(squids);
    expect(c.stdout().split('\n')).toEqual([
      '{"id":"s1","name":"daily","squid":{"crawler":"maps"},"delivery":{"password":"********"},"count":3}',
      '{"id":"s2","name":"a,\\"b\\"\\nc","squid":{"crawler":"x\\ty\\\\z"},"delivery":{"password":null},"count":null}',
      '',
    ]);
  });

  it('picks --fields', async () => {
    const c = make({ format: 'ndjson', fields: 'name,squid.crawler' });
    await c.out.record(squids[0]);
    expect(c.stdout()).toBe('{"name":"daily","squid.crawler":"maps"}\n');
  });
});

describe('csv', () => {
  it('quotes per RFC 4180 and uses column keys as the header', async () => {
    const c = make({ format: 'csv' });
    await c.out.list(squids, { columns: cols });
    expect(c.stdout()).toBe('id,name,squid.crawler,count\ns1,daily,maps,3\ns2,"a,""b""\nc",x\ty\\z,\n');
  });

  it('uses the first record keys when no columns are given; objects become compact JSON', async () => {
    const c = make({ format: 'csv' });
    await c.out.list([squids[0], { id: 's3', extra: 'ignored' }]);
    expect(c.stdout()).toBe(
      'id,name,squid,delivery,count\n' +
        's1,daily,"{""crawler"":""maps""}","{""password"":""********""}",3\n' +
        's3,,,,\n',
    );
  });

  it('--fields picks the columns and reuses a matching column formatter', async () => {
    const c = make({ format: 'csv', fields: 'count,id' });
    await c.out.list(squids, { columns: [{ key: 'count', format: (v) => (v === null ? 'n/a' : `#${v}`) }] });
    expect(c.stdout()).toBe('count,id\n#3,s1\nn/a,s2\n');
  });

  it('writes only the header for an empty list with known columns', async () => {
    const c = make({ format: 'csv' });
    await c.out.list([], { columns: cols });
    expect(c.stdout()).toBe('id,name,squid.crawler,count\n');
  });

  it('a record is a header and one row', async () => {
    const c = make({ format: 'csv', fields: 'id,delivery.password' });
    await c.out.record(squids[0]);
    expect(c.stdout()).toBe('id,delivery.password\ns1,********\n');
  });
});

describe('tsv', () => {
  it('escapes tabs, CR, LF and backslashes', async () => {
    const c = make({ format: 'tsv' });
    await c.out.list([...squids, { id: 's3', name: 'r\rn', squid: {}, count: true }], { columns: cols });
    expect(c.stdout().split('\n')).toEqual([
      'id\tname\tsquid.crawler\tcount',
      's1\tdaily\tmaps\t3',
      's2\ta,"b"\\nc\tx\\ty\\\\z\t',
      's3\tr\\rn\t\ttrue',
      '',
    ]);
  });

  it('is the default when stdout is piped', async () => {
    const c = make({ stdoutIsTTY: false });
    expect(c.out.settings.format).toBe('tsv');
    await c.out.list([{ a: 1, b: [1, 2] }]);
    expect(c.stdout()).toBe('a\tb\n1\t[1,2]\n');
  });

  it('bare values in a list become a value column', async () => {
    const c = make({ format: 'tsv' });
    await c.out.list(['run.done', 'run.error']);
    expect(c.stdout()).toBe('value\nrun.done\nrun.error\n');
  });
});

describe('table', () => {
  it('draws a borderless table with headers, no colour when piped', async () => {
    const c = make({ format: 'table' });
    await c.out.list(squids.slice(0, 1).concat([{ ...squids[0], id: 's22', name: 'weekly' }]), { columns: cols });
    expect(c.stdout()).toBe('ID   NAME    CRAWLER  COUNT\ns1   daily   maps     3\ns22  weekly  maps     3\n');
  });

  it('bold headers when colour is on', async () => {
    const c = make({ stdoutIsTTY: true, env: { FORCE_COLOR: '1' } });
    await c.out.list([{ id: 'x' }], { columns: [{ key: 'id' }] });
    expect(c.stdout()).toBe('\x1b[1mID\x1b[22m\nx\n');
  });

  it('truncates to maxWidth only on a terminal', async () => {
    const columns: Column[] = [{ key: 'name', maxWidth: 5 }];
    const tty = make({ stdoutIsTTY: true, color: false });
    await tty.out.list([{ name: 'abcdefghij' }], { columns });
    expect(tty.stdout()).toBe('NAME\nabcd…\n');
    const piped = make({ format: 'table' });
    await piped.out.list([{ name: 'abcdefghij' }], { columns });
    expect(piped.stdout()).toBe('NAME\nabcdefghij\n');
  });

  it('an empty list prints nothing on stdout and "No results" on stderr', async () => {
    const c = make({ format: 'table' });
    expect(await c.out.list([], { columns: cols })).toBe(0);
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe('No results\n');
  });

  it('a record is a key/value table with dotted keys and a title', async () => {
    const c = make({ format: 'table' });
    await c.out.record(squids[0], { title: 'Squid s1' });
    expect(c.stdout()).toBe(
      'Squid s1\n' +
        'id                 s1\n' +
        'name               daily\n' +
        'squid.crawler      maps\n' +
        'delivery.password  ********\n' +
        'count              3\n',
    );
  });

  it('strips terminal escape sequences from data', async () => {
    const c = make({ format: 'table' });
    await c.out.list([{ name: 'evil\x1b]0;pwned\x07' }]);
    expect(c.stdout()).not.toContain('\x1b');
  });
});

describe('messages', () => {
  it('info, warn and success go to stderr', () => {
    const c = make({ stderrIsTTY: false });
    c.out.info('showing 10 of 2,431');
    c.out.warn('free plan');
    c.out.success('Squid deleted');
    c.out.success('✓ Done');
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe('showing 10 of 2,431\nwarning: free plan\n✓ Squid deleted\n✓ Done\n');
  });

  it('quiet suppresses info and success but never warn; force overrides', () => {
    const c = make({ quiet: true });
    c.out.info('hint');
    c.out.info('must see', { force: true });
    c.out.success('ok');
    c.out.warn('careful');
    expect(c.stderr()).toBe('must see\nwarning: careful\n');
  });

  it('success is silent in json and ndjson modes', () => {
    for (const input of [{ json: true }, { format: 'ndjson' }]) {
      const c = make(input);
      c.out.success('Squid deleted');
      c.out.info('hint');
      expect(c.stderr()).toBe('hint\n');
    }
  });

  it.each([
    [{ stderrIsTTY: true }, '\x1b[33mwarning:\x1b[39m x\n'],
    [{ stderrIsTTY: false }, 'warning: x\n'],
    [{ stderrIsTTY: true, env: { NO_COLOR: '1' } }, 'warning: x\n'],
    [{ stderrIsTTY: true, color: false }, 'warning: x\n'],
  ])('warn colour with %o', (input, expected) => {
    const c = make(input);
    c.out.warn('x');
    expect(c.stderr()).toBe(expected);
  });

  it('style helpers are no-ops when colour is off', () => {
    expect(make({ stdoutIsTTY: false }).out.style.red('x')).toBe('x');
    expect(make({ stdoutIsTTY: true }).out.style.red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(make({ stdoutIsTTY: false, stderrIsTTY: true }).out.errStyle.bold('x')).toBe('\x1b[1mx\x1b[22m');
  });

  it('messages carry no control characters but their own colours (data quoted in them cannot drive the terminal)', () => {
    const plain = make({});
    plain.out.warn('squid "Evil\x1b]0;pwned\x07\x1b[31mRED"\nnext\tline\r');
    plain.out.info('\u009b31m');
    expect(plain.stderr()).toBe('warning: squid "Evil\uFFFD]0;pwned\uFFFD\uFFFD[31mRED"\nnext line\n\uFFFD31m\n');
    const colour = make({ stderrIsTTY: true });
    colour.out.warn('x\x1b]0;t\x07');
    expect(colour.stderr()).toBe('\x1b[33mwarning:\x1b[39m x\uFFFD]0;t\uFFFD\n');
  });

  it('redacts known secrets from stderr messages', () => {
    const c = make({}, ['sk_live_abcdef']);
    c.out.warn('request failed with key sk_live_abcdef');
    expect(c.stderr()).toBe('warning: request failed with key ********\n');
  });

  it('masks known secret values on every stdout path (record, list, json, text, --jq, even unmasked lists) unless --show-secrets', async () => {
    const key = 'sk_live_abcdef';
    const rec = { note: `key ${key}`, nested: [{ v: key }] };
    const c = make({ format: 'csv' }, [key]);
    await c.out.record(rec);
    await c.out.list([rec], { maskSecrets: false });
    await c.out.json({ doc: rec, quoted: `"${key}"` });
    c.out.text(`X-Echo: ${key}`);
    expect(c.stdout()).not.toContain(key);
    expect(c.stdout().split('********').length - 1).toBe(8);
    const jq = make({ jq: '.note' }, [key]);
    await jq.out.record(rec);
    expect(jq.stdout()).toBe('key ********\n');
    const shown = make({ json: true, showSecrets: true }, [key]);
    await shown.out.json(rec);
    shown.out.text(key);
    expect(shown.stdout()).toBe(`${JSON.stringify(rec, null, 2)}\n${key}\n`);
  });

  it('text() writes plain text regardless of format, adding a final newline', () => {
    const c = make({ json: true });
    c.out.text('complete -F _sq sq');
    c.out.text('line\n');
    expect(c.stdout()).toBe('complete -F _sq sq\nline\n');
  });
});

describe('spin', () => {
  it('just awaits the task when stderr is not a terminal', async () => {
    const c = make({ stderrIsTTY: false });
    expect(await c.out.spin('working', async () => 42)).toBe(42);
    expect(c.stderr()).toBe('');
  });

  it('shows a spinner on a terminal and still returns the result or rethrows', async () => {
    const c = make({ stderrIsTTY: true });
    expect(await c.out.spin('working', () => new Promise((r) => setTimeout(() => r('done'), 150)))).toBe('done');
    expect(c.stderr()).toContain('working');
    await expect(c.out.spin('failing', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it.each([{ quiet: true }, { json: true }])('no spinner with %o', async (input) => {
    const c = make({ stderrIsTTY: true, ...input });
    await c.out.spin('working', async () => 1);
    expect(c.stderr()).toBe('');
  });
});
