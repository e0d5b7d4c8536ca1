// The columns people look for first in a run listing; JSON keeps every field as the API sent it.
import type { Column } from '../../../output/types.js';
import { formatDurationCell } from '../../../api/runs.js';

export const RUN_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'status', kind: 'status' },
  { key: 'total_results', header: 'RESULTS' },
  { key: 'credit_used', header: 'CREDITS' },
  { key: 'duration', format: (v) => formatDurationCell(v) },
  { key: 'started_at', header: 'STARTED', kind: 'time' },
  { key: 'ended_at', header: 'ENDED', kind: 'time' },
  { key: 'done_reason', header: 'REASON' },
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
