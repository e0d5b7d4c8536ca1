// runs download with the built binary: the exact CSV lands atomically; a refused (expired) link is re-requested once;
// Ctrl-C mid-body leaves nothing in the directory.
import http from 'node:http';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { useEmulator } from '../helpers/emulator.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { BIN, binCacheDir, sqBin, tempConfigDir } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { waitFor } from '../helpers/wait.js';
import { listenLocal } from '../helpers/net.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
let runId: string;
let s3: string;
let csv: string;
let filename: string;
let server: http.Server;
let serverUrl: string;
const served: string[] = [];

/** Every logged request, the presigned file URL included (the helper's requests() keeps /v1 only). */
async function logged(): Promise<J[]> {
  const all = (await emu.control('GET', '/_emulator/requests')) as J[] | { data: J[] };
  return Array.isArray(all) ? all : all.data;
}

function run(args: string[], cwd?: string) {
  return execa(process.execPath, [BIN, ...args], {
    cwd,
    env: { SQ_CONFIG_DIR: tempConfigDir(), SQ_CACHE_DIR: binCacheDir(), NO_COLOR: '1', ...emu.env() },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
  });
}

beforeAll(async () => {
  runId = (await emu.api(`/v1/runs?squid=${emu.squidId(DEMO_SQUIDS.paris)}&limit=1`)).data[0].id;
  s3 = (await emu.api(`/v1/runs/${runId}/download`)).s3;
  const file = await fetch(s3);
  csv = await file.text();
  filename = /filename="([^"]+)"/.exec(file.headers.get('content-disposition') ?? '')![1];
  // A stand-in for S3: /expired answers 403 like an expired presigned URL; /slow sends half a file and stalls.
  server = http.createServer((req, res) => {
    served.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? 'none'}`);
    if (req.url === '/expired') {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
    } else if (req.url === '/slow') {
      res.writeHead(200, {
        'content-type': 'text/csv',
        'content-length': String(csv.length * 2),
        'content-disposition': 'attachment; filename="slow.csv"',
      });
      res.write(csv);
    } else if (req.url?.startsWith('/cut')) {
      // Half the file, then the connection reset: always (/cut), or only the first time (/cut-once).
      const first = !served.slice(0, -1).some((x) => x.startsWith('GET /cut-once'));
      if (req.url.startsWith('/cut-once') && !first) {
        res
          .writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="cut.csv"' })
          .end(csv);
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/csv',
        'content-length': String(Buffer.byteLength(csv)),
        'content-disposition': 'attachment; filename="cut.csv"',
      });
      res.write(csv.slice(0, 10), () => res.destroy());
    } else if (req.url?.startsWith('/named?')) {
      // content-disposition exactly as given in ?cd=
      res
        .writeHead(200, {
          'content-type': 'text/csv',
          'content-disposition': new URL(req.url, 'http://x').searchParams.get('cd')!,
        })
        .end(csv);
    } else res.writeHead(404).end();
  });
  serverUrl = await listenLocal(server);
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
});
beforeEach(() => {
  served.length = 0;
});

describe('runs download', () => {
  it('writes the exact CSV under the server file name, mode 0600, and leaves no temp file', async () => {
    const dir = tempDir('sq-dl-');
    const r = await run(['runs', 'download', runId], dir);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([filename]);
    expect(readFileSync(join(dir, filename), 'utf8')).toBe(csv);
    expect(statSync(join(dir, filename)).mode & 0o777).toBe(0o600);
    expect(r.stderr).toBe(`✓ Downloaded ${(Buffer.byteLength(csv) / 1024).toFixed(1)} kB to ${filename}\n`);
    const got = await logged();
    expect(got.map((x) => `${x.method} ${x.path}`)).toEqual([
      `GET /v1/runs/${runId}/download`,
      `GET ${new URL(s3).pathname}`,
    ]);
    // the presigned URL is fetched without the API key
    expect(got[1].headers.authorization).toBeUndefined();
  });

  it('-o FILE writes there; -o - streams the CSV to stdout', async () => {
    const dir = tempDir('sq-dl-');
    const r = await sqBin(['runs', 'download', runId, '-o', join(dir, 'mine.csv')], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['mine.csv']);
    expect(readFileSync(join(dir, 'mine.csv'), 'utf8')).toBe(csv);
    const piped = await run(['runs', 'download', runId, '-o', '-']);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe(csv);
    expect(piped.stderr).toBe('');
  });

  it('re-requests the URL once when the signed link answers 403', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${runId}/download`,
        action: 'status',
        status: 200,
        count: 1,
        body: { s3: `${serverUrl}/expired` },
      },
    ]);
    const dir = tempDir('sq-dl-');
    const r = await sqBin(['runs', 'download', runId, '-o', join(dir, 'x.csv')], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toBe(csv);
    expect(served).toEqual(['GET /expired auth=none']);
    expect((await logged()).map((x) => x.path)).toEqual([
      `/v1/runs/${runId}/download`,
      `/v1/runs/${runId}/download`,
      new URL(s3).pathname,
    ]);
  });

  // Issue 46, 8: a bare "error: aborted", no retry, nothing said of the bytes or the URL.
  it('a body cut short is fetched again from a fresh link; cut every time, the error names the bytes and the URL without its query', async () => {
    const dir = tempDir('sq-dl-');
    await emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${runId}/download`,
        action: 'status',
        status: 200,
        body: { s3: `${serverUrl}/cut-once?Signature=SIGSECRET46` },
      },
    ]);
    const once = await sqBin(['runs', 'download', runId, '-o', join(dir, 'once.csv')], { env: emu.env() });
    expect(once.code, once.stderr).toBe(0);
    expect(readFileSync(join(dir, 'once.csv'), 'utf8')).toBe(csv);
    expect(once.stderr).toContain('trying again (2 of 3)');
    await emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${runId}/download`,
        action: 'status',
        status: 200,
        body: { s3: `${serverUrl}/cut?Signature=SIGSECRET46` },
      },
    ]);
    const r = await sqBin(['runs', 'download', runId, '-o', join(dir, 'cut.csv')], { env: emu.env() });
    expect(r.code).toBe(1);
    // What arrived before the reset (10 bytes sent; the reset may overtake them), of the whole, and where from.
    expect(r.stderr).toMatch(
      new RegExp(
        `error: the download of run ${runId} stopped after \\d+ bytes of ${Buffer.byteLength(csv)} from ${serverUrl}/cut \\(`,
      ),
    );
    expect(r.stderr).toContain('3 times');
    expect(r.stderr).not.toContain('SIGSECRET46');
    expect(served.filter((x) => x.startsWith('GET /cut?'))).toHaveLength(3);
    expect(readdirSync(dir)).toEqual(['once.csv']);
  });

  it('--fields and --omit naming one column is exit 2 before any request', async () => {
    await emu.clearRequests();
    const r = await sqBin(
      ['runs', 'download', runId, '--fields', 'id', '--omit', 'id', '-o', join(tempDir('sq-dl-'), 'x.csv')],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields and --omit both name the column "id"');
    expect(await emu.requests()).toEqual([]);
  });

  it('Ctrl-C in the middle of the body exits 130 and leaves no file in the directory', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${runId}/download`,
        action: 'status',
        status: 200,
        body: { s3: `${serverUrl}/slow` },
      },
    ]);
    const dir = tempDir('sq-dl-');
    const p = run(['runs', 'download', runId], dir);
    // wait until the temp file holds the first half of the body
    await waitFor(
      () => readdirSync(dir),
      (names) => names.length === 1 && statSync(join(dir, names[0])).size === Buffer.byteLength(csv),
      'a partial temp file',
      20_000,
    );
    expect(readdirSync(dir)[0]).toMatch(/^\.slow\.csv\..*\.sq-tmp$/);
    p.kill('SIGINT');
    const r = await p;
    expect(r.exitCode).toBe(130);
    expect(readdirSync(dir)).toEqual([]);
  });

  const serveAs = (cd: string) =>
    emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${runId}/download`,
        action: 'status',
        status: 200,
        body: { s3: `${serverUrl}/named?cd=${encodeURIComponent(cd)}` },
      },
    ]);

  it("the server's name becomes a plain file name here: no directories, no dot-file, no reserved device name", async () => {
    const cases: Array<[string, string]> = [
      ['attachment; filename="../../etc/x"', 'x'],
      ['attachment; filename=".bashrc"', 'bashrc'],
      ['attachment; filename="a/b.csv"', 'b.csv'],
      ['attachment; filename="..\\..\\win.csv"', 'win.csv'],
      ["attachment; filename*=UTF-8''%E2%80%AEvsc.csv", 'vsc.csv'],
      ['attachment; filename="CON"', `${runId}.csv`],
      ['attachment; filename="..."', `${runId}.csv`],
    ];
    for (const [cd, want] of cases) {
      await serveAs(cd);
      const parent = tempDir('sq-dl-');
      const dir = join(parent, 'a', 'b');
      mkdirSync(dir, { recursive: true });
      const r = await run(['runs', 'download', runId], dir);
      expect(r.exitCode, cd).toBe(0);
      expect([readdirSync(dir), readdirSync(parent), readdirSync(join(parent, 'a'))], cd).toEqual([
        [want],
        ['a'],
        ['b'],
      ]);
      expect(readFileSync(join(dir, want), 'utf8')).toBe(csv);
    }
  });

  it("an existing file at the server's name is kept: exit 2 naming --force and -o, before the body is read", async () => {
    const dir = tempDir('sq-dl-');
    writeFileSync(join(dir, filename), 'mine\n');
    const r = await run(['runs', 'download', runId], dir);
    expect(r.stderr).toBe(
      `error: ${filename} already exists: pass --force to replace it, or -o FILE to choose another name\nRun with --help for usage.\n`,
    );
    expect(r.exitCode).toBe(2);
    expect(readdirSync(dir)).toEqual([filename]);
    expect(readFileSync(join(dir, filename), 'utf8')).toBe('mine\n');
    // the same with -o DIR/: the name is still the server's
    const sub = await run(['runs', 'download', runId, '-o', `${dir}/`]);
    expect(sub.exitCode).toBe(2);
    expect(sub.stderr).toContain(`${join(dir, filename)} already exists: pass --force`);
    expect(readFileSync(join(dir, filename), 'utf8')).toBe('mine\n');
  });

  it('--force replaces it, keeping its mode', async () => {
    const dir = tempDir('sq-dl-');
    writeFileSync(join(dir, filename), 'mine\n');
    chmodSync(join(dir, filename), 0o640);
    const r = await run(['runs', 'download', runId, '--force'], dir);
    expect(r.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual([filename]);
    expect(readFileSync(join(dir, filename), 'utf8')).toBe(csv);
    expect(statSync(join(dir, filename)).mode & 0o777).toBe(0o640);
  });
});
