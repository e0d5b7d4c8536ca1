#!/usr/bin/env node
// Runs action.yml's steps as GitHub Actions would, with bash, outside GitHub: for .ci/package-checks.sh, against a
// locally packed tarball or a local build of the standalone executable (file:// URLs), since nothing is published.
//   node test/package/run-action.mjs [--readme] [--set input=value]…
// --readme takes the inputs from the README's CI example (the `uses: lobstr-io/lobstr-sq@…` step's `with:`), with
// `${{ secrets.NAME }}` read from the environment variable NAME; --set overrides one input. What Actions provides is
// stood in for: runner.temp (a temp dir), GITHUB_OUTPUT, GITHUB_PATH (its lines go before PATH for later steps),
// steps.<id>.outputs, and a step's `if: inputs.NAME != ''`. Any other `${{ … }}` is an error, so the action cannot
// depend on something this runner does not check. Prints the action's outputs as JSON; exits non-zero when a step fails.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
const args = process.argv.slice(2);
const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));

const expr = (text, ctx) =>
  String(text).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e) => {
    const [scope, ...rest] = e.split('.');
    if (scope === 'secrets') return process.env[rest.join('.')] ?? '';
    if (scope === 'inputs' && rest.length === 1 && rest[0] in inputs) return inputs[rest[0]];
    if (scope === 'runner' && rest[0] === 'temp') return ctx.temp;
    if (scope === 'steps' && rest[1] === 'outputs') return ctx.outputs[rest[0]]?.[rest[2]] ?? '';
    throw new Error(`run-action: unsupported expression \${{ ${e} }}`);
  });

const temp = mkdtempSync(join(tmpdir(), 'sq-action-'));
const ctx = { temp, outputs: {} };
if (args.includes('--readme')) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const step = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => {
      try {
        return parse(m[1]);
      } catch {
        return null; // an excerpt that is not YAML by itself (delivery.yaml's `${VAR}` in flow style)
      }
    })
    .flatMap((doc) => (doc && Array.isArray(doc.steps) ? doc.steps : []))
    .find((s) => typeof s.uses === 'string' && s.uses.startsWith('lobstr-io/lobstr-sq@'));
  if (!step) throw new Error('run-action: no `uses: lobstr-io/lobstr-sq@…` step in a yaml block of README.md');
  for (const [k, v] of Object.entries(step.with ?? {})) {
    if (!(k in inputs)) throw new Error(`run-action: README.md gives the action an input it does not have: ${k}`);
    inputs[k] = expr(v, ctx);
  }
}
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--set') continue;
  const [k, ...v] = args[++i].split('=');
  if (!(k in inputs)) throw new Error(`run-action: no input ${k} in action.yml`);
  inputs[k] = v.join('=');
}
for (const [k, v] of Object.entries(action.inputs)) if (v.required && !inputs[k]) throw new Error(`run-action: input ${k} is required`);

const pathFile = join(temp, 'github-path');
writeFileSync(pathFile, '');
for (const step of action.runs.steps) {
  if (step.if !== undefined) {
    const m = /^inputs\.([\w-]+) != ''$/.exec(step.if);
    if (!m) throw new Error(`run-action: unsupported if: ${step.if}`);
    if (inputs[m[1]] === '') {
      console.error(`-- ${step.name}: skipped`);
      continue;
    }
  }
  console.error(`-- ${step.name}`);
  const outFile = join(temp, `output-${step.id ?? 'step'}`);
  writeFileSync(outFile, '');
  const added = readFileSync(pathFile, 'utf8').split('\n').filter(Boolean).reverse();
  const env = { ...process.env, GITHUB_OUTPUT: outFile, GITHUB_PATH: pathFile, PATH: [...added, process.env.PATH].join(delimiter) };
  for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expr(v, ctx);
  if (step.shell !== 'bash') throw new Error(`run-action: step "${step.name}" must say shell: bash`);
  // What Actions runs for `shell: bash`.
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expr(step.run, ctx)], { env, stdio: ['ignore', 2, 'inherit'] }); // stdout is for the JSON below
  if (r.status !== 0) {
    console.error(`run-action: step "${step.name}" failed (exit ${r.status})`);
    process.exit(1);
  }
  if (step.id) ctx.outputs[step.id] = Object.fromEntries(readFileSync(outFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}
const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, v]) => [k, expr(v.value, ctx)]));
appendFileSync(1, `${JSON.stringify({ outputs, path: readFileSync(pathFile, 'utf8').split('\n').filter(Boolean) })}\n`);
