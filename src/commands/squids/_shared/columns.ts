import type { Column } from '../../../output/types.js';
import { scheduleWords } from './schedule.js';

export const SQUID_LIST_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'name', maxWidth: 40 },
  { key: 'crawler_name', header: 'CRAWLER', maxWidth: 30 },
  { key: 'is_active', header: 'ACTIVE' },
  { key: 'concurrency', header: 'CONC' },
  { key: 'last_run_status', header: 'LAST RUN', kind: 'status' },
  { key: 'last_run_at', header: 'LAST RUN AT', kind: 'time' },
  { key: 'total_runs', header: 'RUNS' },
  { key: 'schedule', header: 'SCHEDULE', format: (v) => scheduleWords(v), maxWidth: 40 },
  { key: 'next_launch_at', header: 'NEXT RUN', kind: 'time' },
];

export const SQUID_DETAIL_COLUMNS: Column[] = [
  { key: 'id' },
  { key: 'name' },
  { key: 'crawler_name', header: 'crawler' },
  { key: 'crawler', header: 'crawler id' },
  { key: 'is_active', header: 'active' },
  { key: 'is_ready', header: 'ready' },
  { key: 'concurrency' },
  { key: 'params' },
  { key: 'schedule', format: (v) => scheduleWords(v) || 'none' },
  { key: 'last_run_status', header: 'last run', kind: 'status' },
  { key: 'last_run', header: 'last run id' },
  { key: 'last_run_at', header: 'last run at', kind: 'time' },
  { key: 'total_runs', header: 'runs' },
  { key: 'next_launch_at', header: 'next run', kind: 'time' },
  { key: 'created_at', header: 'created', kind: 'time' },
];
