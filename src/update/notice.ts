// The update notice: after a command on a terminal, at most once a day, one short note on stderr when a newer sq is
// published. Never in CI (CI, GITHUB_ACTIONS), never when stdout or stderr is not a terminal, never with
// SQ_NO_UPDATE_NOTIFIER=1 or `sq config set update-notifier off`. The registry is asked in the background while the
// command runs, which never waits for it: a late answer is used by a later command, from the cache.
import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import type { Ctx } from '../cli/context.js';
import { cacheDir } from '../lib/cache-dir.js';
import { VERSION } from '../version.js';
import {
  DAY_MS,
  fetchLatest,
  isNewer,
  isStale,
  readCache,
  upgradeHint,
  writeCache,
  type UpdateCache,
} from './check.js';

export const SETTING = 'update-notifier';

/** The profile's update-notifier setting: off only when set to off. A profile file that cannot be read leaves it on. */
async function settingOn(ctx: Ctx): Promise<boolean> {
  try {
    const [{ profileName }, { resolveSetting }] = await Promise.all([
      import('../config/resolve.js'),
      import('../config/settings.js'),
    ]);
    // The command's own profile store (read once, cached), not a second read and parse of the file.
    const store = await ctx.config({ allowCorrupt: true });
    if (store.corrupt) return true;
    const profile = profileName(ctx.globals.profile, ctx.env, store);
    return resolveSetting(SETTING, store.setting(profile, SETTING), ctx.env).value !== 'off';
  } catch {
    return true;
  }
}

export interface PendingNotice {
  /** Prints the notice when one is due; never waits for the registry. */
  finish(): void;
}

/** Starts the day's check when the cached answer is stale; null when no notice can be shown here. */
export async function startUpdateCheck(ctx: Ctx): Promise<PendingNotice | null> {
  const dir = cacheDir(ctx.env);
  if (dir === undefined || !(await settingOn(ctx))) return null;
  const where = dir;
  const now = ctx.now();
  let cache: UpdateCache = readCache(dir) ?? { checked_at: 0, latest: null, notified_at: 0 };
  // From the launcher or the standalone executable, a process of its own asks, which outlives this one (sq leaves
  // as soon as its output is flushed); it is started once the command is done, so that it takes no CPU from it. In
  // process (tests), the request runs here, unref'd, while the command does.
  const detached = detachedArgs();
  const due = isStale(cache, now);
  if (due) {
    // Marked as asked now, whatever comes of it: a registry that hangs is asked again in an hour, not on every command.
    cache = { ...cache, checked_at: now };
    writeCache(dir, cache);
    if (!detached) void checkAndStore(ctx.env, dir, now);
  }
  return {
    finish() {
      try {
        show();
      } finally {
        if (due && detached) startDetached(ctx, detached);
      }
    },
  };

  function show(): void {
    const at = ctx.now();
    const c = readCache(where) ?? cache;
    const latest = c.latest ?? cache.latest;
    if (latest === null || !isNewer(latest) || (at - c.notified_at < DAY_MS && at >= c.notified_at)) return;
    const lines = [
      `A newer sq is available: ${VERSION} → ${latest}`,
      `To upgrade: ${upgradeHint(latest)}`,
      'To stop this notice: sq config set update-notifier off, or SQ_NO_UPDATE_NOTIFIER=1',
    ];
    ctx.io.stderr.write(`\n${lines.map((l) => wrapWords(l, ctx.io.columns)).join('\n')}\n`);
    writeCache(where, { ...c, latest, notified_at: at });
  }
}

/** Asks the registry and keeps its answer (`sq __update-check`, or in-process). */
export async function checkAndStore(
  env: Record<string, string | undefined>,
  dir: string,
  now: number,
  hold = false,
): Promise<void> {
  const latest = await fetchLatest(env, undefined, { hold });
  if (latest === null) return;
  const fresh = readCache(dir) ?? { checked_at: now, latest: null, notified_at: 0 };
  writeCache(dir, { ...fresh, latest, checked_at: now });
}

/** How to start `sq __update-check` in a process of its own; null in-process (tests), where there is no sq to start. */
function detachedArgs(): string[] | null {
  if (typeof (globalThis as { __sqHostHas?: unknown }).__sqHostHas === 'function') return ['__update-check'];
  const launcher = process.argv[1];
  return launcher && /^sq(\.js)?$/.test(basename(launcher)) ? [launcher, '__update-check'] : null;
}

function startDetached(ctx: Ctx, args: string[]): void {
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: 'ignore',
      env: ctx.env as NodeJS.ProcessEnv,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // asked again in an hour
  }
}

/** A line broken at spaces to fit `width` columns (the terminal would break it inside a word); long words stay whole. */
export function wrapWords(line: string, width: number): string {
  if (!(width > 0) || line.length <= width) return line;
  const out: string[] = [];
  let cur = '';
  for (const word of line.split(' ')) {
    if (cur !== '' && cur.length + 1 + word.length > width) {
      out.push(cur);
      cur = `  ${word}`;
    } else cur = cur === '' ? word : `${cur} ${word}`;
  }
  out.push(cur);
  return out.join('\n');
}
