// The entry of the standalone executable (dist/sea/sq, a Node single executable application; sea/build.mjs bundles
// this file with the whole CLI, its packages and the emulator into one CommonJS script).
//
// What bin/sq.js does for the npm package, for a process that can read no file of its own: packages that sq loads
// on first use come from inside this bundle (importPackage, src/import-package.ts), jq's WebAssembly from the
// executable's assets (src/output/jq.ts). V8's code cache is in the executable too (sea-config useCodeCache).
import { getAsset } from 'node:sea';
import { run } from '../dist/shell/main.js';

/** Every package importPackage() may be asked for, by name; inside the bundle, loaded when first asked. */
const PACKAGES = {
  ora: () => import('ora'),
  conf: () => import('conf'),
  '@inquirer/prompts': () => import('@inquirer/prompts'),
  yaml: () => import('yaml'),
  '#mcp-sdk': () => import('#mcp-sdk'),
  '#mcp-sdk-http': () => import('#mcp-sdk-http'),
  'ssh2-sftp-client': () => import('ssh2-sftp-client'),
};

globalThis.__sqHostHas = (name) => Object.hasOwn(PACKAGES, name);
globalThis.__sqHostImport = (specifier) => {
  // The emulator, which the npm package runs from dist/ as ES modules (src/commands/emulator/start.ts).
  if (specifier.endsWith('/emulator/cli.js')) return import('../dist/emulator/cli.js');
  if (specifier.startsWith('node:')) {
    const mod = require(specifier);
    return Promise.resolve({ ...mod, default: mod });
  }
  if (Object.hasOwn(PACKAGES, specifier)) return PACKAGES[specifier]();
  return Promise.reject(
    Object.assign(new Error(`Cannot find package '${specifier}' in the standalone sq`), {
      code: 'ERR_MODULE_NOT_FOUND',
    }),
  );
};
let jq;
Object.defineProperty(globalThis, '__sqJq', {
  // --jq runs in a worker thread, which cannot require() from this bundle: it gets jq's script (dist/jq.cjs, patched
  // by the build) as text from the executable's assets, and the compiled jq.wasm as a message.
  get: () =>
    (jq ??= {
      factory: require('../dist/jq.cjs'),
      wasm: WebAssembly.compile(getAsset('jq.wasm')),
      source: getAsset('jq.cjs', 'utf8'),
      file: 'jq.cjs',
      wasmPath: 'jq.wasm',
    }),
});

// As bin/sq.js: undici's HTTP parser stays on the baseline compiler, a closed pipe is no error, and once the command
// is finished and stdout/stderr are flushed, the process leaves without waiting for keep-alive sockets.
try {
  require('node:v8').setFlagsFromString('--liftoff-only');
} catch {}
for (const s of [process.stdout, process.stderr]) s.on('error', () => {});
// run() never rejects: every error becomes an exit code in src/shell/main.ts.
void run(process.argv.slice(2)).then(async (code) => {
  await Promise.all(
    // An empty write's callback, not 'drain' (see bin/sq.js): a wait for a drain that never comes would exit 0.
    [process.stdout, process.stderr].map(
      (s) =>
        new Promise((done) =>
          s.writableLength > 0 && !s.destroyed && !s.writableEnded ? s.write('', () => done()) : done(),
        ),
    ),
  );
  process.exit(code);
});
