// The man pages that `sq help --man` prints, rendered by the real man (Debian's man-db, npm run test:system): no
// troff warning. What the pages hold is checked without man in test/help/docs.test.ts.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';

describe('sq help --man', () => {
  it('renders through man without a troff warning', async () => {
    for (const topic of [[], ['delivery', 'apply'], ['runs', 'stats']]) {
      const page = (await sq(['help', '--man', ...topic])).stdout;
      const r = await execa('man', ['--warnings', '-l', '-'], {
        input: page,
        env: { MANWIDTH: '80', MAN_KEEP_FORMATTING: '', PATH: process.env.PATH },
        extendEnv: false,
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^NAME\n\s+sq/m);
      expect(r.stdout).toContain(topic.length ? `sq ${topic.join(' ')}` : 'EXIT STATUS');
    }
  });
});
