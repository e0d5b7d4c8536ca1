// Timeouts for tests that start processes (the built binary, a server, jq's worker). On an idle 2-core machine
// such a test takes a few seconds; with other work on the same cores (a load average of 8 to 24, as on a shared CI
// runner) the same test took over 30 s, the default, and failed though nothing was wrong. These tests wait on
// events, never on a time: the timeout is only the bound after which a test that waits for something that will not
// come fails, so it is generous.

/** For the tests of a file or describe block that start child processes: `describe(name, SLOW, () => …)`. */
export const SLOW = { timeout: 180_000 } as const;
/** How long a test waits for one event of a child process (its first request, a line it prints, its exit). */
export const EVENT_MS = 90_000;
