// The built binary against one test emulator, for the e2e files that compare whole outputs and exact requests.
import { sqBin, sqIn } from './cli.js';
import type { TestEmulator } from './emulator.js';

type BinResult = Awaited<ReturnType<typeof sqBin>>;

// execa strips the final newline; put it back so outputs compare byte for byte.
export const withNl = (r: BinResult): BinResult => ({ ...r, stdout: r.stdout ? `${r.stdout}\n` : '' });

/**
 * sq against one test emulator: `run` is sq in-process (sqIn, the same result as the binary's) for a file that checks
 * each verb's exact requests and output, the CLI's own logic, at a few ms a call instead of a process's ~0.13 s of
 * CPU; `'bin'` runs the built binary instead. `runAdvancing` is always the binary (its clock is the real one, moved
 * by the emulator's steps).
 */
export function against(emu: TestEmulator, how: 'in-process' | 'bin' = 'in-process') {
  return {
    run: async (...args: string[]) => withNl(await (how === 'bin' ? sqBin : sqIn)(args, { env: emu.env() })),
    /** The /v1 requests the emulator received, reduced to what a test asserts on. */
    calls: async () =>
      (await emu.requests()).map((r) => ({ method: r.method, path: r.path, query: r.query, body: r.body ?? null })),
    /** Runs sq while moving the emulator's virtual clock, for verbs that poll background work. */
    async runAdvancing(args: string[]) {
      let done = false;
      const p = sqBin(args, { env: emu.env() }).finally(() => (done = true));
      while (!done) {
        await new Promise((r) => setTimeout(r, 200));
        if (!done) await emu.advance(1000);
      }
      return withNl(await p);
    },
  };
}
