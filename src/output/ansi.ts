// Colour through chalk, loaded only when colour is on (a terminal). Whether it is on is decided once, in settings.ts,
// so chalk's own detection is bypassed with an explicit level.

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const id = (s: string) => s;
const OFF: Style = { bold: id, dim: id, green: id, red: id, yellow: id, cyan: id };
let on: Style | undefined;

// The same SGR codes chalk writes at level 1, for Node 20.18, which cannot require() an ES module without a flag.
const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const BASIC: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  green: wrap(32, 39),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

function chalkStyle(): Style {
  if (!on) {
    try {
      // chalk is ES-module only; Node >= 20.19 can require() it synchronously, which keeps Style sync.
      const { createRequire } = process.getBuiltinModule('node:module');
      const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
      const c = new Chalk({ level: 1 });
      on = {
        bold: (s) => c.bold(s),
        dim: (s) => c.dim(s),
        green: (s) => c.green(s),
        red: (s) => c.red(s),
        yellow: (s) => c.yellow(s),
        cyan: (s) => c.cyan(s),
      };
    } catch {
      on = BASIC;
    }
  }
  return on;
}

// Colour on loads chalk only when something is first styled: `sq me --json` on a terminal styles nothing.
const LAZY: Style = {
  bold: (s) => chalkStyle().bold(s),
  dim: (s) => chalkStyle().dim(s),
  green: (s) => chalkStyle().green(s),
  red: (s) => chalkStyle().red(s),
  yellow: (s) => chalkStyle().yellow(s),
  cyan: (s) => chalkStyle().cyan(s),
};

export function makeStyle(color: boolean): Style {
  return color ? LAZY : OFF;
}

// eslint-disable-next-line no-control-regex
const ANSI_RE = /\x1b\[[0-9;]*m/g;
export function stripAnsi(s: string): string {
  return s.replace(ANSI_RE, '');
}
