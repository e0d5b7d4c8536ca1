import { defineVerb } from '../command.js';
import { UsageError } from '../errors.js';

export default defineVerb({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  args: ['<shell>'],
  examples: ['sq completion bash > /etc/bash_completion.d/sq', 'source <(sq completion bash)', 'sq completion fish > ~/.config/fish/completions/sq.fish'],
  async run(ctx, [shell]) {
    if (!['bash', 'zsh', 'fish'].includes(shell)) throw new UsageError(`<shell> must be one of bash, zsh, fish (got "${shell}")`);
    const { completionScript } = await import('../completion/generate.js');
    ctx.out.text(await completionScript(ctx, shell as 'bash' | 'zsh' | 'fish'));
  },
});
