import { defineVerb } from '../../cli/command.js';
import { eventsFlag, httpUrlFlag, required, RUN_EVENTS } from '../../validate/index.js';
import { eventsObject } from '../../api/delivery.js';
import {
  ACTIVE_OPTIONS,
  SQUID_OPTION,
  activeFlag,
  configureDelivery,
  squidToConfigure,
  hideUrlSecrets,
} from './_shared/common.js';
import { maskWebhookUrl } from '../../lib/secrets.js';

const DEFAULT_EVENTS = 'run.done,run.error';

export default defineVerb({
  name: 'webhook',
  writes: true,
  summary: 'POST run events of a squid to a URL (POST /v1/delivery)',
  description:
    'Configures webhook delivery for one squid: the service POSTs a JSON event to --url when a run starts or ' +
    `resumes (run.running), pauses (run.paused), finishes (run.done) or crashes (run.error). Every call replaces the ` +
    `whole webhook configuration and sends all four event booleans: the events not listed are unsubscribed.\n\n` +
    `Defaults when not given: --events ${DEFAULT_EVENTS}, --retry (up to 3 retries, 15 minutes apart), --active.\n` +
    'Your endpoint must answer 200, 201 or 202 within 30 seconds. Try it first with `sq delivery test webhook`, ' +
    'or receive events on this machine with `sq webhook listen`.\n' +
    'Secret-looking query values of the URL (?token=, ?key=, ?sig=, ?code=, …) and path segments that are tokens ' +
    "(Slack's /services/T…/B…/SECRET, Discord's /api/webhooks/ID/TOKEN, Office 365's webhook.office.com paths, " +
    'any long random key) are masked in every output, trace and error, like passwords, unless --show-secrets.',
  options: [
    SQUID_OPTION,
    { flags: '--url <url>', description: 'http(s) endpoint that receives the events' },
    {
      flags: '--events <list>',
      description: `comma-separated events to subscribe to: ${RUN_EVENTS.join(', ')}, or "all"`,
      defaultText: DEFAULT_EVENTS,
      complete: { list: [...RUN_EVENTS, 'all'] },
    },
    { flags: '--retry', description: 'retry failed deliveries (up to 3 times, 15 minutes apart)', defaultText: 'on' },
    { flags: '--no-retry', description: 'do not retry failed deliveries' },
    ...ACTIVE_OPTIONS,
  ],
  examples: [
    'sq delivery webhook --squid "Paris restaurants" --url https://ci.example.com/hook --events run.done,run.error',
    'sq delivery webhook --squid 3f2a --url https://example.com/hook --events all --no-retry',
    'sq delivery webhook --squid "Paris restaurants" --url https://ci.example.com/hook --inactive',
  ],
  async run(ctx, _args, opts) {
    const squidRef = squidToConfigure(opts);
    const url = hideUrlSecrets(
      ctx,
      httpUrlFlag('--url', required('--url', opts.url, 'the http(s) endpoint that receives the events')),
    );
    const events = eventsFlag('--events', opts.events ?? DEFAULT_EVENTS);
    const is_active = activeFlag(opts);
    const retry = opts.retry !== false;
    const body = { webhook_fields: { url, is_active, retry, events: eventsObject(events) } };
    await configureDelivery(ctx, {
      squidRef,
      body,
      channel: 'Webhook',
      success: (squid) =>
        `Webhook ${is_active ? 'active' : 'configured (inactive)'} for squid ${squid}: ${events.join(', ')} ` +
        `→ ${ctx.globals.showSecrets ? url : maskWebhookUrl(url)}`,
    });
  },
});
