// `npm run demo` builds once (issue 22 item 9): its script runs `npm run build` a single time, no pre/post hook or
// install hook builds again, and the tour it starts runs the built bin/sq.js without building or calling npm.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The build steps `npm run NAME` runs, following `npm run X` into other scripts and their pre/post hooks. */
function builds(name: string, seen: string[] = []): number {
  if (seen.includes(name)) throw new Error(`script loop: ${[...seen, name].join(' -> ')}`);
  let n = 0;
  for (const hook of [`pre${name}`, name, `post${name}`]) {
    const body = scripts[hook];
    if (body === undefined) continue;
    if (/\btsc\b|esbuild\.config/.test(body)) n++;
    for (const m of body.matchAll(/npm run ([\w:-]+)/g)) n += builds(m[1], [...seen, name]);
  }
  return n;
}

it('npm run demo builds exactly once, and npm install builds nothing before it', () => {
  expect(builds('demo')).toBe(1);
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[hook], hook).toBeUndefined();
  const tour = readFileSync(resolve(root, 'test/demo/tour.mjs'), 'utf8');
  // It starts node on bin/sq.js only: no npm, npx or tsc child, no esbuild.
  expect(tour).not.toMatch(/(spawn|exec\w*)\(\s*['"`](npm|npx|tsc)|esbuild/);
  expect(tour).toMatch(/spawn\(process\.execPath, \[BIN/);
});
