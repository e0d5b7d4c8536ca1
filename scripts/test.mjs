// `npm test` (after `npm run build`, which package.json runs first: a fresh clone's first commands build by
// themselves): vitest, and at the same time, at a lower CPU priority (nice 10), the static checks (typecheck, lint,
// lint:deps, lint:workflows). vitest's workers spend much of their time waiting (loopback HTTP, child processes,
// real-clock waits), and tsc (~25 s of CPU on one thread) and the lints (~10 s) fill those gaps instead of running
// before vitest while the second core idles. Lowered, they give way whenever a worker or an sq it started wants the
// CPU, so the tests' timing is as it was without them. The run fails (first failing step's exit code) if any step
// fails. Each check is the package.json script of that name, run with node_modules/.bin on PATH as npm run does,
// without an npm process per step (~0.4 s of CPU each); a check's output is printed whole after vitest's, so nothing
// interleaves. Arguments go to vitest (`npm test -- test/unit`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

// `node scripts/test.mjs --niced <script>`: the script at nice 10 (this process lowers itself first; the shell and
// what it starts inherit it).
if (process.argv[2] === '--niced') {
  try {
    setPriority(10);
  } catch {
    // a system that refuses it runs the check at the usual priority
  }
  const child = spawn(scripts[process.argv[3]], { cwd: root, env, shell: true, stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main();
}

/** Runs the package.json script `name` at nice 10 with its output collected; resolves to its exit code and output. */
function step(name) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [import.meta.filename, '--niced', name], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      const text = `\n> ${name}: ${scripts[name]}\n${Buffer.concat(out).toString()}> ${name} ${status} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`;
      done({ code: code ?? 1, text });
    });
  });
}

/** The steps one after the other, stopping at the first failure. */
async function chain(names) {
  const texts = [];
  for (const name of names) {
    const { code, text } = await step(name);
    texts.push(text);
    if (code !== 0) return { code, text: texts.join('') };
  }
  return { code: 0, text: texts.join('') };
}

async function main() {
  const checks = Promise.all([chain(['typecheck']), chain(['lint', 'lint:deps', 'lint:workflows'])]);
  const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
  const tests = await new Promise((done) => vitest.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
  const t0 = Date.now();
  const done = await checks;
  for (const c of done) process.stdout.write(c.text);
  process.stdout.write(`\n> checks ended ${((Date.now() - t0) / 1000).toFixed(1)} s after vitest\n`);
  const failed = [tests, ...done.map((c) => c.code)].find((c) => c !== 0);
  process.exit(failed ?? 0);
}
