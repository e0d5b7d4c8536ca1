// bin/sq.js as shipped: the bundled CLI (dist/sq.cjs), its V8 code cache, the packages it loads on first use
// through the launcher's import(), and the lazy loads the bundle promises (esbuild.config.mjs).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { BIN, binCacheDir, sqBin } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';

const emu = useEmulator();
const BUNDLE = resolve(import.meta.dirname, '../../dist/sq.cjs');
// The cache directory also holds the pacing state every sq process shares (pacing-*.json): only code caches here.
const codeCaches = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('code-'));

function buildId(): string {
  const first = readFileSync(BUNDLE, 'latin1').split('\n', 1)[0];
  const m = /^\/\/ sq bundle ([0-9a-f]{16})$/.exec(first);
  if (!m) throw new Error(`dist/sq.cjs starts with ${JSON.stringify(first)}`);
  return m[1];
}

// The bundle's parts besides dist/sq.cjs (esbuild.config.mjs, scripts/split-bundle.mjs), by path under dist/.
const PARTS = readdirSync(join(dirname(BUNDLE), 'bundles')).map((f) => `bundles/${f}`);

describe('the bundle', () => {
  it('is ASCII and named by the hash of its parts and of dist/jq.cjs, which all carry the same name', () => {
    const body = (file: string) => {
      const bytes = readFileSync(join(dirname(BUNDLE), file));
      expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
      const text = bytes.toString('latin1');
      expect(text.slice(0, text.indexOf('\n'))).toBe(`// sq bundle ${buildId()}`);
      return text.slice(text.indexOf('\n') + 1);
    };
    expect(PARTS.length).toBeGreaterThan(10);
    const hash = createHash('sha256').update(body('jq.cjs'));
    for (const file of ['sq.cjs', ...PARTS].sort()) hash.update(file).update(body(file));
    expect(hash.digest('hex').slice(0, 16)).toBe(buildId());
  });

  it('does not carry the emulator, which runs from dist/ as ES modules', async () => {
    for (const file of ['sq.cjs', ...PARTS])
      expect(readFileSync(join(dirname(BUNDLE), file), 'latin1')).not.toContain('dist/emulator/routes/');
    // Stopped once it says where it listens: what matters is that it got there.
    const child = execa(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--seed', 'empty'], {
      env: {
        PATH: process.env.PATH ?? '',
        SQ_CONFIG_DIR: tempDir('sq-cfg-'),
        SQ_CACHE_DIR: binCacheDir(),
        SQ_NO_UPDATE_NOTIFIER: '1',
      },
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    try {
      await waitFor(
        () => out,
        (o) => o.includes('\n') || child.exitCode !== null,
        'the emulator to say where it listens',
        60_000,
      );
    } finally {
      child.kill();
      await child;
    }
    expect(out).toMatch(/^\{"base_url":"http:\/\/127\.0\.0\.1:\d+","token":"[^"]+"\}/);
  });
});

describe('the parts', () => {
  it('of another build are refused, naming the file, before any request', async () => {
    // A copy of the package whose status part is of another build: a stopped install, a build that failed halfway.
    const root = tempDir('sq-parts-');
    const here = resolve(import.meta.dirname, '../..');
    for (const d of ['bin', 'dist']) cpSync(join(here, d), join(root, d), { recursive: true });
    cpSync(join(here, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(here, 'node_modules'), join(root, 'node_modules'));
    const part = join(root, 'dist/bundles/status.cjs');
    const text = readFileSync(part, 'latin1');
    writeFileSync(part, text.replace(/^\/\/ sq bundle [0-9a-f]{16}\n/, '// sq bundle 0123456789abcdef\n'), 'latin1');
    // and its billing part of this build, but a bare module body as builds before the part functions wrote it
    const billing = join(root, 'dist/bundles/billing.cjs');
    const own = readFileSync(billing, 'latin1');
    expect(own).toMatch(
      /^\/\/ sq bundle [0-9a-f]{16}\n\(function \(exports, require, module, __filename, __dirname, __sqHostImport, __sqJq\) \{/,
    );
    writeFileSync(billing, own.replace(/\n\(function \([^)]*\) \{/, '\n').replace(/\n\}\)\n$/, '\n'), 'latin1');
    const copy = (args: string[]) =>
      execa(process.execPath, [join(root, 'bin/sq.js'), ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          ...emu.env({
            SQ_CONFIG_DIR: join(root, 'config'),
            SQ_CACHE_DIR: tempDir('sq-cache-'),
            SQ_NO_UPDATE_NOTIFIER: '1',
          }),
        },
        extendEnv: false,
        reject: false,
      });
    await emu.clearRequests();
    const r = await copy(['status', '--json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/bundles\/status\.cjs is not of the same build as .*sq\.cjs .*install sq again/);
    expect(await emu.requests()).toEqual([]);
    const b = await copy(['billing', 'auto-reset', '--json']);
    expect(b.exitCode).toBe(1);
    expect(b.stderr).toMatch(
      /bundles\/billing\.cjs is not a part of this sq \(no part function after its build line\): install sq again/,
    );
    expect(b.stderr).not.toContain('init_');
    expect(await emu.requests()).toEqual([]);
    // The parts of its own build are fine.
    expect((await copy(['me', '--json'])).exitCode).toBe(0);
  });
});

describe('the launcher', () => {
  it.each([
    ['with a code cache', (d: string) => d],
    ['without one (SQ_CACHE_DIR=)', () => ''],
  ])('runs %s when V8 refuses --liftoff-only: the flag only saves time', async (_what, cacheDir) => {
    const dir = tempDir('sq-v8-');
    const pre = join(dir, 'refuse.cjs');
    writeFileSync(pre, "require('node:v8').setFlagsFromString = (f) => { throw new Error('V8 refuses ' + f); };\n");
    const r = await sqBin(['me', '--json'], {
      env: emu.env({ SQ_CACHE_DIR: cacheDir(dir), NODE_OPTIONS: `--require ${pre}` }),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBeTruthy();
  });
});

describe('the code cache', () => {
  const me = (cache: string, extra: Record<string, string> = {}) =>
    sqBin(['me', '--json'], { env: emu.env({ SQ_CACHE_DIR: cache, ...extra }) });
  const cacheFile = (dir: string) => join(dir, `code-${buildId()}-${process.version}-${process.arch}-me.bin`);
  // The first call in an empty cache directory and the cache it wrote, made once for the file (each process is ~0.2 s
  // of CPU under the suite's load). A test that only needs a cache file to start from (to corrupt, chmod, move away or
  // keep beside another) gets a copy of this one, 0600 as that call wrote it. The bytes are read at once: the
  // directory itself goes on with 'is one per part'.
  let first: Promise<{ dir: string; result: Awaited<ReturnType<typeof me>>; bytes: Buffer }> | undefined;
  const firstCall = () =>
    (first ??= (async () => {
      const dir = tempDir('sq-cache-');
      const result = await me(dir);
      expect(result.code).toBe(0);
      return { dir, result, bytes: readFileSync(cacheFile(dir)) };
    })());
  const withFirstCache = async () => {
    const dir = tempDir('sq-cache-');
    writeFileSync(cacheFile(dir), (await firstCall()).bytes, { mode: 0o600 });
    return dir;
  };

  it('is one per part a call loads: sq me and sq squids list run from dist/sq.cjs alone, sq status adds its part', async () => {
    // The first call's directory: sq me in an empty one wrote this one cache.
    const { dir } = await firstCall();
    const name = `code-${buildId()}-${process.version}-${process.arch}`;
    expect(codeCaches(dir)).toEqual([`${name}-me.bin`]);
    const list = await sqBin(['squids', 'list', '--json'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    expect(list.code).toBe(0);
    expect(codeCaches(dir).sort()).toEqual([`${name}-me.bin`, `${name}-squids.bin`]);
    const status = await sqBin(['status', '--json'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    expect(status.code, status.stderr).toBe(0);
    expect(
      codeCaches(dir)
        .filter((f) => f.startsWith(`${name}-status.`))
        .sort(),
    ).toContain(`${name}-status.status.bin`);
    expect(PARTS).toContain('bundles/status.cjs');
  });

  it('calls with and without --jq (which sets a V8 flag) keep a cache each, instead of rejecting and rewriting one in turn', async () => {
    const dir = tempDir('sq-cache-');
    // SQ_TRACE_STARTUP names the phase: the cache loaded, rejected by V8, or none.
    const start = async (args: string[]) => {
      const r = await sqBin(args, { env: emu.env({ SQ_CACHE_DIR: dir, SQ_TRACE_STARTUP: '1' }) });
      expect(r.code, r.stderr).toBe(0);
      return /sq trace: (cache load(?: \(rejected\))?|compile \(no cache\))/.exec(r.stderr)?.[1];
    };
    expect(await start(['me', '--json'])).toBe('compile (no cache)');
    expect(await start(['me', '--jq', '.email'])).toBe('compile (no cache)');
    // One round shows it: with one cache between them, each call would find the other's and V8 would reject it.
    expect(await start(['me', '--json'])).toBe('cache load');
    expect(await start(['me', '--jq', '.email'])).toBe('cache load');
    expect(codeCaches(dir).filter((f) => f.endsWith('-me.bin'))).toHaveLength(2);
  });

  it("an --all export (which caps V8's young generation with a flag as it starts) uses the cache and leaves it as it is", async () => {
    const dir = tempDir('sq-cache-');
    const out = join(tempDir('sq-export-'), 'all.ndjson');
    const { id: run } = (await emu.control('POST', '/_emulator/generate', {
      squid: emu.squidId(DEMO_SQUIDS.headphones),
      results: 150,
    })) as { id: string };
    const start = async (args: string[]) => {
      const r = await sqBin(args, { env: emu.env({ SQ_CACHE_DIR: dir, SQ_TRACE_STARTUP: '1' }) });
      expect(r.code, r.stderr).toBe(0);
      return /sq trace: (cache load(?: \(rejected\))?|compile \(no cache\))/.exec(r.stderr)?.[1];
    };
    const list = ['results', 'list', '--run', run, '--json'];
    const all = ['results', 'list', '--run', run, '--all', '--format', 'ndjson', '-o', out, '--force', '-q'];
    // The flag set mid-call would be baked into a cache written after it, which the next call would reject: none is.
    expect(await start(all)).toBe('compile (no cache)');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(150);
    expect(await start(list)).toBe('compile (no cache)');
    const core = join(dir, `code-${buildId()}-${process.version}-${process.arch}-results.bin`);
    const written = statSync(core).mtimeMs;
    expect(await start(all)).toBe('cache load');
    expect(statSync(core).mtimeMs).toBe(written);
    expect(await start(list)).toBe('cache load');
  });

  it('is written after a successful call, 0600 in a 0700 directory, and then used as it is', async () => {
    const dir = join(tempDir('sq-cache-'), 'nested', 'sq');
    const first = await me(dir);
    expect(first.code).toBe(0);
    const file = cacheFile(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size).toBeGreaterThan(10_000);
    const before = readFileSync(file);
    const second = await me(dir);
    expect(second).toEqual(first);
    // Accepted by V8, so not rewritten.
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('holds compiled code, not data: the API key never lands in it', async () => {
    const { bytes } = await firstCall();
    expect(bytes.includes(Buffer.from(emu.token))).toBe(false);
    expect(bytes.includes(Buffer.from(emu.token, 'utf16le'))).toBe(false);
  });

  it('a corrupt cache is rejected by V8, the call runs as usual, and the cache is rewritten', async () => {
    const good = (await firstCall()).result;
    const dir = tempDir('sq-cache-');
    writeFileSync(cacheFile(dir), Buffer.alloc(4096, 7), { mode: 0o600 });
    const again = await me(dir);
    expect(again).toEqual(good);
    expect(readFileSync(cacheFile(dir)).equals(Buffer.alloc(4096, 7))).toBe(false);
  });

  it('a cache file others could write is not trusted: it is replaced by one of mode 0600', async () => {
    const dir = await withFirstCache();
    const file = cacheFile(dir);
    chmodSync(file, 0o666);
    expect((await me(dir)).code).toBe(0);
    // Not read, so rewritten after the call: the chmod is gone with the old file.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a FIFO at the cache file path does not block: the call runs as usual and a real cache replaces it', async () => {
    const dir = tempDir('sq-cache-');
    execFileSync('mkfifo', [cacheFile(dir)]);
    const r = await sqBin(['me', '--json'], { env: emu.env({ SQ_CACHE_DIR: dir }), timeout: 15_000 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBeTruthy();
    expect(lstatSync(cacheFile(dir)).isFile()).toBe(true);
  });

  it('a symlinked cache file is not followed: it is replaced by a file of its own, the link target untouched', async () => {
    const dir = await withFirstCache();
    const elsewhere = join(tempDir('sq-elsewhere-'), 'cache.bin');
    renameSync(cacheFile(dir), elsewhere);
    const bytes = readFileSync(elsewhere);
    symlinkSync(elsewhere, cacheFile(dir));
    expect((await me(dir)).code).toBe(0);
    // Not read through the link (a used cache is never rewritten), so written anew in its place.
    expect(lstatSync(cacheFile(dir)).isFile()).toBe(true);
    expect(readFileSync(elsewhere).equals(bytes)).toBe(true);
  });

  it.each([
    ['group-writable (0770)', (d: string) => (chmodSync(d, 0o770), d)],
    ['writable by anyone (0707)', (d: string) => (chmodSync(d, 0o707), d)],
    ['a symlink to a directory', (d: string) => (symlinkSync(d, `${d}-link`), `${d}-link`)],
  ])('a cache directory that is %s is not used: no cache is read or written', async (_what, make) => {
    const real = tempDir('sq-cache-');
    const dir = make(real);
    const r = await me(dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBeTruthy();
    expect(readdirSync(real)).toEqual([]);
  });

  it('runs under other V8 flags (NODE_OPTIONS) keep a cache of their own instead of overwriting the other', async () => {
    const dir = await withFirstCache();
    expect((await me(dir, { NODE_OPTIONS: '--max-old-space-size=300' })).code).toBe(0);
    const files = codeCaches(dir).sort();
    expect(files).toHaveLength(2);
    expect(files).toContain(`code-${buildId()}-${process.version}-${process.arch}-me.bin`);
    expect(files.find((f) => f !== `code-${buildId()}-${process.version}-${process.arch}-me.bin`)).toMatch(
      /-f[0-9a-f]{8}-me\.bin$/,
    );
  });

  it('is named after the command word, past global options and their values', async () => {
    const dir = tempDir('sq-cache-');
    const r = await sqBin(['--format', 'json', '--fields', 'email', 'me'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    expect(r.code).toBe(0);
    // The launcher finds the word with the CLI's own pre-scan (src/startup/argv.ts): --jq's value is not a command.
    // A bounded path runs on the main thread (src/output/jq.ts): no worker, no code cache of its own.
    expect((await sqBin(['--jq', '.email', 'me'], { env: emu.env({ SQ_CACHE_DIR: dir }) })).code).toBe(0);
    // One cache per part the call loaded: dist/sq.cjs's is named by the word alone, a part's by the word and the part;
    // a --jq call's with the V8 flag it sets too (-f<hash>: src/startup/v8-flags.ts; jq's worker names its own before).
    const name = `code-${buildId()}-${process.version}-${process.arch}`;
    const me = (f: string) => f.startsWith(`${name}-me.`) || /-f[0-9a-f]{8}-me\./.test(f);
    const parts = (files: string[]) => files.filter((f) => me(f) && !f.endsWith('-me.bin'));
    expect(codeCaches(dir)).toContain(`${name}-me.bin`);
    for (const f of parts(codeCaches(dir)))
      expect(PARTS).toContain(`bundles/${f.slice(f.indexOf('-me.') + '-me.'.length, -'.bin'.length)}.cjs`);
    expect(codeCaches(dir).filter((f) => !me(f))).toEqual([]);
    const jq = await sqBin(['--jq', '.email | tostring', 'me'], { env: emu.env({ SQ_CACHE_DIR: dir }) });
    expect(jq.code).toBe(0);
    // jq-web's script runs in jq's worker thread, from a code cache of its own (bin/sq.js, startJqWorker).
    expect(codeCaches(dir).filter((f) => !me(f))).toEqual([`${name}-_jq.bin`]);
  });

  it('a failed call writes no cache', async () => {
    const dir = tempDir('sq-cache-');
    const r = await me(dir, { SQ_TOKEN: 'wrong-key-1234' });
    expect(r.code).toBe(4);
    expect(existsSync(dir) ? codeCaches(dir) : []).toEqual([]);
  });

  it('SQ_CACHE_DIR= (empty) turns it off; without it, the cache goes under XDG_CACHE_HOME, else ~/.cache', async () => {
    const home = tempDir('sq-home-');
    expect((await me('', { HOME: home })).code).toBe(0);
    expect(existsSync(join(home, '.cache'))).toBe(false);

    const env = emu.env({ HOME: home });
    expect((await sqBin(['me', '--json'], { env })).code).toBe(0);
    expect(codeCaches(join(home, '.cache', 'sq'))).toEqual([
      `code-${buildId()}-${process.version}-${process.arch}-me.bin`,
    ]);

    const xdg = tempDir('sq-xdg-');
    expect((await sqBin(['me', '--json'], { env: { ...env, XDG_CACHE_HOME: xdg } })).code).toBe(0);
    expect(codeCaches(join(xdg, 'sq'))).toHaveLength(1);
  });

  it('a cache directory that cannot be written only costs the cache', async () => {
    const blocker = join(tempDir('sq-cache-'), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const r = await me(join(blocker, 'sq'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBeTruthy();
  });

  it("removes other builds' caches and leftover temporary files untouched for a day, and keeps younger ones", async () => {
    const dir = tempDir('sq-cache-');
    mkdirSync(dir, { recursive: true });
    const old = join(dir, 'code-0000000000000000-v20.0.0-x64-me.bin');
    const recent = join(dir, 'code-1111111111111111-v20.0.0-x64-me.bin');
    const leftover = join(dir, `code-${buildId()}-${process.version}-${process.arch}-me.bin.12345.tmp`);
    writeFileSync(old, 'x');
    writeFileSync(recent, 'x');
    writeFileSync(leftover, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    utimesSync(leftover, twoDaysAgo, twoDaysAgo);
    chmodSync(dir, 0o700);
    expect((await me(dir)).code).toBe(0);
    expect(codeCaches(dir).sort()).toEqual(
      [
        `code-${buildId()}-${process.version}-${process.arch}-me.bin`,
        'code-1111111111111111-v20.0.0-x64-me.bin',
      ].sort(),
    );
  });
});

describe('what a call loads', () => {
  // A preload that records which of Node's built-in modules the process loaded by the time it exits.
  function probe(): { env: Record<string, string>; loaded: () => string[] } {
    const dir = tempDir('sq-probe-');
    const out = join(dir, 'modules.json');
    const pre = join(dir, 'probe.cjs');
    writeFileSync(
      pre,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList.filter((m) ` +
        `=> m.startsWith('NativeModule ')).map((m) => m.slice(13)))));\n`,
    );
    return {
      env: { NODE_OPTIONS: `--require ${pre}` },
      loaded: () => JSON.parse(readFileSync(out, 'utf8')) as string[],
    };
  }

  // SQ_TEST_LOAD_LOG=FILE: the bundle's files that the call evaluated, in order (esbuild.config.mjs).
  async function evaluated(args: string[], env: Record<string, string> = {}): Promise<string[]> {
    const log = join(tempDir('sq-load-log-'), 'load.log');
    const r = await sqBin(args, { env: emu.env({ ...env, SQ_TEST_LOAD_LOG: log }) });
    expect(r.code, r.stderr).toBe(0);
    return readFileSync(log, 'utf8').trim().split('\n');
  }

  // One process for both records (the log is written with node:fs, which every call loads): Node's built-in modules
  // and the bundle's files.
  it('sq me over http:// loads node:http (its transport), and neither HTTP/2, TLS, child_process, assert, tty nor module; it evaluates only what it needs: no emulator, MCP, account file, jq, template, table, completion, zod or commander code', async () => {
    const p = probe();
    const files = await evaluated(['me', '--json'], { ...p.env, SQ_CACHE_DIR: '' });
    const loaded = p.loaded();
    expect(loaded).toContain('http');
    // Nor node:tty (src/lib/terminal.ts: fstat first) or node:module and Node's ES module loader with it.
    for (const m of ['https', 'http2', 'tls', 'child_process', 'assert', 'readline', 'tty', 'module'])
      expect(loaded, m).not.toContain(m);
    // The log is real: the command's own module and the HTTP client are in it.
    expect(files).toContain('dist/commands/me.js');
    expect(files).toContain('dist/api/http.js');
    const unneeded = new RegExp(
      [
        /^dist\/(emulator|mcp|account|completion|results|run|sync|webhook)\//.source,
        /^dist\/output\/(jq|jq-worker|jq-patches|template|table|width)\.js$/.source,
        /^dist\/commands\/(?!me\.js|index\.js)/.source,
        /jq-web|zod|get-east-asian-width|undici|node-sqlite3-wasm|vendor\/pg|node_modules\/commander\//.source,
        /^dist\/shell\/program\.js$/.source,
      ].join('|'),
    );
    expect(files.filter((f) => unneeded.test(f))).toEqual([]);
  });

  it('a plain line is read without commander (src/shell/dispatch.ts); help and anything else still build its tree', async () => {
    const commander = (files: string[]) =>
      files.filter((f) => /^node_modules\/commander\/|^dist\/shell\/program\.js$/.test(f));
    expect(commander(await evaluated(['squids', 'list', '--limit', '2', '--json']))).toEqual([]);
    expect(commander(await evaluated(['runs', 'list', '--squid', 'Paris restaurants', '-q', '--format=csv']))).toEqual(
      [],
    );
    // The same command through commander: a grouped short flag is not a plain line.
    expect(commander(await evaluated(['squids', 'list', '-q', '--json', '--limit', '2']))).toEqual([]);
    const viaCommander = await evaluated(['squids', 'list', '-qv', '--json', '--limit', '2']);
    expect(viaCommander).toContain('dist/shell/program.js');
    expect(viaCommander).toContain('node_modules/commander/lib/command.js');
  });

  it("one spec per noun: dist/specs/<noun>.json, read by the plain-line reader, commander's tree and help alike", async () => {
    const { NOUNS } = await import('../../src/commands/index.js');
    const specs = readdirSync(resolve(import.meta.dirname, '../../dist/specs'));
    expect(specs.sort()).toEqual(NOUNS.map((n) => `${n.name}.json`).sort());
  });

  it('--jq and --template load their code when given (the log sees lazily loaded modules)', async () => {
    expect(await evaluated(['me', '--jq', '.email'])).toContain('dist/output/jq.js');
    expect(await evaluated(['me', '--template', '{{.email}}'])).toContain('dist/output/width.js');
  });

  it('packages loaded on first use come through the launcher: yaml and node:crypto for delivery apply', async () => {
    const dir = tempDir('sq-apply-');
    const file = join(dir, 'delivery.yaml');
    writeFileSync(file, 'squids:\n  "Paris restaurants":\n    email: { address: ops@example.com }\n');
    const r = await sqBin(['delivery', 'apply', '-f', file, '--dry-run'], { env: emu.env() });
    expect(r.stderr).not.toMatch(/dynamic import|ERR_VM/);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/Paris restaurants/);
  });
});
