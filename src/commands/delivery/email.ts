import { defineVerb } from '../../command.js';
import { nonEmpty, requireFlag } from '../../validate/index.js';
import { deliveryPath, postDelivery } from '../../api/delivery.js';
import { printPlanned } from '../../io/dry-run.js';
import { UsageError } from '../../errors.js';
import { SQUID_OPTION, findSquid, showEcho } from './common.js';

export function emailFlag(flag: string, value: unknown): string {
  const s = nonEmpty(flag, value).trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) throw new UsageError(`${flag} must be an e-mail address like ops@example.com (got ${JSON.stringify(value)})`);
  return s;
}

export default defineVerb({
  name: 'email',
  summary: 'E-mail a notice when a squid\'s runs complete (POST /v1/delivery)',
  description:
    'Sets the address that receives the run-completion e-mails of one squid. Notifications are on unless ' +
    '--no-notifications (which keeps the address but stops the e-mails).',
  options: [
    SQUID_OPTION,
    { flags: '--email <address>', description: 'recipient address' },
    { flags: '--notifications', description: 'send an e-mail when a run completes', defaultText: 'on' },
    { flags: '--no-notifications', description: 'keep the address, send no e-mails' },
  ],
  examples: [
    'sq delivery email --squid "Paris restaurants" --email ops@example.com',
    'sq delivery email --squid 3f2a --email ops@example.com --no-notifications',
  ],
  async run(ctx, _args, opts) {
    const squidRef = nonEmpty('--squid', requireFlag(opts, '--squid', 'the squid to configure (hash, prefix or name)'));
    if (opts.email === undefined) throw new UsageError('--email is required: the address that receives the e-mails');
    const email = emailFlag('--email', opts.email);
    const body = { email, notifications: opts.notifications !== false };
    const http = await ctx.http();
    const squid = await findSquid(http, squidRef);
    if (ctx.globals.dryRun) {
      printPlanned(ctx, [{ method: 'POST', path: deliveryPath(squid.id), body }]);
      return;
    }
    const res = await postDelivery(http, squid.id, body);
    await showEcho(ctx, res, `E-mail delivery of squid ${squid.name || squid.id}`);
    ctx.out.success(`E-mail ${body.notifications ? 'notifications on' : 'notifications off'} for squid ${squid.name || squid.id} (${email})`);
  },
});
