// .dependency-cruiser.cjs: every rule fails on a deliberately wrong import. A small tree of files (one per layer, plus
// one offending import per rule) is written to a temp dir and checked with the repository's own config; each rule
// must report its offender, and the allowed imports of the same tree report nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const { forbidden } = createRequire(import.meta.url)(config) as { forbidden: { name: string }[] };

/** Files every import below may point at. */
const TARGETS = [
  'src/errors.ts',
  'src/lib/guards.ts',
  'src/api/http.ts',
  'src/api/events.ts',
  'src/api/cron.ts',
  'src/tables/run-events.ts',
  'src/lib/secrets.ts',
  'src/output/table.ts',
  'src/validate/index.ts',
  'src/io/csv.ts',
  'src/config/store.ts',
  'src/emulator/server.ts',
  'src/cli/context.ts',
  'src/commands/plan.ts',
  'src/commands/runs/_shared/ref.ts',
  'src/account/diff.ts',
];

/** Allowed: each layer importing one below it. None may be reported. */
const ALLOWED: [string, string][] = [
  ['src/lib/ok.ts', 'src/errors.ts'],
  ['src/api/ok.ts', 'src/lib/guards.ts'],
  ['src/api/ok-secrets.ts', 'src/lib/secrets.ts'],
  ['src/output/ok.ts', 'src/lib/guards.ts'],
  ['src/validate/ok.ts', 'src/api/events.ts'],
  ['src/io/ok.ts', 'src/output/table.ts'],
  ['src/emulator/ok.ts', 'src/tables/run-events.ts'],
  ['src/emulator/ok-lib.ts', 'src/lib/secrets.ts'],
  ['src/api/ok-table.ts', 'src/tables/run-events.ts'],
  ['src/account/ok.ts', 'src/cli/context.ts'],
  ['src/commands/ok.ts', 'src/account/diff.ts'],
  ['src/cli/program.ts', 'src/commands/plan.ts'],
  // A verb uses what its noun's verbs share; an index.ts registers verbs.
  ['src/commands/runs/ok.ts', 'src/commands/runs/_shared/ref.ts'],
  ['src/commands/runs/index.ts', 'src/commands/plan.ts'],
];

/** rule name → [offending file, the file it imports]. */
const WRONG: Record<string, [string, string]> = {
  'lib-is-a-leaf': ['src/lib/bad.ts', 'src/api/http.ts'],
  'root-files-are-leaves': ['src/bad.ts', 'src/lib/guards.ts'],
  'api-not-output': ['src/api/bad-output.ts', 'src/output/table.ts'],
  'api-not-io': ['src/api/bad-io.ts', 'src/io/csv.ts'],
  'api-not-validate': ['src/api/bad-validate.ts', 'src/validate/index.ts'],
  'api-not-application': ['src/api/bad-account.ts', 'src/account/diff.ts'],
  'output-not-above': ['src/output/bad.ts', 'src/validate/index.ts'],
  'validate-not-above': ['src/validate/bad.ts', 'src/io/csv.ts'],
  'io-not-above': ['src/io/bad.ts', 'src/config/store.ts'],
  'below-cli-not-cli': ['src/io/bad-shell.ts', 'src/cli/context.ts'],
  'emulator-reads-docs-not-client': ['src/emulator/bad-cron.ts', 'src/api/cron.ts'],
  'tables-are-data': ['src/tables/bad.ts', 'src/lib/guards.ts'],
  'emulator-not-cli-side': ['src/emulator/bad-config.ts', 'src/config/store.ts'],
  'config-not-application': ['src/config/bad.ts', 'src/account/diff.ts'],
  'verbs-only-from-the-registry': ['src/results/bad.ts', 'src/commands/plan.ts'],
  'commands-not-emulator': ['src/commands/runs/bad.ts', 'src/emulator/server.ts'],
  'no-verb-imports-a-verb': ['src/commands/runs/bad-verb.ts', 'src/commands/plan.ts'],
  'account-not-noun-shared': ['src/account/bad.ts', 'src/commands/runs/_shared/ref.ts'],
  // Two files importing each other.
  'no-circular': ['src/webhook/a.ts', 'src/webhook/b.ts'],
};

const dir = mkdtempSync(join(tmpdir(), 'sq-depcruise-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** `file` importing `target`, by a relative path as the sources write it (.js for a .ts file). */
function importer(file: string, target: string): string {
  const spec = posix.relative(posix.dirname(file), target).replace(/\.ts$/, '.js');
  return `import { x } from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport const y = x;\n`;
}

type Violation = { from: string; to: string; rule: { name: string } };

function cruise(): Violation[] {
  const bin = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const out = execFileSync(process.execPath, [bin, 'src', '--config', config, '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('.dependency-cruiser.cjs', () => {
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const t of TARGETS) write(t, 'export const x = 1;\n');
  for (const [file, target] of ALLOWED) write(file, importer(file, target));
  for (const [rule, [file, target]] of Object.entries(WRONG)) {
    if (rule === 'no-circular') {
      write(file, importer(file, target));
      write(target, `${importer(target, file).replace('export const y', 'export const x = 1;\nexport const z')}`);
    } else write(file, importer(file, target));
  }
  const violations = cruise();

  it('has one wrong import here for each of its rules, and at least 8 rules', () => {
    expect(forbidden.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(WRONG).sort()).toEqual(forbidden.map((r) => r.name).sort());
  });

  it.each(Object.entries(WRONG))('%s fails on %s', (rule, [file, target]) => {
    const hits = violations.filter((v) => v.rule.name === rule);
    expect(hits.map((v) => v.from)).toContain(file);
    if (rule !== 'no-circular') expect(hits.find((v) => v.from === file)?.to).toBe(target);
  });

  it('reports nothing for the imports the layers allow', () => {
    const allowed = new Set(ALLOWED.map(([file]) => file));
    expect(violations.filter((v) => allowed.has(v.from))).toEqual([]);
  });

  it('reports nothing else: each violation is one of the wrong imports above', () => {
    const wrong = new Set(Object.values(WRONG).flat());
    expect(violations.filter((v) => !wrong.has(v.from))).toEqual([]);
  });
});
