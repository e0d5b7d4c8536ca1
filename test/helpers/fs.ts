// Scratch files for tests: every test gets its own fresh directory under the OS temp dir.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty directory under the OS temp dir, its name starting with `prefix`. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes named files into a fresh temp dir and returns their paths. */
export function tempFiles(prefix: string): (name: string, text: string) => string {
  const dir = tempDir(prefix);
  return (name, text) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
}
