// sq go interrupted at each of the four phases by each of kill -9, SIGTERM and Ctrl-C, then run again after the run
// ended: all twelve pairs (test/helpers/go-rerun.ts), where npm test runs five of them (test/e2e/go-rerun.test.ts).
import { describe, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { interruptedGo, PHASES, SIGNALS } from '../helpers/go-rerun.js';
import { SLOW } from '../helpers/timeouts.js';

const emu = useEmulator({ each: 'reset' });

describe('sq go interrupted, then run again after the run ended: every phase x signal', SLOW, () => {
  for (const phase of PHASES)
    for (const [label, signal, code] of SIGNALS)
      it(`${label} in the ${phase} phase`, () => interruptedGo(emu, phase, signal, code));
});
