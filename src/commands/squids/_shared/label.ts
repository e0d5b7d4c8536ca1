import type { Ctx } from '../../../cli/context.js';
import type { HttpClient } from '../../../api/http.js';
import type { Resolved } from '../../../api/resolve.js';
import { getSquid } from '../../../api/squids.js';
import type { Squid } from '../../../api/records.js';

/**
 * `"Name" (id)` for a confirmation question. A full hash resolves without a lookup, so the name is fetched only when
 * a person will actually read the question.
 */
export async function squidLabel(ctx: Ctx, http: HttpClient, squid: Resolved<Squid>): Promise<string> {
  let name = squid.name;
  if (!name && !ctx.globals.yes) {
    const s = await getSquid<Squid | null>(http, squid.id);
    name = typeof s?.name === 'string' ? s.name : '';
  }
  return name ? `"${name}" (${squid.id})` : squid.id;
}
