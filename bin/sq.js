#!/usr/bin/env node
'use strict';
// Tiny launcher: `sq --version` answers without loading the CLI; everything else goes to run(argv) in dist/.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // A plain write(2): creating process.stdout would load Node's stream machinery for one line.
  const fs = require('node:fs');
  try {
    fs.writeSync(1, `${JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
  } catch (e) {
    if (e.code !== 'EPIPE') throw e;
  }
} else {
  // `sq … | head` closes the pipe early: that is not an error worth a stack trace.
  for (const s of [process.stdout, process.stderr]) s.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
  import('../dist/main.js').then(async ({ run }) => {
    const code = await run(argv);
    // The command is finished: once stdout and stderr are flushed, leave at once rather than wait for library
    // timers and closing keep-alive sockets to wind down (~50 ms per call).
    await Promise.all(
      [process.stdout, process.stderr].map(
        (s) => new Promise((done) => (s.writableLength > 0 && !s.destroyed ? s.once('drain', done).once('error', done) : done())),
      ),
    );
    process.exit(code);
  });
}
