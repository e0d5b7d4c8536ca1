// Upload ids by unique prefix. The API has no list of uploads (only GET /v1/tasks/upload/{id}), so the prefix a table
// shows is looked up among the uploads `sq tasks upload` started from this machine, kept per key and API in the cache
// directory (uploads-<hash>.json, mode 0600): the last MAX_REMEMBERED, for a day after the latest one.
import type { Ctx } from '../../../cli/context.js';
import type { HttpClient } from '../../../api/http.js';
import { isFullHash, isIdPrefix, pick } from '../../../api/resolve.js';
import { cacheDir } from '../../../lib/cache-dir.js';
import { NotFoundError } from '../../../errors.js';
import { pruneCacheDir, readCacheFile, writeCacheFile } from '../../../lib/cache-file.js';

const MAX_REMEMBERED = 50;

interface Remembered {
  id: string;
  squid: string;
  file: string;
  at: string;
}

function fileOf(ctx: Ctx, http: HttpClient): { dir: string; file: string } | undefined {
  const dir = cacheDir(ctx.env);
  return dir === undefined ? undefined : { dir, file: `${dir}/uploads-${http.keyId}.json` };
}

function read(file: string): Remembered[] {
  try {
    const v: unknown = JSON.parse(readCacheFile(file) ?? '[]');
    return Array.isArray(v)
      ? v.filter((r): r is Remembered => !!r && typeof r === 'object' && typeof (r as Remembered).id === 'string')
      : [];
  } catch {
    return [];
  }
}

/** After an upload was accepted: remembered so that its prefix works later. A cache: failing to write it is harmless. */
export function rememberUpload(ctx: Ctx, http: HttpClient, u: Omit<Remembered, 'at'>): void {
  const where = fileOf(ctx, http);
  if (!where || !u.id) return;
  pruneCacheDir(where.dir, /^uploads-[0-9a-f]{16}\.json$/, where.file);
  const list = [
    { ...u, at: new Date(ctx.now()).toISOString() },
    ...read(where.file).filter((r) => r.id !== u.id),
  ].slice(0, MAX_REMEMBERED);
  writeCacheFile(where.file, JSON.stringify(list));
}

/** The full upload id for `ref`: a full id, or anything that cannot be a prefix, as given (the API reports 404). */
export function resolveUpload(ctx: Ctx, http: HttpClient, ref: string): string {
  if (isFullHash(ref) || !isIdPrefix(ref)) return ref;
  const where = fileOf(ctx, http);
  const known = where ? read(where.file) : [];
  const lower = ref.toLowerCase();
  if (!known.some((r) => r.id.toLowerCase().startsWith(lower))) {
    throw new NotFoundError(
      `no upload id starts with "${ref}" among the ${known.length} upload${known.length === 1 ? '' : 's'} sq tasks upload started from here; ` +
        'the API cannot list uploads, so a prefix works only for those: pass the full id',
    );
  }
  const records = known.map((r) => ({ id: r.id, name: r.file, squid: r.squid, created_at: r.at }));
  return String(
    pick(records, ref, {
      noun: 'upload',
      keys: [],
      describe: (r) => `${String(r.name)}  squid ${String(r.squid)}  ${String(r.created_at)}`,
    }).id,
  );
}
