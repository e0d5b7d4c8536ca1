// A real terminal (tmux): `sq squids create` and `sq go` on an account crawler (Twitter Profile) with two healthy
// accounts of its type (changelog: account health, a crawler's account_type; issue 32) ask which one to link, with
// the arrow keys; the one chosen is linked, and nothing is written before the answer.
import { expect, it } from 'vitest';
import { DEMO_ACCOUNT_USERNAMES, newAccount } from '../../../src/emulator/seed.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open } = useTmuxEmulator();
let term: Term | undefined;
let second: string;

/** A fresh seed with a second healthy twitter-sync account beside the demo one. */
async function twoAccounts(): Promise<void> {
  await emu.control('POST', '/_emulator/reset');
  const core = emu.emu as unknown as Parameters<typeof newAccount>[0];
  second = String(newAccount(core, 'twitter-sync', 'second_feed', core.clock.now()).id);
  await emu.clearRequests();
}

it('squids create: asks which twitter-sync account, lists both, links the one chosen', async () => {
  await twoAccounts();
  term = await open(['squids', 'create', '--crawler', 'twitter-profile-scraper', '--name', 'Feeds']);
  const screen = await term.waitFor(/Which twitter-sync account should the squid use\?/);
  expect(screen).toContain(DEMO_ACCOUNT_USERNAMES.twitter);
  expect(screen).toContain('second_feed');
  // Nothing is written while the question is open.
  expect(await emu.requests('POST')).toEqual([]);
  // The demo account is listed first (the account list's order); the arrow key moves to the second.
  await term.keys('Down');
  await term.keys('Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:0/);
  const posts = await emu.requests('POST');
  const link = posts.find((r) => r.path.startsWith('/v1/squids/')) as { body?: { accounts?: string[] } } | undefined;
  expect(link?.body?.accounts).toEqual([second]);
}, 60_000);

it('sq go: asks the same before any write; Enter on the first links the demo account', async () => {
  await twoAccounts();
  term = await open(['go', 'twitter-profile-scraper', 'https://x.com/nasa']);
  const screen = await term.waitFor(/Which twitter-sync account should the squid use\?|EXIT:\d+/);
  expect(screen).toMatch(/Which twitter-sync account should the squid use\?/);
  expect(await emu.requests('POST')).toEqual([]);
  await term.keys('Enter');
  await term.waitFor(/EXIT:\d+|params set/);
  const demo = String(
    Object.values(emu.emu.state.accounts).find((a) => a.username === DEMO_ACCOUNT_USERNAMES.twitter)!.id,
  );
  const posts = await emu.requests('POST');
  const link = posts.find((r) => r.path.startsWith('/v1/squids/')) as { body?: { accounts?: string[] } } | undefined;
  expect(link?.body?.accounts).toEqual([demo]);
}, 60_000);
