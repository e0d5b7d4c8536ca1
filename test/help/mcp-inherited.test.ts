// `sq mcp` answers in JSON-RPC on stdout, which the output flags do not shape: its help lists none of them as
// inherited (issue 36), declared where the command tree is (commands/index.ts `output: 'text'`), not in mcp.ts.
import { expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';

it('sq mcp --help inherits the connection flags, not --json, --jq, --template, --fields or --format', async () => {
  const r = await sq(['mcp', '--help']);
  expect(r.code).toBe(0);
  const inherited = r.stdout.split(/^Inherited flags.*$/m)[1]!.split(/^\S/m)[0];
  for (const flag of ['--profile', '--base-url', '--verbose']) expect(inherited).toContain(flag);
  for (const flag of ['--json', '--jq', '--template', '--fields', '--format']) expect(inherited).not.toContain(flag);
  // a data verb still lists them
  const me = await sq(['me', '--help']);
  expect(me.stdout.split(/^Inherited flags.*$/m)[1]).toContain('--jq');
});
