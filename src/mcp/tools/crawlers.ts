// crawlers_search, crawlers_get, crawlers_params: finding the crawler for a job and what it needs.
import { idOutput, objOutput, rec, type ToolDef, verbRec } from './kit.js';
import type { Crawler } from '../../api/records.js';
import { isRecord, type Rec } from '../../lib/guards.js';

const crawlerRow = (c: Crawler): Rec =>
  rec({
    id: c.id,
    name: c.name,
    slug: c.slug,
    credits_per_row: c.credits_per_row,
    is_premium: c.is_premium || undefined,
    has_issues: c.has_issues || undefined,
    account_type: isRecord(c.account) ? c.account.type : undefined,
  });

/**
 * Other names people and agents call a platform by: a query word on the left also matches the words on the right
 * (LinkedIn's lead lists are Sales Navigator; X is Twitter).
 */
const ALIASES: Record<string, string[]> = {
  linkedin: ['sales navigator', 'linkedin'],
  x: ['twitter'],
  gmaps: ['google maps'],
  maps: ['google maps'],
  fb: ['facebook'],
  ig: ['instagram'],
  insta: ['instagram'],
};

/** The account a crawler needs, as words a search matches: its type and domain. */
const accountWords = (a: unknown) => (isRecord(a) ? `${String(a.type ?? '')} ${String(a.domain ?? '')}` : '');

/** Words → the crawlers matching all of them (a word or one of its aliases); else up to 5 matching most of them. */
export function searchCrawlers(all: Crawler[], query: string): { exact: boolean; items: Rec[] } {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const text = (c: Crawler) =>
    `${c.name ?? ''} ${c.slug ?? ''} ${c.description ?? ''} ${accountWords(c.account)}`.toLowerCase();
  const has = (c: Crawler, w: string) => {
    const t = text(c);
    // A short word (x, fb) matches a whole word only: "x" is in every "export".
    const own = w.length <= 2 ? new RegExp(`(^|[^\\p{L}\\p{N}])${w}([^\\p{L}\\p{N}]|$)`, 'u').test(t) : t.includes(w);
    return own || (ALIASES[w] ?? []).some((alias) => t.includes(alias));
  };
  const scored = all.map((c) => ({ c, matched: words.filter((w) => has(c, w)) }));
  const exact = scored.filter((s) => words.length && s.matched.length === words.length);
  if (exact.length) return { exact: true, items: exact.map((s) => crawlerRow(s.c)) };
  const near = scored
    .filter((s) => s.matched.length)
    .sort((x, y) => y.matched.length - x.matched.length)
    .slice(0, 5);
  return { exact: false, items: near.map((s) => ({ ...crawlerRow(s.c), matched: s.matched })) };
}

export const crawlersSearch: ToolDef = {
  name: 'crawlers_search',
  title: 'Search crawlers',
  access: 'read',
  description:
    'Find the crawler for a job by words (e.g. "google maps", "linkedin profile"): the crawlers whose name, slug or ' +
    'description hold every word; else up to 5 near ones with the words they matched (exact: false). Platform nicknames ' +
    'match too: linkedin → Sales Navigator, x → Twitter, gmaps → Google Maps. Start here, then crawlers_get.',
  input: (z) => ({ query: z.string().min(1).describe('words to look for') }),
  output: (z) => ({ exact: z.boolean(), items: z.array(z.record(z.string(), z.unknown())) }),
  run: async (t, a) => {
    const { data } = await t.verb(['crawlers', 'list', '--all']);
    return searchCrawlers((Array.isArray(data) ? data : []) as Crawler[], String(a.query));
  },
};

export const crawlersGet: ToolDef = {
  name: 'crawlers_get',
  title: 'A crawler: inputs, outputs, price',
  access: 'read',
  description:
    'What a crawler needs and gives. task_inputs: the groups a task can be ONE of (a URL task, or a parameter task ' +
    'of several fields): give the required inputs of one group per task, by their wire name (tasks_add tasks, or go ' +
    'tasks). squid_params: set once on the squid (params of squids_create/go), by wire name. functions: paid add-ons ' +
    '(params "functions.<name>": true/false), some ON BY DEFAULT and billed per row. Also the output columns, credits ' +
    "per row, and the account type it needs (attach one with squids_attach_account, or go's account).",
  input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
  output: (z) => ({
    ...idOutput(z),
    task_inputs: z.array(z.record(z.string(), z.unknown())).optional(),
    squid_params: z.array(z.record(z.string(), z.unknown())).optional(),
    functions: z.array(z.record(z.string(), z.unknown())).optional(),
    outputs: z.array(z.string()).optional(),
  }),
  run: async (t, a) => {
    const { data } = await t.verb(['crawlers', 'get', '--', String(a.crawler)]);
    const c = (data ?? {}) as Crawler & { input?: Rec[]; result?: string[] };
    return rec({ ...crawlerRow(c), ...inputsOf(c.input ?? []), outputs: c.result });
  },
};

/**
 * A crawler's inputs as an agent uses them: the task-level ones as "one of" groups (a URL task, or a parameter task:
 * is_params), the squid-level parameters, and the paid functions, each with its level and the wire name it is sent
 * as. The same wire name at two levels (a task's country and the squid's country) is two entries, never one name twice
 * in one list. Descriptions whole.
 */
export function inputsOf(input: Rec[]): Rec {
  const entry = (i: Rec, level: string, wire: string) =>
    rec({
      name: String(i.name),
      level,
      wire,
      type: i.type === 'string' ? undefined : i.type,
      required: i.required || undefined,
      default: i.default,
      example: level === 'task' ? i.example : undefined,
      credits_per_row: i.credits_per_function ?? i.credits_per_row,
      description: typeof i.description === 'string' ? i.description.trim() : undefined,
    });
  const isFunction = (i: Rec) => i.function !== undefined || i.credits_per_function !== undefined;
  const task = input.filter((i) => i.level === 'task');
  const groups = [
    { task: 'url', inputs: task.filter((i) => !i.is_params) },
    { task: 'params', inputs: task.filter((i) => i.is_params) },
  ].filter((g) => g.inputs.length);
  const unique = (list: Rec[]) => list.filter((x, n) => list.findIndex((y) => y.wire === x.wire) === n);
  return {
    task_inputs: groups.map((g) => ({
      one_of: g.task,
      how:
        g.task === 'url'
          ? 'one task per URL: {"url": "…"}'
          : 'one task per set of these fields, sent together: {"field": "…", …}',
      inputs: unique(g.inputs.map((i) => entry(i, 'task', String(i.name)))),
    })),
    squid_params: unique(
      input.filter((i) => i.level === 'squid' && !isFunction(i)).map((i) => entry(i, 'squid', String(i.name))),
    ),
    functions: unique(input.filter(isFunction).map((i) => entry(i, 'function', `functions.${String(i.name)}`))),
  };
}

export const crawlersParams: ToolDef = {
  name: 'crawlers_params',
  title: "A crawler's parameters",
  access: 'read',
  description:
    'The squid-level parameters and paid functions of a crawler, with defaults: `sq crawlers params <crawler> --json`.',
  input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
  output: (z) => objOutput(z),
  run: (t, a) => verbRec(t, ['crawlers', 'params', '--', String(a.crawler)]),
};
