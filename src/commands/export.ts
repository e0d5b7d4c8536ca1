import { defineVerb } from '../command.js';
import { importPackage } from '../import-package.js';
import { exportAccount, SCHEMA_LINE } from '../account/export.js';
import { MASK, maskSecrets } from '../output/secrets.js';

export default defineVerb({
  name: 'export',
  summary: 'Write the current account as an account file for `sq plan` / `sq apply` (secrets as ${…} placeholders)',
  description:
    'Reads every squid (its settings, params, tasks and delivery channels) and the automatic billing reset, and ' +
    'prints them in the account file format on stdout: YAML, or JSON with --json. Secrets are never written: each ' +
    'becomes a reference such as ${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS}, to be set before an apply that sends that ' +
    'channel. A token in a webhook or sheet URL\'s query is masked (plan and apply refuse such a URL) unless ' +
    '--show-secrets. Running `sq plan` on the exported file shows no change. Only GET requests are made.',
  examples: ['sq export > sq.yaml', 'sq export --json > sq.json', 'sq export > sq.yaml && sq plan -f sq.yaml'],
  async run(ctx) {
    const http = await ctx.http();
    const doc = await exportAccount(http, (w) => ctx.out.warn(w));
    // A webhook or sheet URL can carry its token in the query: masked like everywhere else, unless --show-secrets. An
    // apply of a masked URL is refused, so the file can never send the mask in place of the token.
    let masked = 0;
    for (const squid of Object.values((doc.squids ?? {}) as Record<string, Record<string, { url?: unknown }>>)) {
      for (const ch of [squid.webhook, squid.sheet]) {
        if (typeof ch?.url !== 'string') continue;
        const shown = maskSecrets(ch.url, ctx.globals.showSecrets);
        if (shown !== ch.url) (ch.url = shown), masked++;
      }
    }
    if (masked) ctx.out.warn(`${masked} URL token${masked === 1 ? ' is' : 's are'} masked (${MASK}): pass --show-secrets to write them, or put them back as \${VAR} references before an apply`);
    if (ctx.outputSettings().format === 'json') {
      await ctx.out.json(doc);
      return;
    }
    const { stringify } = await importPackage<typeof import('yaml')>('yaml');
    ctx.out.text(`${SCHEMA_LINE}\n${stringify(doc, { lineWidth: 0 })}`);
  },
});
