// In-process against the emulator: `sq runs credits`, `sq credits modules|squids`, `sq squids credits` — the table
// (one row per function or record, the total on stderr), --json as the API answered it, id prefixes and names,
// and bad input refused before any request.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import type { J } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });

const tsv = (out: string) =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => l.split('\t'));
const doneRuns = (squid: string) =>
  Object.values(emu.emu.state.runs).filter((r) => r.squid === emu.squidId(squid) && r.is_done === true);

describe('sq runs credits', () => {
  it('a table of the functions with credits, attempts and rate; the total on stderr; a prefix is enough', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    await emu.api(`/v1/squids/${paris}`, { method: 'POST', body: { params: { functions: { contacts: true } } } });
    const run = String(doneRuns(DEMO_SQUIDS.paris)[0].id);
    const r = await sq(['runs', 'credits', run.slice(0, 8)], { env: emu.env() });
    expect(r.code).toBe(0);
    const body = await emu.api(`/v1/runs/${run}/credits`);
    const rows = tsv(r.stdout);
    expect(rows[0]).toEqual(['function', 'credits', 'attempts', 'rate']);
    expect(rows.slice(1)).toEqual(
      body.breakdown.map((b: J) => [
        b.function,
        String(b.credits),
        String(b.attempts),
        String(b.function === 'base' ? body.rates.credits_per_row : body.rates[b.function]),
      ]),
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(r.stderr).toContain(`Total: ${body.total_credits} credits for ${body.total_results} results.`);
  });

  it('--json prints the API document whole; --jq reaches into it', async () => {
    const run = String(doneRuns(DEMO_SQUIDS.paris)[0].id);
    const r = await sq(['runs', 'credits', run, '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await emu.api(`/v1/runs/${run}/credits`));
    const jq = await sq(['runs', 'credits', run, '--jq', '.total_credits'], { env: emu.env() });
    expect(jq.stdout.trim()).toBe(String(emu.emu.state.runs[run].credit_used));
  });

  it("an unknown run is exit 3 with the API's message", async () => {
    const r = await sq(['runs', 'credits', '0'.repeat(32)], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Run not found');
  });
});

describe('sq credits modules', () => {
  it('one row per crawler and function; the total and the crawler count on stderr', async () => {
    const r = await sq(['credits', 'modules'], { env: emu.env() });
    expect(r.code).toBe(0);
    const body = await emu.api('/v1/credits/modules');
    const rows = tsv(r.stdout);
    expect(rows[0]).toEqual(['name', 'slug', 'function', 'credits', 'attempts', 'total_results', 'total_runs']);
    expect(rows.slice(1)).toEqual(
      body.data.flatMap((m: J) =>
        m.breakdown.map((b: J) => [
          m.name,
          m.slug,
          b.function,
          String(b.credits),
          String(b.attempts),
          String(m.total_results),
          String(m.total_runs),
        ]),
      ),
    );
    expect(r.stderr).toContain(`Total: ${body.total_credits} credits over ${body.data.length} crawlers.`);
  });

  it('--days N is sent as ?days=N; --json prints the document', async () => {
    const r = await sq(['credits', 'modules', '--days', '7', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await emu.api('/v1/credits/modules?days=7'));
    expect((await emu.requests()).map((q) => [q.path, q.query])).toContainEqual(['/v1/credits/modules', { days: '7' }]);
  });

  it.each(['0', 'x', '3651', '1.5'])('--days %s is exit 2 before any request', async (days) => {
    const r = await sq(['credits', 'modules', '--days', days], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--days must be an integer from 1 to 3650');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('a 200 answer that is no credit document is exit 1, not an empty table and exit 0', () => {
  const run = () => String(doneRuns(DEMO_SQUIDS.paris)[0].id);
  it.each([
    ['runs credits, an array', () => `/v1/runs/${run()}/credits`, [], () => ['runs', 'credits', run()]],
    [
      'runs credits, an object without breakdown or total',
      () => `/v1/runs/${run()}/credits`,
      { detail: 'x' },
      () => ['runs', 'credits', run(), '--json'],
    ],
    ['credits modules, null', () => '/v1/credits/modules', null, () => ['credits', 'modules']],
    [
      'credits modules, an object without data or total',
      () => '/v1/credits/modules',
      { detail: 'x' },
      () => ['credits', 'modules', '--json'],
    ],
  ])('%s', async (_label, path, body, args) => {
    await emu.faults([{ path: path(), action: 'status', status: 200, body, count: 5 }]);
    const r = await sq(args(), { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    // An error message or null is no document of any endpoint (issue 33, E9): said before the credit check.
    expect(r.stderr).toMatch(
      /instead of a credit document|but the answer is an error message, not a document|but the answer is null/,
    );
  });
});

describe('sq credits squids and sq squids credits', () => {
  it('credits squids lists every squid and, after a delete, the deleted one as DELETED', async () => {
    const jobs = emu.squidId(DEMO_SQUIDS.jobs);
    await emu.api(`/v1/squids/${jobs}`, { method: 'DELETE' });
    const r = await sq(['credits', 'squids', '--all', '--json'], { env: emu.env() });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as J[];
    expect(rows.find((x) => x.id === jobs)).toMatchObject({ is_deleted: true, name: DEMO_SQUIDS.jobs });
    expect(rows.filter((x) => !x.is_deleted)).toHaveLength(Object.keys(emu.emu.state.squids).length);
    const t = await sq(['credits', 'squids', '--fields', 'name,is_deleted'], { env: emu.env() });
    expect(tsv(t.stdout)).toContainEqual([DEMO_SQUIDS.jobs, 'true']);
  });

  it('squids credits takes a name and lists the finished runs with status and credits', async () => {
    const r = await sq(['squids', 'credits', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code).toBe(0);
    const rows = tsv(r.stdout);
    expect(rows[0]).toEqual(['run', 'status', 'started_at', 'ended_at', 'total_credits', 'total_results']);
    const runs = doneRuns(DEMO_SQUIDS.paris);
    expect(
      rows
        .slice(1)
        .map((x) => [x[0], x[1], x[4]])
        .sort(),
    ).toEqual(runs.map((x) => [String(x.id), String(x.status), String(x.credit_used)]).sort());
  });

  it('an unknown squid is exit 3 before the credits request', async () => {
    const r = await sq(['squids', 'credits', 'No such squid'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect((await emu.requests()).some((q) => q.path.endsWith('/credits'))).toBe(false);
  });
});
