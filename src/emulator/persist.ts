// --state FILE: the whole state (and the virtual clock's time) written atomically (src/lib/atomic-file.ts:
// temp file in the same directory, fsync, rename) after changes (debounced) and at close.
import { readFile } from 'node:fs/promises';
import { AtomicFile } from '../lib/atomic-file.js';
import type { EmuState } from './types.js';

export interface Snapshot {
  version: 1;
  saved_at: string;
  clock_now: number;
  state: EmuState;
}

export async function loadSnapshot(file: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`state file ${file} is not valid JSON; move it away or pass another --state file`);
  }
  const snap = parsed as Partial<Snapshot>;
  if (snap.version !== 1 || typeof snap.state !== 'object' || snap.state === null)
    throw new Error(`state file ${file} is not an sq emulator state (version 1)`);
  return snap as Snapshot;
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const f = await AtomicFile.create(file);
  try {
    await f.write(text);
    await f.commit();
  } finally {
    // Removes the temp file after a failed write; does nothing once committed.
    await f.abort();
  }
}

/** Debounced writer: many changes in a burst become one write; writes never overlap. */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  lastError: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Snapshot,
    private readonly delayMs = 200,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      try {
        await writeAtomic(this.file, JSON.stringify(this.snapshot()));
        this.lastError = undefined;
      } catch (e) {
        this.lastError = e as Error;
      }
    });
    return this.writing;
  }
}
