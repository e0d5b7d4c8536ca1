// sq's per-user cache directory: compiled code (bin/sq.js) and the shared pacing state (api/pacing-state.ts).
// bin/sq.js, which runs before any of the CLI is loaded, uses this one too: built into dist/launcher.cjs.
import { statSync } from 'node:fs';

/** SQ_CACHE_DIR, else $XDG_CACHE_HOME/sq, else the platform's per-user cache; undefined when off (SQ_CACHE_DIR=), and
 * when $HOME is not an existing directory (sq never creates a missing home). */
export function cacheDir(
  env: Record<string, string | undefined>,
  platform: string = process.platform,
): string | undefined {
  if (env.SQ_CACHE_DIR !== undefined) return env.SQ_CACHE_DIR === '' ? undefined : env.SQ_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME}/sq`;
  if (platform === 'win32') return env.LOCALAPPDATA ? `${env.LOCALAPPDATA}\\sq\\Cache` : undefined;
  if (!env.HOME || !statSync(env.HOME, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return platform === 'darwin' ? `${env.HOME}/Library/Caches/sq` : `${env.HOME}/.cache/sq`;
}
