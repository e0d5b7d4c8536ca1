// Launches the service skips: a schedule that fires, or a chain that would start its target, on a squid the run-start
// rule refuses. Nothing starts and no one is answered, so the refusal is kept here (GET /_emulator/launches) with the
// words POST /v1/runs would have answered.
import type { EmuCore } from '../emu.js';
import type { Refusal, RefusedLaunch } from '../types.js';

/** The most kept: the oldest go first. */
const KEEP = 200;

export function refusedLaunches(emu: EmuCore): RefusedLaunch[] {
  emu.state.refusedLaunches ??= [];
  return emu.state.refusedLaunches;
}

export function recordRefusedLaunch(
  emu: EmuCore,
  squid: string,
  origin: RefusedLaunch['origin'],
  refusal: Refusal,
): void {
  const list = refusedLaunches(emu);
  list.push({ at: emu.nowIso(), squid, origin, code: refusal.code, message: refusal.message });
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
  emu.markDirty();
}
