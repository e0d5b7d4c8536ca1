// .dependency-cruiser.cjs: every rule fails on a deliberately wrong import. A small tree of files (one per folder of the
// ranking, one wrong import for every pair of folders that runs against it, and one for each other rule) is written to
// a temp dir and checked with the repository's own config; each rule must report its offenders, and the imports the
// ranking allows, from every folder to every folder below it, report nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const { forbidden, RANKING } = createRequire(import.meta.url)(config) as {
  forbidden: { name: string }[];
  RANKING: string[][];
};

const rankOf = new Map(RANKING.flatMap((rank, i) => rank.map((f) => [f, i] as const)));
const folders = [...rankOf.keys()];
const target = (folder: string) => `src/${folder}/x.ts`;

/** [offending file, the file it imports, the rule that must report it]: every folder importing one of its rank or above. */
const UP: [string, string, string][] = folders.flatMap((from) =>
  folders
    .filter((to) => to !== from && rankOf.get(to)! <= rankOf.get(from)!)
    .map((to) => [`src/${from}/up-${to}.ts`, target(to), `rank-${from}`] as [string, string, string]),
);

/** Allowed: every folder importing every folder ranked below it, and the files of src/ (but what another rule forbids). */
const DOWN: [string, string][] = folders
  .flatMap((from) => [
    ...folders
      .filter((to) => rankOf.get(to)! > rankOf.get(from)!)
      .map((to) => [`src/${from}/down-${to}.ts`, target(to)] as [string, string]),
    ...(from === 'tables' ? [] : [[`src/${from}/down-root.ts`, 'src/errors.ts'] as [string, string]]),
  ])
  .filter(([file, to]) => !(file.startsWith('src/commands/') && to.startsWith('src/emulator/')));
DOWN.push(['src/commands/emulator/ok.ts', target('emulator')]);
// A verb uses what its noun's verbs share; an index.ts registers verbs.
DOWN.push(
  ['src/commands/runs/ok.ts', 'src/commands/runs/_shared/ref.ts'],
  ['src/commands/runs/index.ts', 'src/commands/plan.ts'],
);

/** The rules that are not a rank: rule name → [offending file, the file it imports]. */
const OTHER: Record<string, [string, string]> = {
  'root-files-are-leaves': ['src/bad.ts', target('lib')],
  'tables-are-data': ['src/tables/bad.ts', 'src/errors.ts'],
  'commands-not-emulator': ['src/commands/runs/bad.ts', target('emulator')],
  'no-verb-imports-a-verb': ['src/commands/runs/bad-verb.ts', 'src/commands/plan.ts'],
  'unranked-folder': ['src/newfolder/a.ts', target('lib')],
  'unranked-folder-imported': ['src/lib/bad-unranked.ts', 'src/otherfolder/x.ts'],
  // A file that imports nothing, and nothing imports.
  'unranked-folder-orphan': ['src/lonely/alone.ts', ''],
  // Two files importing each other.
  'no-circular': ['src/webhook/a.ts', 'src/webhook/b.ts'],
};

const dir = mkdtempSync(join(tmpdir(), 'sq-depcruise-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** `file` importing `to`, by a relative path as the sources write it (.js for a .ts file). */
function importer(file: string, to: string): string {
  const spec = posix.relative(posix.dirname(file), to).replace(/\.ts$/, '.js');
  return `import { x } from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport const y = x;\n`;
}

type Violation = { from: string; to: string; rule: { name: string } };

function cruise(): Violation[] {
  const bin = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const out = execFileSync(process.execPath, [bin, 'src', '--config', config, '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('.dependency-cruiser.cjs', () => {
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  for (const t of [
    ...folders.map(target),
    'src/errors.ts',
    'src/otherfolder/x.ts',
    'src/commands/plan.ts',
    'src/commands/runs/_shared/ref.ts',
  ]) {
    write(t, 'export const x = 1;\n');
  }
  for (const [file, to] of [...UP, ...DOWN]) write(file, importer(file, to));
  for (const [rule, [file, to]] of Object.entries(OTHER)) {
    if (rule === 'no-circular') {
      write(file, importer(file, to));
      write(to, `${importer(to, file).replace('export const y', 'export const x = 1;\nexport const z')}`);
    } else write(file, to ? importer(file, to) : 'export const alone = 1;\n');
  }
  const violations = cruise();

  it('ranks every folder of src/, and nothing that is not one', () => {
    const real = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...folders].sort()).toEqual(real.sort());
  });

  it('has a rule per ranked folder below the top, and the rules here for the rest', () => {
    const ranks = folders.filter((f) => RANKING.slice(0, rankOf.get(f)! + 1).flat().length > 1).map((f) => `rank-${f}`);
    expect(forbidden.map((r) => r.name).sort()).toEqual([...ranks, ...Object.keys(OTHER)].sort());
  });

  it('forbids every pair of folders that runs against the ranking', () => {
    expect(UP.length).toBe(folders.reduce((n, f) => n + RANKING.slice(0, rankOf.get(f)! + 1).flat().length - 1, 0));
    const missed = UP.filter(
      ([file, to, rule]) => !violations.some((v) => v.rule.name === rule && v.from === file && v.to === to),
    );
    expect(missed.map(([file, , rule]) => `${rule}: ${file}`)).toEqual([]);
  });

  it.each(Object.entries(OTHER))('%s fails on %s', (rule, [file, to]) => {
    const hits = violations.filter((v) => v.rule.name === rule);
    expect(hits.map((v) => v.from)).toContain(file);
    if (rule !== 'no-circular' && to) expect(hits.find((v) => v.from === file)?.to).toBe(to);
  });

  it('reports nothing for the imports the ranking allows', () => {
    const allowed = new Set(DOWN.map(([file]) => file));
    expect(violations.filter((v) => allowed.has(v.from))).toEqual([]);
  });

  it('reports nothing else: each violation is one of the wrong imports above', () => {
    const wrong = new Set([...UP.map(([file]) => file), ...Object.values(OTHER).flat()]);
    expect(violations.filter((v) => !wrong.has(v.from))).toEqual([]);
  });
});
