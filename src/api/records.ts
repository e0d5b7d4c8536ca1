// The API's records as sq relies on them: one zod schema per document an endpoint promises, and the types inferred
// from them. Loose on purpose (api-reference §15): each schema checks only the fields sq reads, lets every other field
// through, and accepts the documented variants. An answer that fails its schema is not that document: `answerCheck`
// names the first problem in an exit-1 error (http.ts). zod/mini: the functional build of zod, cheaper to load.
import * as z from 'zod/mini';
import { jsonKind, type Rec } from '../lib/guards.js';

const id = z.string().check(z.minLength(1));
const text = z.optional(z.nullable(z.string()));

/** A record's type: the fields its schema checks, each optional (a listing's items are not checked one by one). */
type Read<S extends z.ZodMiniType> = Partial<z.infer<S>>;

export const Squid = z.looseObject({ id, name: text });
export type Squid = Read<typeof Squid>;

/** add/list/delete say `id`, get-task says `hash_value`. */
export const Task = z.union([z.looseObject({ id }), z.looseObject({ hash_value: id })]);
export type Task = Read<typeof Task>;

/** Status comes lowercase in JSON and UPPERCASE on some pages; `duration` as seconds or "H:MM:SS.ffffff". */
export const Run = z.looseObject({ id, status: z.string() });
export type Run = Read<typeof Run>;

export const Crawler = z.looseObject({ id, name: text, slug: text });
export type Crawler = Read<typeof Crawler>;

export const Account = z.looseObject({ id });
export type Account = Read<typeof Account>;

/** Result rows are open-ended objects whose keys vary row by row: only their being an object is checked. */
export const Result = z.looseObject({});
export type Result = Read<typeof Result>;

/** user-me.mdx's and authentication.mdx's samples differ; both carry the email. */
export const User = z.looseObject({ email: z.string() });
export type User = Read<typeof User>;

/** `available` is the period's whole allotment, `consumed` what was used: remaining is their difference. */
export const Balance = z.looseObject({ available: z.number(), consumed: z.number() });
export type Balance = Read<typeof Balance>;

/** A run's progress (percent_done "NN%", eta "∞"): only shown, so only its being an object is checked. */
export const RunStats = z.looseObject({});
export type RunStats = Read<typeof RunStats>;

/** Counters may be missing or disagree with `data` (api-reference §15): pages.ts reads them defensively. */
export function Page<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    total_results: z.optional(z.nullable(z.number())),
    next: z.optional(z.nullable(z.string())),
  });
}
/** The pagination envelope as pages.ts reads it (checked by hand there: only `data` being a list is relied on). */
export interface Page<T = Rec> {
  total_results?: number | null;
  limit?: number | null;
  page?: number | null;
  total_pages?: number | null;
  result_from?: number | null;
  result_to?: number | null;
  data: T[];
  next?: string | null;
  previous?: string | null;
  warning?: string;
}

/** The check http.ts runs on an answer: null when it is `noun`, else what is wrong: `not a run: "id" is missing`. */
export function answerCheck(schema: z.ZodMiniType, noun: string): (data: unknown) => string | null {
  return (data) => {
    const r = z.safeParse(schema, data);
    if (r.success) return null;
    const issue = r.error.issues[0];
    const where = issue.path.length ? issue.path.map(String).join('.') : '';
    const got = where ? valueAt(data, issue.path) : data;
    const what = got === undefined ? 'is missing' : `is ${jsonKind(got)}`;
    return `not ${noun}: ${where ? `"${where}" ${what}` : `it ${what}`}`;
  };
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

export const checks = {
  squid: answerCheck(Squid, 'a squid'),
  task: answerCheck(Task, 'a task'),
  run: answerCheck(Run, 'a run'),
  runStats: answerCheck(RunStats, 'the stats of a run'),
  crawler: answerCheck(Crawler, 'a crawler'),
  account: answerCheck(Account, 'an account'),
  user: answerCheck(User, 'a user'),
  balance: answerCheck(Balance, 'a balance'),
};
