// What npm test adds to vitest, shown on a nested run of the fixtures in test/fixtures/harness/ (one worker, files
// one after the other, not isolated, as npm test runs them):
//  - env: a variable one test file sets, changes or removes is put back before the next file (test/setup/env.ts);
//  - writes: a write sq made that the test did not expect fails it, as gh's httpmock Verify does
//    (test/setup/runner.ts, test/helpers/write-check.ts); plain vitest would pass every one of those tests.
import { resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

interface Outcome {
  file: string;
  title: string;
  status: string;
  failure: string;
}

let outcomes: Outcome[];
beforeAll(async () => {
  const r = await execa(
    process.execPath,
    [
      resolve(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'test/fixtures/harness/vitest.config.ts',
      '--reporter=json',
    ],
    {
      cwd: root,
      env: { SQ_LEAK_PROBE_KEEP: 'kept', SQ_LEAK_PROBE_SET: 'original' },
      reject: false,
    },
  );
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
  outcomes = report.testResults.flatMap(
    (f: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }) =>
      f.assertionResults.map((t) => ({
        file: f.name.split('/').pop(),
        title: t.title,
        status: t.status,
        failure: t.failureMessages.join('\n'),
      })),
  );
}, 60_000);

it('env: a variable set, changed or removed by one test file is put back before the next', () => {
  const leaks = outcomes.filter((o) => o.file.startsWith('leak-'));
  expect(leaks.map((o) => [o.status, o.failure])).toEqual([
    ['passed', ''],
    ['passed', ''],
  ]);
  // The two ran in one process, one after the other: without the hook the second would find what the first left.
  const runs = leaks.map((o) => /\(process (\d+), file (\d+)\)/.exec(o.title)!.slice(1));
  expect(runs[0][0]).toBe(runs[1][0]);
  expect(runs.map((r) => r[1]).sort()).toEqual(['1', '2']);
});

it('writes: an unexpected write, or a declared write never made, fails the test; declared, seen and own writes pass', () => {
  const writes = Object.fromEntries(outcomes.filter((o) => o.file === 'writes.fixture.ts').map((o) => [o.title, o]));
  expect(Object.fromEntries(Object.entries(writes).map(([k, o]) => [k, o.status]))).toEqual({
    'unexpected: a write nobody declared': 'failed',
    'declared: the same write, expected': 'passed',
    'seen: the same write, then the log asserted on': 'passed',
    'never made: a declared write sq did not make': 'failed',
    "free: the test's own write, and reads": 'passed',
  });
  // Failed by the check, and by nothing else (each test's own assertions pass).
  expect(writes['unexpected: a write nobody declared'].failure).toMatch(
    /^Error: sq made 1 write\(s\) this test did not expect: POST \/v1\/squids \(200\)\./,
  );
  expect(writes['never made: a declared write sq did not make'].failure).toMatch(
    /^Error: expected write\(s\) sq never made: DELETE \/v1\/squids\/\*\n/,
  );
});
