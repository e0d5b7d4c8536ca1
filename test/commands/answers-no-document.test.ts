// Answers that are not the document the endpoint promises (issue 33, E9): exit 1 naming the endpoint, for every
// endpoint. Before: `200 {"detail":"maintenance"}` for a run made `runs watch` and `sq go` wait for ever (here, until
// --timeout: exit 7), `me` and `balance` printed it at exit 0, `200 null` gave a raw JS error, a 3xx was read as the answer.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { answerCheck, checks, Page, Run } from '../../src/api/records.js';
import { balanceProblem, userProblem } from '../../src/api/user.js';

const emu = useEmulator({ each: 'reset' });
const MAINTENANCE = { detail: 'maintenance' };
const runOf = (squid: string) =>
  String(Object.values(emu.emu.state.runs).find((r) => r.squid === emu.squidId(squid))!.id);

describe('a 200 that is an error message, not the document', () => {
  it('runs watch: exit 1 naming GET /v1/runs/RUN, not a wait until --timeout', async () => {
    const run = runOf(DEMO_SQUIDS.paris);
    await emu.faults([{ method: 'GET', path: `/v1/runs/${run}`, action: 'status', status: 200, body: MAINTENANCE }]);
    const r = await sq(['runs', 'watch', run, '--timeout', '10m', '--interval', '1s'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `the API answered GET /v1/runs/${run} with HTTP 200, but the answer is an error message, not a document: "maintenance"`,
    );
  });

  it('sq go: exit 1 naming the run endpoint, not a wait until --timeout', async () => {
    emu.expectWrites('POST /v1/squids', 'POST /v1/squids/*', 'POST /v1/tasks', 'POST /v1/runs');
    await emu.faults([{ method: 'GET', path: '/v1/runs/', action: 'status', status: 200, body: MAINTENANCE }]);
    const r = await sq(
      ['go', 'amazon-products', 'https://www.amazon.com/s?k=no+document', '--timeout', '10m', '--interval', '1s'],
      { env: emu.env() },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /the API answered GET \/v1\/runs\/[0-9a-f]+ with HTTP 200, but the answer is an error message/,
    );
  });

  it.each([
    ['me', '/v1/me'],
    ['balance', '/v1/user/balance'],
  ])('%s: exit 1 and nothing on stdout, not the message printed at exit 0', async (verb, path) => {
    await emu.faults([{ method: 'GET', path, action: 'status', status: 200, body: MAINTENANCE }]);
    const r = await sq([verb, '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`GET ${path} with HTTP 200`);
  });

  it('a record missing the field sq relies on: runs get names it', async () => {
    const run = runOf(DEMO_SQUIDS.paris);
    await emu.faults([
      {
        method: 'GET',
        path: `/v1/runs/${run}`,
        action: 'status',
        status: 200,
        body: { object: 'run', status: 'done' },
      },
    ]);
    const r = await sq(['runs', 'get', run], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `the API answered GET /v1/runs/${run} with HTTP 200, but the answer is not a run: "id" is missing`,
    );
  });
});

describe('200 null', () => {
  it.each([
    ['me', '/v1/me'],
    ['balance', '/v1/user/balance'],
  ])('%s: exit 1 naming the endpoint, no JavaScript error', async (verb, path) => {
    await emu.faults([{ method: 'GET', path, action: 'status', status: 200, body: null }]);
    const r = await sq([verb], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`the API answered GET ${path} with HTTP 200, but the answer is null`);
    expect(r.stderr).not.toMatch(/TypeError|Cannot read|undefined/);
  });

  it('squids get: exit 1, not an empty record', async () => {
    await emu.faults([{ method: 'GET', path: '/v1/squids/', action: 'status', status: 200, body: null }]);
    const r = await sq(['squids', 'get', emu.squidId(DEMO_SQUIDS.paris)], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('but the answer is null');
  });
});

describe('a 3xx', () => {
  it('is never followed nor read as the answer: exit 1 naming the redirect and its host only', async () => {
    await emu.faults([
      {
        method: 'GET',
        path: '/v1/me',
        action: 'status',
        status: 302,
        headers: { Location: 'https://login.example.com/sso?token=abc' },
        body: { email: 'from-a-redirect@example.com' },
      },
    ]);
    const r = await sq(['me', '--json'], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'the API answered GET /v1/me with HTTP 302, a redirect to login.example.com, which sq does not follow',
    );
    expect(r.stderr).not.toContain('token=abc');
  });

  it('to POST /v1/runs: the outcome is unknown, said so', async () => {
    emu.expectWrites('POST /v1/runs');
    await emu.faults([
      { method: 'POST', path: '/v1/runs', action: 'status', status: 307, headers: { Location: '/v2/runs' }, body: {} },
    ]);
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris], { env: emu.env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('HTTP 307, a redirect');
    expect(r.stderr).toContain('may have started anyway');
  });
});

describe('records.ts: loose schemas of what sq relies on', () => {
  it('let unknown fields through and accept the documented variants', () => {
    expect(checks.run({ id: 'a', status: 'DONE', duration: '0:00:50.1', extra: { x: 1 } })).toBeNull();
    expect(checks.task({ hash_value: 't1', module: 3 })).toBeNull();
    expect(checks.task({ id: 't1', module: 'abc' })).toBeNull();
    expect(checks.user({ id: 7, email: 'a@b.c', is_active: true })).toBeNull();
    expect(checks.user({ first_name: 'A', email: 'a@b.c', plan: [] })).toBeNull();
    expect(checks.balance({ available: 100, consumed: 2.5, name: 'Free' })).toBeNull();
    expect(answerCheck(Page(Run), 'a page of runs')({ data: [{ id: 'r', status: 'done' }] })).toBeNull();
  });

  it('name the first field that is wrong', () => {
    expect(checks.run({ id: '', status: 'done' })).toBe('not a run: "id" is a string');
    expect(checks.run({ id: 'r' })).toBe('not a run: "status" is missing');
    expect(checks.balance({ available: '100', consumed: 0 })).toBe('not a balance: "available" is a string');
    expect(checks.squid([])).toBe('not a squid: it is a list');
    expect(answerCheck(Page(Run), 'a page of runs')({ data: [{ id: 'r' }] })).toBe(
      'not a page of runs: "data.0.status" is missing',
    );
  });

  it('the hand-written checks of sq me and sq balance (kept off zod for start-up) say what the User and Balance schemas say', () => {
    const samples: unknown[] = [
      { email: 'a@b.c' },
      { id: 1, email: 'x', is_active: true },
      { email: 3 },
      {},
      [],
      { email: null },
      { available: 1, consumed: 0 },
      { available: '1', consumed: 0 },
      { available: 1 },
      { consumed: 1, available: null },
    ];
    for (const d of samples) {
      expect(userProblem(d), JSON.stringify(d)).toBe(checks.user(d));
      expect(balanceProblem(d), JSON.stringify(d)).toBe(checks.balance(d));
    }
  });
});
