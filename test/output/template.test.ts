// The --template language: the subset of Go's text/template that gh users write.
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../src/output/template.js';
import { UsageError } from '../../src/errors.js';

const render = (t: string, data: unknown) => parseTemplate(t).render(data);
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
  ])('%s', (t, out) => expect(render(t, squids)).toBe(out));

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
