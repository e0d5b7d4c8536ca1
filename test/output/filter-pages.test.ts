// --jq/--template over a list (src/output/index.ts): per page with RenderOptions.pageOf (--all), the whole list
// otherwise, under the --slurp cap. jq runs in its worker thread, loaded here from node_modules (no launcher).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { make } from './helpers.js';
import { SqError } from '../../src/errors.js';
import { createOutput, resolveOutputSettings } from '../../src/output/index.js';
import { capture } from '../helpers/stream.js';

/** 250 records handed over as pages of 100, 100 and 50, with the page counter records() keeps. */
function paged() {
  const seen = { pages: 0 };
  async function* items() {
    for (const size of [100, 100, 50]) {
      seen.pages++;
      for (let i = 0; i < size; i++) yield { id: `r${seen.pages}-${i}`, blob: 'x'.repeat(100) };
    }
  }
  return { items: items(), pageOf: () => seen.pages };
}

describe('a filter over a list', () => {
  it('--jq runs once per page with pageOf, once on everything without', async () => {
    const a = make({ jq: 'length' });
    const p = paged();
    expect(await a.out.list(p.items, { pageOf: p.pageOf })).toBe(250);
    expect(a.stdout()).toBe('100\n100\n50\n');
    const b = make({ jq: 'length' });
    expect(await b.out.list(paged().items)).toBe(250);
    expect(b.stdout()).toBe('250\n');
  });

  it('--template the same', async () => {
    const a = make({ template: '{{len .}};' });
    const p = paged();
    await a.out.list(p.items, { pageOf: p.pageOf });
    expect(a.stdout()).toBe('100;100;50;');
  });

  it('an empty list is one empty document', async () => {
    const a = make({ jq: 'length' });
    await a.out.list((async function* () {})(), { pageOf: () => 0 });
    expect(a.stdout()).toBe('0\n');
  });

  it('the whole list is held within SQ_SLURP_MAX_MB: past it, exit 1 naming the cap', async () => {
    const big = make({ jq: 'length', env: { SQ_SLURP_MAX_MB: '1' } });
    const huge = (async function* () {
      for (let i = 0; i < 20_000; i++) yield { id: i, blob: 'x'.repeat(100) };
    })();
    const err = await big.out.list(huge).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqError);
    expect((err as SqError).exitCode).toBe(1);
    expect((err as Error).message).toBe(
      '--jq --slurp: the list passed the cap of 1 MB (SQ_SLURP_MAX_MB raises it; without --slurp the filter runs on each page)',
    );
    expect(big.stdout()).toBe('');
  });
});

describe('a filter over many pages', () => {
  it("a bounded path runs on the main thread, page after page, with jq's output and errors", async () => {
    const a = make({ jq: '.[].id' });
    const p = paged();
    expect(await a.out.list(p.items, { pageOf: p.pageOf })).toBe(250);
    expect(a.stdout().split('\n').filter(Boolean)).toEqual([
      ...Array.from({ length: 100 }, (_, i) => `r1-${i}`),
      ...Array.from({ length: 100 }, (_, i) => `r2-${i}`),
      ...Array.from({ length: 50 }, (_, i) => `r3-${i}`),
    ]);
    const b = make({ jq: '.[0]' });
    const err = await Promise.resolve(b.out.record({ a: 1 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqError);
    expect((err as SqError).exitCode).toBe(1);
    expect((err as Error).message).toBe('--jq: Cannot index object with number');
  });

  it("keeps nothing per page on the command's stop signal (one listener, not one per page holding its JSON)", async () => {
    const o = capture();
    const e = capture();
    const ac = new AbortController();
    // Not a bounded path (src/startup/argv.ts), which runs on the main thread: this filter goes to jq's worker, job after job.
    const settings = resolveOutputSettings({
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
      jq: '.[].id | tostring',
    });
    const out = createOutput({ stdout: o.stream, stderr: e.stream }, settings, { signal: ac.signal });
    const seen = { pages: 0 };
    async function* items() {
      for (let p = 0; p < 40; p++) {
        seen.pages++;
        for (let i = 0; i < 10; i++) yield { id: `r${p}-${i}` };
      }
    }
    expect(await out.list(items(), { pageOf: () => seen.pages })).toBe(400);
    expect(o.text().split('\n').filter(Boolean)).toHaveLength(400);
    expect(getEventListeners(ac.signal, 'abort').length).toBeLessThanOrEqual(1);
  });
});
