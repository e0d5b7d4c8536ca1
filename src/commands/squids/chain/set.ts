import { defineVerb } from '../../../cli/command.js';
import {
  createChain,
  getChain,
  parseFieldMap,
  sameFieldMap,
  updateChain,
  type ChainCreate,
  type ChainUpdate,
  unknownSources,
} from '../../../api/chains.js';
import { attributeRows, getCrawlerAttributes } from '../../../api/crawlers.js';
import { getSquid } from '../../../api/squids.js';
import { resolveCrawler, resolveSquid } from '../../../api/resolve.js';
import { UsageError } from '../../../errors.js';
import { nameFlag, nonEmpty, optionalInt } from '../../../validate/index.js';
import { CHAIN_COLUMNS, chainTitle } from './_shared/columns.js';
import { chainCost } from '../../../billing/spend.js';
import { guardChain, MAX_CREDITS_OPTION, spendPolicy } from '../../../billing/guard.js';

/**
 * Each source of the field map must be a result field of the source squid's crawler: a typo (`nope=url`) would make a
 * chain that starts runs with empty tasks.
 */
async function refuseUnknownSources(
  http: Parameters<typeof getSquid>[0],
  squid: Awaited<ReturnType<typeof resolveSquid>>,
  label: string,
  fieldMap: Record<string, string>,
): Promise<void> {
  const source =
    typeof squid.record.crawler === 'string' ? squid.record.crawler : (await getSquid(http, squid.id)).crawler;
  if (typeof source !== 'string' || !source) return;
  const fields = attributeRows(await getCrawlerAttributes(http, source)).flatMap((a) =>
    typeof a.name === 'string' ? [a.name] : [],
  );
  const unknown = unknownSources(fieldMap, fields);
  if (unknown.length) {
    throw new UsageError(
      `--field-map: the results of squid ${label} have no field ${unknown.map((f) => `"${f}"`).join(', ')} ` +
        `(its fields: ${fields.join(', ')}; see \`sq crawlers attributes ${source}\`); nothing was created`,
    );
  }
}

export default defineVerb({
  name: 'set',
  writes: true,
  summary: "Create or change a squid's chain (POST, or PATCH when it has one), then show it",
  description:
    'Without a chain, --target-crawler and --field-map are required and the chain is created (POST). With one, the ' +
    'target name, concurrency and autostart are changed (PATCH); the API cannot change the target crawler or the field ' +
    'map in place, so a different one is exit 2 (delete the chain, then set it again). --field-map SRC=DST is ' +
    'repeatable: the result field SRC of each done run becomes the task param DST of the target crawler. ' +
    "--no-autostart queues the tasks and creates the target's run paused.\n\n" +
    "Spending: the target squid's runs are charged too. Before anything is written, stderr says so, with the estimate " +
    "of the target's run (POST /v1/squid/estimate) once it has tasks, else its crawler's rate per row. With autostart " +
    'on, a target run estimated above the cap (--max-credits, SQ_MAX_CREDITS or `sq config set max-credits N`) is ' +
    'exit 9 with nothing written, and on a terminal one above `confirm-above` (default 100 credits) or that would set ' +
    'off an Auto Billing Reset asks y/N first (--yes skips it; --no-input without --yes is exit 2). A target that has ' +
    'no estimate yet (it is made on the first done run) cannot be held to a cap: a warning says so.',
  args: ['<squid>'],
  options: [
    {
      flags: '--target-crawler <crawler>',
      description: 'the crawler results go to: id, prefix, name or slug (required to create)',
      complete: 'crawler',
    },
    {
      flags: '--field-map <src=dst>',
      description: 'result field → task param of the target crawler, e.g. url=url (repeatable; required to create)',
      repeatable: true,
    },
    {
      flags: '--autostart',
      description: "start the target's run when results arrive",
      defaultText: 'on, when created',
    },
    { flags: '--no-autostart', description: "queue the tasks and leave the target's run paused" },
    {
      flags: '--target-name <name>',
      description: 'name of the target squid (at most 255 characters)',
      defaultText: '"<Crawler> (N) (chained)"',
    },
    { flags: '--target-concurrency <n>', description: 'concurrency of the target squid, 1-20', defaultText: '1' },
    MAX_CREDITS_OPTION,
  ],
  examples: [
    'sq squids chain set "Paris restaurants" --target-crawler google-maps-search-export --field-map ' +
      'category=category --field-map city=city --field-map country=country --target-name "Similar places"',
    'sq squids chain set "Paris restaurants" --target-concurrency 3 --no-autostart',
  ],
  async run(ctx, [ref], opts) {
    // Every flag is checked before any request.
    const fieldMap = opts.fieldMap === undefined ? undefined : parseFieldMap(opts.fieldMap);
    const crawlerRef = opts.targetCrawler === undefined ? undefined : nonEmpty('--target-crawler', opts.targetCrawler);
    const settings: ChainUpdate = {};
    if (opts.autostart !== undefined) settings.autostart = opts.autostart;
    if (opts.targetName !== undefined) settings.cluster_name = nameFlag('--target-name', opts.targetName);
    const concurrency = optionalInt('--target-concurrency', opts.targetConcurrency, 1, 20);
    if (concurrency !== undefined) settings.cluster_concurrency = concurrency;
    if (!fieldMap && !crawlerRef && Object.keys(settings).length === 0) {
      throw new UsageError(
        'nothing to set: pass --target-crawler and --field-map to create a chain, or --target-name, --target-concurrency, --[no-]autostart to change one',
      );
    }
    const policy = await spendPolicy(ctx, opts.maxCredits);

    const http = await ctx.http();
    const squid = await resolveSquid(http, ref);
    const label = squid.name || squid.id;
    const existing = await getChain(http, squid.id);
    let chain = existing;
    if (!existing) {
      if (!crawlerRef || !fieldMap) {
        throw new UsageError(
          `squid ${label} has no chain yet: creating one needs ` +
            [crawlerRef ? '' : '--target-crawler', fieldMap ? '' : '--field-map'].filter(Boolean).join(' and '),
        );
      }
      const crawler = await resolveCrawler(http, crawlerRef);
      await refuseUnknownSources(http, squid, label, fieldMap);
      const body: ChainCreate = { target_module_id: crawler.id, field_map: fieldMap, ...settings };
      // Money first: the target is made on the first done run, so its crawler's rate is what can be said.
      await guardChain(
        ctx,
        await chainCost(http, {
          autostart: settings.autostart,
          target_cluster: null,
          target_module: { id: crawler.id, name: crawler.name },
        }),
        policy,
        label,
      );
      chain = await createChain(http, squid.id, body);
      ctx.out.success(`Chained squid ${label} → ${crawler.name || crawler.id}`);
    } else {
      if (crawlerRef) {
        const crawler = await resolveCrawler(http, crawlerRef);
        if (crawler.id !== existing.target_module?.id) {
          throw new UsageError(
            `the chain of squid ${label} goes to ${existing.target_module?.name ?? existing.target_module?.id}, ` +
              `and the API cannot change its target crawler: ` +
              `sq squids chain delete ${squid.id}, then set it again`,
          );
        }
      }
      if (fieldMap && !sameFieldMap(fieldMap, existing.field_map ?? {})) {
        throw new UsageError(
          `the API cannot change the field map of a chain in place: sq squids chain delete ${squid.id}, then set it again`,
        );
      }
      if (Object.keys(settings).length) {
        await guardChain(
          ctx,
          await chainCost(http, {
            ...existing,
            ...(settings.autostart !== undefined ? { autostart: settings.autostart } : {}),
          }),
          policy,
          label,
        );
        chain = await updateChain(http, squid.id, settings);
        ctx.out.success(`Updated ${Object.keys(settings).join(', ')} of the chain of squid ${label}`);
      } else {
        ctx.out.info(`The chain of squid ${label} already has this target and field map: nothing to change`);
      }
    }
    await ctx.out.record(chain, { title: chainTitle(label, chain!), columns: CHAIN_COLUMNS });
  },
});
