#!/usr/bin/env node
// Makes test/fixtures/pglite-<version>-datadir.tar.br: the data directory PGlite's initdb makes (PGlite.create() with
// its defaults, then a checkpoint), as a tar compressed with brotli, for the installed @electric-sql/pglite. npm test's
// Postgres (test/helpers/sync-db.ts) starts from it: initdb is ~9 CPU-s in the wasm engine, a start from this copy
// ~2. Run it after an upgrade of PGlite (`node scripts/pglite-datadir.mjs`, ~40 s): the helper refuses a copy made by
// another version, naming this script. It removes the copies of other versions.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'test/fixtures');
const pkg = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json');
const { version } = JSON.parse(readFileSync(pkg, 'utf8'));
const name = `pglite-${version}-datadir.tar.br`;

const db = await PGlite.create();
await db.query('CHECKPOINT');
const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
await db.close();
// A window of 16 MiB holds a whole database: the three (template0, template1, postgres) are copies of one another, and
// brotli keeps one (40 MB of tar in 1.4 MB; gzip's 32 KiB window, 4.5 MB). Decoding it is ~0.3 CPU-s.
const packed = brotliCompressSync(tar, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
});
for (const old of readdirSync(fixtures).filter((n) => /^pglite-.*-datadir\.tar\.br$/.test(n) && n !== name))
  rmSync(join(fixtures, old));
writeFileSync(join(fixtures, name), packed);
console.log(`test/fixtures/${name}: ${packed.length} bytes (${tar.length} bytes of tar)`);
