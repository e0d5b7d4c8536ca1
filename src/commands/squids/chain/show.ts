import { defineVerb } from '../../../cli/command.js';
import { getChain } from '../../../api/chains.js';
import { resolveSquid } from '../../../api/resolve.js';
import { CHAIN_COLUMNS, chainTitle } from './_shared/columns.js';

export default defineVerb({
  name: 'chain',
  summary: "Show where a squid's results go next: its chain (GET /v1/squids/{id}/chain)",
  description:
    'A chain feeds the results of each run of the squid that ends done into a second crawler: every result becomes ' +
    'a task of a target squid (created on the first such run), its fields renamed by the field map, and a run of the ' +
    'target starts (origin "chain"). One chain per squid; at most 3 squids in a row. `sq squids chain set` creates or ' +
    'changes it, `sq squids chain delete` removes it. A squid named "set" or "delete" is passed by id here. Without a ' +
    'chain: nothing on stdout (null with --json), exit 0.',
  args: ['<squid>'],
  examples: ['sq squids chain "Paris restaurants"', 'sq squids chain 3fa8 --json'],
  async run(ctx, [ref]) {
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const chain = await getChain(http, squid.id);
    if (!chain) {
      if (ctx.out.spec.json === 'document') await ctx.out.json(null);
      ctx.out.info(
        `Squid ${squid.name || squid.id} has no chain. Add one: sq squids chain set ${squid.id} --target-crawler <crawler> --field-map <field>=<param>`,
      );
      return;
    }
    await ctx.out.record(chain, { title: chainTitle(squid.name || squid.id, chain), columns: CHAIN_COLUMNS });
  },
});
