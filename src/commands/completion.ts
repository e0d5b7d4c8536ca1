import { defineVerb } from '../cli/command.js';
import { enumFlag } from '../validate/index.js';
import { SHELLS } from '../completion/model.js';

export default defineVerb({
  name: 'completion',
  output: 'text',
  summary: 'Print the shell completion script for bash, zsh or fish',
  args: ['<shell>'],
  examples: [
    'sq completion bash > /etc/bash_completion.d/sq',
    'source <(sq completion bash)',
    'sq completion fish > ~/.config/fish/completions/sq.fish',
  ],
  async run(ctx, [shell], _opts, command) {
    const sh = enumFlag('<shell>', shell, SHELLS);
    const { completionScript } = await import('../completion/generate.js');
    // Made from commander's tree: src/shell/dispatch.ts always leaves `completion` to commander, which passes it.
    if (!command) throw new Error('sq completion runs only through the command tree');
    let root = command;
    while (root.parent) root = root.parent;
    ctx.out.text(completionScript(root, sh));
  },
});
