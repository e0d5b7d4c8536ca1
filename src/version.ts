import { readFileSync } from 'node:fs';

// dist/version.js → ../package.json: one source of truth for the version.
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
