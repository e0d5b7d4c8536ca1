// The --template language: the subset of Go's text/template that gh users write.
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../src/output/template.js';
import { InterruptedError, SqError, UsageError } from '../../src/errors.js';
import { filterLimits } from '../../src/output/limits.js';

async function render(
  t: string,
  data: unknown,
  o: { env?: Record<string, string>; signal?: AbortSignal; chunks?: string[] } = {},
): Promise<string> {
  let out = '';
  await parseTemplate(t).render(data, {
    limits: filterLimits(o.env ?? {}),
    write: async (s) => {
      out += s;
      o.chunks?.push(s);
    },
    closed: () => false,
    signal: o.signal,
  });
  return out;
}
const squids = [
  { name: 'Paris', runs: 3, active: true, tags: ['a', 'b'], owner: { email: 'x@y.z' } },
  { name: 'Lyon', runs: 0, active: false, tags: [], owner: null },
];

describe('parseTemplate', () => {
  it.each([
    ['{{range .}}{{.name}}{{"\\n"}}{{end}}', 'Paris\nLyon\n'],
    ['{{range $i, $s := .}}{{$i}}={{$s.name}} {{end}}', '0=Paris 1=Lyon '],
    ['{{range .}}{{if .active}}on{{else if .runs}}runs{{else}}off{{end}} {{end}}', 'on off '],
    ['{{range .}}{{with .owner}}{{.email}}{{else}}none{{end}};{{end}}', 'x@y.z;none;'],
    ['{{range .}}{{.missing}}|{{.owner}}|{{end}}', '<no value>|{"email":"x@y.z"}|<no value>|<nil>|'],
    ['{{(index . 0).name}}', 'Paris'],
    ['{{index . 1 "name"}}', 'Lyon'],
    ['{{len .}} {{len (index . 0).tags}}', '2 2'],
    ['{{range .}}{{join "," .tags}}.{{end}}', 'a,b..'],
    ['{{join "," (pluck "name" .)}}', 'Paris,Lyon'],
    ['{{printf "%-6s|%3d|%05.1f|%q" "ab" 7 3.14159 "x"}}', 'ab    |  7|003.1|"x"'],
    ['{{range .}}{{.name | printf "<%s>"}}{{end}}', '<Paris><Lyon>'],
    ['{{range .}}{{if and .active (gt .runs 1)}}busy {{.name}}{{end}}{{end}}', 'busy Paris'],
    ['{{range .}}{{if not .active}}{{.name}} is off{{end}}{{end}}', 'Lyon is off'],
    ['{{truncate 4 "abcdefgh"}}', 'a...'],
    ['{{json (index . 0).tags}}', '["a","b"]'],
    ['a  {{- "b" -}}  c', 'abc'],
    ['{{range .}}{{tablerow .name .runs}}{{end}}', 'Paris  3\nLyon   0\n'],
    ['{{/* a comment */}}x', 'x'],
    ['{{`raw\\n`}}', 'raw\\n'],
    ['{{range .none}}x{{else}}empty{{end}}', 'empty'],
  ])('%s', async (t, out) => expect(await render(t, squids)).toBe(out));

  it.each([
    ['{{range .}}', 'unclosed {{range}}'],
    ['{{end}}', '{{end}} without if, with or range'],
    ['{{else}}', '{{else}} outside if, with or range'],
    ['{{nosuch .}}', 'function "nosuch" not defined'],
    ['{{define "x"}}{{end}}', '{{define}} is not supported'],
    ['{{.a | }}', 'missing value'],
    ['{{ ( .a }}', 'unclosed "("'],
    ['{{ "abc }}', 'cannot read'],
    ['{{.first_name}', 'unclosed action: "{{.first_name}" has no closing }}'],
    ['x {{.a}} {{.b', 'unclosed action'],
    ['', 'needs a template'],
    ['  ', 'needs a template'],
  ])('%s is a usage error', (t, message) => {
    expect(() => parseTemplate(t)).toThrow(UsageError);
    expect(() => parseTemplate(t)).toThrow(message);
  });
});

describe('display width and timeago', () => {
  const names = [
    { name: '東京ラーメン', n: 1 },
    { name: 'Café 🍕', n: 22 },
    { name: 'Cafe\u0301', n: 3 },
    { name: 'Lyon', n: 4 },
  ];

  it('tablerow aligns columns by display width: CJK and emoji take two columns, a combining accent none', async () => {
    const out = await render('{{range .}}{{tablerow .name .n}}{{end}}', names);
    expect(out).toBe('東京ラーメン  1\nCafé 🍕       22\nCafe\u0301          3\nLyon          4\n');
    // Every second column starts at the same terminal column.
    const { displayWidth } = await import('../../src/output/width.js');
    const starts = out
      .trimEnd()
      .split('\n')
      .map((l) => displayWidth(l.replace(/\d+$/, '')));
    expect(new Set(starts).size).toBe(1);
  });

  it('printf pads %-Ns and %Ns to N display columns', async () => {
    expect(await render('{{range .}}[{{printf "%-14s" .name}}]{{end}}', names)).toBe(
      '[東京ラーメン  ][Café 🍕       ][Cafe\u0301          ][Lyon          ]',
    );
    expect(await render('{{printf "%6s|" "日本"}}', null)).toBe('  日本|');
  });

  it("timeago counts from the render's clock, as tables do; what is not a time prints as given", async () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const out = { s: '' };
    const tpl = '{{range .}}{{timeago .t}};{{end}}';
    await parseTemplate(tpl).render(
      [
        { t: '2026-11-25T11:57:00Z' },
        { t: '2026-11-25T14:00:00.123456' },
        { t: '2026/11/23 12:00:00' },
        { t: 'soon' },
        { t: null },
      ],
      {
        limits: filterLimits({}),
        write: async (x) => void (out.s += x),
        closed: () => false,
        now: () => now,
      },
    );
    expect(out.s).toBe('3 min ago;in 2 h;2 d ago;soon;<nil>;');
  });
});

describe('a runaway template', () => {
  const nested = (n: number, body: string) => '{{range 10}}'.repeat(n) + body + '{{end}}'.repeat(n);

  it('13 nested ranges stop at the output cap with exit 1 naming it, after streaming the output up to it', async () => {
    const chunks: string[] = [];
    const err = await render(nested(13, 'x'), null, { env: { SQ_FILTER_MAX_OUTPUT_MB: '1' }, chunks }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SqError);
    expect(err).not.toBeInstanceOf(UsageError);
    expect((err as SqError).exitCode).toBe(1);
    expect((err as Error).message).toBe(
      '--template: stopped at the output cap of 1 MB for one document (SQ_FILTER_MAX_OUTPUT_MB raises it)',
    );
    expect(chunks.join('').length).toBe(1024 * 1024);
    // Handed on in pieces as it was made, not as one string at the end.
    expect(chunks.length).toBeGreaterThan(10);
  });

  it('rows held for tablerow count against the cap too', async () => {
    const err = await render(nested(7, '{{tablerow "abcdefgh" "x"}}'), null, {
      env: { SQ_FILTER_MAX_OUTPUT_MB: '1' },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^--template: stopped at the output cap of 1 MB/);
  });

  it('ranges that print nothing still give way to a stop signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new InterruptedError('SIGTERM')), 100);
    const err = await render(nested(13, ''), null, { signal: controller.signal }).catch((e: unknown) => e);
    // A loop the signal never reaches never ends (the test's timeout fails it); how soon it ends is measured by
    // `npm run bench` (test/bench/stop.bench.mjs).
    expect(err).toBeInstanceOf(InterruptedError);
  });

  it('a value past what a string holds is a template error: exit 2 (issue 33 D7: it was exit 1)', async () => {
    const err = await render('{{printf "%0999999999d" 1}}', null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^--template: .*a value too large to print/);
  });
});
