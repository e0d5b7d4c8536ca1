// --template: the part of Go's text/template that `gh --template` users write, over the JSON sq would print.
// Supported (docs/scripting.md): {{.}} {{.a.b}} {{$}} {{$v.a}}, "strings" `raw` numbers true false nil,
// pipelines with |, (sub pipelines), {{- trim -}}, if / else if / else, range (with $i, $v := and else), with,
// and the functions printf len index not and or eq ne lt le gt ge print println join pluck truncate json
// tablerow tablerender timeago. printf's widths and tablerow's columns count display width (CJK and emoji take two
// columns, accents none: output/width.ts, as terminal tables do), so text in any script lines up. Values print as
// Go prints them (<no value> for a missing key, <nil> for null), except that objects and arrays print as compact JSON.
// Rendering streams, is capped (src/output/limits.ts) and lets the event loop run, so a runaway template stops at the
// output cap or on a stop signal instead of growing one string until V8 aborts.
import { SqError, UsageError } from '../errors.js';
import { capMessage, type FilterLimits } from './limits.js';
import { jsonText } from './json-text.js';
import type * as TimeModule from './time.js';
import type * as WidthModule from './width.js';

// Loaded by the first render: the width tables and time parsing are for output, and a call with no --template (or
// one whose template is refused) should not evaluate them.
let widthFns: typeof WidthModule;
let time: typeof TimeModule;

type Val = unknown;
const MISSING = Symbol('no value');

interface Ctx {
  root: Val;
  vars: Map<string, Val>[];
  rows: string[][];
  /** Characters held in rows (tablerow), counted against the output cap. */
  rowChars: number;
  limits: FilterLimits;
  /** Output made and not yet handed on; `total` counts all of it, for the cap. */
  out: string;
  total: number;
  /** Range iterations so far: every 1024th pauses the render (exec yields). */
  ticks: number;
  /** The clock timeago counts from. */
  now: () => number;
}

/** The output cap was reached: ctx.out holds the output up to it. */
class CapReached extends Error {}

function emit(ctx: Ctx, s: string): void {
  ctx.total += s.length;
  if (ctx.total > ctx.limits.maxOutput) {
    ctx.out += s.slice(0, s.length - (ctx.total - ctx.limits.maxOutput));
    throw new CapReached();
  }
  ctx.out += s;
}

/** Where a render goes (src/output/index.ts): its stdout, whether the reader went away, the stop signal, the caps. */
export interface RenderTarget {
  limits: FilterLimits;
  write(text: string): Promise<void>;
  closed(): boolean;
  signal?: AbortSignal;
  /** The clock timeago counts from (the command's, corrected by the server's Date): default Date.now. */
  now?: () => number;
}

type Node =
  | { t: 'text'; s: string }
  | { t: 'out'; p: Pipe }
  | { t: 'if'; branches: { p: Pipe; body: Node[] }[]; else: Node[] }
  | { t: 'with'; p: Pipe; body: Node[]; else: Node[] }
  | { t: 'range'; p: Pipe; keyVar?: string; valVar?: string; body: Node[]; else: Node[] };

type Arg =
  | { k: 'lit'; v: Val }
  | { k: 'field'; base: string | null; path: string[] }
  | { k: 'fn'; name: string }
  | { k: 'sub'; p: Pipe; path: string[] };
type Cmd = Arg[];
interface Pipe {
  decl?: string[];
  cmds: Cmd[];
}

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?\d+(?:\.\d+)?(?![\w.]))|(\$[\w]*(?:\.[\w]+)*|(?:\.[\w]+)+|\.)|([A-Za-z_]\w*)|(:=|[|(),=]))/y;

function bad(msg: string): never {
  throw new UsageError(`--template: ${msg}`);
}

function lex(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < src.length) {
    if (src.slice(i).trim() === '') break;
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(src);
    if (!m) bad(`cannot read ${JSON.stringify(src.slice(i).trim())} in {{${src}}}`);
    const tk = m[0].trim();
    // (pipeline).field: the field is read from the pipeline's value.
    if (tk.startsWith('.') && tk.length > 1 && m[0] === tk && out[out.length - 1]?.startsWith(')'))
      out[out.length - 1] += tk;
    else out.push(tk);
    i = TOKEN.lastIndex;
  }
  return out;
}

function parsePipe(tokens: string[], start = 0, stopAtParen = false): { p: Pipe; next: number } {
  const p: Pipe = { cmds: [] };
  let i = start;
  // `$v :=` or `$i, $v :=` before the pipeline.
  const declEnd = tokens.indexOf(':=', i);
  if (declEnd > i && tokens.slice(i, declEnd).every((t) => t === ',' || t.startsWith('$'))) {
    p.decl = tokens.slice(i, declEnd).filter((t) => t !== ',');
    i = declEnd + 1;
  }
  let cmd: Cmd = [];
  for (; i < tokens.length; i++) {
    const tk = tokens[i];
    if (tk.startsWith(')')) {
      if (!stopAtParen) bad('unexpected ")"');
      break;
    }
    if (tk === '|') {
      if (!cmd.length) bad('missing command before "|"');
      p.cmds.push(cmd);
      cmd = [];
    } else if (tk === '(') {
      const sub = parsePipe(tokens, i + 1, true);
      const close = tokens[sub.next];
      if (!close?.startsWith(')')) bad('unclosed "("');
      cmd.push({ k: 'sub', p: sub.p, path: close.length > 1 ? close.slice(2).split('.') : [] });
      i = sub.next;
    } else cmd.push(arg(tk));
  }
  if (!cmd.length) bad('missing value in {{ }}');
  p.cmds.push(cmd);
  return { p, next: i };
}

function arg(tk: string): Arg {
  if (tk.startsWith('"')) return { k: 'lit', v: JSON.parse(tk) };
  if (tk.startsWith('`')) return { k: 'lit', v: tk.slice(1, -1) };
  if (/^-?\d/.test(tk)) return { k: 'lit', v: Number(tk) };
  if (tk === 'true' || tk === 'false') return { k: 'lit', v: tk === 'true' };
  if (tk === 'nil') return { k: 'lit', v: null };
  if (tk === '.') return { k: 'field', base: null, path: [] };
  if (tk.startsWith('.')) return { k: 'field', base: null, path: tk.slice(1).split('.') };
  if (tk.startsWith('$')) {
    const [base, ...path] = tk.split('.');
    return { k: 'field', base, path };
  }
  if (!(tk in FUNCS)) bad(`function "${tk}" not defined (known: ${Object.keys(FUNCS).join(', ')})`);
  return { k: 'fn', name: tk };
}

export interface Template {
  render(data: Val, to: RenderTarget): Promise<void>;
}

/** Parses the whole template: every syntax error is a usage error before any request. */
export function parseTemplate(src: string): Template {
  if (src.trim() === '') bad('needs a template, e.g. --template \'{{range .}}{{.name}}{{"\\n"}}{{end}}\'');
  const root: Node[] = [];
  const stack: { node: Node | null; list: Node[] }[] = [{ node: null, list: root }];
  const re = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g;
  let last = 0;
  let trimNext = false;
  let m: RegExpExecArray | null;
  const top = () => stack[stack.length - 1];
  while ((m = re.exec(src))) {
    let text = src.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1]) text = text.replace(/\s+$/, '');
    if (text) top().list.push({ t: 'text', s: text });
    last = re.lastIndex;
    trimNext = !!m[3];
    const body = m[2].trim();
    if (body.startsWith('/*')) continue;
    const tokens = lex(body);
    const [kw] = tokens;
    if (kw === 'if' || kw === 'with' || kw === 'range') {
      const { p } = parsePipe(tokens, 1);
      let node: Node;
      if (kw === 'if') node = { t: 'if', branches: [{ p, body: [] }], else: [] };
      else if (kw === 'with') node = { t: 'with', p, body: [], else: [] };
      else
        node = {
          t: 'range',
          p: { cmds: p.cmds },
          valVar: p.decl?.[p.decl.length - 1],
          keyVar: p.decl?.length === 2 ? p.decl[0] : undefined,
          body: [],
          else: [],
        };
      top().list.push(node);
      stack.push({ node, list: node.t === 'if' ? node.branches[0].body : node.body });
    } else if (kw === 'else') {
      const open = top().node;
      if (!open) bad('{{else}} outside if, with or range');
      if (tokens[1] === 'if' && open.t === 'if') {
        const branch = { p: parsePipe(tokens, 2).p, body: [] as Node[] };
        open.branches.push(branch);
        top().list = branch.body;
      } else top().list = (open as { else: Node[] }).else;
    } else if (kw === 'end') {
      if (stack.length === 1) bad('{{end}} without if, with or range');
      stack.pop();
    } else if (kw === 'define' || kw === 'template' || kw === 'block') {
      bad(`{{${kw}}} is not supported`);
    } else {
      top().list.push({ t: 'out', p: parsePipe(tokens).p });
    }
  }
  if (stack.length > 1) bad(`unclosed {{${top().node!.t}}}: add {{end}}`);
  let tail = src.slice(last);
  // Each action is matched from its {{ to the first }}: a {{ left in the tail has none.
  if (tail.includes('{{'))
    bad(`unclosed action: "${tail.slice(tail.indexOf('{{'), tail.indexOf('{{') + 20)}" has no closing }}`);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  if (tail) root.push({ t: 'text', s: tail });
  return { render: (data, to) => renderTemplate(root, data, to) };
}

/** Runs the parsed template over the data, writing as it goes; stops when the target closes or its signal aborts. */
async function renderTemplate(root: Node[], data: Val, to: RenderTarget): Promise<void> {
  [widthFns, time] = await Promise.all([import('./width.js'), import('./time.js')]);
  const ctx: Ctx = {
    root: data,
    vars: [new Map([['$', data]])],
    rows: [],
    rowChars: 0,
    limits: to.limits,
    out: '',
    total: 0,
    ticks: 0,
    now: to.now ?? Date.now,
  };
  const run = exec(root, data, ctx);
  let breath = Date.now();
  try {
    for (;;) {
      const step = run.next();
      if (ctx.out) await to.write(ctx.out);
      ctx.out = '';
      if (step.done || to.closed()) break;
      // The event loop runs now and then: a stop signal is seen, and ends the render.
      if (Date.now() - breath >= 20) {
        await new Promise((resolve) => setImmediate(resolve));
        to.signal?.throwIfAborted();
        breath = Date.now();
      }
    }
    if (to.closed()) return;
    emit(ctx, renderRows(ctx));
    await to.write(ctx.out);
  } catch (err) {
    if (err instanceof CapReached) {
      await to.write(ctx.out);
      throw new SqError(capMessage('--template', 'maxOutput', to.limits));
    }
    // A value past what a JavaScript string holds (printf with a huge width): bad input, like any template error.
    if (err instanceof RangeError) throw new UsageError(`--template: ${err.message} (a value too large to print)`);
    throw err;
  }
}

function lookup(v: Val, path: string[]): Val {
  let cur: Val = v;
  for (const k of path) {
    if (cur === MISSING || cur === null || typeof cur !== 'object') return MISSING;
    if (!Object.hasOwn(cur as object, k)) return MISSING;
    cur = (cur as Record<string, Val>)[k];
  }
  return cur;
}

function value(a: Arg, dot: Val, ctx: Ctx): Val {
  switch (a.k) {
    case 'lit':
      return a.v;
    case 'sub':
      return lookup(pipe(a.p, dot, ctx), a.path);
    case 'field': {
      if (a.base === null) return lookup(dot, a.path);
      for (let i = ctx.vars.length - 1; i >= 0; i--)
        if (ctx.vars[i].has(a.base)) return lookup(ctx.vars[i].get(a.base), a.path);
      return bad(`undefined variable ${a.base}`);
    }
    case 'fn':
      return FUNCS[a.name](ctx);
  }
}

function pipe(p: Pipe, dot: Val, ctx: Ctx): Val {
  let prev: Val = undefined;
  let first = true;
  for (const cmd of p.cmds) {
    const [head, ...rest] = cmd;
    if (head.k === 'fn') {
      const args = rest.map((a) => value(a, dot, ctx));
      if (!first) args.push(prev);
      prev = FUNCS[head.name](ctx, ...args);
    } else {
      if (!first || rest.length) bad('only a function can take arguments or a piped value');
      prev = value(head, dot, ctx);
    }
    first = false;
  }
  if (p.decl) ctx.vars[ctx.vars.length - 1].set(p.decl[p.decl.length - 1], prev);
  return prev;
}

function truthy(v: Val): boolean {
  if (v === MISSING || v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

function text(v: Val): string {
  if (v === MISSING || v === undefined) return '<no value>';
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return jsonText(v) as string;
  return String(v);
}

/** Renders `nodes` into ctx.out: a generator only to be paused, so output is handed on and the event loop runs. */
function* exec(nodes: Node[], dot: Val, ctx: Ctx): Generator<void> {
  for (const n of nodes) {
    switch (n.t) {
      case 'text':
        emit(ctx, n.s);
        break;
      case 'out': {
        const v = pipe(n.p, dot, ctx);
        if (!n.p.decl) emit(ctx, text(v));
        break;
      }
      case 'if': {
        const hit = n.branches.find((b) => truthy(pipe(b.p, dot, ctx)));
        yield* exec(hit ? hit.body : n.else, dot, ctx);
        break;
      }
      case 'with': {
        const v = pipe(n.p, dot, ctx);
        yield* truthy(v) ? exec(n.body, v, ctx) : exec(n.else, dot, ctx);
        break;
      }
      case 'range': {
        const v = pipe(n.p, dot, ctx);
        const entries: Iterable<[Val, Val]> | null = Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : v !== null && typeof v === 'object'
            ? Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, Val>)[k]])
            : typeof v === 'number' && Number.isInteger(v) && v >= 0
              ? upTo(v)
              : truthy(v)
                ? bad(`range can't iterate over ${text(v)}`)
                : null;
        let any = false;
        for (const [k, x] of entries ?? []) {
          any = true;
          const scope = new Map<string, Val>();
          if (n.keyVar) scope.set(n.keyVar, k);
          if (n.valVar) scope.set(n.valVar, x);
          ctx.vars.push(scope);
          yield* exec(n.body, x, ctx);
          ctx.vars.pop();
          if (++ctx.ticks % 1024 === 0 || ctx.out.length >= 65536) yield;
        }
        if (!any) yield* exec(n.else, dot, ctx);
        break;
      }
    }
  }
}

/** range N counts without making an array of N entries. */
function* upTo(n: number): Generator<[number, number]> {
  for (let i = 0; i < n; i++) yield [i, i];
}

/** Go's fmt verbs that matter here: %s %v %d %f %q %t %%, with flags, width and precision. */
function printf(format: unknown, ...args: Val[]): string {
  let i = 0;
  return String(format).replace(
    /%([-+ 0#]*)(\d+)?(?:\.(\d+))?([svdfqtx%])/g,
    (_all, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      const v = i < args.length ? args[i++] : MISSING;
      let s: string;
      if (v === MISSING) s = `%!${verb}(MISSING)`;
      else if (verb === 'd') s = typeof v === 'number' ? String(Math.trunc(v)) : `%!d(${text(v)})`;
      else if (verb === 'f')
        s = typeof v === 'number' ? v.toFixed(prec === undefined ? 6 : Number(prec)) : `%!f(${text(v)})`;
      else if (verb === 'q') s = JSON.stringify(text(v));
      else if (verb === 'x')
        s = typeof v === 'number' ? Math.trunc(v).toString(16) : Buffer.from(text(v)).toString('hex');
      else s = prec !== undefined && verb === 's' ? [...text(v)].slice(0, Number(prec)).join('') : text(v);
      // The width is in terminal columns (Go counts runes, which puts a CJK or emoji column out of line).
      const w = width === undefined ? 0 : Number(width);
      const len = widthFns.displayWidth(s);
      if (len >= w) return s;
      if (flags.includes('-')) return widthFns.padWidth(s, w);
      return (flags.includes('0') && /[df]/.test(verb) ? '0' : ' ').repeat(w - len) + s;
    },
  );
}

function cmp(name: string, a: Val, b: Val): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return bad(`${name}: cannot compare ${text(a)} with ${text(b)}`);
}

function renderRows(ctx: Ctx): string {
  if (!ctx.rows.length) return '';
  const widths: number[] = [];
  for (const r of ctx.rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, widthFns.displayWidth(c))));
  const out = ctx.rows
    .map(
      (r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : widthFns.padWidth(c, widths[i])))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
  ctx.rows = [];
  ctx.rowChars = 0;
  return out;
}

const FUNCS: Record<string, (ctx: Ctx, ...args: Val[]) => Val> = {
  printf: (_c, f, ...a) => printf(f, ...a),
  print: (_c, ...a) => a.map(text).join(''),
  println: (_c, ...a) => a.map(text).join(' ') + '\n',
  len: (_c, v) =>
    typeof v === 'string'
      ? [...v].length
      : Array.isArray(v)
        ? v.length
        : v && typeof v === 'object'
          ? Object.keys(v).length
          : bad(`len of ${text(v)}`),
  index: (_c, v, ...keys) => keys.reduce((cur, k) => lookup(cur, [String(k)]), v),
  not: (_c, v) => !truthy(v),
  and: (_c, ...a) => a.find((v) => !truthy(v)) ?? a[a.length - 1],
  or: (_c, ...a) => a.find((v) => truthy(v)) ?? a[a.length - 1],
  eq: (_c, a, ...bs) => bs.some((b) => a === b),
  ne: (_c, a, b) => a !== b,
  lt: (_c, a, b) => cmp('lt', a, b) < 0,
  le: (_c, a, b) => cmp('le', a, b) <= 0,
  gt: (_c, a, b) => cmp('gt', a, b) > 0,
  ge: (_c, a, b) => cmp('ge', a, b) >= 0,
  join: (_c, sep, list) =>
    Array.isArray(list) ? list.map(text).join(String(sep)) : bad('join takes a separator and a list'),
  pluck: (_c, field, list) =>
    Array.isArray(list) ? list.map((x) => lookup(x, [String(field)])) : bad('pluck takes a field name and a list'),
  truncate: (_c, n, s) => {
    const chars = [...text(s)];
    const max = Number(n);
    return chars.length <= max ? chars.join('') : chars.slice(0, Math.max(0, max - 3)).join('') + '...';
  },
  json: (_c, v) => jsonText(v === MISSING ? null : v) as string,
  tablerow: (c, ...cells) => {
    const row = cells.map((v) => (v === null || v === MISSING ? '' : text(v)));
    // Rows wait for tablerender (or the end) to be aligned: what they hold counts against the output cap now.
    c.rowChars += row.reduce((n, s) => n + s.length + 2, 0);
    if (c.rowChars > c.limits.maxOutput) throw new SqError(capMessage('--template', 'maxOutput', c.limits));
    c.rows.push(row);
    return '';
  },
  tablerender: (c) => renderRows(c),
  // "3 min ago", "in 2 h", as terminal tables show times; a value that is not one of the API's times prints as given.
  timeago: (c, v) => {
    const t = time.parseApiTime(v);
    return t === undefined ? text(v) : time.relativeTime(t, c.now());
  },
};
