import { defineVerb } from '../cli/command.js';
import { importPackage } from '../import-package.js';
import { exportAccount, SCHEMA_LINE } from '../account/export.js';

export default defineVerb({
  name: 'export',
  summary: 'Write the current account as a file for plan / apply',
  description:
    'Reads every squid (its settings, params, tasks and delivery channels) and the automatic billing reset, and ' +
    'prints them in the account file format on stdout: YAML, or JSON with --json. Secrets are never written: each ' +
    'becomes a reference such as ${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS}, to be set before an apply that sends that ' +
    'channel. A webhook URL is never written with its path or query in clear, whatever its host (a bot token, a short ' +
    'key, a query value): its host stays readable and the rest becomes one reference, e.g. ' +
    'https://hooks.slack.com/${SQ_WEBHOOK_PATH_PARIS_RESTAURANTS}, set to what follows the host ' +
    '(services/T0/B0/XXXX). Each token of a sheet URL (a secret query value such as ?token=, a password, a path segment ' +
    'that is a long random key) becomes a reference of its own. --show-secrets writes them as they are. Running ' +
    '`sq plan` on the exported file shows no change. Only GET requests are made.',
  examples: ['sq export > sq.yaml', 'sq export --json > sq.json', 'sq export > sq.yaml && sq plan -f sq.yaml'],
  async run(ctx) {
    const http = await ctx.http();
    // A webhook or sheet URL can carry its token in the query or the path: written as a ${…} reference, like every
    // secret, unless --show-secrets. The reference is what the user sets to restore it; plan leaves it uncompared
    // until then, and apply refuses to send the channel without it.
    const refs: string[] | null = ctx.globals.showSecrets ? null : [];
    const doc = await exportAccount(http, (w) => ctx.out.warn(w), refs);
    if (refs?.length) {
      ctx.out.warn(
        `${refs.length} URL token${refs.length === 1 ? ' is' : 's are'} written as ${refs.length === 1 ? 'a reference' : 'references'} (${refs.join(', ')}): ` +
          'set them to the tokens before an apply that sends those channels, or pass --show-secrets to write the tokens',
      );
    }
    if (ctx.out.spec.json === 'document') {
      await ctx.out.json(doc);
      return;
    }
    const { stringify } = await importPackage<typeof import('yaml')>('yaml');
    ctx.out.text(`${SCHEMA_LINE}\n${stringify(doc, { lineWidth: 0 })}`);
  },
});
