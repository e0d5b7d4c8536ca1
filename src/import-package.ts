// import() of an npm package or built-in that sq loads only when a command needs it (ora, prompts, conf, …).
//
// bin/sq.js runs the CLI from one bundled file (dist/sq.cjs) compiled from a V8 code cache. Code compiled that way
// has no module loader of its own for import(), so the launcher hands its own in as `__sqHostImport`; everywhere
// else (the unbundled dist/ the tests import) a plain import() does the same job.
declare const __sqHostImport: ((specifier: string) => Promise<unknown>) | undefined;

export function importPackage<T>(specifier: string): Promise<T> {
  return (typeof __sqHostImport === 'function' ? __sqHostImport(specifier) : import(specifier)) as Promise<T>;
}

/**
 * A file of dist/ as a URL for importPackage. This module is dist/import-package.js, or is inlined into
 * dist/sq.cjs: both sit directly in dist/, so the same relative path works from either.
 */
export function distFile(path: string): string {
  return new URL(path, import.meta.url).href;
}
