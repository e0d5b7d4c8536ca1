import { defineVerb } from '../../cli/command.js';
import { exclusive, httpUrlFlag, required } from '../../validate/index.js';
import { ACTIVE_OPTIONS, SQUID_OPTION, activeFlag, configureDelivery, squidToConfigure } from './_shared/common.js';

export default defineVerb({
  name: 'sheet',
  writes: true,
  summary: "Export a squid's results to a Google Sheet (POST /v1/delivery)",
  description:
    'Configures Google Sheet delivery for one squid. The sheet must be shared "anyone with the link" with Editor ' +
    'rights; exports are capped at 100,000 rows. --overwrite (the default) replaces the sheet with the last run; ' +
    "--append adds each run's rows and removes duplicates. Active unless --inactive.",
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
    const squidRef = squidToConfigure(opts);
    const url = httpUrlFlag('--url', required('--url', opts.url, 'the Google Sheet URL'));
    exclusive(opts, [['--append', '--overwrite']]);
    const body = { google_sheet_fields: { url, append: !!opts.append, is_active: activeFlag(opts) } };
    await configureDelivery(ctx, {
      squidRef,
      body,
      channel: 'Google Sheet',
      success: (squid) => `Google Sheet delivery configured for squid ${squid}`,
      hint: 'The sheet must be shared "anyone with the link" with Editor rights; exports stop at 100,000 rows.',
    });
  },
});
