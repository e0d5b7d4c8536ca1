// import() of an npm package or built-in that sq loads only when a command needs it (ora, prompts, conf, …).
//
// bin/sq.js runs the CLI from one bundled file (dist/sq.cjs) compiled from a V8 code cache. Code compiled that way
// has no module loader of its own for import(), so the launcher hands its own in as `__sqHostImport`; everywhere
// else (the unbundled dist/ the tests import) a plain import() does the same job. The bundle finds the packages it
// does not install in dist/vendor/ (esbuild.config.mjs, VENDORED). The standalone executable
// (sea/entry.mjs) has every package inside it, and sets `__sqHostImport` and `__sqHostHas` globally.

declare const __sqHostImport: ((specifier: string) => Promise<unknown>) | undefined;
declare const __sqHostHas: ((specifier: string) => boolean) | undefined;

/** In dist/sq.cjs (esbuild.config.mjs), the packages bundled into dist/vendor/ (VENDORED there): not installed. */
declare const __SQ_VENDORED__: Readonly<Record<string, string>> | undefined;

/**
 * What importPackage gave for each specifier: the same module's promise again. Node's own import() keeps each module
 * too, but a run of the CLI in a test's process (vitest's module runner) asked the test runner's main process to
 * resolve a bare name ('yaml', 'conf', the emulator's SFTP client) again on every call: in
 * test/property/secrets.test.ts ~1 s of the worker's CPU (profiled 2026-12-02), and the main process's with it. A
 * failed import is not kept: the next call tries again, as before.
 */
const imported = new Map<string, Promise<unknown>>();

export function importPackage<T>(specifier: string): Promise<T> {
  let kept = imported.get(specifier);
  if (!kept) {
    kept = load(specifier);
    imported.set(specifier, kept);
    kept.catch(() => imported.delete(specifier));
  }
  return kept as Promise<T>;
}

function load(specifier: string): Promise<unknown> {
  const vendored =
    typeof __SQ_VENDORED__ === 'object' && Object.hasOwn(__SQ_VENDORED__, specifier)
      ? __SQ_VENDORED__[specifier]
      : undefined;
  const target = vendored ? distFile(`vendor/${vendored}.mjs`) : specifier;
  return typeof __sqHostImport === 'function' ? __sqHostImport(target) : import(target);
}

/** Whether importPackage(name) would find an (optional) package, without loading it. */
export function hasPackage(name: string): boolean {
  if (typeof __sqHostHas === 'function') return __sqHostHas(name);
  try {
    // node:module only here: it brings Node's ES module loader, and every call loads this file.
    process
      .getBuiltinModule('node:module')
      .createRequire(import.meta.url)
      .resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file of dist/ as a URL for importPackage. This module is dist/import-package.js, or is inlined into
 * dist/sq.cjs: both sit directly in dist/, so the same relative path works from either.
 */
export function distFile(path: string): string {
  return new URL(path, import.meta.url).href;
}
