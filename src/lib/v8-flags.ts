// V8 flags sq sets as it starts (bin/sq.js's --liftoff-only for --jq), recorded process-wide: a V8 code cache made
// under other flags is rejected, so the names of the code caches made after include them (code-cache.ts). Kept on globalThis under a registered symbol: the launcher (dist/launcher.cjs) and the bundle each
// have their own copy of this module, and both must see the same list.
const KEY = Symbol.for('sq.v8-flags');

/** The V8 flags set so far in this process, in order. */
export function runtimeV8Flags(): readonly string[] {
  return ((globalThis as Record<symbol, string[] | undefined>)[KEY] ??= []);
}

/**
 * Sets a V8 flag for the rest of the process, once, before the scripts it concerns are compiled: their code caches
 * are then named with it (a flag changes which caches V8 accepts). A V8 that does not know the flag only warns.
 */
export function setV8Flag(flag: string): void {
  const flags = runtimeV8Flags() as string[];
  if (flags.includes(flag)) return;
  process.getBuiltinModule('node:v8').setFlagsFromString(flag);
  flags.push(flag);
}
