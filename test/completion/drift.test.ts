// The checked-in completions/sq.{bash,zsh,fish} must be exactly what `sq completion <shell>` prints now.
// When this fails, a command, option or choice changed: regenerate them from the repo root with
//   npm run build && node test/completion/regen.mjs
// and commit completions/.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';

const dir = resolve(import.meta.dirname, '../../completions');

describe('checked-in completion scripts', () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it(`completions/sq.${shell} matches sq completion ${shell}`, async () => {
      const r = await sq(['completion', shell]);
      expect(r.code, r.stderr).toBe(0);
      const onDisk = readFileSync(resolve(dir, `sq.${shell}`), 'utf8');
      expect(
        onDisk === r.stdout,
        `completions/sq.${shell} is out of date with the command tree: run \`npm run build && node test/completion/regen.mjs\` and commit completions/`,
      ).toBe(true);
    });
  }

  it('rejects an unknown shell with a usage error', async () => {
    const r = await sq(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
    expect(r.stdout).toBe('');
  });
});
