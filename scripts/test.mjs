// `npm test`: the build and the static checks (typecheck, lint, lint:deps, lint:workflows) at once, then vitest.
// tsc is one thread for ~25 s of CPU; the build, Biome, dependency-cruiser and action-validator (~10 s together) run
// on the other core meanwhile rather than after it. vitest starts once every one of them has passed (it runs the
// build's dist/, and a type or layer error should stop the run as before); the first failure's output is printed and
// is the exit code. Each step is the package.json script of that name, run with node_modules/.bin on PATH as npm run
// does, without an npm process per step (~0.4 s of CPU each). Output of a step is printed whole when it ends, so the
// two lines of work never interleave. Arguments go to vitest (`npm test -- test/unit`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

/** Runs the package.json script `name` with its output collected; resolves to its exit code once it is printed. */
function step(name) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(scripts[name], { cwd: root, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n> ${name}: ${scripts[name]}\n${Buffer.concat(out).toString()}> ${name} ${status} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      done(code ?? 1);
    });
  });
}

/** The steps one after the other, stopping at the first failure. */
async function chain(...names) {
  for (const name of names) {
    const code = await step(name);
    if (code !== 0) return code;
  }
  return 0;
}

const codes = await Promise.all([chain('typecheck'), chain('build', 'lint', 'lint:deps', 'lint:workflows')]);
const failed = codes.find((c) => c !== 0);
if (failed !== undefined) process.exit(failed);

const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
vitest.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
