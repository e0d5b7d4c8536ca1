import type { Ctx } from '../context.js';

// Placeholder until the generator lands: completion is built from the full command tree.
export async function completionScript(_ctx: Ctx, _shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  throw new Error('completion generator not built yet');
}
