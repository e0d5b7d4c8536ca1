// Chains in the account file: sq export writes them, sq plan / sq apply create (POST), change (PATCH), replace
// (DELETE + POST) and remove (chain: null) them, against the real emulator; the documents match their schemas.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const dir = tempDir('sq-account-chain-');
let n = 0;
const file = (doc: unknown) => {
  const p = join(dir, `f${++n}.yaml`);
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
};
const run = (args: string[]) => sq(args, { env: emu.env() });
const writes = async () =>
  (await emu.requests())
    .filter((r) => r.method !== 'GET')
    .map((r) => ({ method: r.method, path: r.path, body: r.body }));
const ajv = new Ajv2020({ strict: false });
// The committed schemas, as editors and scripts read them.
const committed = (name: string) =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schema', name), 'utf8'));
const planSchema = ajv.compile(committed('sq-plan.schema.json'));
const fileSchema = ajv.compile(committed('sq.schema.json'));

const paris = () => emu.squidId(DEMO_SQUIDS.paris);
const chainOf = (spec: unknown) => ({ squids: { [DEMO_SQUIDS.paris]: { chain: spec } } });
const link = (body: Record<string, unknown>) => emu.api(`/v1/squids/${paris()}/chain`, { method: 'POST', body });

describe('chains as code', () => {
  it('sq export writes a chain (target by slug) and the file validates; plan of it shows no change', async () => {
    await link({ target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' }, cluster_concurrency: 2 });
    const r = await run(['export']);
    expect(r.code, r.stderr).toBe(0);
    const doc = parse(r.stdout);
    expect(doc.squids[DEMO_SQUIDS.paris].chain).toEqual({
      target_crawler: 'amazon-products',
      field_map: { website: 'url' },
      autostart: true,
      target_concurrency: 2,
    });
    expect(fileSchema(doc), JSON.stringify(fileSchema.errors)).toBe(true);
    const plan = await run(['plan', '-f', file(r.stdout), '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toBe('No changes: the account matches the file.\n');
  });

  it('a new chain: plan shows it, apply POSTs the documented body, and a second plan is clean', async () => {
    const f = file(
      chainOf({
        target_crawler: 'amazon-products',
        field_map: { website: 'url' },
        autostart: false,
        target_name: 'Products',
      }),
    );
    const p = await run(['plan', '-f', f, '--json', '--detailed-exitcode']);
    expect(p.code).toBe(10);
    const doc = JSON.parse(p.stdout);
    expect(planSchema(doc), JSON.stringify(planSchema.errors)).toBe(true);
    expect(doc.summary).toMatchObject({ create: 1, update: 0, delete: 0 });
    expect(doc.items[0]).toMatchObject({ kind: 'chain', action: 'create', squid: DEMO_SQUIDS.paris, id: paris() });
    expect(doc.items[0].changes.map((c: { field: string }) => c.field)).toEqual([
      'target_crawler',
      'field_map',
      'autostart',
      'target_name',
    ]);
    expect(await writes()).toEqual([]);

    const a = await run(['apply', '-f', f, '--yes']);
    expect(a.code, a.stderr).toBe(0);
    expect(await writes()).toEqual([
      {
        method: 'POST',
        path: `/v1/squids/${paris()}/chain`,
        body: {
          target_module_id: DEMO_CRAWLERS.amazon,
          field_map: { website: 'url' },
          autostart: false,
          cluster_name: 'Products',
        },
      },
    ]);
    expect((await run(['plan', '-f', f, '--detailed-exitcode'])).code).toBe(0);
  });

  it('new settings: PATCH with only them; another field map: DELETE then POST; chain: null removes it', async () => {
    await link({ target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' } });
    await emu.clearRequests();
    const patched = await run([
      'apply',
      '-f',
      file(chainOf({ target_crawler: DEMO_CRAWLERS.amazon, field_map: { website: 'url' }, target_concurrency: 4 })),
      '--yes',
      '--json',
    ]);
    expect(patched.code, patched.stderr).toBe(0);
    const doc = JSON.parse(patched.stdout);
    expect(planSchema(doc), JSON.stringify(planSchema.errors)).toBe(true);
    expect(doc.items).toEqual([
      expect.objectContaining({
        kind: 'chain',
        action: 'update',
        status: 'applied',
        changes: [{ field: 'target_concurrency', from: 1, to: 4 }],
      }),
    ]);
    expect(await writes()).toEqual([
      { method: 'PATCH', path: `/v1/squids/${paris()}/chain`, body: { cluster_concurrency: 4 } },
    ]);

    await emu.clearRequests();
    const replaced = await run([
      'apply',
      '-f',
      file(chainOf({ target_crawler: 'amazon-products', field_map: { name: 'url' } })),
      '--yes',
    ]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await writes()).toEqual([
      { method: 'DELETE', path: `/v1/squids/${paris()}/chain`, body: undefined },
      {
        method: 'POST',
        path: `/v1/squids/${paris()}/chain`,
        body: { target_module_id: DEMO_CRAWLERS.amazon, field_map: { name: 'url' } },
      },
    ]);

    await emu.clearRequests();
    const removed = await run(['apply', '-f', file(chainOf(null)), '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await writes()).toEqual([{ method: 'DELETE', path: `/v1/squids/${paris()}/chain`, body: undefined }]);
    expect(await emu.api(`/v1/squids/${paris()}/chain`)).toBeNull();
  });

  it('a squid created by the same apply gets its chain after it exists', async () => {
    const f = file({
      squids: {
        Fresh: {
          crawler: 'google-maps-search-export',
          chain: { target_crawler: 'amazon-products', field_map: { website: 'url' } },
        },
      },
    });
    const a = await run(['apply', '-f', f, '--yes']);
    expect(a.code, a.stderr).toBe(0);
    const w = await writes();
    const id = (w[0].path === '/v1/squids' ? (await emu.api('/v1/squids?name=Fresh')).data[0].id : '') as string;
    expect(w.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/squids', `POST /v1/squids/${id}/chain`]);
  });

  it('an unknown target crawler is exit 2 naming the path in the file, before any write', async () => {
    const r = await run(['plan', '-f', file(chainOf({ target_crawler: 'no-such-crawler', field_map: { a: 'b' } }))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('squids."Paris restaurants".chain.target_crawler');
    expect(await writes()).toEqual([]);
  });
});

describe('apply of a chain that starts runs: the cap of `sq squids chain set` holds', () => {
  it("SQ_MAX_CREDITS under the target's run: turning autostart on is exit 9 and the chain is not changed; within it, written", async () => {
    // The chain fired once with autostart off: its target squid exists, with tasks and an estimate.
    await link({ target_module_id: DEMO_CRAWLERS.amazon, field_map: { website: 'url' }, autostart: false });
    const run = await emu.api('/v1/runs', { method: 'POST', body: { squid: paris() } });
    for (let i = 0; i < 20 && (await emu.api(`/v1/runs/${run.id}`)).status !== 'done'; i++) await emu.advance(10_000);
    const chain = await emu.api(`/v1/squids/${paris()}/chain`);
    const total = (await emu.api('/v1/squid/estimate', { method: 'POST', body: { squid: chain.target_cluster.id } }))
      .total_credits;
    await emu.clearRequests();
    const f = file(chainOf({ target_crawler: 'amazon-products', field_map: { website: 'url' }, autostart: true }));
    const r = await sq(['apply', '-f', f, '--yes'], { env: emu.env({ SQ_MAX_CREDITS: '1' }) });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      `over budget: each run of the chained squid is estimated at ${total} credits, above the cap of 1 (SQ_MAX_CREDITS); the chain was not written`,
    );
    // The estimate (a POST that changes nothing) and nothing else.
    expect((await writes()).map((w) => w.path)).toEqual(['/v1/squid/estimate']);
    expect((await emu.api(`/v1/squids/${paris()}/chain`)).autostart).toBe(false);
    emu.expectWrites('PATCH /v1/squids/*/chain');
    const ok = await sq(['apply', '-f', f, '--yes'], { env: emu.env({ SQ_MAX_CREDITS: String(total) }) });
    expect(ok.code, ok.stderr).toBe(0);
    expect((await emu.api(`/v1/squids/${paris()}/chain`)).autostart).toBe(true);
  });
});
