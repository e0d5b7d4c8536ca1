// An empty list names its noun and the next step on a terminal (stderr, nothing on stdout); --json prints [] and
// says nothing; piped TSV is the header only (issue 22 item 9).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';

describe('an account with nothing in it', () => {
  const emu = useEmulator({ seed: 'empty' });
  it.each([
    [['squids', 'list'], 'No squids. Create one: sq squids create --crawler CRAWLER --name NAME'],
    [['squids', 'list', '--name', 'zurich'], 'No squid name contains "zurich". List them all: sq squids list'],
    [['runs', 'list'], 'No runs. Start one: sq runs start --squid SQUID'],
    [['accounts', 'list'], 'No accounts. Add one: sq accounts sync --type TYPE --cookies-file FILE'],
  ])('%j', async (args, line) => {
    const tty = await sq(args, { env: { ...emu.env(), NO_COLOR: '1' }, tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain(line);
    const json = await sq([...args, '--json'], { env: emu.env() });
    expect(json).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});

describe('a squid with no runs, tasks or results', () => {
  const emu = useEmulator();
  const lyon = DEMO_SQUIDS.lyon;
  it.each([
    [['runs', 'list', '--squid', lyon], `No runs of squid "${lyon}". Start one: sq runs start --squid '${lyon}'`],
    [['tasks', 'list', '--squid', lyon], `No tasks in squid "${lyon}". Add one: sq tasks add --squid '${lyon}' VALUE`],
    [
      ['results', 'list', '--squid', lyon],
      `No results in squid "${lyon}". Start a run: sq runs start --squid '${lyon}' --wait`,
    ],
  ])('%j', async (args, line) => {
    const tty = await sq(args, { env: { ...emu.env(), NO_COLOR: '1' }, tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain(line);
    const json = await sq([...args, '--json'], { env: emu.env() });
    expect(json).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('past the last page the hint says so, not that there are none', async () => {
    const r = await sq(['squids', 'list', '--page', '9', '--limit', '5'], {
      env: { ...emu.env(), NO_COLOR: '1' },
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Page 9 is past the end');
    expect(r.stderr).not.toContain('No squids');
  });

  it('profiles list with none stored', async () => {
    const r = await sq(['profiles', 'list'], { env: { NO_COLOR: '1' }, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No profiles. Store one: sq auth login (or set SQ_TOKEN)');
  });
});
