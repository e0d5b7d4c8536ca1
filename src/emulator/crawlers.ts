// The catalogue of crawlers: every crawler of the docs' examples/ pages (docs-crawlers.ts, generated from the docs by
// scripts/gen-crawlers.mjs), merged with the facts kept here by hand for the reference pages' crawlers (ids, rates,
// accounts, allowed values, functions' rates, attribute descriptions) and two crawlers of the demo seed's own. Each
// definition yields the list shape, the detail shape (input/result), the keyed params map and the attributes, so
// every crawler endpoint is derived from one place. Only the emulator loads this module (`sq emulator start`, tests).
import type { AttrDef, CrawlerDef, DocsCrawler, SquidParamDef, TaskParamDef } from './crawler-types.js';
import { DOCS_CRAWLERS, GOOGLE_MAPS_ATTRIBUTES } from './docs-crawlers.js';
import { hashId } from './util.js';
import type { CrawlerRecord } from './model/records.js';

export type { AttrDef, CrawlerDef, DocsCrawler } from './crawler-types.js';

const ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7"/></svg>',
).toString('base64');

/** Ids by slug, found once: every seed asks for each crawler's twice (~70 crawlers, an md5 and a scan each). */
const idsBySlug = new Map<string, string>();

export function crawlerId(slug: string): string {
  let id = idsBySlug.get(slug);
  if (id === undefined) {
    id = CRAWLER_DEFS.find((d) => d.slug === slug)?.id ?? hashId(slug, 'crawler');
    idsBySlug.set(slug, id);
  }
  return id;
}

/** The crawler of a slug, or undefined. */
export function crawlerDef(slug: string): CrawlerDef | undefined {
  return CRAWLER_DEFS.find((d) => d.slug === slug);
}

const maxResults: SquidParamDef = {
  type: 'int',
  default: null,
  required: false,
  description: 'Stop after this many results.',
};
/** A crawler's account: its type and site, every cookie required. */
const account = (type: string, baseurl: string, ...cookies: string[]): CrawlerDef['account'] => ({
  type,
  baseurl,
  cookies: cookies.map((name) => ({ name, required: true })),
});
const location = (example: string, required: boolean, description: string): TaskParamDef => ({
  type: 'string',
  group: 'location',
  required,
  default: null,
  example,
  description,
});
const url = (example: string, regex: string): TaskParamDef => ({
  type: 'string',
  group: 'url',
  regex,
  required: false,
  default: null,
  example,
  description: 'Page URL to scrape.',
});

const HAND_DEFS: CrawlerDef[] = [
  {
    // The docs samples' crawler (get-crawler-details, get-crawler-parameters, get-crawler-attributes, create-squid,
    // get-squid-details, update-squid, get-results): its id, slug, params, allowed values, functions and row keys.
    id: '4734d096159ef05210e0e1677e8be823',
    slug: 'google-maps-search-export',
    name: 'Google Maps Search Export',
    credits_per_row: 2,
    max_concurrency: 20,
    base_label: 'Export Local Businesses',
    // Its update page is the update-squid reference page (it has no examples page): the settings record, 200.
    update_answer: 'settings',
    update_status: 200,
    task: {
      url: {
        type: 'string',
        group: 'url',
        regex: 'http(.*)google(.*)/maps/(search|place)(.*)',
        required: true,
        default: null,
        example: 'https://www.google.com/maps/search/restaurant/@43.2928346,5.3662584,14z',
        description:
          'A string representing the Google Maps Search URL, containing all establishments the crawler will collect.',
      },
      city: location('Marseille', true, 'The city of the search location.'),
      region: location("Provence-Alpes-Côte d'Azur", false, 'The region of the search location.'),
      country: location('France', true, 'The country of the search location.'),
      category: location('restaurant', true, 'The activity of the search location.'),
      district: location('Vieux Port', false, 'The district of the search location.'),
    },
    squid: {
      max_results: {
        type: 'int',
        max: 200,
        default: 200,
        required: false,
        description:
          'Google Maps restricts search results to a maximum of 200. To access a larger dataset, consider utilizing our URL generator.',
      },
      country: {
        type: 'string',
        allowed: [
          'Afghanistan',
          'Albania',
          'Algeria',
          'United States',
          'United Kingdom',
          'France',
          'Germany',
          'Japan',
          'Brazil',
        ],
        default: 'United States',
        required: false,
        description: 'The country Google Maps searches in.',
      },
      ratings: {
        type: 'string',
        allowed: ['Any rating', '2.0+', '2.5+', '3.0+', '3.5+', '4.0+', '4.5+'],
        default: 'Any rating',
        required: false,
        description: 'The minimum rating of the places collected.',
      },
      language: {
        type: 'string',
        allowed: [
          'Afrikaans',
          'English (United States)',
          'Español (España)',
          'Français (France)',
          'Deutsch (Deutschland)',
          'Italiano',
          'Português (Brasil)',
          '日本語',
          '简体中文',
          '繁體中文',
        ],
        default: 'English (United States)',
        required: true,
        description: 'The language of the Google Maps interface.',
      },
    },
    functions: {
      collect_business_details: {
        display: 'Collect Business Details',
        credits_per_function: 10,
        default: false,
        description: 'Extract attributes like plus_code, poi, health, and last_opening_hours_updated_at.',
      },
      fetch_business_images: {
        display: 'Fetch Business Images',
        credits_per_function: 10,
        default: false,
        description: "Collect the business's images.",
      },
      extract_emails_from_website: {
        display: 'Extract Emails From Website',
        credits_per_function: 10,
        default: true,
        description: "Extract email addresses from the business's website.",
      },
    },
    // Generated (scripts/gen-crawlers.mjs) from the reference pages: the attributes sample's columns, the get-results
    // sample's others, then the columns only the details page names, each a function's (docs/emulator.md).
    attributes: GOOGLE_MAPS_ATTRIBUTES,
  },
  {
    // list-crawlers sample: id, slug, name, concurrency and rate.
    id: '6c5227261fbbd3430f926d409f4c44bf',
    slug: 'twitter-profile-scraper',
    name: 'Twitter Profile Scraper',
    credits_per_row: 2,
    max_concurrency: 20,
    account: account('twitter-sync', 'https://x.com', 'auth_token', 'ct0'),
    // examples/twitter-profile-scraper: a task is a profile URL or a `screen_name`; the squid takes `json` only (the
    // update answer shows the params whole: {json}).
    task: {
      url: url('https://x.com/nasa', '^https://(x|twitter)\\.com/'),
      screen_name: {
        type: 'string',
        group: 'screen_name',
        required: true,
        default: null,
        example: 'elonmusk',
        description: "The profile's handle, without @.",
      },
    },
    squid: {
      json: {
        type: 'boolean',
        default: false,
        required: false,
        description: 'Also export each profile as its raw JSON.',
      },
    },
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
    // list-crawlers sample: id, slug, name, concurrency, rate and the account's cookies.
    id: 'a1d243d3824a1ac773414416eb80362d',
    slug: 'sales-navigator-leads-scraper',
    name: 'Sales Navigator Leads Scraper',
    credits_per_row: 3,
    max_concurrency: 10,
    account: account('sales-nav-sync', 'https://www.linkedin.com', 'li_at', 'JSESSIONID'),
    task: {
      url: url('https://www.linkedin.com/sales/search/people?query=cto', '^https://www\\.linkedin\\.com/sales/'),
    },
    squid: {
      max_results: maxResults,
      // examples/sales-navigator-leads-scraper/update-settings: results per search page and pages per search.
      profiles_per_page: {
        type: 'int',
        allowed: [25],
        default: 25,
        required: false,
        description: 'Profiles per Sales Navigator search page.',
      },
      max_pages: {
        type: 'int',
        default: 100,
        required: false,
        description: 'Search pages collected per task (at most 100).',
      },
    },
    // Half a credit per row: runs using it cost fractional credits.
    functions: { email_enrichment: { display: 'Email enrichment', credits_per_function: 0.5, default: false } },
    attributes: [
      { name: 'full_name', type: 'string', example: 'Jane Doe', description: 'Lead name.' },
      { name: 'title', type: 'string', example: 'CTO', description: 'Job title.' },
      { name: 'company', type: 'string', example: 'Acme', description: 'Company.' },
      { name: 'location', type: 'string', example: 'Paris', description: 'Location.' },
      { name: 'profile_url', type: 'string', example: 'https://www.linkedin.com/in/jane', description: 'Profile URL.' },
      {
        name: 'email',
        type: 'string',
        example: 'jane@acme.test',
        fn: 'email_enrichment',
        optional: true,
        description: 'Work e-mail found.',
      },
    ],
  },
  {
    // list-crawlers sample: id, slug, name, account, concurrency and rate. Its inputs and attributes are not
    // sampled: a page URL and a few page fields stand in for them.
    id: 'c47dfc2beba9fdc2472d3b3321b06b66',
    slug: 'facebook-pages-search-export',
    name: 'Facebook Pages Search Export',
    credits_per_row: 20,
    max_concurrency: 20,
    account: account('facebook-sync', 'https://www.facebook.com', 'c_user', 'xs'),
    task: { url: url('https://www.facebook.com/search/pages?q=bakery', '^https://(www\\.)?facebook\\.com/') },
    // examples/facebook-pages-search-export/update-settings: params {} (the crawler has none).
    squid: {},
    functions: {},
    attributes: [
      { name: 'name', type: 'string', example: 'Boulangerie Marcel', description: 'Page name.' },
      { name: 'category', type: 'string', example: 'Bakery', description: 'Page category.' },
      { name: 'followers', type: 'integer', example: 1200, description: 'Followers.' },
      { name: 'website', type: 'string', example: 'https://example.fr', optional: true, description: 'Website.' },
      { name: 'url', type: 'string', example: 'https://www.facebook.com/boulangeriemarcel', description: 'Page URL.' },
    ],
  },
  {
    // examples/google-maps-reviews-scraper (add-tasks, update-settings) and the configure-chain example's target: a
    // place URL a task; the update-settings page's params and its one function.
    slug: 'google-maps-reviews-scraper',
    name: 'Google Maps Reviews Scraper',
    credits_per_row: 1,
    max_concurrency: 10,
    task: {
      url: url(
        "https://www.google.com/maps/place/La+Tour+d'Argent/@48.8499542,2.3524796,17z",
        '^https://(www\\.google\\.[a-z.]+/maps|maps\\.google\\.[a-z.]+/)',
      ),
    },
    squid: {
      max_results: { type: 'int', default: 20, required: false, description: 'Reviews collected per place.' },
      sort_by: {
        type: 'string',
        allowed: ['newest', 'most_relevant', 'highest_rating', 'lowest_rating'],
        default: 'newest',
        required: false,
        description: 'Order of the reviews.',
      },
      fetch_since: {
        type: 'string',
        default: null,
        required: false,
        description: 'Only reviews since this date or age (e.g. 7d).',
      },
      skip_reviews_without_text: {
        type: 'boolean',
        default: false,
        required: false,
        description: 'Leave out reviews without text.',
      },
      skip_reviews_without_image: {
        type: 'boolean',
        default: false,
        required: false,
        description: 'Leave out reviews without an image.',
      },
      rating_filter: {
        type: 'string',
        allowed: ['All', '1', '2', '3', '4', '5'],
        default: 'All',
        required: false,
        description: 'Only reviews with this rating.',
      },
      language: {
        type: 'string',
        allowed: ['English (United States)', 'Français (France)', 'Deutsch (Deutschland)', 'Español (España)'],
        default: 'English (United States)',
        required: false,
        description: 'Language of the reviews.',
      },
    },
    functions: {
      get_short_review_link: {
        display: 'Get Short Review Link',
        credits_per_function: 1,
        default: false,
        description: 'A short link to each review.',
      },
    },
    attributes: [
      { name: 'author', type: 'string', example: 'Marie D.', description: 'Reviewer name.' },
      { name: 'rating', type: 'integer', example: 5, description: 'Stars given.' },
      { name: 'text', type: 'text', example: 'Wonderful view.', optional: true, description: 'Review text.' },
      { name: 'published_at', type: 'string', example: '2025-03-01', description: 'Date of the review.' },
      {
        name: 'url',
        type: 'string',
        example: 'https://maps.google.com/?cid=1357935577401699828',
        description: 'Place URL.',
      },
      {
        name: 'short_review_link',
        type: 'string',
        example: 'https://maps.app.goo.gl/abc',
        fn: 'get_short_review_link',
        description: 'Short link to the review.',
      },
    ],
  },
  {
    // The get-run-credits sample's crawler: rates {credits_per_row: 4, get_phone_numbers: 6} and the base label
    // "Export Listings (No Phone)", i.e. listings whose phone is a paid function. examples/leboncoin-iter-listings-with-phone
    // gives its name ("Leboncoin Listings & Phone Search Export"), a search URL a task (add-tasks) and its params
    // (update-settings: max_pages, fetch_since, max_results, online_shop, functions.get_phone_numbers); the rows
    // are the sampled ones of its no-phone sibling (examples/leboncoin-iter-listings/get-results), plus the phone.
    // Not sampled: its id (a hash of the slug), concurrency and the params' defaults (the examples' values).
    slug: 'leboncoin-iter-listings-with-phone',
    name: 'Leboncoin Listings & Phone Search Export',
    credits_per_row: 4,
    max_concurrency: 10,
    base_label: 'Export Listings (No Phone)',
    task: {
      url: url(
        'https://www.leboncoin.fr/annonces/offres/provence_alpes_cote_d_azur/bouches_du_rhone/p-2',
        '^https://www\\.leboncoin\\.fr/',
      ),
    },
    squid: {
      max_pages: { type: 'int', default: 99, required: false, description: 'Search pages collected per task.' },
      fetch_since: {
        type: 'string',
        default: null,
        required: false,
        description: 'Only listings published since this age (e.g. 24h).',
      },
      max_results: maxResults,
      online_shop: {
        type: 'boolean',
        default: false,
        required: false,
        description: 'Also collect listings of online shops.',
      },
    },
    functions: {
      get_phone_numbers: {
        display: 'Get Phone Numbers',
        credits_per_function: 6,
        default: false,
        description: "The seller's phone number, where the listing shows one.",
      },
    },
    attributes: [
      { name: 'annonce_id', type: 'string', example: '3017342971', description: 'Listing id.' },
      { name: 'title', type: 'string', example: 'Cartable', description: 'Listing title.' },
      {
        name: 'url',
        type: 'string',
        example: 'https://www.leboncoin.fr/ad/equipements_fournitures_de_bureau/3017342971',
        description: 'Listing URL.',
      },
      { name: 'price', type: 'integer', example: 5, description: 'Price.' },
      { name: 'currency', type: 'string', example: 'EUR', description: 'Currency.' },
      {
        name: 'category_name',
        type: 'string',
        example: 'Équipements & Fournitures de bureau',
        description: 'Category.',
      },
      { name: 'city', type: 'string', example: 'Aix-en-Provence', description: 'City.' },
      { name: 'postal_code', type: 'string', example: '13100', description: 'Postal code.' },
      { name: 'region', type: 'string', example: "Provence-Alpes-Côte d'Azur", description: 'Region.' },
      { name: 'owner_name', type: 'string', example: 'EMMA', description: 'Seller name.' },
      { name: 'has_phone', type: 'boolean', example: false, description: 'Whether the listing shows a phone number.' },
      {
        name: 'first_publication_date',
        type: 'string',
        example: '2025-07-04T04:05:30Z',
        description: 'First published.',
      },
      {
        name: 'description',
        type: 'text',
        example: "Cartable d'ordinateur noir avec bandoulière.",
        description: 'Listing text.',
      },
      {
        name: 'phone',
        type: 'string',
        example: '+33612345678',
        fn: 'get_phone_numbers',
        optional: true,
        description: 'Seller phone number.',
      },
    ],
  },
  {
    slug: 'amazon-products',
    name: 'Amazon Products Scraper',
    credits_per_row: 1,
    max_concurrency: 20,
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
    has_issues: true,
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

// The quick starts' and examples pages' Google Maps crawler slug (examples/google-maps-leads-scraper/…, whose answers
// name the squid "Google Maps Search Export"): the same inputs, params, functions and rows under that slug, so a
// script written from those pages finds a crawler here. Its update answers as its own update-settings page shows (201).
{
  const gm = HAND_DEFS.find((d) => d.slug === 'google-maps-search-export')!;
  const { update_answer: _a, update_status: _s, ...inputs } = gm;
  HAND_DEFS.push({ ...inputs, id: undefined, slug: 'google-maps-leads-scraper', name: 'Google Maps Leads Scraper' });
}

/** The site accounts of the docs' list-account-types sample, by type (the seed's account types). */
const ACCOUNTS: Record<string, CrawlerDef['account']> = {
  'twitter-sync': account('twitter-sync', 'https://x.com', 'auth_token', 'ct0'),
  'sales-nav-sync': account('sales-nav-sync', 'https://www.linkedin.com', 'li_at', 'JSESSIONID'),
  'facebook-sync': account('facebook-sync', 'https://www.facebook.com', 'c_user', 'xs'),
};

/** A generated crawler as a definition: its account type resolved. */
function fromDocs(d: DocsCrawler): CrawlerDef {
  const { account_type, ...rest } = d;
  return { ...rest, attributes: sampled(d), ...(account_type ? { account: ACCOUNTS[account_type] } : {}) };
}

/** The docs' columns, marked as sampled where an examples page shows them. */
function sampled(d: DocsCrawler): AttrDef[] {
  return d.assumed.includes('attributes') ? d.attributes : d.attributes.map((a) => ({ ...a, sampled: true as const }));
}

/** The facts a hand-kept crawler has of its own, which the docs' examples do not give. */
const HAND_KEPT = [
  'credits_per_row',
  'max_concurrency',
  'account',
  'attributes',
  'credits_per_function',
  'function defaults',
];

/** What a hand-kept crawler takes from the docs' examples: every param, function and column they add. */
function merge(hand: CrawlerDef, docs: DocsCrawler): CrawlerDef {
  // Columns the examples' rows show come in their order, then the hand-kept ones they do not show (functions' columns).
  const attributes = docs.assumed.includes('attributes')
    ? hand.attributes
    : [...sampled(docs), ...hand.attributes.filter((a) => !docs.attributes.some((b) => b.name === a.name))];
  return {
    ...hand,
    task: { ...docs.task, ...hand.task },
    squid: { ...hand.squid, ...Object.fromEntries(Object.entries(docs.squid).filter(([k]) => !hand.squid[k])) },
    functions: {
      ...hand.functions,
      ...Object.fromEntries(Object.entries(docs.functions).filter(([k]) => !hand.functions[k])),
    },
    attributes,
    ...(docs.task_module !== undefined ? { task_module: docs.task_module } : {}),
    ...(docs.result_id ? { result_id: docs.result_id } : {}),
    ...(docs.update_answer ? { update_answer: docs.update_answer } : {}),
    pages: docs.pages,
    // The hand-kept facts replace the generated assumptions of rates, account and attributes.
    assumed: docs.assumed.filter((a) => !HAND_KEPT.includes(a)),
  };
}

/** The catalogue: the hand-kept crawlers first (in the seed's order), then the docs' others by slug. */
export const CRAWLER_DEFS: CrawlerDef[] = [
  ...HAND_DEFS.map((h) => {
    const d = DOCS_CRAWLERS.find((x) => x.slug === h.slug);
    return d ? merge(h, d) : h;
  }),
  ...DOCS_CRAWLERS.filter((d) => !HAND_DEFS.some((h) => h.slug === d.slug)).map(fromDocs),
];

/**
 * The stored crawler record: public fields plus the definition the other endpoints project from. The definition's
 * types are the docs' (list-crawlers: credits_per_row a number, max_concurrency a whole number of at least 1).
 */
export function crawlerRecord(def: CrawlerDef): CrawlerRecord {
  if (!def.slug || !def.name) throw new Error(`a crawler needs a slug and a name (${JSON.stringify(def.slug)})`);
  if (!Number.isFinite(def.credits_per_row) || def.credits_per_row < 0)
    throw new Error(`${def.slug}: credits_per_row must be a number >= 0`);
  if (!Number.isInteger(def.max_concurrency) || def.max_concurrency < 1)
    throw new Error(`${def.slug}: max_concurrency must be a whole number >= 1`);
  return {
    id: def.id ?? crawlerId(def.slug),
    object: 'crawler',
    name: def.name,
    slug: def.slug,
    icon: ICON,
    is_public: true,
    is_available: true,
    is_premium: def.is_premium ?? false,
    has_issues: def.has_issues ?? false,
    max_concurrency: def.max_concurrency,
    credits_per_row: def.credits_per_row,
    account: def.account ? { ...def.account, icon: ICON } : null,
    def,
  };
}

export function defOf(crawler: CrawlerRecord): CrawlerDef {
  return crawler.def;
}

export function crawlerSummary(c: CrawlerRecord): Omit<CrawlerRecord, 'def'> {
  const { def: _def, ...rest } = c;
  return rest;
}

/**
 * GET /v1/crawlers/{id}, in the get-crawler-details sample's shape: the url input with is_details, other task
 * inputs with is_params, squid params with is_details (and max), functions with display, function and priority.
 */
export function crawlerDetail(c: CrawlerRecord): Record<string, unknown> {
  const def = defOf(c);
  const input: Record<string, unknown>[] = [];
  for (const [name, p] of Object.entries(def.task)) {
    input.push(
      p.group === 'url'
        ? {
            name,
            type: p.type,
            level: 'task',
            regex: p.regex,
            default: p.default,
            example: p.example ?? null,
            required: p.required,
            is_details: false,
            description: p.description,
          }
        : {
            name,
            type: p.type,
            level: 'task',
            value: p.example ?? null,
            example: p.example ?? null,
            required: p.required,
            is_params: true,
            description: p.description,
          },
    );
  }
  for (const [name, p] of Object.entries(def.squid)) {
    input.push({
      ...(p.max !== undefined ? { max: p.max } : {}),
      name,
      type: p.type,
      level: 'squid',
      default: p.default,
      example: p.default,
      required: p.required,
      is_details: true,
      description: p.description,
    });
  }
  Object.entries(def.functions).forEach(([name, f], i) => {
    input.push({
      name,
      type: 'boolean',
      level: 'squid',
      default: f.default,
      display: f.display,
      function: true,
      priority: i + 1,
      required: false,
      is_details: true,
      description: f.description ?? f.display,
      credits_per_function: f.credits_per_function,
    });
  });
  return { ...crawlerSummary(c), input, result: def.attributes.map((a) => a.name) };
}

export function crawlerParams(c: CrawlerRecord): Record<string, unknown> {
  const def = defOf(c);
  const task: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(def.task)) {
    task[name] = {
      type: p.type,
      ...(p.group ? { group: p.group } : {}),
      ...(p.regex ? { regex: p.regex } : {}),
      required: p.required,
      default: p.default,
      attribute: name,
      is_params: p.group !== 'url',
    };
  }
  const squid: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(def.squid)) {
    squid[name] = {
      type: p.type,
      ...(p.allowed ? { allowed: p.allowed } : {}),
      default: p.default,
      required: p.required,
      attribute: name,
      is_params: false,
    };
  }
  const fns = Object.entries(def.functions);
  if (fns.length) {
    squid.functions = Object.fromEntries(
      fns.map(([name, f], i) => [name, { sort: i, default: f.default, credits_per_function: f.credits_per_function }]),
    );
  }
  return { task, squid };
}

export function crawlerAttributes(c: CrawlerRecord): Record<string, unknown>[] {
  const def = defOf(c);
  return def.attributes.map((a) => ({
    name: a.name,
    type: a.type,
    example: a.example ?? null,
    function: a.fn ? (def.functions[a.fn]?.display ?? a.fn) : (def.base_label ?? 'Base'),
    is_main: !a.fn,
    description: a.description,
  }));
}

/** The crawler's name of a task param given as `name`: a param's alias (TaskParamDef.aliases) gives the param's. */
export function taskParamName(def: CrawlerDef, name: string): string {
  if (Object.hasOwn(def.task, name)) return name;
  return Object.entries(def.task).find(([, p]) => p.aliases?.includes(name))?.[0] ?? name;
}

/** A task's params under the crawler's names (twitter-user-tweets' page sends `screen_name`, its answer shows `username`). */
export function taskParamsOf(def: CrawlerDef, params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [taskParamName(def, k), v]));
}

/** A squid can run once every required squid param of its crawler has a value. */
export function isReady(def: CrawlerDef, params: Record<string, unknown>): boolean {
  return Object.entries(def.squid).every(
    ([name, p]) => !p.required || (params[name] !== null && params[name] !== undefined),
  );
}

/** Why a value is refused for a squid param the crawler defines (its type, its allowed values), or null. */
export function squidParamProblem(def: CrawlerDef, name: string, value: unknown): string | null {
  const p = Object.hasOwn(def.squid, name) ? def.squid[name] : undefined;
  if (!p || value === null) return null;
  if (p.type === 'int' && !Number.isInteger(value)) return `params.${name} must be an integer (InvalidParamType).`;
  if (p.type === 'boolean' && typeof value !== 'boolean')
    return `params.${name} must be true or false (InvalidParamType).`;
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

/** Squid params as the create echo and the squid list show them (create-squid, list-squids samples): without functions. */
export function paramsWithoutFunctions(params: unknown): unknown {
  if (!params || typeof params !== 'object') return params;
  const { functions: _f, ...rest } = params as Record<string, unknown>;
  return rest;
}
