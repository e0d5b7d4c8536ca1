// An http(s) URL flag. Apart from validate/index.ts because every call checks the base URL, and this check needs
// no schema library.
import { UsageError } from '../errors.js';

export function httpUrlFlag(flag: string, value: unknown, example = 'https://example.com/hook'): string {
  const rule = `an http(s) URL, e.g. ${example}`;
  const s = typeof value === 'string' ? value.trim() : '';
  let u: URL | undefined;
  try {
    u = s ? new URL(s) : undefined;
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new UsageError(`${flag} must be ${rule} (got ${JSON.stringify(value)})`);
  return s;
}
