// The full sweep of test/e2e/profiles-concurrency.test.ts (npm run test:system): 8 processes logging in 3 times each,
// then 8 × 3 switches, logouts and logins racing, twice (test/helpers/profiles-race.ts).
import { useEmulator } from '../helpers/emulator.js';
import { profileRaces } from '../helpers/profiles-race.js';

profileRaces(useEmulator({ each: 'clear' }), { workers: 8, rounds: 3, raceWorkers: 8, races: 2 });
