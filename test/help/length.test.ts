// Help leads with what a reader looks for: usage, the one-line summary and the flags come first, any longer prose after
// them, and the whole of `sq … --help` fits 60 lines when piped (80 columns). What needs more room goes to
// `sq help <topic>` or docs/. The commands come from the loaded tree, so a new verb is held to it too.
import { describe, expect, it } from 'vitest';
import { sq } from '../helpers/cli.js';
import { loadTree } from './tree.js';

const tree = await loadTree();
const MAX_LINES = 60;

describe('sq <command> --help, piped (80 columns)', () => {
  it(`sq --help: at most ${MAX_LINES} lines`, async () => {
    const r = await sq(['--help']);
    expect(r.stdout.replace(/\n+$/, '').split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  for (const t of tree) {
    const name = `sq ${t.words.join(' ')}`;
    it(`${name} --help: at most ${MAX_LINES} lines, usage and options before prose`, async () => {
      const r = await sq([...t.words, '--help']);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.replace(/\n+$/, '').split('\n');
      expect(lines.length, `${name} --help is ${lines.length} lines`).toBeLessThanOrEqual(MAX_LINES);
      expect(lines[0]).toMatch(/^Usage: sq /);
      const prose = t.cmd.description().split('\n\n').slice(1).join(' ').replace(/\s+/g, ' ').trim();
      const flags = lines.findIndex((l) => /^(Options|Commands):$/.test(l));
      expect(flags, `${name} --help shows no Options or Commands`).toBeGreaterThan(0);
      // Only the summary (a paragraph) sits between Usage and the first block of flags.
      expect(
        lines.slice(1, flags).filter((l) => l.trim() !== '').length,
        `${name}: prose before the flags`,
      ).toBeLessThanOrEqual(2);
      if (prose) {
        const at = r.stdout.replace(/\s+/g, ' ').indexOf(prose.slice(0, 40));
        expect(at, `${name}: the description is shown`).toBeGreaterThan(
          r.stdout.replace(/\s+/g, ' ').indexOf('Inherited flags'),
        );
      }
    });
  }
});
