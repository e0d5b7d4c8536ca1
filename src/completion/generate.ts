// `sq completion <shell>`: build the whole command tree (every noun loaded) and render it for one shell.
import type { Ctx } from '../context.js';
import { buildProgram } from '../program.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { modelFromProgram } from './model.js';
import { zshScript } from './zsh.js';

import type { Shell } from './model.js';
export type { Shell };

export async function completionScript(ctx: Ctx, shell: Shell): Promise<string> {
  const program = await buildProgram(ctx, [], { loadAll: true });
  const model = modelFromProgram(program);
  const render = { bash: bashScript, zsh: zshScript, fish: fishScript }[shell];
  return render(model);
}
