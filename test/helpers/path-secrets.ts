// An arbitrary for the secrets property tests (client output, masking functions).
import fc from 'fast-check';

// Webhook URLs whose credential is a path segment: Slack, Discord and Office 365 by position, any other host by looks
// (a hex key, a UUID). Tokens are letters, digits, "-" and "_", at least 8 long with 3 distinct characters, so none can
// turn up in the output by chance.
const tokenChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));
const pathToken = fc
  .array(tokenChars, { minLength: 8, maxLength: 40 })
  .map((a) => a.join(''))
  .filter((s) => new Set(s).size >= 3);
const hexKey = fc
  .stringMatching(/^[0-9a-f]{16,40}$/)
  .filter((s) => /[0-9]/.test(s) && /[a-f]/.test(s) && new Set(s).size >= 4);
export const pathSecretUrl = fc.oneof(
  pathToken.map((t) => ({ url: `https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/${t}`, secret: t })),
  fc
    .tuple(fc.bigInt(1n, 10n ** 19n), pathToken)
    .map(([id, t]) => ({ url: `https://discord.com/api/webhooks/${id}/${t}`, secret: t })),
  pathToken.map((t) => ({
    url: `https://contoso.webhook.office.com/webhookb2/g1@g2/IncomingWebhook/${t}/guid`,
    secret: t,
  })),
  hexKey.map((t) => ({ url: `https://ci.example.com/hooks/${t}/events`, secret: t })),
  fc.uuid().map((t) => ({ url: `https://webhook.site/${t}`, secret: t })),
);
