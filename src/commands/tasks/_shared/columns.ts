import type { Column } from '../../../output/types.js';

export const TASK_LIST_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'is_active', header: 'ACTIVE' },
  { key: 'created_at', header: 'CREATED', kind: 'time' },
  { key: 'params', maxWidth: 80 },
];

export const UPLOAD_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'state', kind: 'status' },
  { key: 'meta.inserted', header: 'inserted' },
  { key: 'meta.duplicates', header: 'duplicates' },
  { key: 'meta.invalid', header: 'invalid' },
  { key: 'meta.valid', header: 'valid' },
];
