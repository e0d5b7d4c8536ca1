// Minimal multipart/form-data parser: enough for `POST /v1/tasks/upload` (a `file` part and a `squid` field).
interface Multipart {
  fields: Record<string, string>;
  files: Record<string, { filename: string; content: Buffer }>;
}

export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]).trim() : undefined;
}

export function parseMultipart(body: Buffer, boundary: string): Multipart {
  // Prototype-less: a part named __proto__ or constructor is a key like any other, never the objects' prototype.
  const out: Multipart = { fields: Object.create(null), files: Object.create(null) };
  const delim = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delim);
  while (pos !== -1) {
    pos += delim.length;
    // `--` right after a delimiter marks the end of the body.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd === -1) break;
    const headerText = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(delim, headerEnd + 4);
    if (next === -1) break;
    // The part's content ends with the CRLF that precedes the next delimiter.
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const content = body.subarray(headerEnd + 4, end);
    const disp = /content-disposition:[^\r\n]*/i.exec(headerText)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1];
    if (name !== undefined) {
      if (filename !== undefined) out.files[name] = { filename, content: Buffer.from(content) };
      else out.fields[name] = content.toString('utf8');
    }
    pos = next;
  }
  return out;
}
