// AtomicFile owns one descriptor and closes it once. Its write stream was given the raw descriptor with autoClose off,
// but a stream's destroy() closes it anyway, and abort() then closed the same number again: when another file of
// the same process was opened in between and got that number (the MCP server runs many commands in one process; in
// test/commands/export-faults.test.ts five exports run side by side), the second close closed that other file,
// whose next write failed with EBADF ("cannot lock the export ...: EBADF", seen once in 300 seeds).
import { fstatSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile } from '../../src/lib/atomic-file.js';
import { tempDir } from '../helpers/fs.js';

describe('AtomicFile closes its descriptor once', () => {
  it('files opened while others abort stay open (300 aborts, each beside 16 opens)', async () => {
    const dir = tempDir('sq-atomic-');
    const lost: string[] = [];
    for (let i = 0; i < 300; i++) {
      const f = await AtomicFile.create(join(dir, `out-${i}.txt`));
      await f.write('some data\n');
      // The opens go to the thread pool beside abort()'s closes, as another command's files would.
      const opening = Array.from({ length: 16 }, (_, j) => open(join(dir, `other-${i}-${j}`), 'w'));
      await f.abort();
      const handles = await Promise.all(opening);
      for (const h of handles) {
        try {
          fstatSync(h.fd);
        } catch (err) {
          lost.push(`abort ${i}: ${(err as NodeJS.ErrnoException).code}`);
        }
        await h.close().catch(() => undefined);
      }
    }
    expect(lost).toEqual([]);
  });
});
