// POST /v2/squid/{squid_id}/task: one task, its params as the body, as six examples/ pages add it (Instagram profile
// and reels, LaCentrale cars, LinkedIn posts commenters and profile, Sales Navigator companies). No reference page
// documents it: the answer is those pages' `{id, status: "pending", created_at, ...params}`, and the task is the same
// task POST /v1/tasks adds (checked against the crawler's task params, listed by GET /v1/tasks, run by a run).
import { defOf, taskParamsOf } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { newTask } from '../seed.js';
import { errB, isoZ, isRecord, json, paramsKey } from '../util.js';
import { paramsOf } from '../model/records.js';
import { findSquid, type Rec } from './common.js';
import { existingKeys, taskProblem } from './tasks.js';
import { parseApiTime } from '../../lib/api-time.js';
import * as store from '../model/store.js';

export function registerTasksV2(emu: EmuCore): void {
  emu.route('POST', '/v2/squid/:id/task', (req) => {
    const f = findSquid(emu, req.params.id, 'squid_id');
    if (f.res) return f.res;
    if (!isRecord(req.body) || !Object.keys(req.body).length)
      return errB(400, "The body must be the task's params as a JSON object.", 'body');
    const crawler = store.crawlerOf(emu, f.rec.crawler);
    const params = taskParamsOf(defOf(crawler), req.body as Rec);
    const problem = taskProblem(crawler, params);
    if (problem) return errB(400, problem, 'body');
    // A task whose params the squid already has is not added twice (as POST /v1/tasks skips it): its answer is that task.
    const key = paramsKey(params);
    const task = existingKeys(emu, String(f.rec.id)).has(key)
      ? store.records(emu, 'tasks').find((t) => t.squid === f.rec.id && paramsKey(t.params as Rec) === key)!
      : newTask(emu, f.rec, paramsOf(params), emu.clock.now());
    emu.markDirty();
    const created = parseApiTime(task.created_at) ?? emu.clock.now();
    return json(200, { id: task.id, status: 'pending', created_at: isoZ(created), ...(task.params as Rec) });
  });
}
