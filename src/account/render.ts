// The plan as text, one block per item, field by field, like `terraform plan`: + create, ~ update, - delete.
import type { Plan, PlanItem } from './diff.js';

const SIGN: Record<PlanItem['action'], string> = { create: '+', update: '~', delete: '-' };

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'null' : JSON.stringify(v));

export function itemTitle(i: PlanItem): string {
  const of = i.squid !== undefined ? `"${i.squid}"${i.id ? ` (${i.id.slice(0, 8)})` : ''}` : '';
  switch (i.kind) {
    case 'squid':
      return `${i.action} squid ${of}`;
    case 'tasks':
      return i.action === 'delete' ? `delete ${i.delete!.length} task(s) of squid ${of}` : `add ${i.add!.length} task(s) to squid ${of}`;
    case 'delivery':
      return `${i.action} ${i.channel} delivery of squid ${of}`;
    case 'billing':
      return 'update automatic billing reset';
  }
}

export function planText(plan: Plan): string {
  if (plan.items.length === 0) return 'No changes: the account matches the file.\n';
  const lines: string[] = [];
  for (const i of plan.items) {
    lines.push(`${SIGN[i.action]} ${itemTitle(i)}`);
    for (const c of i.changes) lines.push(i.action === 'create' ? `    ${c.field}: ${show(c.to)}` : `    ${c.field}: ${show(c.from)} → ${show(c.to)}`);
    for (const t of i.add ?? []) lines.push(`    + ${show(t)}`);
    for (const t of i.delete ?? []) lines.push(`    - ${show(t.value)} (${t.id})`);
    for (const n of i.not_compared ?? []) lines.push(`    ${n}: not compared`);
    if (i.fires_now) lines.push('    warning: usage is already above the threshold: a reset, and a charge, fires as soon as this is saved');
  }
  const s = plan.summary;
  lines.push('', `Plan: ${s.create} to create, ${s.update} to change, ${s.delete} to delete.`);
  return `${lines.join('\n')}\n`;
}
