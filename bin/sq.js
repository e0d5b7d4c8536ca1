#!/usr/bin/env node
// Tiny launcher: `sq --version` answers without loading the CLI; everything else goes to run(argv).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // `sq … | head` closes the pipe early: that is not an error worth a stack trace.
  for (const s of [process.stdout, process.stderr]) s.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
  const { run } = await import('../dist/main.js');
  const code = await run(argv);
  // The command is finished: once stdout and stderr are flushed, leave at once rather than wait for library
  // timers and closing keep-alive sockets to wind down (~50 ms per call).
  await Promise.all(
    [process.stdout, process.stderr].map(
      (s) => new Promise((done) => (s.writableLength > 0 && !s.destroyed ? s.once('drain', done).once('error', done) : done())),
    ),
  );
  process.exit(code);
}
