// Request bodies: JSON or multipart as sent (bytes a retry can re-send), and as a trace or a plan shows them.

/**
 * The bytes of a body, and the content-type it implies unless the caller set one. JSON for values; multipart for
 * FormData/Blob. A tag check, not instanceof: touching the global FormData loads Node's bundled undici.
 */
export async function encodeBody(
  body: unknown,
  headers: Record<string, string>,
): Promise<{ payload?: string | Buffer; traced: unknown }> {
  const tag = body !== null && typeof body === 'object' ? Object.prototype.toString.call(body) : '';
  if (tag === '[object FormData]' || tag === '[object Blob]') {
    const form = body as FormData | Blob;
    // The global FormData belongs to Node's bundled undici, which the undici package does not recognise, so the
    // platform's Response serialises it (boundary and content-type included) into bytes that a retry can re-send.
    const r = new Response(form);
    const payload = Buffer.from(await r.arrayBuffer());
    const type = r.headers.get('content-type');
    if (type) headers['content-type'] ??= type;
    const traced =
      tag === '[object FormData]'
        ? `<multipart/form-data: ${[...(form as FormData).keys()].join(', ')}; ${payload.length} bytes>`
        : `<${payload.length} bytes>`;
    return { payload, traced };
  }
  if (body === undefined) return { traced: undefined };
  headers['content-type'] ??= 'application/json';
  return { payload: typeof body === 'string' ? body : JSON.stringify(body), traced: body };
}

/** A multipart body as a plan shows it: fields as they are, files as `<name, size bytes>` (fields first). */
export function formSummary(form: FormData): Record<string, unknown> {
  const fields: [string, unknown][] = [];
  const files: [string, unknown][] = [];
  for (const [k, v] of form.entries()) {
    if (typeof v === 'string') fields.push([k, v]);
    else files.push([k, `<${v.name}, ${v.size} bytes>`]);
  }
  return Object.fromEntries([...fields, ...files]);
}
