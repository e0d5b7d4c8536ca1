// The columns people look for first in a run listing; JSON keeps every field as the API sent it.
import type { Column } from '../../../output/types.js';
import { formatDurationCell } from '../../../api/runs.js';

export const RUN_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'status', kind: 'status' },
  { key: 'total_results' },
  { key: 'credit_used' },
  { key: 'duration', format: (v) => formatDurationCell(v) },
  { key: 'started_at', kind: 'time' },
  { key: 'ended_at', kind: 'time' },
  { key: 'done_reason' },
];

export const RUN_TASK_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'task' },
  { key: 'status', kind: 'status' },
  { key: 'last_result', header: 'RESULTS' },
  { key: 'total_results', header: 'EXPECTED' },
  { key: 'started_at', kind: 'time' },
  { key: 'ended_at', kind: 'time' },
  { key: 'done_reason' },
];
