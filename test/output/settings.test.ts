import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { resolveOutputSettings, type OutputSettingsInput } from '../../src/output/settings.js';

const base: OutputSettingsInput = { env: {}, stdoutIsTTY: false, stderrIsTTY: false };

describe('format resolution', () => {
  it.each([
    [{ stdoutIsTTY: true }, 'table', false],
    [{ stdoutIsTTY: false }, 'tsv', false],
    [{ json: true, stdoutIsTTY: true }, 'json', true],
    [{ json: true, format: 'json' }, 'json', true],
    [{ format: 'ndjson', stdoutIsTTY: true }, 'ndjson', true],
    [{ format: 'CSV' }, 'csv', true],
    [{ format: ' tsv ' }, 'tsv', true],
    [{ format: 'table', stdoutIsTTY: false }, 'table', true],
  ] as Array<[Partial<OutputSettingsInput>, string, boolean]>)('%o → %s', (input, format, explicit) => {
    const s = resolveOutputSettings({ ...base, ...input });
    expect(s.format).toBe(format);
    expect(s.explicitFormat).toBe(explicit);
  });

  it('rejects --json with a different --format, naming both flags', () => {
    expect(() => resolveOutputSettings({ ...base, json: true, format: 'csv' })).toThrow(UsageError);
    expect(() => resolveOutputSettings({ ...base, json: true, format: 'csv' })).toThrow(/--json.*--format csv/);
  });

  it.each(['yaml', '', 'jsonl'])('rejects unknown format %j', (format) => {
    expect(() => resolveOutputSettings({ ...base, format })).toThrow(
      new UsageError('--format must be one of table, json, ndjson, csv, tsv'),
    );
  });
});

describe('--fields', () => {
  it('trims entries and keeps order', () => {
    expect(resolveOutputSettings({ ...base, fields: ' id , squid.name,events.run.done ' }).fields).toEqual([
      'id',
      'squid.name',
      'events.run.done',
    ]);
  });
  it('is null when absent', () => {
    expect(resolveOutputSettings(base).fields).toBeNull();
  });
  it.each(['', 'a,,b', 'a,', ' , '])('rejects %j naming --fields', (fields) => {
    let caught: unknown;
    try {
      resolveOutputSettings({ ...base, fields });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toContain('--fields');
  });
});

describe('colour', () => {
  it.each([
    // [stdoutTTY, stderrTTY, --color flag, env, stdout colour, stderr colour]
    [true, true, undefined, {}, true, true],
    [false, true, undefined, {}, false, true],
    [true, false, undefined, {}, true, false],
    [false, false, undefined, {}, false, false],
    [true, true, false, {}, false, false],
    [true, true, true, {}, true, true],
    [true, true, undefined, { NO_COLOR: '1' }, false, false],
    [true, true, undefined, { NO_COLOR: '' }, true, true],
    [false, false, undefined, { FORCE_COLOR: '1' }, true, true],
    [false, false, undefined, { FORCE_COLOR: '0' }, false, false],
    [false, false, undefined, { FORCE_COLOR: '' }, false, false],
    [false, false, false, { FORCE_COLOR: '1' }, false, false],
    [false, false, undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }, false, false],
    [true, true, undefined, { TERM: 'dumb' }, false, false],
  ] as Array<[boolean, boolean, boolean | undefined, Record<string, string>, boolean, boolean]>)(
    'stdoutTTY=%s stderrTTY=%s color=%s env=%o → %s/%s',
    (stdoutIsTTY, stderrIsTTY, color, env, outColor, errColor) => {
      const s = resolveOutputSettings({ env, stdoutIsTTY, stderrIsTTY, color });
      expect(s.color).toBe(outColor);
      expect(s.stderrColor).toBe(errColor);
    },
  );
});

describe('other settings', () => {
  it('passes quiet, showSecrets and TTY facts through', () => {
    const s = resolveOutputSettings({ ...base, quiet: true, showSecrets: true, stdoutIsTTY: true, stderrIsTTY: false });
    expect(s).toMatchObject({ quiet: true, showSecrets: true, stdoutIsTTY: true, stderrIsTTY: false });
    expect(resolveOutputSettings(base)).toMatchObject({ quiet: false, showSecrets: false });
  });
  it.each([
    [{ columns: 120 }, 120],
    [{ env: { COLUMNS: '99' } }, 99],
    [{ env: { COLUMNS: 'wide' } }, 80],
    [{}, 80],
  ] as Array<[Partial<OutputSettingsInput>, number]>)('columns %o → %d', (input, n) => {
    expect(resolveOutputSettings({ ...base, ...input }).columns).toBe(n);
  });
});
