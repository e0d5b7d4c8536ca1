// What the published package is (issue 20), the fast checks: its name and metadata, no install scripts, nothing
// installed that the bundle already holds, the on-demand packages found in dist/vendor/ by the built bin/sq.js with no
// node_modules at all, the emulator's message when its optional SFTP package is missing, `sq version` and the
// User-Agent. The slow ones (npm pack, a timed global install, man, the standalone executable, action.yml's steps)
// are in .ci/package-checks.sh.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, stop } from 'esbuild';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sqBin, sqIn } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const REPO = 'https://github.com/lobstr-io/lobstr-sq';
const emu = useEmulator({ each: 'clear' });

// esbuild's service process (the bundle check below) would hold this worker ~20 s after the file's last test.
afterAll(() => stop());

describe('package.json', () => {
  it('is lobstr-sq (sq is taken on npm), with the commands sq and lobstr-sq, metadata on one repository, MIT', () => {
    expect(pkg.name).toBe('lobstr-sq');
    expect(pkg.bin).toEqual({ sq: 'bin/sq.js', 'lobstr-sq': 'bin/sq.js' });
    expect(pkg.repository.url).toBe(`git+${REPO}.git`);
    expect(pkg.homepage).toBe(`${REPO}#readme`);
    expect(pkg.bugs.url).toBe(`${REPO}/issues`);
    expect(pkg.keywords.length).toBeGreaterThan(3);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    // The same repository wherever the package points at it.
    expect(readFileSync(join(root, 'action.yml'), 'utf8')).toContain(`${REPO}/releases/download/`);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`${REPO}/tree/main/docs/commands`);
    expect(readFileSync(join(root, 'src/shell/program.ts'), 'utf8')).toContain(`${REPO}/tree/main/docs/commands`);
  });

  it('ships the man page and the reference, and runs no install script (it builds at prepack)', () => {
    expect(pkg.man).toEqual(['docs/man/sq.1']);
    expect(existsSync(join(root, 'docs/man/sq.1'))).toBe(true);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'docs', '!dist/sea']));
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[s], s).toBeUndefined();
    // It type-checks, then builds: a package is never made from code that does not compile.
    expect(pkg.scripts.prepack).toBe('tsc -p tsconfig.json --noEmit && npm run build');
    // A fresh clone's first commands build by themselves (README's first lines; .ci/other-nodes.sh after npm test).
    for (const s of ['test', 'demo', 'bench', 'docs']) expect(pkg.scripts[s], s).toMatch(/^npm run build && /);
  });

  it('installs nothing the bundle holds; ssh2-sftp-client (ssh2 has an install script) is an optional peer', async () => {
    const r = await build({
      entryPoints: [join(root, 'dist/shell/main.js')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['ora', 'chalk', 'conf', '@inquirer/prompts', 'yaml', 'ssh2-sftp-client', 'jq-web'],
    });
    const bundled = new Set(
      Object.keys(r.metafile.inputs)
        .map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1])
        .filter(Boolean),
    );
    expect(bundled.size).toBeGreaterThan(2);
    for (const dep of Object.keys(pkg.dependencies))
      expect(bundled.has(dep), `${dep} is bundled and installed`).toBe(false);
    // chalk stays installed (a fixed runtime choice, one package, no install script); jq-web ships its wasm, and so
    // does node-sqlite3-wasm (sq results sync --to sqlite: on a Node without node:sqlite), which loads it from its own
    // directory.
    expect(Object.keys(pkg.dependencies)).toEqual(['chalk', 'jq-web', 'node-sqlite3-wasm']);
    expect(pkg.peerDependencies['ssh2-sftp-client']).toBeDefined();
    expect(pkg.peerDependenciesMeta['ssh2-sftp-client'].optional).toBe(true);
  });
});

describe('dist/vendor/', () => {
  it.each([
    ['yaml', 'yaml'],
    ['conf', 'conf'],
    ['ora', 'ora'],
    ['@inquirer/prompts', 'inquirer-prompts'],
    // sq mcp's part of the MCP SDK and zod: src/mcp/sdk.ts, mapped as #mcp-sdk in package.json "imports".
    ['#mcp-sdk', 'mcp-sdk'],
    // sq mcp --http's transport, apart so that a stdio server never loads it (src/mcp/sdk-http.ts).
    ['#mcp-sdk-http', 'mcp-sdk-http'],
    // sq results sync --to postgres://…
    ['pg', 'pg'],
  ])('%s: the bundled copy exports what the package does', async (name, file) => {
    const [vendored, real] = await Promise.all([import(join(root, `dist/vendor/${file}.mjs`)), import(name)]);
    // Node 24 adds a 'module.exports' name to a CommonJS package's namespace: not one of the package's own exports.
    const names = (ns: object) =>
      Object.keys(ns)
        .filter((k) => k !== 'module.exports')
        .sort();
    expect(names(vendored)).toEqual(names(real));
    expect(typeof vendored.default).toBe(typeof real.default);
  });
});

describe('the built package without node_modules (what a global install holds, but jq-web)', () => {
  const dir = tempDir('sq-pkg-');
  const bin = join(dir, 'bin/sq.js');
  const run = (args: string[], env: Record<string, string> = {}) =>
    execa(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', SQ_CONFIG_DIR: tempDir('sq-pkg-cfg-'), ...env },
      extendEnv: false,
      reject: false,
    });
  let emulator: ReturnType<typeof execa> | undefined;
  let err = '';
  let out = '';
  beforeAll(() => {
    for (const f of ['bin', 'dist', 'package.json'])
      cpSync(join(root, f), join(dir, f), { recursive: true, filter: (p) => !p.includes('/dist/sea') });
    emulator = execa(process.execPath, [bin, 'emulator', 'start', '--port', '0'], {
      env: { PATH: process.env.PATH },
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    emulator.stderr?.on('data', (d) => (err += d));
    emulator.stdout?.on('data', (d) => (out += d));
  });
  afterAll(() => {
    emulator?.kill();
  });

  it('sq emulator start runs, and says how to add SFTP delivery; a delivery check gets the same message', async () => {
    await waitFor(
      () => out,
      (o) => o.includes('base_url'),
      'the emulator of the copy to start',
    );
    const { base_url: url, token } = JSON.parse(out.trim().split('\n')[0]);
    await waitFor(
      () => err,
      (e) => e.includes('Press Ctrl-C'),
      'its stderr',
    );
    await waitFor(
      () => err,
      (e) => e.includes('SFTP delivery is off'),
      'the SFTP message',
    );
    expect(err).toContain('npm install --global ssh2-sftp-client@12');
    const r = await run(
      [
        'delivery',
        'test',
        'sftp',
        '--host',
        '127.0.0.1',
        '--port',
        '1',
        '--username',
        'u',
        '--directory',
        '/x',
        '--password-env',
        'PW',
      ],
      {
        SQ_BASE_URL: url,
        SQ_TOKEN: token,
        PW: 'x',
      },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('it needs the optional package ssh2-sftp-client');
  });

  // The package's every API request says sq/VERSION: read on this login's, which sends one (a built-binary call of its
  // own for it cost ~0.25 s of CPU).
  it('loads yaml and the profile store (conf) from dist/vendor/; every API request says sq/VERSION', async () => {
    const cfg = tempDir('sq-pkg-cfg-');
    const withKey = await execa(process.execPath, [bin, 'auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
      env: { PATH: process.env.PATH, SQ_CONFIG_DIR: cfg, NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
      input: emu.token,
    });
    expect(withKey.exitCode, String(withKey.stderr)).toBe(0);
    const sent = await emu.requests();
    expect(sent.length).toBeGreaterThan(0);
    for (const req of sent)
      expect(String(req.headers['user-agent'])).toBe(
        `sq/${pkg.version} (node ${process.version}; ${process.platform}-${process.arch})`,
      );
    const status = await run(['auth', 'status', '--json'], { SQ_CONFIG_DIR: cfg });
    expect(status.exitCode, String(status.stderr)).toBe(0);
    expect(String(status.stdout)).toContain(emu.baseUrl);
    const exported = await run(['export'], { SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token });
    expect(exported.exitCode, String(exported.stderr)).toBe(0);
    expect(parse(String(exported.stdout)).version).toBe(1);
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });

  it('sq mcp answers tools/list with the MCP SDK from dist/vendor/', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const child = execa(process.execPath, [bin, 'mcp'], {
      env: { PATH: process.env.PATH, SQ_CONFIG_DIR: tempDir('sq-pkg-cfg-') },
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    let answer = '';
    child.stdout?.on('data', (d) => (answer += d));
    child.stdin?.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await waitFor(
      () => answer,
      (a) => a.includes('"id":2'),
      'the answer to tools/list',
    );
    child.stdin?.end();
    const r = await child;
    expect(r.exitCode).toBe(0);
    const list = answer
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((m) => m.id === 2);
    expect(list.result.tools.map((t: { name: string }) => t.name)).toContain('squids_list');
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });
});

describe('sq results sync in the package without node_modules', () => {
  const dir = tempDir('sq-pkg-sync-');
  beforeAll(() => {
    for (const f of ['bin', 'dist', 'package.json'])
      cpSync(join(root, f), join(dir, f), { recursive: true, filter: (p) => !p.includes('/dist/sea') });
  });
  const sync = (to: string) =>
    execa(
      process.execPath,
      [join(dir, 'bin/sq.js'), 'results', 'sync', '--squid', 'Paris restaurants', '--to', to, '--dry-run'],
      {
        env: {
          PATH: process.env.PATH,
          NO_COLOR: '1',
          SQ_CONFIG_DIR: tempDir('sq-pkg-cfg-'),
          SQ_BASE_URL: emu.baseUrl,
          SQ_TOKEN: emu.token,
        },
        extendEnv: false,
        reject: false,
      },
    );

  it('into SQLite: node:sqlite where this Node has it, else exit 2 naming the package, before any request', async () => {
    await emu.clearRequests();
    const r = await sync(`sqlite:${join(tempDir('sq-pkg-db-'), 'r.db')}`);
    if (process.getBuiltinModule?.('node:sqlite')) {
      expect(r.exitCode, String(r.stderr)).toBe(0);
    } else {
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain(
        'has no built-in node:sqlite (Node 22.13 or later has) and the node-sqlite3-wasm package is not installed beside sq',
      );
      expect(await emu.requests()).toEqual([]);
    }
  });

  it('into Postgres: pg comes from dist/vendor/ (here: a refused connection, named by its host)', async () => {
    const r = await sync('postgres://me:pw@127.0.0.1:1/db');
    expect(String(r.stderr)).toContain('cannot connect to postgres at 127.0.0.1:1/db: connection refused');
    expect(r.exitCode).toBe(1);
  });
});

describe('sq version (the User-Agent: with the package without node_modules above)', () => {
  it('prints the version with Node and the platform; --json as a record', async () => {
    const r = await sqBin(['version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`sq ${pkg.version} (node ${process.version}, ${process.platform}-${process.arch})`);
    // The record is the CLI's (in-process); the version in it is the one the build carries, shown just above.
    const j = await sqIn(['version', '--json']);
    expect(JSON.parse(j.stdout)).toEqual({
      version: pkg.version,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    });
    expect((await sqBin(['--version'])).stdout).toBe(pkg.version);
  });
});

describe('README', () => {
  it('install lines name this package and version; the CI example uses the action and npx with it', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const install = /<!-- install:start -->([\s\S]*?)<!-- install:end -->/.exec(readme)?.[1] ?? '';
    expect(install).toContain(`npm install --global ${pkg.name}@${pkg.version}`);
    expect(install).toContain(`npx -y ${pkg.name}@${pkg.version} `);
    expect(install).toContain(`${REPO}/releases/download/v${pkg.version}/sq-linux-x64`);
    expect(readme).toContain(`uses: lobstr-io/lobstr-sq@v${pkg.version}`);
    expect(readme).toContain(`version: ${pkg.version}`);
    expect(readme).toContain(`run: npx -y ${pkg.name}@${pkg.version} `);
    const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['version', 'sha256', 'source', 'token']));
  });
});
