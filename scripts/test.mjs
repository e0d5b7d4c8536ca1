// `npm test` (after `npm run build`, which package.json runs first: a fresh clone's first commands build by
// themselves): vitest, and at the same time, at a lower CPU priority, the static checks (typecheck at nice 4; lint,
// lint:deps, lint:workflows at nice 10). vitest's workers spend much of their time waiting (loopback HTTP, child
// processes, real-clock waits), and tsc (~25 s of CPU on one thread) and the lints (~10 s) fill those gaps instead of
// running before vitest while the second core idles. Lowered, they mostly give way when a worker or an sq it started
// wants the CPU. The run fails (first failing step's exit code) if any step fails. Each check is the package.json
// script of that name, run with node_modules/.bin on PATH as npm run does, without an npm process per step (~0.4 s of
// CPU each); a check's output is printed whole after vitest's, so nothing interleaves. Arguments go to vitest
// (`npm test -- test/unit`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

// `node scripts/test.mjs --niced <level> <script>`: the script at that nice level (this process lowers itself first;
// the shell and what it starts inherit it).
if (process.argv[2] === '--niced') {
  try {
    setPriority(Number(process.argv[3]));
  } catch {
    // a system that refuses it runs the check at the usual priority
  }
  const child = spawn(scripts[process.argv[4]], { cwd: root, env, shell: true, stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main();
}

/** Runs the package.json script `name` at `nice` with its output collected; resolves to its exit code and output. */
function step(name, nice) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [import.meta.filename, '--niced', String(nice), name], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
async function chain(names, nice) {
  const texts = [];
  for (const name of names) {
    const { code, text } = await step(name, nice);
    texts.push(text);
    if (code !== 0) return { code, text: texts.join('') };
  }
  return { code: 0, text: texts.join('') };
}

async function main() {
  // tsc is one thread and ~25 s of CPU. At nice 10 beside vitest's workers and the sq processes they start it got
  // almost none of the CPU while they ran, and then ran alone on one core (the checks ended 55 s after vitest in a
  // fresh clone at load ~10) while the lints, ~11 s, soon left the other core idle. At nice 4 (CFS weight 423
  // against a worker's 1024, nice 10's 110) it gets about a quarter of a core beside three busy workers, enough to be
  // nearly done when vitest is; the lints still fit beside what is left.
  const checks = Promise.all([chain(['typecheck'], 4), chain(['lint', 'lint:deps', 'lint:workflows'], 10)]);
  const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
  const tests = await new Promise((done) => vitest.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
  const t0 = Date.now();
  const done = await checks;
  for (const c of done) process.stdout.write(c.text);
  process.stdout.write(`\n> checks ended ${((Date.now() - t0) / 1000).toFixed(1)} s after vitest\n`);
  const failed = [tests, ...done.map((c) => c.code)].find((c) => c !== 0);
  process.exit(failed ?? 0);
}
