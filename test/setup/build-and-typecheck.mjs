// `npm test`'s first step: `npm run build` (the e2e tests run the built bin/sq.js) and the type check of the tests
// (tsc -p tsconfig.test.json) side by side. Each is one single-threaded tsc, so on a machine with two cores this saves
// the shorter one's time (~10 s on 2 cores). Output of each is passed through; exits non-zero if either fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = (what, cmd, args) =>
  new Promise((done) =>
    spawn(cmd, args, { stdio: 'inherit', shell: false }).on('exit', (code, signal) => {
      if (code !== 0) console.error(`${what} failed (${signal ?? `exit ${code}`})`);
      done(code === 0);
    }),
  );
const npm = process.env.npm_execpath;
const results = await Promise.all([
  npm ? run('npm run build', process.execPath, [npm, 'run', 'build']) : run('npm run build', 'npm', ['run', 'build']),
  run('tsc -p tsconfig.test.json', process.execPath, [tsc, '-p', 'tsconfig.test.json']),
]);
process.exit(results.every(Boolean) ? 0 : 1);
