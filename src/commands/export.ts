import { defineVerb } from '../command.js';
import { importPackage } from '../import-package.js';
import { exportAccount, SCHEMA_LINE } from '../account/export.js';

export default defineVerb({
  name: 'export',
  summary: 'Write the current account as an account file for `sq plan` / `sq apply` (secrets as ${…} placeholders)',
  description:
    'Reads every squid (its settings, params, tasks and delivery channels) and the automatic billing reset, and ' +
    'prints them in the account file format on stdout: YAML, or JSON with --json. Secrets are never written: each ' +
    'becomes a reference such as ${SQ_SFTP_PASSWORD_PARIS_RESTAURANTS}, to be set before an apply that sends that ' +
    'channel. Running `sq plan` on the exported file shows no change. Only GET requests are made.',
  examples: ['sq export > sq.yaml', 'sq export --json > sq.json', 'sq export > sq.yaml && sq plan -f sq.yaml'],
  async run(ctx) {
    const http = await ctx.http();
    const doc = await exportAccount(http);
    if (ctx.outputSettings().format === 'json') {
      ctx.out.json(doc);
      return;
    }
    const { stringify } = await importPackage<typeof import('yaml')>('yaml');
    ctx.out.text(`${SCHEMA_LINE}\n${stringify(doc, { lineWidth: 0 })}`);
  },
});
