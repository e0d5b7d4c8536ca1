// What npm test adds to vitest, shown on nested runs of the fixtures in test/fixtures/harness/ (one worker, files
// one after the other, not isolated, as npm test runs them): with the harness, and plain (SQ_HARNESS_PLAIN=1) to
// show that it is the harness that makes each check fail.
//  - env: a variable one test file sets, changes or removes is put back before the next file (test/setup/env.ts);
//  - writes: a write sq made that the test did not expect fails it, as gh's httpmock Verify does
//    (test/setup/runner.ts, test/helpers/write-check.ts).
import { resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

interface Outcome {
  status: string;
  failure: string;
}

async function nestedRun(plain: boolean): Promise<Record<string, Outcome>> {
  const r = await execa(process.execPath, [resolve(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/fixtures/harness/vitest.config.ts', '--reporter=json'], {
    cwd: root,
    env: { SQ_LEAK_PROBE_KEEP: 'kept', SQ_LEAK_PROBE_SET: 'original', SQ_HARNESS_PLAIN: plain ? '1' : '' },
    reject: false,
  });
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
  const out: Record<string, Outcome> = {};
  for (const file of report.testResults)
    for (const t of file.assertionResults) out[`${file.name.split('/').pop()}: ${t.title}`] = { status: t.status, failure: t.failureMessages.join('\n') };
  return out;
}

let harness: Record<string, Outcome>;
let plain: Record<string, Outcome>;
beforeAll(async () => {
  [harness, plain] = await Promise.all([nestedRun(false), nestedRun(true)]);
}, 60_000);

const statuses = (run: Record<string, Outcome>, prefix: string) =>
  Object.fromEntries(Object.entries(run).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v.status]));

it('env: a variable set, changed or removed by one test file is put back before the next', () => {
  const leaks = Object.entries(harness).filter(([k]) => k.startsWith('leak-'));
  expect(leaks.map(([, v]) => v.status)).toEqual(['passed', 'passed']);
  // Without the hook, the file that runs second finds what the first left.
  const plainLeaks = Object.entries(plain).filter(([k]) => k.startsWith('leak-'));
  expect(plainLeaks.map(([, v]) => v.status).sort()).toEqual(['failed', 'passed']);
  expect(plainLeaks.find(([, v]) => v.status === 'failed')![1].failure).toContain('leaked');
});

it('writes: an unexpected write, or a declared write never made, fails the test; declared, seen and own writes pass', () => {
  const p = 'writes.fixture.ts: ';
  expect(statuses(harness, p)).toEqual({
    'unexpected: a write nobody declared': 'failed',
    'declared: the same write, expected': 'passed',
    'seen: the same write, then the log asserted on': 'passed',
    'never made: a declared write sq did not make': 'failed',
    "free: the test's own write, and reads": 'passed',
  });
  expect(harness[`${p}unexpected: a write nobody declared`].failure).toMatch(/sq made 1 write\(s\) this test did not expect: POST \/v1\/squids \(200\)/);
  expect(harness[`${p}never made: a declared write sq did not make`].failure).toMatch(/expected write\(s\) sq never made: DELETE \/v1\/squids\/\*/);
  // Plain vitest lets every one of them pass: the failures above are the check's.
  expect(new Set(Object.values(statuses(plain, p)))).toEqual(new Set(['passed']));
});
