// What the --verbose trace may show of a request: secrets masked by key name, known secret strings removed.
import { isSecretQueryName, maskSecrets, maskUrlQuery, redactText } from '../lib/secrets.js';

// The emulator's request log masks queries by the same rule.
export { isSecretQueryName };

export function redactBody(body: unknown, secrets: string[]): string {
  const text = typeof body === 'string' ? maskJsonText(body) : JSON.stringify(maskSecrets(body, false));
  return redactText(text, secrets);
}

function maskJsonText(text: string): string {
  try {
    return JSON.stringify(maskSecrets(JSON.parse(text), false));
  } catch {
    return text;
  }
}

/**
 * A URL in the trace: sq's one URL masking (secret query values, password, the token segments of Slack, Discord and
 * Office webhook paths), as "****". The API's own paths are ids the trace is read for (`/v1/squids/<32 hex>` looks
 * like a token to the any-host rule), so token-looking segments on other hosts stay.
 */
export function redactUrl(url: URL): string {
  return maskUrlQuery(url.toString(), '****', { paths: 'webhook-hosts' });
}
