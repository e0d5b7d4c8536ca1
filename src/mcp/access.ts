// Who may call which tool of `sq mcp`: reads always; --allow-writes the write tools; =all deletes and billing too; or a
// list of tools by name.
import { UsageError } from '../errors.js';
import { toolDefs } from './tools/index.js';
import type { Access } from './tools/kit.js';

/** Who may call what: --allow-writes (write tools), --allow-writes=all (deletes and billing too), or a list of tools. */
export type Allow = { level: 'read' | 'write' | 'all' } | { names: ReadonlySet<string> };

export function parseAllowWrites(value: string | true | undefined): Allow {
  if (value === undefined) return { level: 'read' };
  if (value === true) return { level: 'write' };
  if (value.trim() === 'all') return { level: 'all' };
  const writes = toolDefs()
    .filter((t) => t.access !== 'read')
    .map((t) => t.name);
  const names = value.split(',').map((s) => s.trim());
  const wrong = names.filter((n) => !writes.includes(n));
  if (!value.trim() || wrong.length) {
    throw new UsageError(
      `--allow-writes: ${wrong.length ? `unknown write tool "${wrong.filter(Boolean)[0] ?? ''}"` : 'empty list'}; ` +
        `give nothing (the write tools but deletes and billing), "all", or a comma-separated list of: ${writes.join(', ')}`,
    );
  }
  return { names: new Set(names) };
}

export function allowed(allow: Allow, name: string, access: Access): boolean {
  if (access === 'read') return true;
  if ('names' in allow) return allow.names.has(name);
  return allow.level === 'all' || (allow.level === 'write' && access === 'write');
}
