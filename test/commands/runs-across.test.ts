// `runs list` without --squid (issue 11 #7): the most recent runs across squids, read from the squids with the newest
// activity only, stopping once no other squid can hold a newer run.
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'clear' });
let squids: J[];
let all: J[];

beforeAll(async () => {
  squids = (await emu.api('/v1/squids?limit=100')).data;
  all = [];
  for (const s of squids)
    for (const r of (await emu.api(`/v1/runs?squid=${s.id}&limit=100`)).data) all.push({ ...r, squid_name: s.name });
  all.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
});
beforeEach(() => emu.clearRequests());

it('lists the runs of every squid newest first, each with its squid name', async () => {
  expect(new Set(all.map((r) => r.squid)).size).toBeGreaterThan(2);
  const r = await sq(['runs', 'list', '--json'], { env: emu.env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as J[];
  expect(out.map((x) => [x.id, x.squid_name])).toEqual(all.map((x) => [x.id, x.squid_name]));
  // squids that never ran are not asked for
  const asked = (await emu.requests()).filter((q) => q.path === '/v1/runs').map((q) => (q.query as J).squid);
  expect(asked.sort()).toEqual([...new Set(all.map((x) => x.squid))].sort());
});

it('--limit 1 reads only the squid with the newest run; TSV gets a squid column', async () => {
  const r = await sq(['runs', 'list', '--limit', '1'], { env: emu.env() });
  expect(r.code).toBe(0);
  const [head, row, ...rest] = r.stdout.trimEnd().split('\n');
  expect(head).toBe('id\tsquid_name\tstatus\ttotal_results\tcredit_used\tduration\tstarted_at\tended_at\tdone_reason');
  expect(row.split('\t').slice(0, 2)).toEqual([all[0].id, all[0].squid_name]);
  expect(rest).toEqual([]);
  expect((await emu.requests()).map((q) => `${q.path} ${(q.query as J).squid ?? ''}`)).toEqual([
    '/v1/squids ',
    `/v1/runs ${all[0].squid}`,
  ]);
});
