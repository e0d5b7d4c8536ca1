#!/usr/bin/env node
// Runs action.yml's steps as GitHub Actions would, with bash, outside GitHub: for .ci/package-checks.sh, against a
// locally packed tarball or a local build of the standalone executable (file:// URLs), since nothing is published.
//   node test/package/run-action.mjs [--readme] [--set input=value]…
// --readme takes the inputs from the README's CI example (the `uses: lobstr-io/lobstr-sq@…` step's `with:`), with
// `${{ secrets.NAME }}` read from the environment variable NAME; --set overrides one input. What Actions provides is
// stood in for: runner.temp (a temp dir), runner.os / runner.arch, HOME (the runner's, a temp dir unless RUN_ACTION_HOME
// names one), GITHUB_OUTPUT, GITHUB_PATH (its lines go before PATH for later steps), GITHUB_ENV (its NAME=value lines
// set the later steps' environment), steps.<id>.outputs, a step's `if:` made of `inputs.NAME != ''` / `== ''` joined
// by &&, the `::add-mask::` workflow command, and `uses: actions/cache@v4` (restored from and saved to
// RUN_ACTION_CACHE/<key>, when that is set; a miss otherwise). Any other `${{ … }}` or `uses:` is an error, so the
// action cannot depend on something this runner does not check. Prints the action's outputs, the PATH additions, the
// names GITHUB_ENV set (values masked as Actions would) and the masks as JSON; exits non-zero when a step fails.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    if (scope === 'runner' && rest[0] === 'os')
      return { linux: 'Linux', darwin: 'macOS', win32: 'Windows' }[process.platform];
    if (scope === 'runner' && rest[0] === 'arch') return process.arch.toUpperCase();
    if (scope === 'steps' && rest[1] === 'outputs') return ctx.outputs[rest[0]]?.[rest[2]] ?? '';
    throw new Error(`run-action: unsupported expression \${{ ${e} }}`);
  });

// RUN_ACTION_TEMP: runner.temp in a directory the caller removes (the tests' temp dirs); else a new one in the system's.
const temp = process.env.RUN_ACTION_TEMP
  ? mkdtempSync(join(process.env.RUN_ACTION_TEMP, 'runner-'))
  : mkdtempSync(join(tmpdir(), 'sq-action-'));
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
for (const [k, v] of Object.entries(action.inputs))
  if (v.required && !inputs[k]) throw new Error(`run-action: input ${k} is required`);

const pathFile = join(temp, 'github-path');
writeFileSync(pathFile, '');
const envFile = join(temp, 'github-env');
writeFileSync(envFile, '');
const home = process.env.RUN_ACTION_HOME || join(temp, 'home');
mkdirSync(home, { recursive: true });
const masks = [];
const saves = [];
/** `inputs.a != ''` and `inputs.b == ''` conditions joined by &&. */
const holds = (cond) =>
  cond.split(/\s*&&\s*/).every((c) => {
    const m = /^inputs\.([\w-]+) (!=|==) ''$/.exec(c.trim());
    if (!m) throw new Error(`run-action: unsupported if: ${cond}`);
    return m[2] === '!=' ? inputs[m[1]] !== '' : inputs[m[1]] === '';
  });
const jobEnv = () =>
  Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
for (const step of action.runs.steps) {
  if (step.if !== undefined && !holds(step.if)) {
    console.error(`-- ${step.name}: skipped`);
    continue;
  }
  if (step.uses !== undefined) {
    if (!/^actions\/cache@v\d+$/.test(step.uses)) throw new Error(`run-action: unsupported uses: ${step.uses}`);
    const path = expr(step.with.path, ctx).replace(/^~/, home);
    const key = expr(step.with.key, ctx);
    const store = process.env.RUN_ACTION_CACHE ? join(process.env.RUN_ACTION_CACHE, key) : null;
    const hit = !!store && existsSync(store);
    if (hit) cpSync(store, path, { recursive: true });
    console.error(`-- ${step.name}: cache ${hit ? 'hit' : 'miss'} (${key})`);
    if (step.id) ctx.outputs[step.id] = { 'cache-hit': String(hit) };
    // actions/cache saves in the job's post step, when it missed.
    if (store && !hit) saves.push(() => existsSync(path) && cpSync(path, store, { recursive: true }));
    continue;
  }
  console.error(`-- ${step.name}`);
  const outFile = join(temp, `output-${step.id ?? 'step'}`);
  writeFileSync(outFile, '');
  const added = readFileSync(pathFile, 'utf8').split('\n').filter(Boolean).reverse();
  const env = {
    ...process.env,
    HOME: home,
    ...jobEnv(),
    GITHUB_OUTPUT: outFile,
    GITHUB_PATH: pathFile,
    GITHUB_ENV: envFile,
    PATH: [...added, process.env.PATH].join(delimiter),
  };
  for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expr(v, ctx);
  if (step.shell !== 'bash') throw new Error(`run-action: step "${step.name}" must say shell: bash`);
  // What Actions runs for `shell: bash`.
  // stdout is read for workflow commands (::add-mask::), then shown on stderr: this script's stdout is for the JSON.
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expr(step.run, ctx)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^::add-mask::(.*)$/.exec(line);
    if (m) masks.push(m[1]);
    else if (line) console.error(masks.reduce((l, v) => (v ? l.split(v).join('***') : l), line));
  }
  if (r.status !== 0) {
    console.error(`run-action: step "${step.name}" failed (exit ${r.status})`);
    process.exit(1);
  }
  if (step.id)
    ctx.outputs[step.id] = Object.fromEntries(
      readFileSync(outFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
}
for (const save of saves) save();
const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([k, v]) => [k, expr(v.value, ctx)]));
const masked = (v) => (masks.includes(v) ? '***' : v);
const env = Object.fromEntries(Object.entries(jobEnv()).map(([k, v]) => [k, masked(v)]));
appendFileSync(
  1,
  `${JSON.stringify({ outputs, path: readFileSync(pathFile, 'utf8').split('\n').filter(Boolean), env, masks: masks.length, home })}\n`,
);
