// `sq completion <shell>`: render the whole command tree (every noun loaded) for one shell.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { modelFromProgram } from './model.js';
import { zshScript } from './zsh.js';

import type { Shell } from './model.js';
export type { Shell };

export function completionScript(program: Command, shell: Shell): string {
  const model = modelFromProgram(program);
  const render = { bash: bashScript, zsh: zshScript, fish: fishScript }[shell];
  return render(model);
}
