// The API's error message, from whichever documented body shape arrives (api-reference §4):
// { detail }, { error: { message } }, { error: "..." } (also the 429 shape), or a bare { message }.
export function errorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (typeof b.detail === 'string') return b.detail;
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    if (typeof e.message === 'string') {
      return typeof e.param === 'string' && e.param ? `${e.message} (param: ${e.param})` : e.message;
    }
  }
  if (typeof b.error === 'string') return b.error;
  if (typeof b.message === 'string') return b.message;
  return null;
}
