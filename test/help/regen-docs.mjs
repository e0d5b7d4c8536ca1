#!/usr/bin/env node
// Rewrites docs/commands/ (the command reference: an index and one page per top-level command) from the built
// command tree, exactly as test/help/docs.test.ts renders it. Usage (from the repo root):
//   npm run build && node test/help/regen-docs.mjs
// Also docs/man/sq.1, the manual page package.json ships ("man": `man sq` after a global install), which is
// `sq help --man`. docs.test.ts fails until this has been run after a command, option, description or example changes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';

const root = resolve(import.meta.dirname, '../..');
const { createContext } = await import(join(root, 'dist/shell/factory.js'));
const { buildProgram } = await import(join(root, 'dist/shell/program.js'));
const { markdownReference, manPage } = await import(join(root, 'dist/shell/help-docs.js'));
const { VERSION } = await import(join(root, 'dist/version.js'));

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
const program = await buildProgram(ctx, [], { loadAll: true });
const files = markdownReference(program);
const dir = join(root, 'docs/commands');
mkdirSync(dir, { recursive: true });
for (const f of readdirSync(dir)) if (f.endsWith('.md') && !files.has(f)) rmSync(join(dir, f));
for (const [name, text] of files) writeFileSync(join(dir, name), text);
mkdirSync(join(root, 'docs/man'), { recursive: true });
writeFileSync(join(root, 'docs/man/sq.1'), manPage(program, program, VERSION));
console.log(`wrote ${files.size} files in ${dir}, and docs/man/sq.1`);
