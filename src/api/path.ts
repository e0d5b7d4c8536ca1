// Ids go into URL paths as one segment each. encodeURIComponent alone is not enough: "." and ".." survive it and
// URL resolution turns /v1/runs/.. into /v1/, a different endpoint. Refused before anything is sent.
import { UsageError } from '../errors.js';

/** One path segment from an id: checked, then percent-encoded. `what` names it in the error, e.g. "run id". */
export function seg(what: string, value: string): string {
  const v = value.trim();
  if (v === '' || v === '.' || v === '..' || /[/?#]/.test(v)) {
    throw new UsageError(
      `${what} ${JSON.stringify(value)}: an id cannot be empty, "." or "..", or contain "/", "?" or "#"`,
    );
  }
  return encodeURIComponent(v);
}

/** A path given to `sq api`: relative to /v1 unless it already starts there; a full URL is refused. */
export function apiPath(p: string): string {
  if (p.trim() === '')
    throw new UsageError('<path> must not be empty: a path on the API such as /v1/squids (or squids)');
  if (/^https?:\/\//i.test(p))
    throw new UsageError(
      '<path> is a path on the API (e.g. /v1/squids), not a full URL; use --base-url to pick the server',
    );
  // "." and ".." segments, also percent-encoded (%2e%2e), would be resolved away and reach another endpoint.
  for (const part of p.split(/[?#]/)[0].split('/')) {
    let plain = part;
    try {
      plain = decodeURIComponent(part);
    } catch {
      // not percent-encoding: compared as it is
    }
    if (plain === '.' || plain === '..')
      throw new UsageError(
        `<path> ${JSON.stringify(p)} has a "${plain}" segment (or its %2e form): name the endpoint without "." or ".."`,
      );
  }
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.startsWith('/v1/') || withSlash === '/v1' ? withSlash : `/v1${withSlash}`;
}
