// What the --verbose trace may show of a request: secrets masked by key name, known secret strings removed.
import { isSecretQueryName, maskSecrets, redactText } from '../output/secrets.js';

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

/** Signed URLs carry credentials in the query string: show the names, not the values. */
export function redactUrl(url: URL): string {
  const u = new URL(url.toString());
  for (const k of [...u.searchParams.keys()]) {
    if (isSecretQueryName(k)) u.searchParams.set(k, '****');
  }
  return u.toString();
}
