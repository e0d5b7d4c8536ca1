// The built binary: --jq loads jq-web from node_modules (it is not in the bundle), and its output and errors are
// exactly what a script reads.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { binAgainst } from '../helpers/bin.js';

const emu = useEmulator({ each: 'reset' });
const { run, calls } = binAgainst(emu);

describe('scripting (built binary)', () => {
  it('--jq prints raw strings, one per line, like gh', async () => {
    const names = (JSON.parse((await run('squids', 'list', '--json')).stdout) as { name: string }[]).map((s) => s.name);
    const r = await run('squids', 'list', '--jq', '.[].name');
    expect(r).toEqual({ code: 0, stdout: names.map((n) => `${n}\n`).join(''), stderr: '' });
  });

  it('a bad expression: exit 2, jq\'s message as the JSON error object, no request', async () => {
    const r = await run('squids', 'list', '--jq', '.[');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 2, status: null, message: '--jq: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1:\n.[', retry_after: null },
    });
    expect(await calls()).toEqual([]);
  });

  it('--jq after the verb or before the noun, and --template', async () => {
    expect((await run('--jq', 'length', 'squids', 'list')).stdout).toBe((await run('squids', 'list', '--jq', 'length')).stdout);
    const r = await run('me', '--template', '{{.first_name}} <{{.email}}>{{"\\n"}}');
    expect(r).toEqual({ code: 0, stdout: 'Ada <demo@sq-emulator.local>\n', stderr: '' });
  });

  it('sq api -i --jq', async () => {
    const r = await run('api', '-i', 'me', '--jq', '.email');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(?:[A-Z][\w-]*: .*\n)+\ndemo@sq-emulator\.local\n$/);
  });
});
