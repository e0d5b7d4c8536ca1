// Values only the service knows (squid names, run ids, crawler slugs, account types), completed by the real bash
// through `sq __complete`, with the BUILT sq on PATH (needs `npm run build`, which npm test runs) against a real
// emulator. Names hold spaces ("Paris restaurants"): bash must insert them quoted. Answers come from a short-lived
// cache: the second Tab sends no request. zsh and fish, and the profile names, are in
// test/system/completion/dynamic-shells.test.ts (npm run test:system).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_USERNAMES, DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { sqBin } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { listenLocal } from '../helpers/net.js';
import {
  bash,
  bashEach,
  dir,
  emu,
  fresh,
  parisRuns,
  primed,
  prime,
  root,
  settled,
  slugs,
  squidNames,
  typeNames,
  useCompletionEnv,
} from './dynamic-env.js';

useCompletionEnv();

describe('bash', () => {
  it('offers the squid names, each quoted as one word', async () => {
    const [all, par, doubleQuoted, singleQuoted, joined] = await bashEach([
      ['sq', 'runs', 'start', '--squid', ''],
      ['sq', 'squids', 'get', 'Par'],
      ['sq', 'tasks', 'list', '--squid', '"Par'],
      ['sq', 'tasks', 'list', '--squid', "'Par"],
      ['sq', 'tasks', 'list', '--squid=Par'],
    ]);
    expect(all).toEqual(squidNames.map((n) => n.replace(/ /g, '\\ ')).sort());
    expect(par).toEqual(['Paris\\ restaurants']);
    // Inside an opened quote, the value is closed in the same quote.
    expect(doubleQuoted).toEqual(['"Paris restaurants"']);
    expect(singleQuoted).toEqual(["'Paris restaurants'"]);
    expect(joined).toEqual(['--squid=Paris\\ restaurants']);
  });

  it('offers the run ids of the squid on the line, else recent runs of every squid', async () => {
    const [ofParis, byPrefix, recent] = await bashEach([
      ['sq', 'results', 'list', '--squid', '"Paris restaurants"', '--run', ''],
      ['sq', 'results', 'list', '--squid', DEMO_SQUIDS.paris.replace(/ /g, '\\ '), '--run', parisRuns[0].slice(0, 6)],
      ['sq', 'runs', 'get', ''],
    ]);
    expect(ofParis).toEqual(parisRuns);
    expect(byPrefix).toEqual([parisRuns[0]]);
    expect(recent).toEqual(expect.arrayContaining(parisRuns));
  });

  it('offers crawler slugs and account types', async () => {
    const [crawlers, types] = await bashEach([
      ['sq', 'squids', 'create', '--crawler', ''],
      ['sq', 'accounts', 'sync', '--type', ''],
    ]);
    expect(crawlers).toEqual(slugs);
    expect(types).toEqual(typeNames);
  });

  it('offers account usernames for --account and <account>', async () => {
    const names = Object.values(DEMO_ACCOUNT_USERNAMES).sort();
    const [forOption, forArgument] = await bashEach([
      ['sq', 'squids', 'update', 'x', '--account', ''],
      ['sq', 'accounts', 'update', 'demo'],
    ]);
    expect(forOption).toEqual(names);
    expect(forArgument).toEqual([DEMO_ACCOUNT_USERNAMES.twitter]);
  });
});

describe('the cache', () => {
  // A fresh cache holding the squid names sq wrote into the primed one (the same service and key, so the same file
  // name): for a test that needs an answer in the cache to start from, not the Tabs that put it there (an sq process
  // each, two when the first leaves the answer to a background refresh).
  const withPrimedSquids = (): Record<string, string> => {
    const e = fresh();
    const from = join(primed.SQ_CACHE_DIR, 'complete');
    const name = readdirSync(from).find((f) => f.startsWith('squids-') && f.endsWith('.json'))!;
    mkdirSync(join(e.SQ_CACHE_DIR, 'complete'), { mode: 0o700 });
    writeFileSync(join(e.SQ_CACHE_DIR, 'complete', name), readFileSync(join(from, name)), { mode: 0o600 });
    return e;
  };

  it('a second Tab within a minute is answered from a 0600 file that holds no key, without a request', async () => {
    const e = fresh();
    await emu.clearRequests();
    // Tab until the answer is cached (the first may leave it to the background refresh).
    await prime(e, 'squids');
    expect(await bash(['sq', 'squids', 'get', ''], e)).toHaveLength(squidNames.length);
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
    const e = withPrimedSquids();
    const other = await startTestEmulator({ seed: 'empty' });
    try {
      const o = { ...e, SQ_BASE_URL: other.baseUrl, SQ_TOKEN: other.token };
      expect(await bash(['sq', 'squids', 'get', ''], o)).toEqual([]);
      // The other service's (empty) answer is stored beside the first, by this Tab or by the refresh it left.
      await settled(o);
      expect(readdirSync(join(e.SQ_CACHE_DIR, 'complete')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('a stale answer is offered at once and renewed in the background', async () => {
    const e = withPrimedSquids();
    const file = join(
      e.SQ_CACHE_DIR,
      'complete',
      readdirSync(join(e.SQ_CACHE_DIR, 'complete')).find((f) => f.endsWith('.json'))!,
    );
    writeFileSync(file, JSON.stringify({ at: 1, values: [['Old squid', 'squid 0']] }), { mode: 0o600 });
    expect(await bash(['sq', 'squids', 'get', ''], e)).toEqual(['Old\\ squid']);
    // The detached refresh rewrites the file with the service's answer.
    await expect
      .poll(() => (JSON.parse(readFileSync(file, 'utf8')) as { at: number }).at, { timeout: 10_000, interval: 100 })
      .toBeGreaterThan(1);
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
    expect(await bash(['sq', 'accounts', 'sync', '--type', ''], fresh({ SQ_BASE_URL: 'http://127.0.0.1:9' }))).toEqual(
      [],
    );
  });

  it('a rejected key: nothing offered, and the next Tabs do not ask again for a while', async () => {
    let asked = 0;
    const srv = createHttpServer((_req, res) => {
      asked++;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Invalid token."}');
    });
    const e = fresh({ SQ_BASE_URL: await listenLocal(srv) });
    try {
      // The refusal is on record once the Tab, or the background refresh it left on a cold machine, has ended.
      expect(await bash(['sq', 'squids', 'get', ''], e)).toEqual([]);
      await settled(e);
      expect(
        existsSync(join(e.SQ_CACHE_DIR, 'complete')) &&
          readdirSync(join(e.SQ_CACHE_DIR, 'complete')).some((f) => f.endsWith('.json')),
      ).toBe(true);
      expect(asked).toBeGreaterThan(0);
      asked = 0;
      // Three Tabs, one after the other (each its own sq).
      expect(
        await bashEach(
          Array.from({ length: 3 }, () => ['sq', 'squids', 'get', '']),
          e,
        ),
      ).toEqual([[], [], []]);
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
      const r = await execa(process.execPath, [join(root, 'bin/sq.js'), '__complete', 'squids'], {
        env: e,
        extendEnv: false,
        timeout: 20_000,
      });
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', '']);
      // The background refresh holds its lock while it waits for the service.
      expect(readdirSync(join(e.SQ_CACHE_DIR, 'complete')).some((f) => f.endsWith('.refreshing'))).toBe(true);
    } finally {
      for (const s of held) s.destroy();
      srv.close();
    }
  });
});

describe('the other names of sq', () => {
  it('bash completes lobstr-sq too, and an alias sq=… (the README tour) with no sq on PATH', async () => {
    const script = join(dir, 'sq.bash');
    const reg = await execa('bash', ['--norc', '-c', 'source "$1"; complete -p sq lobstr-sq', 'bash', script]);
    expect(reg.stdout.split('\n')).toEqual(['complete -F _sq sq', 'complete -F _sq lobstr-sq']);
    const real = join(dir, 'sq');
    const noSq = { ...primed, PATH: '/usr/bin:/bin' };
    const line = `COMP_WORDS=(sq runs start --squid ''); COMP_CWORD=4; _sq; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const viaAlias = await execa('bash', ['--norc', '-c', `alias sq="${real}"; source "$1"; ${line}`, 'bash', script], {
      env: noSq,
      extendEnv: false,
    });
    expect(viaAlias.stdout.split('\n').filter(Boolean).sort()).toEqual(
      squidNames.map((n) => n.replace(/ /g, '\\ ')).sort(),
    );
  });

  it('bash completes through the README\'s alias of two words, sq="node …/bin/sq.js" (split on spaces, not newlines)', async () => {
    const script = join(dir, 'sq.bash');
    const noSq = { ...primed, PATH: '/usr/bin:/bin' };
    const line = `COMP_WORDS=(sq runs start --squid ''); COMP_CWORD=4; _sq; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const alias = `alias sq="${process.execPath} ${join(root, 'bin/sq.js')}"`;
    const r = await execa('bash', ['--norc', '-c', `${alias}; source "$1"; ${line}`, 'bash', script], {
      env: noSq,
      extendEnv: false,
    });
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(squidNames.map((n) => n.replace(/ /g, '\\ ')).sort());
  });
});
