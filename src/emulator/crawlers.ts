// The demo catalogue of crawlers. Each definition yields the list shape, the detail shape (input/result),
// the keyed params map and the attributes, so every crawler endpoint is derived from one place.
import { hashId } from './util.js';

interface TaskParamDef {
  type: string;
  group?: string;
  regex?: string;
  required: boolean;
  default: unknown;
  example?: unknown;
  description: string;
}
interface SquidParamDef {
  type: string;
  allowed?: unknown[];
  default: unknown;
  required: boolean;
  description: string;
}
interface FunctionDef {
  display: string;
  credits_per_function: number;
  default: boolean;
}
export interface AttrDef {
  name: string;
  type: 'string' | 'integer' | 'float' | 'boolean' | 'text' | 'json';
  example: unknown;
  /** Owning function key; undefined = base attribute (is_main). */
  fn?: string;
  description: string;
}
export interface CrawlerDef {
  slug: string;
  name: string;
  credits_per_row: number;
  max_concurrency: number;
  is_premium: boolean;
  has_issues: boolean;
  account: null | { type: string; baseurl: string; cookies: { name: string; required: boolean }[] };
  task: Record<string, TaskParamDef>;
  squid: Record<string, SquidParamDef>;
  functions: Record<string, FunctionDef>;
  attributes: AttrDef[];
}

const ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7"/></svg>',
).toString('base64');

export function crawlerId(slug: string): string {
  return hashId(slug, 'crawler');
}

const maxResults: SquidParamDef = { type: 'int', default: null, required: false, description: 'Stop after this many results.' };
const url = (example: string, regex: string): TaskParamDef => ({
  type: 'string', group: 'url', regex, required: false, default: null, example, description: 'Page URL to scrape.',
});

export const CRAWLER_DEFS: CrawlerDef[] = [
  {
    slug: 'google-maps-search',
    name: 'Google Maps Search',
    credits_per_row: 2,
    max_concurrency: 20,
    is_premium: false,
    has_issues: false,
    account: null,
    task: {
      url: url('https://www.google.com/maps/search/restaurants+paris', '^https://(www\\.)?google\\.[a-z.]+/maps'),
      keyword: { type: 'string', group: 'location', required: false, default: null, example: 'restaurants', description: 'What to search.' },
      city: { type: 'string', group: 'location', required: false, default: null, example: 'Paris', description: 'City.' },
      country: { type: 'string', group: 'location', required: false, default: null, example: 'France', description: 'Country.' },
    },
    squid: {
      max_results: maxResults,
      language: { type: 'string', allowed: ['en', 'fr', 'de', 'es'], default: 'en', required: false, description: 'Interface language.' },
    },
    functions: { contacts: { display: 'Contact details', credits_per_function: 1, default: false } },
    attributes: [
      { name: 'name', type: 'string', example: 'Le Petit Bistro', description: 'Place name.' },
      { name: 'address', type: 'string', example: '12 Rue de Rivoli, 75004 Paris', description: 'Street address.' },
      { name: 'category', type: 'string', example: 'Restaurant', description: 'Main category.' },
      { name: 'rating', type: 'float', example: 4.5, description: 'Average rating.' },
      { name: 'reviews_count', type: 'integer', example: 312, description: 'Number of reviews.' },
      { name: 'phone', type: 'string', example: '+33 1 42 00 00 00', description: 'Phone number.' },
      { name: 'website', type: 'string', example: 'https://example.fr', description: 'Website.' },
      { name: 'url', type: 'string', example: 'https://maps.google.com/?cid=1', description: 'Google Maps URL.' },
      { name: 'email', type: 'string', example: 'contact@example.fr', fn: 'contacts', description: 'E-mail found on the website.' },
    ],
  },
  {
    slug: 'twitter-profile-scraper',
    name: 'Twitter Profile Scraper',
    credits_per_row: 3,
    max_concurrency: 10,
    is_premium: false,
    has_issues: false,
    account: {
      type: 'twitter-sync',
      baseurl: 'https://x.com',
      cookies: [
        { name: 'auth_token', required: true },
        { name: 'ct0', required: true },
      ],
    },
    task: { url: url('https://x.com/nasa', '^https://(x|twitter)\\.com/') },
    squid: { max_results: maxResults },
    functions: {},
    attributes: [
      { name: 'username', type: 'string', example: 'nasa', description: 'Handle.' },
      { name: 'display_name', type: 'string', example: 'NASA', description: 'Display name.' },
      { name: 'bio', type: 'text', example: 'Exploring the universe.', description: 'Profile text.' },
      { name: 'followers', type: 'integer', example: 1000, description: 'Followers.' },
      { name: 'following', type: 'integer', example: 100, description: 'Following.' },
      { name: 'verified', type: 'boolean', example: true, description: 'Verified badge.' },
      { name: 'url', type: 'string', example: 'https://x.com/nasa', description: 'Profile URL.' },
    ],
  },
  {
    slug: 'sales-navigator-leads',
    name: 'Sales Navigator Leads Search',
    credits_per_row: 20,
    max_concurrency: 10,
    is_premium: true,
    has_issues: false,
    account: {
      type: 'sales-nav-sync',
      baseurl: 'https://www.linkedin.com',
      cookies: [{ name: 'li_at', required: true }],
    },
    task: { url: url('https://www.linkedin.com/sales/search/people?query=cto', '^https://www\\.linkedin\\.com/sales/') },
    squid: {
      max_results: maxResults,
      // Required with no default: a new squid of this crawler is not ready until it is set (SquidNotReady).
      results_type: { type: 'string', allowed: ['leads', 'accounts'], default: null, required: true, description: 'Which Sales Navigator list to collect.' },
    },
    // Half a credit per row: runs using it cost fractional credits.
    functions: { email_finder: { display: 'Email finder', credits_per_function: 0.5, default: false } },
    attributes: [
      { name: 'full_name', type: 'string', example: 'Jane Doe', description: 'Lead name.' },
      { name: 'title', type: 'string', example: 'CTO', description: 'Job title.' },
      { name: 'company', type: 'string', example: 'Acme', description: 'Company.' },
      { name: 'location', type: 'string', example: 'Paris', description: 'Location.' },
      { name: 'profile_url', type: 'string', example: 'https://www.linkedin.com/in/jane', description: 'Profile URL.' },
      { name: 'email', type: 'string', example: 'jane@acme.test', fn: 'email_finder', description: 'Work e-mail found.' },
    ],
  },
  {
    slug: 'amazon-products',
    name: 'Amazon Products Scraper',
    credits_per_row: 1,
    max_concurrency: 20,
    is_premium: false,
    has_issues: false,
    account: null,
    task: { url: url('https://www.amazon.com/s?k=headphones', '^https://www\\.amazon\\.') },
    squid: { max_results: maxResults },
    functions: {},
    attributes: [
      { name: 'title', type: 'string', example: 'Wireless Headphones', description: 'Product title.' },
      { name: 'asin', type: 'string', example: 'B000000000', description: 'Amazon id.' },
      { name: 'price', type: 'float', example: 59.99, description: 'Price.' },
      { name: 'currency', type: 'string', example: 'USD', description: 'Currency.' },
      { name: 'rating', type: 'float', example: 4.2, description: 'Rating.' },
      { name: 'reviews_count', type: 'integer', example: 1200, description: 'Reviews.' },
      { name: 'in_stock', type: 'boolean', example: true, description: 'Availability.' },
      { name: 'url', type: 'string', example: 'https://www.amazon.com/dp/B000000000', description: 'Product URL.' },
    ],
  },
  {
    slug: 'indeed-jobs',
    name: 'Indeed Jobs Scraper',
    credits_per_row: 0.5,
    max_concurrency: 10,
    is_premium: false,
    // Its runs crash: the demo's way to show run.error.
    has_issues: true,
    account: null,
    task: { url: url('https://www.indeed.com/jobs?q=developer', '^https://([a-z]+\\.)?indeed\\.') },
    squid: { max_results: maxResults },
    functions: {},
    attributes: [
      { name: 'job_title', type: 'string', example: 'Developer', description: 'Title.' },
      { name: 'company', type: 'string', example: 'Acme', description: 'Employer.' },
      { name: 'salary', type: 'string', example: '$100k', description: 'Salary text.' },
      { name: 'details', type: 'json', example: { remote: true }, description: 'Extra data.' },
      { name: 'url', type: 'string', example: 'https://www.indeed.com/viewjob?jk=1', description: 'Job URL.' },
    ],
  },
];

/** The stored crawler record: public fields plus the definition the other endpoints project from. */
export function crawlerRecord(def: CrawlerDef): Record<string, unknown> {
  return {
    id: crawlerId(def.slug),
    object: 'crawler',
    name: def.name,
    slug: def.slug,
    icon: ICON,
    is_public: true,
    is_available: true,
    is_premium: def.is_premium,
    has_issues: def.has_issues,
    max_concurrency: def.max_concurrency,
    credits_per_row: def.credits_per_row,
    account: def.account ? { ...def.account, icon: ICON } : null,
    def: def as unknown as Record<string, unknown>,
  };
}

export function defOf(crawler: Record<string, unknown>): CrawlerDef {
  return crawler.def as CrawlerDef;
}

export function crawlerSummary(c: Record<string, unknown>): Record<string, unknown> {
  const { def: _def, ...rest } = c;
  return rest;
}

export function crawlerDetail(c: Record<string, unknown>): Record<string, unknown> {
  const def = defOf(c);
  const input: Record<string, unknown>[] = [];
  let priority = 1;
  for (const [name, p] of Object.entries(def.task)) {
    input.push({ name, type: p.type, level: 'task', required: p.required, default: p.default, example: p.example ?? null,
      description: p.description, regex: p.regex, is_params: p.group !== 'url', priority: priority++ });
  }
  for (const [name, p] of Object.entries(def.squid)) {
    input.push({ name, type: p.type, level: 'squid', required: p.required, default: p.default, description: p.description,
      is_params: true, priority: priority++ });
  }
  for (const [name, f] of Object.entries(def.functions)) {
    input.push({ name, type: 'boolean', level: 'squid', required: false, default: f.default, description: f.display,
      function: true, credits_per_function: f.credits_per_function, display: f.display, priority: priority++ });
  }
  return { ...crawlerSummary(c), input, result: def.attributes.map((a) => a.name) };
}

export function crawlerParams(c: Record<string, unknown>): Record<string, unknown> {
  const def = defOf(c);
  const task: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(def.task)) {
    task[name] = { type: p.type, ...(p.group ? { group: p.group } : {}), ...(p.regex ? { regex: p.regex } : {}),
      required: p.required, default: p.default, attribute: name, is_params: p.group !== 'url' };
  }
  const squid: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(def.squid)) {
    squid[name] = { type: p.type, ...(p.allowed ? { allowed: p.allowed } : {}), default: p.default,
      required: p.required, attribute: name, is_params: true };
  }
  const fns = Object.entries(def.functions);
  if (fns.length) {
    squid.functions = Object.fromEntries(
      fns.map(([name, f], i) => [name, { sort: i + 1, default: f.default, credits_per_function: f.credits_per_function }]),
    );
  }
  return { task, squid };
}

export function crawlerAttributes(c: Record<string, unknown>): Record<string, unknown>[] {
  const def = defOf(c);
  return def.attributes.map((a) => ({
    name: a.name,
    type: a.type,
    example: a.example ?? null,
    function: a.fn ? def.functions[a.fn]?.display ?? a.fn : 'Base',
    is_main: !a.fn,
    description: a.description,
  }));
}

/** A squid can run once every required squid param of its crawler has a value. */
export function isReady(def: CrawlerDef, params: Record<string, unknown>): boolean {
  return Object.entries(def.squid).every(([name, p]) => !p.required || (params[name] !== null && params[name] !== undefined));
}

/** Why a value is refused for a squid param the crawler defines (its type, its allowed values), or null. */
export function squidParamProblem(def: CrawlerDef, name: string, value: unknown): string | null {
  const p = def.squid[name];
  if (!p || value === null) return null;
  if (p.type === 'int' && !Number.isInteger(value)) return `params.${name} must be an integer (InvalidParamType).`;
  if (p.allowed && !p.allowed.includes(value))
    return `params.${name} must be one of ${p.allowed.map((a) => JSON.stringify(a)).join(', ')} (InvalidParameterValue).`;
  return null;
}

/** Default squid params at creation: each squid param's default, functions all at their default. */
export function defaultSquidParams(def: CrawlerDef): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(def.squid)) params[name] = p.default;
  const fns = Object.entries(def.functions);
  if (fns.length) params.functions = Object.fromEntries(fns.map(([n, f]) => [n, f.default]));
  return params;
}
