// Polling for what happens in another process or on a timer, without fixed sleeps.

/** Polls `fn` until `ok` holds; the error names what never happened and the last value seen. */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  ok: (v: T) => boolean,
  what: string,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
