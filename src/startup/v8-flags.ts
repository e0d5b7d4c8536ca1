// V8 flags sq sets while it runs, recorded process-wide: V8 rejects a code cache made under other flags, so the cache
// names include them (code-cache.ts). On globalThis under a registered symbol: the launcher and the bundle each have
// their own copy of this module, and both must see the same list.
const KEY = Symbol.for('sq.v8-flags');

/** The V8 flags set so far in this process, in order. */
export function runtimeV8Flags(): readonly string[] {
  return ((globalThis as Record<symbol, string[] | undefined>)[KEY] ??= []);
}

/** Sets a V8 flag for the rest of the process, once. A V8 that does not know the flag only warns. */
export function setV8Flag(flag: string): void {
  const flags = runtimeV8Flags() as string[];
  if (flags.includes(flag)) return;
  process.getBuiltinModule('node:v8').setFlagsFromString(flag);
  flags.push(flag);
}
