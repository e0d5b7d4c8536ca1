// The test runner of npm test, test:e2e and test:system: vitest's own, with the request-log check of the test helper
// (test/helpers/write-check.ts) around each test's body: a write sq made during the body that the test did not
// expect fails the test, as gh's httpmock Verify does. Hooks are set-up: their writes are free.
import { VitestTestRunner } from 'vitest/runners';
import { getFn } from 'vitest/suite';
import { WriteCheck } from '../helpers/write-check.js';

type Test = Parameters<VitestTestRunner['onAfterTryTask']>[0];

export default class WriteCheckingRunner extends VitestTestRunner {
  async runTask(test: Test): Promise<void> {
    await WriteCheck.startTest();
    try {
      await getFn(test)();
    } catch (e) {
      WriteCheck.endTest();
      throw e;
    }
  }

  override async onAfterTryTask(test: Test): Promise<void> {
    super.onAfterTryTask(test);
    await WriteCheck.finishTest();
  }
}
