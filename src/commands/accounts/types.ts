import { defineVerb } from '../../cli/command.js';
import { items } from '../../api/pages.js';
import { ACCOUNT_TYPE_PATHS as PATHS } from '../../api/accounts.js';
import { NotFoundError } from '../../errors.js';
import { TYPE_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'types',
  summary: 'List the account types (sites) that can be synchronized, with their cookies (GET /v1/accounts/types)',
  description:
    'Use a NAME with `sq accounts sync --type`. Cookies marked * are required; an empty list means every session cookie.',
  examples: ['sq accounts types', 'sq accounts types --fields name,domain'],
  async run(ctx) {
    const http = await ctx.http();
    for (const [i, path] of PATHS.entries()) {
      let delivered = false;
      async function* records() {
        for await (const t of items<Record<string, unknown>>(http, path, { onWarning: (w) => ctx.out.warn(w) })) {
          delivered = true;
          yield t;
        }
      }
      try {
        // Cookie names here are not secrets (values never appear in a type), so they are shown.
        await ctx.out.list(records(), { columns: TYPE_COLUMNS, maskSecrets: false });
        return;
      } catch (err) {
        if (!(err instanceof NotFoundError) || delivered || i === PATHS.length - 1) throw err;
      }
    }
  },
});
