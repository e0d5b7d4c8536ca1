// Profiles written by several sq processes at once (issue 10, item 10): test/helpers/profiles-race.ts. Each process
// start is ~0.2 s of CPU: here 8 logins at once, then 12 switches, logouts and logins at once (4 × 3), every write
// racing the others; the full sweep (8 × 3 logins, 8 × 3 racing twice) runs in CI, test/system/profiles-concurrency.test.ts.
import { useEmulator } from '../helpers/emulator.js';
import { profileRaces } from '../helpers/profiles-race.js';

profileRaces(useEmulator({ each: 'clear' }), { workers: 8, rounds: 1, raceWorkers: 4, races: 1 });
