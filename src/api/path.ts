// Ids go into URL paths as one segment each. encodeURIComponent alone is not enough: "." and ".." survive it and
// URL resolution turns /v1/runs/.. into /v1/, a different endpoint. Refused before anything is sent.
import { UsageError } from '../errors.js';

/** One path segment from an id: checked, then percent-encoded. `what` names it in the error, e.g. "run id". */
export function seg(what: string, value: string): string {
  const v = value.trim();
  if (v === '' || v === '.' || v === '..' || /[/?#]/.test(v)) {
    throw new UsageError(`${what} ${JSON.stringify(value)}: an id cannot be empty, "." or "..", or contain "/", "?" or "#"`);
  }
  return encodeURIComponent(v);
}
