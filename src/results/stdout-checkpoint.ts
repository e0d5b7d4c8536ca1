// --resume --checkpoint into stdout: the file stdout writes to must hold exactly what the checkpoint counts.
import type { Ctx } from '../cli/context.js';
import { FORMAT_SPECS, type Format } from '../output/types.js';
import { UsageError } from '../errors.js';
import { count } from '../io/progress.js';
import { savedPagesProblem, type Checkpoint } from '../io/checkpoint.js';
import { open } from 'node:fs/promises';
import { constants, fstatSync, readlinkSync } from 'node:fs';

/**
 * Before --resume appends to the file stdout writes to (a terminal or pipe cannot be checked): it must hold exactly
 * the checkpoint's bytes, whole records and no NUL, so the rest lines up with it. An empty file (`> OUT` where `>>`
 * was meant) would get only the rest: refused unless --force, which warns.
 */
export async function checkStdoutFile(ctx: Ctx, ck: Checkpoint, checkpoint: string, force: boolean): Promise<void> {
  const st = stdoutFile(ctx);
  if (!st?.isFile()) return;
  const fd = (ctx.io.stdout as unknown as { fd: number }).fd;
  const name = stdoutName(fd);
  const { size } = st;
  if (size === 0) {
    const rest = `pages ${count(ck.pages + 1)} on${FORMAT_SPECS[ck.format as Format].line ? ', without the header' : ''}`;
    if (force) {
      ctx.out.warn(
        `--force: stdout (${name}) is an empty file: it gets only ${rest}, not the first ${count(ck.bytes)} bytes the checkpoint "${checkpoint}" counts`,
      );
      return;
    }
    throw new UsageError(
      `cannot resume into an empty file: stdout (${name}) would get only ${rest}, while the checkpoint "${checkpoint}" counts ` +
        `${count(ck.bytes)} bytes before them. Append to the file that holds them with >> (… --resume >> OUT, not > OUT), ` +
        `or add --force to write only the rest here`,
    );
  }
  if (size < ck.bytes) {
    throw new UsageError(
      `cannot resume: stdout (${name}) has ${size} bytes, fewer than the ${ck.bytes} the checkpoint "${checkpoint}" counts: ` +
        `the saved output lost data (a pipe's reader may have dropped the last page(s)) and cannot be continued; start over`,
    );
  }
  if (size > ck.bytes) {
    // Appending to a saved output that was not cut back to the checkpoint would leave half a page inside it.
    throw new UsageError(
      `cannot resume: stdout (${name}) is a file of ${size} bytes, but the checkpoint "${checkpoint}" counts ${ck.bytes}: ` +
        `cut it back to ${ck.bytes} bytes first (truncate -s ${ck.bytes} OUT), then append with >> OUT`,
    );
  }
  const fh = await openToRead(fd, st);
  if (!fh) return;
  const problem = await savedPagesProblem(fh, ck).finally(() => fh.close());
  if (problem)
    throw new UsageError(
      `cannot resume: stdout (${name}) ${problem}; the checkpoint "${checkpoint}" does not describe it`,
    );
}

/** What stdout is, when it is a file descriptor (a test's stream is not): fstat of it, or null. */
export function stdoutFile(ctx: Ctx): ReturnType<typeof fstatSync> | null {
  const fd = (ctx.io.stdout as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return null;
  try {
    return fstatSync(fd);
  } catch {
    return null;
  }
}

/** The path of the file behind `fd`, for messages; "a file" when the system does not say. */
function stdoutName(fd: number): string {
  try {
    return `"${readlinkSync(`/proc/self/fd/${fd}`)}"`;
  } catch {
    return 'a file';
  }
}

/** The same file as `fd` (opened write-only by the shell's >>), opened again to be read; null where that is not possible. */
async function openToRead(fd: number, st: ReturnType<typeof fstatSync>) {
  const fh = await open(`/proc/self/fd/${fd}`, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (!fh) return null;
  const again = await fh.stat().catch(() => null);
  if (again && again.dev === st.dev && again.ino === st.ino) return fh;
  await fh.close();
  return null;
}
