// crawlers_search, crawlers_get, crawlers_params: finding the crawler for a job and what it needs.
import { idOutput, objOutput, rec, type ToolDef } from './kit.js';
import type { Crawler } from '../../api/records.js';
import { isRecord, type Rec } from '../../lib/guards.js';

const crawlerRow = (c: Crawler): Rec =>
  rec({ id: c.id, name: c.name, slug: c.slug, credits_per_row: c.credits_per_row, is_premium: c.is_premium || undefined, has_issues: c.has_issues || undefined, account_type: isRecord(c.account) ? c.account.type : undefined });

/** Words → the crawlers matching all of them; else up to 5 matching most of them, with the words each matched. */
export function searchCrawlers(all: Crawler[], query: string): { exact: boolean; items: Rec[] } {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const text = (c: Crawler) => `${c.name ?? ''} ${c.slug ?? ''} ${c.description ?? ''}`.toLowerCase();
  const scored = all.map((c) => ({ c, matched: words.filter((w) => text(c).includes(w)) }));
  const exact = scored.filter((s) => words.length && s.matched.length === words.length);
  if (exact.length) return { exact: true, items: exact.map((s) => crawlerRow(s.c)) };
  const near = scored.filter((s) => s.matched.length).sort((x, y) => y.matched.length - x.matched.length).slice(0, 5);
  return { exact: false, items: near.map((s) => ({ ...crawlerRow(s.c), matched: s.matched })) };
}

export const crawlersSearch: ToolDef = {
  name: 'crawlers_search', title: 'Search crawlers', access: 'read',
  description:
    'Find the crawler for a job by words (e.g. "google maps", "linkedin profile"): the crawlers whose name, slug or ' +
    'description hold every word; else up to 5 near ones with the words they matched (exact: false). Start here, then crawlers_get.',
  input: (z) => ({ query: z.string().min(1).describe('words to look for') }),
  output: (z) => ({ exact: z.boolean(), items: z.array(z.record(z.string(), z.unknown())) }),
  run: async (t, a) => {
    const { data } = await t.verb(['crawlers', 'list', '--all']);
    return searchCrawlers((Array.isArray(data) ? data : []) as Crawler[], String(a.query));
  },
};

export const crawlersGet: ToolDef = {
  name: 'crawlers_get', title: 'A crawler: inputs, outputs, price', access: 'read',
  description:
    'What a crawler needs and gives: inputs with their level (task: one value per task, added with tasks_add or go\'s ' +
    'tasks; squid: set once on the squid as params; function: a paid add-on, some ON BY DEFAULT and billed per row), the ' +
    'output columns, credits per row, and the account type it needs (attach one with squids_attach_account).',
  input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
  output: (z) => ({ ...idOutput(z), inputs: z.array(z.record(z.string(), z.unknown())).optional(), outputs: z.array(z.string()).optional() }),
  run: async (t, a) => {
    const { data } = await t.verb(['crawlers', 'get', '--', String(a.crawler)]);
    const c = (data ?? {}) as Crawler & { input?: Rec[]; result?: string[] };
    // A paid function is a squid-level input with a `function`: its level is "function", with its price per row.
    const inputs = (c.input ?? []).map((i) =>
      rec({
        name: i.name,
        level: i.function !== undefined || i.credits_per_function !== undefined ? 'function' : i.level,
        type: i.type === 'string' ? undefined : i.type,
        required: i.required || undefined,
        default: i.default,
        credits_per_row: i.credits_per_function ?? i.credits_per_row,
        // A task-level input of a parameter task (instead of a URL task).
        params_task: i.is_params || undefined,
        description: firstSentence(i.description),
      }),
    );
    return rec({ ...crawlerRow(c), inputs, outputs: c.result });
  },
};

export const crawlersParams: ToolDef = {
  name: 'crawlers_params', title: 'A crawler\'s parameters', access: 'read',
  description: 'The squid-level parameters and paid functions of a crawler, with defaults: `sq crawlers params <crawler> --json`.',
  input: (z) => ({ crawler: z.string().min(1).describe('crawler id, name or slug') }),
  output: (z) => objOutput(z),
  run: async (t, a) => rec((await t.verb(['crawlers', 'params', '--', String(a.crawler)])).data),
};

/** The first sentence of a description, at most 100 characters: what an agent needs to choose, in few bytes. */
function firstSentence(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.split(/(?<=[.!?])\s/)[0].trim();
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}
