// What an idempotency_key of `sq mcp`'s go and runs_start has made, kept where `sq runs start --idempotency-key`
// keeps its runs (the per-profile idempotency file in the cache directory, 24 hours): a server restarted between an
// agent's call and its retry finds the squid go made, and `runs start --idempotency-key` finds the run, so a
// retried call never makes a second squid or starts (and pays for) a second run. Without a cache directory there is
// nowhere to keep them: null, and the keys live as long as the server.
import type { Ctx } from '../cli/context.js';
import { cacheDir } from '../lib/cache-dir.js';
import type { IdempotencyEntry } from '../io/go-record.js';

/** An entry of the file, with what go adds: whether the squid's params and tasks were all sent. */
export type KeptEntry = IdempotencyEntry & { ready?: boolean };

export interface KeyFile {
  get(key: string): Promise<KeptEntry | null>;
  set(key: string, entry: KeptEntry): Promise<void>;
  forget(key: string): Promise<void>;
}

export function keyFile(ctx: Ctx): KeyFile | null {
  const dir = cacheDir(ctx.env);
  if (dir === undefined) return null;
  // The file is per API key, as runs start's is: the same key id the verbs' client has.
  // The file's module (and node:crypto and node:fs/promises with it) on the first key used: a server's start needs none.
  const record = () => import('../io/go-record.js');
  const path = async () => (await record()).idempotencyPath(dir, (await ctx.http()).keyId) as string;
  return {
    get: async (key) =>
      ((await (await record()).readIdempotency(await path(), ctx.now()))[key] as KeptEntry | undefined) ?? null,
    set: async (key, entry) => (await record()).saveIdempotency(await path(), key, entry, ctx.now()),
    forget: async (key) => (await record()).saveIdempotency(await path(), key, null, ctx.now()),
  };
}
