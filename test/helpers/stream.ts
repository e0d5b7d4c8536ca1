// Output streams for code under test that writes to a Writable (in-process sq, the emulator command, progress).
import { PassThrough } from 'node:stream';

/** A stream that keeps all that is written to it; `text()` is everything so far, decoded as UTF-8. */
export function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
