import { readFileSync } from 'node:fs';

// The bundles (esbuild.config.mjs, sea/build.mjs) define __SQ_VERSION__ at build time: the standalone executable has
// no package.json beside it. Elsewhere dist/version.js → ../package.json: one source of truth for the version.
declare const __SQ_VERSION__: string | undefined;
export const VERSION: string =
  typeof __SQ_VERSION__ === 'string'
    ? __SQ_VERSION__
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The User-Agent of every API request: `sq/VERSION (node vX; platform-arch)`. */
export const USER_AGENT = `sq/${VERSION} (node ${process.version}; ${process.platform}-${process.arch})`;
