import { readFile } from 'node:fs/promises';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';

/** Read a whole stream (stdin) as UTF-8 text. */
export async function readAllStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer | string>) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * At most `max` bytes of a stream as UTF-8 text, or null when it holds more. Stops reading there, so an endless
 * producer (`yes | sq …`) cannot fill memory.
 */
export async function readStdinUpTo(stream: NodeJS.ReadableStream, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream as AsyncIterable<Buffer | string>) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c);
    size += b.length;
    if (size > max) return null;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of a file flag's value, or stdin for "-"; a file that cannot be read is a UsageError naming the flag. */
export async function readInput(ctx: Pick<Ctx, 'io'>, flag: string, file: string): Promise<string> {
  if (file === '-') return readAllStdin(ctx.io.stdin);
  return readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`${flag}: cannot read "${file}" (${err.code ?? err.message})`);
  });
}
