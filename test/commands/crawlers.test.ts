// Crawler shapes (tolerant parsing) and the help of every verb of this part (examples included).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeRows, paramRows } from '../../src/api/crawlers.js';
import { sq } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

describe('paramRows', () => {
  it('skips the reserved functions key in squid params and lists functions as their own rows', () => {
    const rows = paramRows({
      task: { url: { type: 'string', required: true, default: null } },
      squid: {
        max_results: { type: 'int', default: null },
        functions: { contacts: { sort: 1, default: false, credits_per_function: 1 } },
      },
    });
    expect(rows).toEqual([
      { level: 'task', name: 'url', type: 'string', required: true, default: null },
      { level: 'squid', name: 'max_results', type: 'int', default: null },
      { level: 'function', name: 'contacts', sort: 1, default: false, credits_per_function: 1 },
    ]);
  });

  it.each([[null], [[]], ['text'], [{ task: null, squid: 'x' }]])('never crashes on %j', (body) => {
    expect(paramRows(body)).toEqual([]);
  });
});

describe('attributeRows', () => {
  it.each([
    [{ data: [{ name: 'a' }, null, 3] }, [{ name: 'a' }]],
    [[{ name: 'b' }], [{ name: 'b' }]],
    [{}, []],
  ])('%j', (body, rows) => {
    expect(attributeRows(body)).toEqual(rows);
  });
});

describe('help', () => {
  const verbs: Record<string, string[]> = {
    crawlers: ['list', 'get', 'params', 'attributes'],
    squids: ['list', 'get', 'create', 'update', 'empty', 'delete'],
    tasks: ['list', 'get', 'add', 'upload', 'upload-status', 'delete'],
    accounts: ['list', 'get', 'types', 'sync', 'delete'],
  };
  it.each(Object.entries(verbs).flatMap(([noun, vs]) => vs.map((v) => [noun, v])))(
    'sq %s %s --help shows examples',
    async (noun, verb) => {
      const r = await sq([noun, verb, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain(`$ sq ${noun} ${verb}`);
    },
  );
});

describe('crawlers list on a narrow terminal', () => {
  const emu = useEmulator();
  it("--all lists every crawler of the docs' examples pages (57) on the demo seed", async () => {
    const pages = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/docs-examples.json'), 'utf8'))
      .pages as Record<string, unknown>;
    const slugs = [...new Set(Object.keys(pages).map((k) => k.split('/')[1]))];
    const r = await sq(['crawlers', 'list', '--all', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    const listed = new Set((JSON.parse(r.stdout) as { slug: string }[]).map((c) => c.slug));
    expect(slugs).toHaveLength(57);
    expect(slugs.filter((s) => !listed.has(s))).toEqual([]);
  });

  it('never cuts a slug (it is typed back whole): other columns give way', async () => {
    const emuEnv = emu.env();
    const slugs = ((await emu.api('/v1/crawlers?limit=100')).data as { slug: string }[]).map((c) => c.slug);
    const r = await sq(['crawlers', 'list', '--all'], { env: emuEnv, tty: true, columns: 70 });
    expect(r.code, r.stderr).toBe(0);
    for (const slug of slugs) expect(r.stdout).toMatch(new RegExp(`(^|\\s)${slug}(\\s|$)`, 'm'));
  });
});
