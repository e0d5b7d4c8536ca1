import { createOutput, resolveOutputSettings, type OutputSettingsInput } from '../../src/output/index.js';
import type { Output } from '../../src/output/types.js';
import { capture } from '../helpers/stream.js';

export interface Captured {
  out: Output;
  stdout: () => string;
  stderr: () => string;
}

/** An Output over captured streams; settings go through the real resolver. Defaults: piped, no env. */
export function make(input: Partial<OutputSettingsInput> = {}, secrets?: string[]): Captured {
  const o = capture();
  const e = capture();
  const settings = resolveOutputSettings({ env: {}, stdoutIsTTY: false, stderrIsTTY: false, ...input });
  const out = createOutput({ stdout: o.stream, stderr: e.stream }, settings, { secrets });
  return { out, stdout: o.text, stderr: e.text };
}

export async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setImmediate(r));
    yield item;
  }
}
