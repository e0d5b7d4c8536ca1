// Prompts bound to the ctx's streams (so tests can drive them through a real terminal). Loaded on first use.
import { Writable } from 'node:stream';
import type { IO, Prompter } from './context.js';
import { UsageError } from '../errors.js';
import { importPackage } from '../import-package.js';

export function createPrompter(io: IO, canPrompt: () => boolean): Prompter {
  // Inquirer ends the output stream it is given when a prompt closes; stderr must outlive the prompt (errors and
  // hints are written after it), so each prompt gets its own stand-in that forwards writes (an ended one would
  // swallow the next prompt: auth login asks for the key, then whether to replace a corrupt profile file).
  const context = () => {
    const output = new Writable({
      write(chunk, _enc, done) {
        io.stderr.write(chunk, () => done());
      },
    });
    Object.assign(output, {
      isTTY: io.stderrIsTTY,
      columns: io.columns,
      rows: (io.stderr as { rows?: number }).rows ?? 24,
    });
    return { input: io.stdin as NodeJS.ReadableStream, output, clearPromptOnDone: false };
  };
  return {
    async confirm(message, { default: def = false, flag }) {
      if (!canPrompt())
        throw new UsageError(
          `confirmation needed and prompting is off (no terminal, --no-input, SQ_NO_INPUT or CI): pass ${flag}`,
        );
      const { confirm } = await importPackage<typeof import('@inquirer/prompts')>('@inquirer/prompts');
      return confirm({ message, default: def }, context() as never);
    },
    async password(message, { flag }) {
      if (!canPrompt())
        throw new UsageError(
          `input needed and prompting is off (no terminal, --no-input, SQ_NO_INPUT or CI): use ${flag}`,
        );
      const { password } = await importPackage<typeof import('@inquirer/prompts')>('@inquirer/prompts');
      return password({ message, mask: false }, context() as never);
    },
    async select(message, { choices, flag }) {
      if (!canPrompt())
        throw new UsageError(
          `a choice is needed and prompting is off (no terminal, --no-input, SQ_NO_INPUT or CI): pass ${flag}`,
        );
      const { select } = await importPackage<typeof import('@inquirer/prompts')>('@inquirer/prompts');
      return select({ message, choices, pageSize: Math.min(choices.length, 10) }, context() as never);
    },
  };
}
