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

/** A URL in the trace, masked with "****" by the webhook hosts' rule: the API's own ids, which the trace is read for,
 * would look like tokens to the any-host rule. */
export function redactUrl(url: URL): string {
  return maskUrlQuery(url.toString(), '****', { paths: 'webhook-hosts' });
}
