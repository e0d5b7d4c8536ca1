// The plan as text, one block per item, field by field, like `terraform plan`: + create, ~ update, - delete.
import type { Plan, PlanItem, Uncompared } from './diff.js';
import { counted } from '../output/plural.js';
import { amount } from '../io/count.js';

const SIGN: Record<PlanItem['action'], string> = { create: '+', update: '~', delete: '-' };

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'null' : JSON.stringify(v));

const squidOf = (i: { squid?: string; id?: string | null }) =>
  i.squid !== undefined ? `"${i.squid}"${i.id ? ` (${i.id.slice(0, 8)})` : ''}` : '';

export function itemTitle(i: PlanItem): string {
  const of = squidOf(i);
  switch (i.kind) {
    case 'squid':
      return `${i.action} squid ${of}`;
    case 'tasks':
      return i.action === 'delete'
        ? `delete ${counted(i.delete!.length, 'task')} of squid ${of}`
        : `add ${counted(i.add!.length, 'task')} to squid ${of}`;
    case 'delivery':
      return `${i.action} ${i.channel} delivery of squid ${of}`;
    case 'billing':
      return 'update automatic billing reset';
    case 'chain':
      return `${i.action} chain of squid ${of}`;
  }
}

/** Channels left as they are whose secrets could not be compared: never a silent "matches". */
function uncomparedLines(list: Uncompared[]): string[] {
  return list.flatMap((u) => [
    `? ${u.channel} delivery of squid ${squidOf(u)}`,
    ...u.not_compared.map((n) => `    ${n}: not compared`),
  ]);
}

export function planText(plan: Plan): string {
  const unchecked = uncomparedLines(plan.not_compared);
  if (plan.items.length === 0) {
    if (unchecked.length === 0) return 'No changes: the account matches the file.\n';
    return `No changes to apply, but some fields were not compared (their variable is not set, or --assume-unchanged):\n${unchecked.join('\n')}\n`;
  }
  const lines: string[] = [];
  for (const i of plan.items) {
    lines.push(`${SIGN[i.action]} ${itemTitle(i)}`);
    for (const c of i.changes) {
      if (i.unreadable?.includes(c.field))
        lines.push(`    ${c.field}: cannot be read back: will be sent (${show(c.to)})`);
      else
        lines.push(
          i.action === 'create' ? `    ${c.field}: ${show(c.to)}` : `    ${c.field}: ${show(c.from)} → ${show(c.to)}`,
        );
    }
    for (const t of i.add ?? []) lines.push(`    + ${show(t)}`);
    for (const t of i.delete ?? []) lines.push(`    - ${show(t.value)} (${t.id})`);
    for (const n of i.not_compared ?? []) lines.push(`    ${n}: not compared`);
    if (i.fires_now)
      lines.push(
        '    warning: usage is already above the threshold: a reset, and a charge, fires as soon as this is saved',
      );
    const r = i.scheduled_run;
    if (r) {
      // Money: the schedule starts runs, each charged.
      const cost =
        r.credits_per_run === null ? 'not estimated yet' : `estimated at ${amount(r.credits_per_run)} credits`;
      lines.push(
        `    runs on schedule (${r.schedule}; next ${r.next_run ?? 'none within 5 years'}): each run is charged, ${cost}${r.note ? ` (${r.note})` : ''}`,
      );
    }
  }
  lines.push(...unchecked);
  const s = plan.summary;
  lines.push('', `Plan: ${s.create} to create, ${s.update} to change, ${s.delete} to delete.`);
  return `${lines.join('\n')}\n`;
}
