// Tasks: add (duplicates by identical params skipped), list by squid, detail with status, delete.
import { defOf, taskParamsOf } from '../crawlers.js';
import type { EmuCore } from '../emu.js';
import { paginate } from '../pagination.js';
import { newTask } from '../seed.js';
import { errB, isRecord, json, paramsKey } from '../util.js';
import { taskCreatedView, taskDetailView, taskLookups, taskListView } from '../views.js';
import { bodyObject, findSquid, type Rec } from './common.js';
import { type CrawlerRecord, paramsOf } from '../model/records.js';
import * as store from '../model/store.js';

/** Why a task's params are not acceptable for this crawler, or undefined when they are. */
export function taskProblem(crawler: CrawlerRecord, params: Rec): string | undefined {
  const def = defOf(crawler);
  const keys = Object.keys(params);
  const unknown = keys.find((k) => !Object.hasOwn(def.task, k));
  if (unknown) return `Unknown task parameter "${unknown}"; expected one of ${Object.keys(def.task).join(', ')}.`;
  const filled = keys.filter((k) => params[k] !== null && params[k] !== undefined && String(params[k]).trim() !== '');
  if (!filled.length) return 'A task needs at least one parameter value.';
  for (const k of filled) {
    const p = def.task[k];
    if (typeof params[k] !== 'string' && p.type === 'string') return `Task parameter "${k}" must be a string.`;
    if (p.regex && !new RegExp(p.regex).test(String(params[k])))
      return `Task parameter "${k}" does not match the expected format ${p.regex} (TaskNotValidError).`;
  }
  return undefined;
}

export function existingKeys(emu: EmuCore, squidId: string): Set<string> {
  const keys = new Set<string>();
  for (const t of store.records(emu, 'tasks')) if (t.squid === squidId) keys.add(paramsKey(t.params as Rec));
  return keys;
}

export function registerTasks(emu: EmuCore): void {
  emu.route('POST', '/v1/tasks', (req) => {
    const b = bodyObject(req);
    const f = findSquid(emu, b.squid);
    if (f.res) return f.res;
    if (!Array.isArray(b.tasks) || b.tasks.length === 0 || !b.tasks.every(isRecord))
      return errB(400, 'tasks must be a non-empty list of objects.', 'tasks');
    const crawler = store.crawlerOf(emu, f.rec.crawler);
    const tasks = (b.tasks as Rec[]).map((t) => taskParamsOf(defOf(crawler), t));
    for (const [i, t] of tasks.entries()) {
      const problem = taskProblem(crawler, t);
      if (problem) return errB(400, `tasks[${i}]: ${problem}`, 'tasks');
    }
    const seen = existingKeys(emu, String(f.rec.id));
    let duplicated = 0;
    const created: Rec[] = [];
    for (const t of tasks) {
      const key = paramsKey(t);
      if (seen.has(key)) {
        duplicated++;
        continue;
      }
      seen.add(key);
      created.push(taskCreatedView(newTask(emu, f.rec, paramsOf(t), emu.clock.now())));
    }
    emu.markDirty();
    return json(200, { duplicated_count: duplicated, tasks: created });
  });

  emu.route('GET', '/v1/tasks', (req) => {
    const f = findSquid(emu, req.query.get('squid') ?? undefined);
    if (f.res) return f.res;
    // `type` is a detail level, not a filter (api-reference: "type default url; params = fuller detail"): every task
    // of the squid either way, as the list-tasks sample shows them (url), or as GET /v1/tasks/{id} shows each (params:
    // the docs do not show the fuller record; the get-task page's is the fullest they have, its id as `id`).
    const type = req.query.get('type');
    if (type !== null && type !== 'url' && type !== 'params') return errB(400, 'type must be url or params.', 'type');
    const list = store.records(emu, 'tasks').filter((t) => t.squid === f.rec.id);
    const known = type === 'params' ? taskLookups(emu) : undefined;
    const full = (t: Rec) => {
      const { hash_value: id, ...detail } = taskDetailView(emu, t, known);
      return { id, ...detail };
    };
    const view = known ? full : taskListView;
    return paginate(req, list, view, { freePlan: emu.config.freePlan, style: 'errB', noRange: true });
  });

  emu.route('GET', '/v1/tasks/:hash', (req) => {
    const t = store.record(emu, 'tasks', req.params.hash);
    return t ? json(200, taskDetailView(emu, t)) : errB(404, 'Task not found', 'task_hash');
  });

  emu.route('DELETE', '/v1/tasks/:hash', (req) => {
    const t = store.record(emu, 'tasks', req.params.hash);
    if (!t) return errB(404, 'Task not found', 'task_hash');
    store.dropRecord(emu, 'tasks', req.params.hash);
    emu.markDirty();
    return json(200, { id: t.id, object: 'task', deleted: true });
  });
}
