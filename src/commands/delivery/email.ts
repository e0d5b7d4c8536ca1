import { defineVerb } from '../../cli/command.js';
import { required } from '../../validate/index.js';
import { SQUID_OPTION, configureDelivery, emailFlag, squidToConfigure } from './_shared/common.js';

export default defineVerb({
  name: 'email',
  writes: true,
  summary: "E-mail a notice when a squid's runs complete (POST /v1/delivery)",
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
    const squidRef = squidToConfigure(opts);
    const email = emailFlag('--email', required('--email', opts.email, 'the address that receives the e-mails'));
    const body = { email, notifications: opts.notifications !== false };
    await configureDelivery(ctx, {
      squidRef,
      body,
      channel: 'E-mail',
      success: (squid) =>
        `E-mail ${body.notifications ? 'notifications on' : 'notifications off'} for squid ${squid} (${email})`,
    });
  },
});
