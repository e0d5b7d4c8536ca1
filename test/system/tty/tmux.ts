// A real terminal for prompt tests: a private tmux server (own socket), one session per terminal. A test file sets
// it up with useTmuxEmulator() (an emulator and terminals running sq against it) or useTmux() (terminals alone).
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach } from 'vitest';
import { BIN, tempConfigDir } from '../../helpers/cli.js';
import { type TestEmulator, type UseEmulatorOptions, useEmulator } from '../../helpers/emulator.js';
import { tempDir } from '../../helpers/fs.js';

export interface Term {
  screen(): Promise<string>;
  waitFor(re: RegExp, ms?: number): Promise<string>;
  keys(...keys: string[]): Promise<void>;
  /** Types text literally (no key-name interpretation). */
  type(text: string): Promise<void>;
  close(): Promise<void>;
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `node bin/sq.js <args>` in a fresh terminal; the pane prints "EXIT:<code>" when sq ends. */
export async function sqInTmux(
  args: string[],
  env: Record<string, string>,
  size: { width?: number; height?: number } = {},
): Promise<Term> {
  // The server's socket in a temp dir of the test file's own (removed with it): with -L the socket went under
  // /tmp/tmux-UID/, where kill-server left it behind (29 files a test:system run).
  const socket = join(tempDir('sq-tty-sock-'), 'tmux');
  const session = 'sq';
  // A code cache of its own, so the tests never write into the machine's ~/.cache.
  const cache = tempDir('sq-tty-cache-');
  const vars = Object.entries({
    NO_COLOR: '1',
    TERM: 'xterm-256color',
    SQ_CACHE_DIR: cache,
    SQ_NO_UPDATE_NOTIFIER: '1',
    ...env,
  }).map(([k, v]) => `${k}=${shq(v)}`);
  // CI / SQ_NO_INPUT would turn prompting off: these tests are about the prompt. Variables in `env` are set after
  // the -u removals, so a test that passes SQ_TOKEN still gets it.
  const cmd =
    `env -u CI -u SQ_NO_INPUT -u SQ_TOKEN -u SQ_PROFILE ${vars.join(' ')} ${shq(process.execPath)} ${shq(BIN)} ${args.map(shq).join(' ')}; ` +
    `echo "EXIT:$?"; sleep 120`;
  const tmux = (...a: string[]) => execa('tmux', ['-S', socket, ...a]);
  await tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(size.width ?? 120),
    '-y',
    String(size.height ?? 40),
    cmd,
  );
  const screen = async () => (await tmux('capture-pane', '-p', '-t', session)).stdout;
  return {
    screen,
    async waitFor(re, ms = 15_000) {
      const end = Date.now() + ms;
      let s = '';
      while (Date.now() < end) {
        s = await screen();
        if (re.test(s)) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`terminal never showed ${re}; screen:\n${s}`);
    },
    async keys(...keys) {
      await tmux('send-keys', '-t', session, ...keys);
    },
    async type(text) {
      await tmux('send-keys', '-t', session, '-l', text);
    },
    async close() {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}

export interface Tmux {
  /**
   * `sq <args>` in a fresh terminal (see sqInTmux), closed after the test; `env` adds to the helper's variables (a
   * variable set to undefined is left out).
   */
  open(
    args: string[],
    env?: Record<string, string | undefined>,
    size?: { width?: number; height?: number },
  ): Promise<Term>;
}

/** The terminals of a test file: each one a test opens is closed after the test. */
export function useTmux(base: () => Record<string, string> = () => ({})): Tmux {
  const open: Term[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  return {
    async open(args, env = {}, size = {}) {
      const all = Object.fromEntries(
        Object.entries({ ...base(), ...env }).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const term = await sqInTmux(args, all, size);
      open.push(term);
      return term;
    },
  };
}

/**
 * The usual set-up of a terminal test: one emulator for the file (useEmulator, with its request-log check) and
 * terminals running sq against it, each with a config dir of its own, closed after each test.
 */
export function useTmuxEmulator(opts: UseEmulatorOptions = {}): Tmux & { emu: TestEmulator } {
  const emu = useEmulator(opts);
  const tty = useTmux(() => ({ SQ_BASE_URL: emu.baseUrl, SQ_TOKEN: emu.token, SQ_CONFIG_DIR: tempConfigDir() }));
  return { emu, open: tty.open };
}
