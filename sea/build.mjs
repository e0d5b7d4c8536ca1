// `npm run build:sea`: dist/sea/sq, the standalone executable (a Node single executable application) for machines
// without Node. After `npm run build`:
// 1. esbuild bundles sea/entry.mjs (the CLI, every package it loads on demand, the emulator, jq's script) into
//    dist/sea/sq.cjs: a SEA runs one CommonJS script and can require() only Node's built-in modules.
// 2. `node --experimental-sea-config` turns it into a blob, with a V8 code cache (useCodeCache) and dist/jq.wasm as
//    an asset.
// 3. postject injects the blob into a copy of this Node's binary.
// The executable is this Node's version, platform and architecture; its size is mostly Node's (~100 MB on Linux).
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = 'dist/sea';
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: ['sea/entry.mjs'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: `${out}/sq.cjs`,
  // Native add-ons cannot be loaded from inside the executable: ssh2 and cpu-features fall back to JavaScript.
  external: ['*.node', 'cpu-features'],
  define: {
    // No package.json beside the executable (src/version.ts); no file to resolve from (import-package.ts).
    __SQ_VERSION__: JSON.stringify(version),
    'import.meta.url': '__sqImportMetaUrl',
  },
  banner: { js: "var __sqImportMetaUrl = require('node:url').pathToFileURL(process.execPath).href;" },
  legalComments: 'eof',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'error',
});

writeFileSync(
  `${out}/sea-config.json`,
  JSON.stringify({
    main: `${out}/sq.cjs`,
    output: `${out}/sq.blob`,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: { 'jq.wasm': 'dist/jq.wasm', 'jq.cjs': 'dist/jq.cjs' },
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', `${out}/sea-config.json`], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
const exe = `${out}/sq${process.platform === 'win32' ? '.exe' : ''}`;
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
// macOS: the copied node carries Apple's signature, which the injection would break: removed first, and the result
// signed ad hoc below (enough to run on Apple silicon; the release signs it with the Developer ID, see release.yml).
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
const injected = spawnSync(
  process.execPath,
  [
    postject,
    exe,
    'NODE_SEA_BLOB',
    `${out}/sq.blob`,
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []),
  ],
  {
    encoding: 'utf8',
  },
);
// postject (LIEF) warns about every ELF note section it cannot name; those are harmless. Anything else is shown.
process.stderr.write(
  injected.stderr.replace(/^warning: Can't find string offset for section name '\.note[^']*'\n/gm, ''),
);
if (injected.status !== 0) throw new Error(`sea/build.mjs: postject exited ${injected.status}`);
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);
for (const f of ['sq.blob', 'sea-config.json']) rmSync(`${out}/${f}`);
console.log(
  `wrote ${exe} (${(statSync(exe).size / 1e6).toFixed(1)} MB, sq ${version}, node ${process.version} ${process.platform}-${process.arch})`,
);
