// The four run events of the spec: the shared table (src/tables/run-events.ts), which the emulator reads too.
import { RUN_EVENTS, type RunEventName } from '../tables/run-events.js';

export { RUN_EVENTS, type RunEventName };
