// Values only the service knows (squid names, run ids, crawler slugs, account types) and the local profile names,
// completed by the real bash, zsh and fish through `sq __complete`, with the BUILT sq on PATH (needs `npm run build`,
// which npm test runs) against a real emulator. Names hold spaces ("Paris restaurants"): each shell must insert
// them quoted. Answers come from a short-lived cache: the second Tab sends no request.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sq, sqBin, tempConfigDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { listenLocal } from '../helpers/net.js';

const root = resolve(import.meta.dirname, '../..');
let emu: TestEmulator;
let dir: string;
let env: Record<string, string>;
let typeNames: string[];
let squidNames: string[];
let slugs: string[];
let parisRuns: string[];

let primed: Record<string, string>;

const fresh = (extra: Record<string, string> = {}): Record<string, string> => ({ ...env, SQ_CACHE_DIR: tempDir('sq-comp-cache-'), ...extra });

/**
 * Asks `sq __complete` until it answers, as a user pressing Tab again would: a first Tab on a cold machine may use
 * its whole budget starting node and leave the answer to the background refresh. No timing is asserted.
 */
async function prime(e: Record<string, string>, source: string, ...words: string[]): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await execa('sq', ['__complete', source, '--', ...words], { env: e, extendEnv: false })).stdout) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`sq __complete ${source} never answered`);
}

/** What bash offers for a command line: COMP_WORDS is the line split as bash would (quotes kept), the last word is completed. */
async function bash(words: string[], e = primed): Promise<string[]> {
  const arr = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = await execa('bash', ['--norc', '-c', `source "$1"; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _sq; printf "%s\\n" "\${COMPREPLY[@]}"`, 'bash', join(dir, 'sq.bash')], {
    env: e,
    extendEnv: false,
  });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean).sort();
}

async function fish(line: string, e = primed): Promise<string[][]> {
  const r = await execa('fish', ['--no-config', '-c', 'source $argv[1]; complete -C "$argv[2]"', join(dir, 'sq.fish'), line], { env: e, extendEnv: false });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')).sort();
}

/** zsh, interactive in a pseudo-terminal: per line, the candidates and the command line as the Tab left it. */
async function zsh(lines: string[], e = primed): Promise<Record<string, { candidates: string[]; buffer: string }>> {
  const r = await execa('zsh', ['-f', resolve(import.meta.dirname, 'capture.zsh'), dir, ...lines], { env: { ...e, CAPTURE_BUFFER: '1' }, extendEnv: false, cwd: dir, timeout: 60_000 });
  const got: Record<string, { candidates: string[]; buffer: string }> = {};
  let cur: { candidates: string[]; buffer: string } | undefined;
  for (const l of r.stdout.split('\n')) {
    if (l.startsWith('== ')) got[l.slice(3)] = cur = { candidates: [], buffer: '' };
    else if (l.startsWith('=> ')) cur!.buffer = l.slice(3);
    else if (l && cur) cur.candidates.push(l);
  }
  return got;
}

beforeAll(async () => {
  expect(existsSync(join(root, 'dist/main.js')), 'dist/ is missing: run `npm run build` first').toBe(true);
  emu = await startTestEmulator();
  dir = tempDir('sq-dyn-comp-');
  writeFileSync(join(dir, 'sq'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/sq.js')}" "$@"\n`);
  chmodSync(join(dir, 'sq'), 0o755);
  env = { ...emu.env(), SQ_CONFIG_DIR: tempConfigDir(), PATH: `${dir}:${process.env.PATH}`, HOME: dir, NO_COLOR: '1' };
  for (const shell of ['bash', 'zsh', 'fish'] as const) writeFileSync(join(dir, shell === 'zsh' ? '_sq' : `sq.${shell}`), (await sq(['completion', shell])).stdout);
  const json = async (args: string[]) => {
    const r = await sq([...args, '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, string>[];
  };
  typeNames = (await json(['accounts', 'types'])).map((t) => t.name).sort();
  squidNames = (await json(['squids', 'list'])).map((s) => s.name).sort();
  slugs = (await json(['crawlers', 'list'])).map((c) => c.slug).sort();
  parisRuns = (await json(['runs', 'list', '--squid', DEMO_SQUIDS.paris])).map((r) => r.id).sort();
  expect(typeNames.length * slugs.length * parisRuns.length).toBeGreaterThan(0);
  expect(squidNames).toContain(DEMO_SQUIDS.paris);
  primed = fresh();
  for (const source of ['squids', 'crawlers', 'account-types']) await prime(primed, source);
  // Run ids are cached per squid named on the line, however it was quoted.
  await prime(primed, 'runs', 'results', 'list', '--squid', `"${DEMO_SQUIDS.paris}"`);
  await prime(primed, 'runs');
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

describe('bash', () => {
  it('offers the squid names, each quoted as one word', async () => {
    expect(await bash(['sq', 'runs', 'start', '--squid', ''])).toEqual(squidNames.map((n) => n.replace(/ /g, '\\ ')).sort());
    expect(await bash(['sq', 'squids', 'get', 'Par'])).toEqual(['Paris\\ restaurants']);
    // Inside an opened quote, the value is closed in the same quote.
    expect(await bash(['sq', 'tasks', 'list', '--squid', '"Par'])).toEqual(['"Paris restaurants"']);
    expect(await bash(['sq', 'tasks', 'list', '--squid', "'Par"])).toEqual(["'Paris restaurants'"]);
    expect(await bash(['sq', 'tasks', 'list', '--squid=Par'])).toEqual(['--squid=Paris\\ restaurants']);
  });

  it('offers the run ids of the squid on the line, else recent runs of every squid', async () => {
    expect(await bash(['sq', 'results', 'list', '--squid', '"Paris restaurants"', '--run', ''])).toEqual(parisRuns);
    expect(await bash(['sq', 'results', 'list', '--squid', DEMO_SQUIDS.paris.replace(/ /g, '\\ '), '--run', parisRuns[0].slice(0, 6)])).toEqual([parisRuns[0]]);
    expect(await bash(['sq', 'runs', 'get', ''])).toEqual(expect.arrayContaining(parisRuns));
  });

  it('offers crawler slugs and account types', async () => {
    expect(await bash(['sq', 'squids', 'create', '--crawler', ''])).toEqual(slugs);
    expect(await bash(['sq', 'accounts', 'sync', '--type', ''])).toEqual(typeNames);
  });
});

describe('zsh, interactive', () => {
  it('offers squid names and inserts one with its space quoted; run ids, slugs, account types', async () => {
    const lines = {
      all: 'sq runs start --squid ',
      par: 'sq squids get Par',
      quoted: 'sq tasks list --squid "Par',
      runs: `sq results list --squid "${DEMO_SQUIDS.paris}" --run `,
      crawlers: 'sq squids create --crawler ',
      types: 'sq accounts sync --type ',
    };
    const got = await zsh(Object.values(lines));
    expect(got[lines.all].candidates).toEqual(squidNames);
    expect(got[lines.par].buffer).toBe('sq squids get Paris\\ restaurants ');
    expect(got[lines.quoted].buffer).toBe('sq tasks list --squid "Paris restaurants" ');
    expect(got[lines.runs].candidates).toEqual(parisRuns);
    expect(got[lines.crawlers].candidates).toEqual(slugs);
    expect(got[lines.types].candidates).toEqual(typeNames);
  }, 60_000);
});

describe('fish', () => {
  it('offers squid names (with their id as description), run ids, slugs and account types', async () => {
    const squids = await fish('sq runs start --squid ');
    expect(squids.map((c) => c[0]).sort()).toEqual(squidNames);
    expect(squids.find((c) => c[0] === DEMO_SQUIDS.paris)?.[1]).toBe(`squid ${emu.squidId(DEMO_SQUIDS.paris)}`);
    expect((await fish('sq squids get Par')).map((c) => c[0])).toEqual([DEMO_SQUIDS.paris]);
    expect((await fish(`sq results list --squid '${DEMO_SQUIDS.paris}' --run `)).map((c) => c[0])).toEqual(parisRuns);
    expect((await fish('sq runs abort ')).map((c) => c[0])).toEqual(expect.arrayContaining(parisRuns));
    expect((await fish('sq crawlers get ')).map((c) => c[0])).toEqual(slugs);
    expect((await fish('sq accounts sync --type ')).map((c) => c[0])).toEqual(typeNames);
  });
});

describe('profiles, from the local configuration only', () => {
  it('--profile and auth switch offer the stored profile names, without a request', async () => {
    const cfg = tempConfigDir();
    for (const p of ['work', 'ci-bot']) {
      const r = await sqBin(['auth', 'login', '--with-token', '--profile', p], { env: { ...emu.env(), SQ_CONFIG_DIR: cfg }, input: emu.token });
      expect(r.code, r.stderr).toBe(0);
    }
    await emu.clearRequests();
    const e = fresh({ SQ_CONFIG_DIR: cfg });
    expect(await bash(['sq', '--profile', ''], e)).toEqual(['ci-bot', 'work']);
    expect(await bash(['sq', 'auth', 'switch', 'w'], e)).toEqual(['work']);
    expect((await fish('sq squids list --profile ', e)).map((c) => c[0])).toEqual(['ci-bot', 'work']);
    expect((await zsh(['sq profiles remove '], e))['sq profiles remove '].candidates).toEqual(['ci-bot', 'work']);
    expect(await emu.requests()).toEqual([]);
  }, 60_000);
});

describe('the cache', () => {
  it('a second Tab within a minute is answered from a 0600 file that holds no key, without a request', async () => {
    const e = fresh();
    await emu.clearRequests();
    await expect.poll(() => bash(['sq', 'squids', 'get', ''], e), { timeout: 20_000 }).toHaveLength(squidNames.length);
    const asked = (await emu.requests()).length;
    expect(asked).toBeGreaterThan(0);
    expect(await bash(['sq', 'squids', 'delete', ''], e)).toHaveLength(squidNames.length);
    expect((await emu.requests()).length).toBe(asked);
    const files = readdirSync(join(e.SQ_CACHE_DIR, 'complete'));
    expect(files).toHaveLength(1);
    const file = join(e.SQ_CACHE_DIR, 'complete', files[0]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(e.SQ_CACHE_DIR, 'complete')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).not.toContain(emu.token);
    expect(files[0]).not.toContain(emu.token);
  });

  it('is kept per base URL and key: another service is asked, not answered from this one', async () => {
    const e = fresh();
    await prime(e, 'squids');
    const other = await startTestEmulator({ seed: 'empty' });
    try {
      const o = { ...e, SQ_BASE_URL: other.baseUrl, SQ_TOKEN: other.token };
      const files = async () => {
        expect(await bash(['sq', 'squids', 'get', ''], o)).toEqual([]);
        return readdirSync(join(e.SQ_CACHE_DIR, 'complete')).filter((f) => f.endsWith('.json')).length;
      };
      await expect.poll(files, { timeout: 20_000 }).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('a stale answer is offered at once and renewed in the background', async () => {
    const e = fresh();
    await bash(['sq', 'squids', 'get', ''], e);
    const file = join(e.SQ_CACHE_DIR, 'complete', readdirSync(join(e.SQ_CACHE_DIR, 'complete'))[0]);
    writeFileSync(file, JSON.stringify({ at: 1, values: [['Old squid', 'squid 0']] }), { mode: 0o600 });
    expect(await bash(['sq', 'squids', 'get', ''], e)).toEqual(['Old\\ squid']);
    // The detached refresh rewrites the file with the service's answer.
    await expect.poll(() => (JSON.parse(readFileSync(file, 'utf8')) as { at: number }).at, { timeout: 10_000, interval: 100 }).toBeGreaterThan(1);
    expect(await bash(['sq', 'squids', 'get', ''], e)).toHaveLength(squidNames.length);
  });
});

describe('never blocking, never prompting, never an error on the screen', () => {
  it('no key: nothing offered, nothing asked, nothing printed', async () => {
    await emu.clearRequests();
    const { SQ_TOKEN: _, ...noKey } = fresh();
    expect(await bash(['sq', 'runs', 'start', '--squid', ''], noKey)).toEqual([]);
    const r = await sqBin(['__complete', 'squids'], { env: noKey });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await emu.requests()).toEqual([]);
  });

  it('an unreachable service: nothing offered, quietly', async () => {
    expect(await bash(['sq', 'accounts', 'sync', '--type', ''], fresh({ SQ_BASE_URL: 'http://127.0.0.1:9' }))).toEqual([]);
  });

  it('a rejected key: nothing offered, and the next Tabs do not ask again for a while', async () => {
    let asked = 0;
    const srv = createHttpServer((_req, res) => {
      asked++;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Invalid token."}');
    });
    const e = fresh({ SQ_BASE_URL: await listenLocal(srv) });
    try {
      // Until the refusal is on record (a first Tab on a cold machine may leave it to the background refresh).
      const recorded = async () => {
        expect(await bash(['sq', 'squids', 'get', ''], e)).toEqual([]);
        return existsSync(join(e.SQ_CACHE_DIR, 'complete')) && readdirSync(join(e.SQ_CACHE_DIR, 'complete')).some((f) => f.endsWith('.json'));
      };
      await expect.poll(recorded, { timeout: 20_000 }).toBe(true);
      expect(asked).toBeGreaterThan(0);
      asked = 0;
      for (let i = 0; i < 3; i++) expect(await bash(['sq', 'squids', 'get', ''], e)).toEqual([]);
      expect(asked).toBe(0);
    } finally {
      srv.close();
    }
  });

  it('a service that never answers: sq gives up on its own (no answer this Tab) and leaves a refresh running', async () => {
    const held: Socket[] = [];
    const srv = createServer((s) => void held.push(s));
    const e = fresh({ SQ_BASE_URL: await listenLocal(srv) });
    try {
      // The test's own timeout is far above the budget: sq must end by itself, with nothing offered.
      const r = await execa(process.execPath, [join(root, 'bin/sq.js'), '__complete', 'squids'], { env: e, extendEnv: false, timeout: 20_000 });
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
      // The background refresh holds its lock while it waits for the service.
      expect(readdirSync(join(e.SQ_CACHE_DIR, 'complete')).some((f) => f.endsWith('.refreshing'))).toBe(true);
    } finally {
      for (const s of held) s.destroy();
      srv.close();
    }
  });
});
