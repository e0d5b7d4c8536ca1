// The README is the user's guide and links to docs/ for the detail, and docs/ links back to its sections: every
// relative link of README.md and docs/*.md (not the generated docs/commands/) names a file that exists and, with
// #anchor, a heading of that file (GitHub's rule: lower case, punctuation dropped, spaces to hyphens).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

it('every relative link of README.md and docs/*.md reaches a file and a heading', () => {
  const bad: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const file = join(root, page);
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const dest = path ? normalize(join(dirname(file), path)) : file;
      checked++;
      if (!existsSync(dest)) bad.push(`${page}: ${target}: no file ${relative(root, dest)}`);
      else if (anchor !== undefined && (!dest.endsWith('.md') || !anchors(dest).has(anchor)))
        bad.push(`${page}: ${target}: no heading #${anchor}`);
    }
  }
  expect(bad).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});

it('the slug rule is GitHub’s for the headings the links use', () => {
  expect(slug('--jq and --template (like gh)')).toBe('--jq-and---template-like-gh');
  expect(slug('AI agents: `sq mcp`')).toBe('ai-agents-sq-mcp');
  expect(slug('`sq go`: one-shot scraping')).toBe('sq-go-one-shot-scraping');
});
