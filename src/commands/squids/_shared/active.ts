// `sq squids activate|deactivate`: one field of the update (is_active), then the squid as it is now.
import type { Ctx } from '../../../cli/context.js';
import { resolveSquid } from '../../../api/resolve.js';
import { getSquid, updateSquid } from '../../../api/squids.js';
import { SQUID_DETAIL_COLUMNS } from './columns.js';

export async function setActive(ctx: Ctx, ref: string, active: boolean): Promise<void> {
  const http = await ctx.http();
  const { id } = await resolveSquid(http, ref);
  await updateSquid(http, id, { is_active: active });
  const s = await getSquid(http, id);
  const name = String(s?.name ?? id);
  ctx.out.success(active ? `Activated squid ${name}: runs can start (and its schedule, if any, fires)` : `Deactivated squid ${name}: no run starts (schedule included) and a running run is stopped`);
  await ctx.out.record(s, { title: `Squid ${name}`, columns: SQUID_DETAIL_COLUMNS });
}
