// What the --verbose trace may show of a request: secrets masked by key name, known secret strings removed.
import { isSecretKey, maskSecrets, redactText } from '../output/secrets.js';

/**
 * Query parameters whose values are credentials: the secret field names of bodies, plus what signed URLs carry
 * (key, Signature, X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token). The emulator's request log uses it too.
 */
export function isSecretQueryName(name: string): boolean {
  return isSecretKey(name) || /^key$|signature|credential/i.test(name);
}

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
