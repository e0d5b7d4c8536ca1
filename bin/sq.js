#!/usr/bin/env node
import { run } from '../dist/main.js';

// `sq … | head` closes the pipe early: that is not an error worth a stack trace.
for (const s of [process.stdout, process.stderr]) s.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
process.exitCode = await run(process.argv.slice(2));
