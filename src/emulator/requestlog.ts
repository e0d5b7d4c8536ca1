// The request log of the control plane. Secrets never reach it: the key is cut to its last 4 characters
// and any field whose name looks like a secret is replaced by "****", at any depth.

// Which field names are secret is one rule for the client and the emulator (src/output/secrets.ts).
import { isSecretKey } from '../output/secrets.js';

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

export const REQUEST_LOG_MAX = 5000;

export function maskAuthorization(value: string): string {
  const m = /^(\S+)\s+(.*)$/.exec(value.trim());
  const scheme = m ? m[1] : 'Token';
  const key = m ? m[2] : value;
  return `${scheme} ****${key.slice(-4)}`;
}

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSecretKey(k) && v !== null && v !== undefined ? '****' : maskSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
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
