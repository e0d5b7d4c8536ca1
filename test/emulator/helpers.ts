// Kept for the tests that import from here: the one emulator helper is test/helpers/emulator.ts.
export { BARE_SQUID, finishRun, jsonCall, type Reply, startBareEmulator, startTestEmulator, type TestEmu } from '../helpers/emulator.js';
