// What `npm run build` makes of jq-web for bin/sq.js (esbuild.config.mjs): dist/jq.wasm is jq.wasm without its
// debugging sections and otherwise the same module; dist/jq.cjs exports jq-web's factory instead of starting it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
// TypeScript declares WebAssembly's values only in the DOM library, which this project does not load.
interface Wasm {
  Module: {
    new (bytes: Uint8Array): object;
    exports(m: object): unknown[];
    imports(m: object): unknown[];
    customSections(m: object, name: string): ArrayBuffer[];
  };
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const WebAssembly = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
const require = createRequire(import.meta.url);

describe('jq for the launcher (dist/jq.wasm, dist/jq.cjs)', () => {
  it("dist/jq.wasm: the same imports and exports as jq-web's, without the .debug_* sections", () => {
    const original = new WebAssembly.Module(readFileSync(require.resolve('jq-web/jq.wasm')));
    const bytes = readFileSync(join(root, 'dist/jq.wasm'));
    const stripped = new WebAssembly.Module(bytes);
    expect(WebAssembly.Module.exports(stripped)).toEqual(WebAssembly.Module.exports(original));
    expect(WebAssembly.Module.imports(stripped)).toEqual(WebAssembly.Module.imports(original));
    expect(WebAssembly.Module.customSections(original, '.debug_info')).toHaveLength(1);
    for (const name of [
      '.debug_info',
      '.debug_line',
      '.debug_str',
      '.debug_loc',
      '.debug_abbrev',
      '.debug_ranges',
      '.debug_aranges',
    ]) {
      expect(WebAssembly.Module.customSections(stripped, name)).toHaveLength(0);
    }
    expect(WebAssembly.Module.customSections(stripped, 'name')).toHaveLength(1);
    expect(bytes.length).toBeLessThan(readFileSync(require.resolve('jq-web/jq.wasm')).length / 2);
  });

  it('dist/jq.cjs: a factory that runs jq on the module it is handed', async () => {
    const factory = require(join(root, 'dist/jq.cjs')) as (
      arg: object,
    ) => Promise<{ raw(json: string, expr: string, flags?: string[]): string }>;
    expect(typeof factory).toBe('function');
    const module = await WebAssembly.compile(readFileSync(join(root, 'dist/jq.wasm')));
    let handed = 0;
    const jq = await factory({
      instantiateWasm(imports: object, done: (i: object) => void) {
        handed++;
        void WebAssembly.instantiate(module, imports).then(done);
        return {};
      },
    });
    expect(handed).toBe(1);
    expect(jq.raw('[{"name":"a"},{"name":"b"}]', '.[].name', ['-r', '-c'])).toBe('a\nb');
  });
});
