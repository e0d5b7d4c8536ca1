// The account plan's request paths are built by src/api (seg()): an id taken from the server goes into a path as one
// checked, encoded segment, never as it came.
import { describe, expect, it } from 'vitest';
import { makePlan } from '../../src/account/diff.js';
import type { Desired } from '../../src/account/file.js';
import type { Live } from '../../src/account/state.js';
import { UsageError } from '../../src/errors.js';

function pruneAll(ids: string[]) {
  const want: Desired = { prune: true, managesSquids: true, squids: [], locate: () => 'sq.yaml' } as unknown as Desired;
  const live: Live = {
    all: ids.map((id) => ({ id, name: `s-${id}` })),
    matched: new Map(),
    crawlers: [],
    crawlerParams: new Map(),
    accounts: [],
    accountCrawlers: new Map(),
  };
  return makePlan(want, live).steps.map((s) => () => s.requests(''));
}

describe('account plan request paths', () => {
  it('encodes a server id as one path segment', () => {
    const [req] = pruneAll(['a b%'])[0]();
    expect(req).toMatchObject({ method: 'DELETE', path: '/v1/squids/a%20b%25' });
  });

  it('refuses a server id that would name another endpoint ("..", "/")', () => {
    for (const id of ['..', 'x/../../balance']) {
      const [requests] = pruneAll([id]);
      expect(requests).toThrow(UsageError);
      expect(requests).toThrow(/squid id/);
    }
  });
});
