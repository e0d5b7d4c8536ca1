// scripts/split-bundle.mjs's partition: which part of the bundle each module goes to, on small module graphs given as
// esbuild metafiles (the real build's is checked by test/e2e/launcher.test.ts: what sq me and sq squids list load).
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { CORE_ROOTS, lazyExports, partition } from '../../scripts/split-bundle.mjs';
import { build, stop } from 'esbuild';

type Imports = Record<string, Array<[string, 'import-statement' | 'dynamic-import']>>;

/** A metafile of `graph`: every core root imports nothing unless said, each module `size` bytes of output. */
function metafile(graph: Imports, size = 10_000) {
  const all = { ...Object.fromEntries((CORE_ROOTS as string[]).map((r) => [r, []])), ...graph };
  const inputs = Object.fromEntries(
    Object.entries(all).map(([m, imps]) => [m, { imports: imps.map(([path, kind]) => ({ path, kind })) }]),
  );
  const outInputs = Object.fromEntries(Object.keys(all).map((m) => [m, { bytesInOutput: size }]));
  return { inputs, outputs: { 'sq.cjs': { inputs: outInputs } } };
}

const owners = (graph: Imports, size?: number) =>
  (partition(metafile(graph, size)) as { owner: Map<string, string> }).owner;

describe('the bundle in parts', () => {
  it('puts what the core imports in the core, a noun’s verbs and what only they reach in its part', () => {
    const o = owners({
      'dist/shell/main.js': [['dist/errors.js', 'import-statement']],
      'dist/errors.js': [],
      'dist/verb-modules.js': [
        ['dist/commands/squids/update.js', 'dynamic-import'],
        ['dist/commands/runs/watch.js', 'dynamic-import'],
      ],
      'dist/commands/squids/update.js': [
        ['dist/commands/squids/_shared/columns.js', 'import-statement'],
        ['dist/errors.js', 'import-statement'],
      ],
      'dist/commands/squids/_shared/columns.js': [],
      'dist/commands/runs/watch.js': [],
    });
    expect(o.get('dist/errors.js')).toBe('sq');
    expect(o.get('dist/commands/squids/update.js')).toBe('squids');
    expect(o.get('dist/commands/squids/_shared/columns.js')).toBe('squids');
    expect(o.get('dist/commands/runs/watch.js')).toBe('runs');
  });

  it('refuses a core root that another root imports statically: the list holds roots only', () => {
    const [first, second] = CORE_ROOTS as string[];
    expect(() => owners({ [first]: [[second, 'import-statement']] })).toThrow(
      `${second} is imported by another root: drop it from CORE_ROOTS`,
    );
    // Loaded by import() from another root, it is a root.
    expect(() => owners({ [first]: [[second, 'dynamic-import']] })).not.toThrow();
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
        'dist/shell/main.js': [['dist/commands/index.js', 'import-statement']],
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
    for (const m of ['node_modules/zod/v4/core.js', 'dist/account/schema.js', 'dist/api/records.js'])
      expect(o.get(m), m).toBe(part);
  });

  it('fails the build when a core root is gone', () => {
    const m = metafile({});
    delete (m.inputs as Record<string, unknown>)['dist/config/store.js'];
    expect(() => partition(m)).toThrow(/dist\/config\/store\.js is not in the bundle any more/);
  });
});

describe('exports set up when their module starts (lazyExports)', () => {
  // esbuild's service process would keep this worker busy for 20 s after the file.
  afterAll(() => stop());
  // Three ES modules bundled as the parts are (CommonJS, each module in an init function): a and b import each other,
  // c is never imported by what runs.
  const files: Record<string, string> = {
    'a.js':
      "import * as B from './b.js'; import { b } from './b.js'; export const a = () => 'a' + b(); " +
      'export let count = 0; export function bump() { count++; } export const bns = () => B;',
    'b.js': "import * as A from './a.js'; export const b = () => 'b'; export const ans = () => A;",
    'c.js': "export const c = 'c';",
  };
  async function bundle(): Promise<string> {
    const r = await build({
      stdin: {
        contents: "module.exports = { a: () => require('./a.js'), c: () => require('./c.js') };",
        loader: 'js',
        resolveDir: '/v',
      },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [
        {
          name: 'virtual',
          setup(b) {
            b.onResolve({ filter: /^\.\// }, (args) => ({ path: args.path.slice(2), namespace: 'v' }));
            b.onLoad({ filter: /.*/, namespace: 'v' }, (args) => ({
              contents: files[args.path],
              loader: 'js',
              resolveDir: '/v',
            }));
          },
        },
      ],
    });
    return r.outputFiles[0].text;
  }
  const run = (code: string) => {
    const module = { exports: {} as Record<string, () => Record<string, unknown>> };
    new Function('module', 'exports', 'require', code)(module, module.exports, () => {
      throw new Error('no require');
    });
    return module.exports;
  };

  it('moves every __export call into its module’s init, and the modules work as before, live bindings and cycles included', async () => {
    const code = await bundle();
    expect(code.match(/__export\([\w$]+_exports,/g)).toHaveLength(3); // one per module, at the top level
    const lazy = lazyExports(code) as string;
    expect(lazy).not.toBe(code);
    // Each call now follows its init's opening, none is left at the top level.
    for (const name of ['a', 'b', 'c'])
      expect(lazy).toMatch(new RegExp(`init_${name}=__esm\\(\\{"[^"]*"\\(\\)\\{__export\\(${name}_exports,`));
    expect(lazy.match(/__export\([\w$]+_exports,/g)).toHaveLength(3);
    for (const code2 of [code, lazy]) {
      const table = run(code2);
      const a = table.a();
      expect((a.a as () => string)()).toBe('ab');
      (a.bump as () => void)();
      expect(a.count).toBe(1);
      // a's namespace through b's, each module's exports set up before the other reads them
      const b = (a.bns as () => Record<string, () => Record<string, unknown>>)();
      expect((b.ans().a as () => string)()).toBe('ab');
      expect(b.ans().count).toBe(1);
      expect(table.c().c).toBe('c');
    }
  });

  it('leaves a call where it was when the next init is not its module’s', () => {
    for (const code of [
      'var x_exports={};__export(x_exports,{x:()=>x});var x=1;',
      // two modules named resolve: the second's exports kept the plain name, its init was numbered
      'var r,init_resolve=__esm({"dist/api/resolve.js"(){r=1}});var resolve_exports={};__export(resolve_exports,{s:()=>s});var ' +
        's,init_resolve2=__esm({"dist/config/resolve.js"(){s=2}});',
    ])
      expect(lazyExports(code)).toBe(code);
  });
});
