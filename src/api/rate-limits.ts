// The platform's documented rate limits: the shared table (src/tables/rate-limits.ts), which the emulator reads too.
export { RATE_LIMITS } from '../tables/rate-limits.js';
