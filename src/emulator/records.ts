// The run and runtask records. Live runs, the demo seed and /_emulator/generate all build them here,
// so a documented field is added once and every builder writes the same keys in the same order.
import { rowsForTask } from './rows.js';
import type { Params, RunRecord, RuntaskRecord } from './model/records.js';

/** Run fields a builder may set; the rest keep their value at creation. */
type RunFields = Partial<
  Pick<
    RunRecord,
    | 'is_done'
    | 'started_at'
    | 'ended_at'
    | 'credit_used'
    | 'origin'
    | 'status'
    | 'export_done'
    | 'export_count'
    | 'export_time'
    | 'total_results'
    | 'total_unique_results'
    | 'done_reason'
    | 'done_reason_desc'
  >
>;

/** A run created at `createdAt` (pending, nothing collected), with `fields` applied in place. */
export function runRecord(id: string, squidId: string, createdAt: string, fields: RunFields = {}): RunRecord {
  // Spreading over the defaults keeps each key at its default position.
  return {
    id,
    object: 'run',
    squid: squidId,
    is_done: false,
    created_at: createdAt,
    started_at: createdAt,
    ended_at: null,
    next_launch_at: null,
    duration: 0,
    credit_used: 0,
    origin: 'user',
    force_launch: false,
    status: 'pending',
    export_done: null,
    export_count: 0,
    export_time: null,
    email_done: null,
    email_time: null,
    email_verification: null,
    total_results: 0,
    total_unique_results: 0,
    done_reason: null,
    done_reason_desc: null,
    ...fields,
  };
}

/** Runtask fields a builder may set; the rest keep their value at creation. */
type RuntaskFields = Partial<
  Pick<
    RuntaskRecord,
    | 'status'
    | 'started_at'
    | 'ended_at'
    | 'last_result'
    | 'last_page'
    | 'done_reason'
    | 'done_reason_desc'
    | 'last_collection_at'
  >
>;

/** The runtask of one task in one run (pending, sized by rowsForTask), with `fields` applied in place. */
export function runtaskRecord(
  id: string,
  runId: string,
  taskId: string,
  params: Params,
  fields: RuntaskFields = {},
): RuntaskRecord {
  return {
    object: 'runtask',
    id,
    task: taskId,
    run: runId,
    status: 'pending',
    params,
    started_at: null,
    ended_at: null,
    total_results: rowsForTask(params),
    last_result: 0,
    total_pages: 1,
    last_page: 0,
    done_reason: null,
    done_reason_desc: null,
    last_collection_at: null,
    ...fields,
  };
}
