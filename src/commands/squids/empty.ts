import { defineVerb } from '../../cli/command.js';
import { resolveSquid } from '../../api/resolve.js';
import { enumFlag, required } from '../../validate/index.js';
import { confirmOrCancel, preflightConfirm } from '../../cli/confirm.js';
import { squidLabel } from './_shared/label.js';
import { emptySquid } from '../../api/squids.js';
import { counted } from '../../output/plural.js';

const TYPES = ['url', 'params'] as const;

export default defineVerb({
  name: 'empty',
  writes: true,
  summary: 'Delete every task of one type from a squid (POST /v1/squids/{id}/empty; irreversible)',
  description:
    'Asks for confirmation on a terminal; scripts pass --yes. --type url removes URL tasks, --type params parameter tasks. ' +
    "The results finished runs collected from them stay, as those runs' results; results of a run still in progress go with the tasks.",
  args: ['<squid>'],
  options: [{ flags: '--type <type>', description: 'which tasks to delete (required)', choices: TYPES }],
  examples: ['sq squids empty "Paris restaurants" --type url', 'sq squids empty 3fa8 --type params --yes'],
  async run(ctx, [ref], opts) {
    const type = enumFlag('--type', required('--type', opts.type, 'url or params'), TYPES);
    await preflightConfirm(ctx);
    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    await confirmOrCancel(
      ctx,
      async () =>
        `Delete every ${type} task of squid ${await squidLabel(ctx, http, squid)}? Results of finished runs stay. This cannot be undone.`,
    );
    const res = await emptySquid(http, squid.id, type);
    ctx.out.success(
      `Emptied squid ${squid.name || squid.id}: ${counted(Number(res?.deleted_count ?? 0), `${type} task`)} deleted`,
    );
    await ctx.out.record(res, { title: 'Squid emptied' });
  },
});
