// How a chain shows in a terminal (`sq squids chain`, `set`): the target crawler and squid by name, the field map as
// `source → param` pairs.
import type { Column } from '../../../../output/types.js';
import type { Chain } from '../../../../api/chains.js';

export const CHAIN_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'target_module.name', header: 'target crawler' },
  {
    key: 'target_cluster.name',
    header: 'target squid',
    format: (v) => (typeof v === 'string' ? v : '(created on the first done run)'),
  },
  { key: 'target_cluster.id', header: 'target squid id' },
  {
    key: 'field_map',
    header: 'field map',
    format: (v) =>
      Object.entries((v ?? {}) as Record<string, string>)
        .map(([s, d]) => `${s} → ${d}`)
        .join(', '),
  },
  { key: 'autostart' },
  { key: 'is_active', header: 'active' },
  { key: 'cluster_name', header: 'target name' },
  { key: 'cluster_concurrency', header: 'target concurrency' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

export function chainTitle(squidName: string, chain: Chain): string {
  return `Chain of squid ${squidName} → ${chain.target_module?.public_name ?? chain.target_module?.name ?? 'target crawler'}`;
}
