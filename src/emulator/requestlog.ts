// The request log of the control plane. Secrets never reach it: the key is masked as the client masks it, and any
// field, query parameter or header whose name looks like a secret is replaced by "****", at any depth.

// Which names are secret, and how a key is masked, is one rule for the client and the emulator.
import { isSecretKey, isSecretQueryName, maskAuthorization } from '../lib/secrets.js';

/** One entry of GET /_emulator/requests (and RunningEmulator.log), secrets masked. */
export interface LoggedRequest {
  id: number;
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const REQUEST_LOG_MAX = 5000;

/** Query values: secret field names, and what signed URLs carry (key, Signature, X-Amz-Credential…). */
export function maskQuery(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of query) out[k] = isSecretQueryName(k) && v !== '' ? '****' : v;
  return out;
}

export function maskHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const text = Array.isArray(v) ? v.join(', ') : v;
    if (k.toLowerCase() === 'authorization') out[k] = maskAuthorization(text);
    else if (isSecretKey(k)) out[k] = '****';
    else out[k] = text;
  }
  return out;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private next = 1;

  add(entry: Omit<LoggedRequest, 'id'>): void {
    this.entries.push({ id: this.next++, ...entry });
    if (this.entries.length > REQUEST_LOG_MAX) this.entries.splice(0, this.entries.length - REQUEST_LOG_MAX);
  }

  list(): LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
