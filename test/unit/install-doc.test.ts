// docs/install.md says how many packages `npm install -g lobstr-sq` fetches, and which: the count is sq itself and
// every package its dependencies reach in package-lock.json (peer and dev dependencies are not installed).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

it('docs/install.md names the packages an install fetches, and as many as the lock file gives', () => {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8'));
  const seen = new Set<string>();
  const queue = Object.keys(pkg.dependencies ?? {});
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {}));
  }
  const names = ['sq', ...[...seen].sort()];
  const doc = readFileSync(resolve(root, 'docs/install.md'), 'utf8');
  const m = /The install fetches (\w+) packages \(([^)]*)\)/.exec(doc);
  expect(m, 'docs/install.md: "The install fetches N packages (…)"').not.toBeNull();
  expect(m![1]).toBe(WORDS[names.length]);
  expect(m![2].split(/, | and /).sort()).toEqual(names.sort());
});
