import { defineVerb } from '../../command.js';
import { httpUrlFlag, nonEmpty, requireFlag } from '../../validate/index.js';
import { deliveryPath, postDelivery } from '../../api/delivery.js';
import { printPlanned } from '../../io/dry-run.js';
import { UsageError } from '../../errors.js';
import { ACTIVE_OPTIONS, SQUID_OPTION, activeFlag, findSquid, showEcho } from './common.js';

export default defineVerb({
  name: 'sheet',
  summary: 'Export a squid\'s results to a Google Sheet (POST /v1/delivery)',
  description:
    'Configures Google Sheet delivery for one squid. The sheet must be shared "anyone with the link" with Editor ' +
    'rights; exports are capped at 100,000 rows. --overwrite (the default) replaces the sheet with the last run; ' +
    '--append adds each run\'s rows and removes duplicates. Active unless --inactive.',
  options: [
    SQUID_OPTION,
    { flags: '--url <url>', description: 'the Google Sheet URL' },
    { flags: '--append', description: 'append each run (deduplicated)' },
    { flags: '--overwrite', description: 'replace the sheet with the last run', defaultText: 'overwrite' },
    ...ACTIVE_OPTIONS,
  ],
  examples: [
    'sq delivery sheet --squid "Paris restaurants" --url https://docs.google.com/spreadsheets/d/abc123/edit',
    'sq delivery sheet --squid 3f2a --url https://docs.google.com/spreadsheets/d/abc123/edit --append',
  ],
  async run(ctx, _args, opts) {
    const squidRef = nonEmpty('--squid', requireFlag(opts, '--squid', 'the squid to configure (hash, prefix or name)'));
    if (opts.url === undefined) throw new UsageError('--url is required: the Google Sheet URL');
    const url = httpUrlFlag('--url', opts.url);
    if (opts.append && opts.overwrite) throw new UsageError('--append and --overwrite cannot be used together');
    const body = { google_sheet_fields: { url, append: !!opts.append, is_active: activeFlag(opts) } };
    const http = await ctx.http();
    const squid = await findSquid(http, squidRef);
    if (ctx.globals.dryRun) {
      printPlanned(ctx, [{ method: 'POST', path: deliveryPath(squid.id), body }]);
      return;
    }
    const res = await postDelivery(http, squid.id, body);
    await showEcho(ctx, res, `Google Sheet delivery of squid ${squid.name || squid.id}`);
    ctx.out.success(`Google Sheet delivery configured for squid ${squid.name || squid.id}`);
    ctx.out.info('The sheet must be shared "anyone with the link" with Editor rights; exports stop at 100,000 rows.');
  },
});
