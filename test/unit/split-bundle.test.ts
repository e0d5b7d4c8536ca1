// scripts/split-bundle.mjs's partition: which part of the bundle each module goes to, on small module graphs given as
// esbuild metafiles (the real build's is checked by test/e2e/launcher.test.ts: what sq me and sq squids list load).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { CORE_ROOTS, partition } from '../../scripts/split-bundle.mjs';

type Imports = Record<string, Array<[string, 'import-statement' | 'dynamic-import']>>;

/** A metafile of `graph`: every core root imports nothing unless said, each module `size` bytes of output. */
function metafile(graph: Imports, size = 10_000) {
  const all = { ...Object.fromEntries((CORE_ROOTS as string[]).map((r) => [r, []])), ...graph };
  const inputs = Object.fromEntries(Object.entries(all).map(([m, imps]) => [m, { imports: imps.map(([path, kind]) => ({ path, kind })) }]));
  const outInputs = Object.fromEntries(Object.keys(all).map((m) => [m, { bytesInOutput: size }]));
  return { inputs, outputs: { 'sq.cjs': { inputs: outInputs } } };
}

const owners = (graph: Imports, size?: number) => (partition(metafile(graph, size)) as { owner: Map<string, string> }).owner;

describe('the bundle in parts', () => {
  it('puts what the core imports in the core, a noun’s verbs and what only they reach in its part', () => {
    const o = owners({
      'dist/cli/main.js': [['dist/errors.js', 'import-statement']],
      'dist/errors.js': [],
      'dist/verb-modules.js': [
        ['dist/commands/squids/update.js', 'dynamic-import'],
        ['dist/commands/runs/watch.js', 'dynamic-import'],
      ],
      'dist/commands/squids/update.js': [['dist/commands/squids/_shared/columns.js', 'import-statement'], ['dist/errors.js', 'import-statement']],
      'dist/commands/squids/_shared/columns.js': [],
      'dist/commands/runs/watch.js': [],
    });
    expect(o.get('dist/errors.js')).toBe('sq');
    expect(o.get('dist/commands/squids/update.js')).toBe('squids');
    expect(o.get('dist/commands/squids/_shared/columns.js')).toBe('squids');
    expect(o.get('dist/commands/runs/watch.js')).toBe('runs');
  });

  it('gives code that several kinds of call reach a part of their own, or "shared" when it is small', () => {
    const graph: Imports = {
      'dist/verb-modules.js': [
        ['dist/commands/squids/update.js', 'dynamic-import'],
        ['dist/commands/runs/watch.js', 'dynamic-import'],
      ],
      'dist/commands/squids/update.js': [['dist/account/file.js', 'import-statement']],
      'dist/commands/runs/watch.js': [['dist/account/file.js', 'import-statement']],
      'dist/account/file.js': [],
    };
    expect(owners(graph).get('dist/account/file.js')).toBe('shared-account');
    expect(owners(graph, 5000).get('dist/account/file.js')).toBe('shared');
  });

  it('joins a part too small for a file of its own to the core, unless what it imports is not small', () => {
    const o = owners(
      {
        'dist/commands/index.js': [
          ['dist/commands/me.js', 'dynamic-import'],
          ['dist/commands/plan.js', 'dynamic-import'],
        ],
        'dist/commands/me.js': [],
        'dist/commands/plan.js': [['dist/account/engine.js', 'import-statement']],
        'dist/account/engine.js': [['dist/account/more.js', 'import-statement']],
        'dist/account/more.js': [],
      },
      3000,
    );
    expect(o.get('dist/commands/me.js')).toBe('sq');
    expect(o.get('dist/commands/plan.js')).toBe('plan');
    expect(o.get('dist/account/engine.js')).toBe('plan');
  });

  it('keeps an npm package whole, in one part with the modules of ours that import it', () => {
    const o = owners({
      'dist/verb-modules.js': [
        ['dist/commands/squids/apply.js', 'dynamic-import'],
        ['dist/commands/runs/watch.js', 'dynamic-import'],
      ],
      'dist/commands/squids/apply.js': [['dist/account/schema.js', 'import-statement']],
      'dist/account/schema.js': [['node_modules/zod/index.js', 'import-statement']],
      'dist/commands/runs/watch.js': [['dist/api/records.js', 'import-statement']],
      'dist/api/records.js': [['node_modules/zod/v4/core.js', 'import-statement']],
      'node_modules/zod/index.js': [['node_modules/zod/v4/core.js', 'import-statement']],
      'node_modules/zod/v4/core.js': [],
    });
    const part = o.get('node_modules/zod/index.js');
    expect(part).not.toBe('squids');
    for (const m of ['node_modules/zod/v4/core.js', 'dist/account/schema.js', 'dist/api/records.js']) expect(o.get(m), m).toBe(part);
  });

  it('fails the build when a core root is gone', () => {
    const m = metafile({});
    delete (m.inputs as Record<string, unknown>)['dist/api/http.js'];
    expect(() => partition(m)).toThrow(/dist\/api\/http\.js is not in the bundle any more/);
  });
});
