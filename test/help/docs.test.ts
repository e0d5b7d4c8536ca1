// docs/commands/ is the command reference, generated from the same commander tree as --help; `sq help --man`
// prints the same reference as a manual page. When the drift test fails, a command, option, description or example
// changed: regenerate from the repo root with
//   npm run build && node test/help/regen-docs.mjs
// and commit docs/commands/.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/shell/factory.js';
import { manPage, markdownReference } from '../../src/shell/help-docs.js';
import { VERSION } from '../../src/version.js';
import { buildProgram } from '../../src/shell/program.js';
import { sq } from '../helpers/cli.js';
import { loadTree } from './tree.js';

const dir = resolve(import.meta.dirname, '../../docs/commands');
const tree = await loadTree();

async function program() {
  const ctx = createContext({
    env: { SQ_CONFIG_DIR: '/nonexistent-sq-docs' },
    io: {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: 80,
    },
  });
  return buildProgram(ctx, [], { loadAll: true });
}

describe('docs/commands/', () => {
  it('is exactly what the command tree renders (run `npm run build && node test/help/regen-docs.mjs` when not)', async () => {
    const files = markdownReference(await program());
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual([...files.keys()].sort());
    for (const [name, text] of files) {
      expect(
        readFileSync(resolve(dir, name), 'utf8') === text,
        `docs/commands/${name} is out of date: run \`npm run build && node test/help/regen-docs.mjs\``,
      ).toBe(true);
    }
  });

  it('documents every command with its summary, options and examples', () => {
    for (const t of tree) {
      const page = readFileSync(resolve(dir, `${t.words[0]}.md`), 'utf8');
      expect(page, `sq ${t.words.join(' ')}`).toMatch(
        new RegExp(`^#{1,${t.words.length}} sq ${t.words.join(' ')}$`, 'm'),
      );
      for (const o of t.cmd.options) if (!o.hidden && o.long) expect(page).toContain(o.long);
      for (const e of t.examples ?? []) expect(page).toContain(`\n${e}\n`);
    }
    const index = readFileSync(resolve(dir, 'README.md'), 'utf8');
    for (const n of new Set(tree.map((t) => t.words[0]))) expect(index).toContain(`](${n}.md)`);
    expect(index).toMatch(/^## Global options$/m);
  });

  it('docs/man/sq.1, the page package.json ships for `man sq`, is `sq help --man` (regenerated with the reference)', async () => {
    const p = await program();
    expect(
      readFileSync(resolve(dir, '../man/sq.1'), 'utf8') === manPage(p, p, VERSION),
      'docs/man/sq.1 is out of date: run `npm run build && node test/help/regen-docs.mjs`',
    ).toBe(true);
    expect((await sq(['help', '--man'])).stdout).toBe(readFileSync(resolve(dir, '../man/sq.1'), 'utf8'));
  });
});

describe('sq help --man', () => {
  it('prints sq(1) with every command, the environment and the exit codes', async () => {
    const r = await sq(['help', '--man']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\.TH SQ 1 /);
    for (const s of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'GLOBAL OPTIONS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS'])
      expect(r.stdout).toMatch(new RegExp(`^\\.SH ${s}$`, 'm'));
    for (const t of tree) expect(r.stdout).toContain(`.SS sq ${t.words.join(' ').replace(/-/g, '\\-')}\n`);
    // Nothing beyond ASCII reaches troff raw.
    expect(r.stdout).toMatch(/^[\x00-\x7f]*$/);
  });

  it("prints one command's page with its options and the inherited global ones", async () => {
    const r = await sq(['help', '--man', 'runs', 'start']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\.TH SQ\\-RUNS\\-START 1 /);
    expect(r.stdout).toMatch(/^\.SH OPTIONS\n\.TP\n\.B \\-\\-squid <squid>$/m);
    expect(r.stdout).toMatch(/^\.SH GLOBAL OPTIONS$/m);
    expect(r.stdout).toContain('.B \\-\\-profile <name>');
  });
});
