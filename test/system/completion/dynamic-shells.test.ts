// Dynamic completion values (squid names, run ids, crawler slugs, account types, profile names) through the real
// zsh (interactive, in a pseudo-terminal) and fish: Debian's zsh and fish must be installed (npm run test:system).
// The bash side is test/completion/dynamic.test.ts.
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { DEMO_SQUIDS } from '../../../src/emulator/seed.js';
import { sq, sqBin, tempConfigDir } from '../../helpers/cli.js';
import {
  bash,
  dir,
  emu,
  fish,
  fresh,
  parisRuns,
  primed,
  slugs,
  squidNames,
  typeNames,
  useCompletionEnv,
  zsh,
} from '../../completion/dynamic-env.js';

useCompletionEnv();

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

describe('zsh value descriptions', () => {
  it('run ids come newest first, each described by its squid, status and age; lobstr-sq is completed too', async () => {
    // compadd stubbed to print what it would show: each value with its description (-d).
    const script =
      'compdef() { print -r -- "compdef $*" }; source $1; compadd() { local -a d; zparseopts -D ' +
      '-E d:=d V:=v l=l; print -rl -- "${(@P)d[2]}" }; service=sq; LBUFFER="sq runs get "; _sq_dynamic runs';
    const r = await execa('zsh', ['-f', '-c', script, 'zsh', join(dir, '_sq')], { env: primed, extendEnv: false });
    expect(r.stderr).toBe('');
    const [registered, ...values] = r.stdout.split('\n');
    expect(registered).toBe('compdef _sq sq lobstr-sq');
    const runs = (await sq(['runs', 'list', '--json'], { env: emu.env() })).stdout;
    const newestFirst = (JSON.parse(runs) as { id: string; started_at: string }[]).sort(
      (a, b) => Date.parse(b.started_at) - Date.parse(a.started_at),
    );
    expect(values.map((v) => v.split(' ')[0])).toEqual(
      newestFirst.map((x) => x.id).filter((id) => values.some((v) => v.startsWith(`${id} `))),
    );
    expect(values.length).toBeGreaterThan(1);
    const paris = values.find((v) => v.startsWith(`${parisRuns[0]} `));
    expect(paris).toMatch(
      new RegExp(`^${parisRuns[0]}  -- ${DEMO_SQUIDS.paris} · [a-z]+ · (\\d+ [a-z]+ ago|just now)$`),
    );
  });
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
      const r = await sqBin(['auth', 'login', '--with-token', '--profile', p], {
        env: { ...emu.env(), SQ_CONFIG_DIR: cfg },
        input: emu.token,
      });
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
