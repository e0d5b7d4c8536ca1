// Profiles written by several sq processes at once (issue 10, item 10): test/helpers/profiles-race.ts. Each process
// start is ~0.2 s of CPU: here 8 logins, 4 switches and 4 logouts all at once, every write racing the others (16
// processes; two tests of 8 logins, then 12 switches, logouts and logins, started 20); the full sweep (8 × 3 logins,
// 8 × 3 racing twice) runs in CI, test/system/profiles-concurrency.test.ts.
import { useEmulator } from '../helpers/emulator.js';
import { profileRaces } from '../helpers/profiles-race.js';

profileRaces(useEmulator({ each: 'clear' }), { workers: 8, rounds: 1, raceWorkers: 4, races: 1, together: true });
