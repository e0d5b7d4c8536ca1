#!/usr/bin/env node
// Generates src/emulator/docs-crawlers.ts, the emulator's crawler catalogue as the vendor's docs give it, from
// test/fixtures/docs-examples.json (the examples/ pages: one entry per page, 57 crawlers) and
// test/fixtures/docs-samples.json (the reference pages). Re-runnable: `node scripts/gen-crawlers.mjs` rewrites the file;
// `--check` exits 1 when the file is not what the docs give (test/emulator/crawler-catalogue.test.ts runs it).
//
// What each page gives a crawler (and what this script takes from it):
//   update-settings  its name (the squid name without " (N)", or the answer's crawler.name), its id where the answer
//                    carries a 32-hex crawler id, every squid param (request and answer, with its sampled value as the
//                    default and its JSON type), its functions (params.functions)
//   add-task*        its task params (the keys of the request's tasks, or of the bare body some pages send) and their
//                    sampled values as examples; the task `module` the answer carries (an integer), or none
//   get-results      its result attributes: every column of the sampled rows, in the rows' order, with their JSON types,
//                    optional when a row leaves it out
// What the docs do not give is ASSUMED below, in one table each, and listed by the generated file (`assumed`), so that
// docs/emulator.md and `sq crawlers get` can say which facts are the docs' and which are the emulator's.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(root, 'src/emulator/docs-crawlers.ts');
const EXAMPLES = JSON.parse(readFileSync(resolve(root, 'test/fixtures/docs-examples.json'), 'utf8')).pages;

/** Task URLs for the crawlers whose examples have no add-tasks request (ASSUMED: a page of the crawler's site). */
const ASSUMED_TASK_URL = {
  'amazon-reviews-scraper': 'https://www.amazon.com/product-reviews/B0BSHF7WHW',
  'autoscout24-listings-scraper': 'https://www.autoscout24.com/lst/bmw',
  'bienici-listings-search-export': 'https://www.bienici.com/recherche/achat/paris-75000',
  'facebook-business-page-scraper': 'https://www.facebook.com/examplebusiness',
  'facebook-group-posts-scraper': 'https://www.facebook.com/groups/336266723393832',
  'immoweb-listings-phone-search-export': 'https://www.immoweb.be/en/search/house/for-sale',
  'instagram-post-comments-scraper': 'https://www.instagram.com/p/C0ffee00000/',
  'leboncoin-listing-scraper': 'https://www.leboncoin.fr/ad/locations/2943434204',
  'leboncoin-listing-status-checker': 'https://www.leboncoin.fr/ad/locations/2943434204',
  'leboncoin-listings-search-export': 'https://www.leboncoin.fr/recherche?category=9',
  'linkedin-leads-scraper': 'https://www.linkedin.com/search/results/people/?keywords=cto',
  'sales-nav-profile-scraper': 'https://www.linkedin.com/sales/lead/ACwAAA0000',
  'tiktok-comments-scraper': 'https://www.tiktok.com/@bellapoarch/video/6862153058223197445',
  'trustpilot-reviews-scraper': 'https://www.trustpilot.com/review/example.com',
  'twitter-followers-following-scraper': 'https://x.com/nasa',
};

/**
 * The site account a crawler's runs need (ASSUMED from its site, with the three account types the docs' list-account-types
 * sample has): the docs name one only for the crawlers of the list-crawlers sample, kept by hand in crawlers.ts.
 */
const ASSUMED_ACCOUNT = {
  'twitter-followers-following-scraper': 'twitter-sync',
  'twitter-search-results-scraper': 'twitter-sync',
  'twitter-user-tweets-scraper': 'twitter-sync',
  'sales-nav-profile-scraper': 'sales-nav-sync',
  'sales-navigator-companies-scraper': 'sales-nav-sync',
  'facebook-private-group-posts': 'facebook-sync',
  'facebook-group-posts-scraper': 'facebook-sync',
};

/** Result columns for a crawler whose examples show no row (ASSUMED: what any page of a site has). */
const ASSUMED_ATTRIBUTES = [
  { name: 'url', type: 'string', example: null, description: 'Page the row was collected from (assumed: the docs show no row).' },
  { name: 'title', type: 'string', example: null, description: 'Title of the item (assumed: the docs show no row).' },
  { name: 'description', type: 'text', example: null, description: 'Text of the item (assumed: the docs show no row).' },
];

/** ASSUMED rates and concurrency where the docs give none (the list-crawlers sample gives them for 4 crawlers). */
const ASSUMED = { credits_per_row: 1, max_concurrency: 10, credits_per_function: 1 };

/** Row keys every result has (the get-results reference page), not columns of a crawler. */
const ROW_KEYS = new Set(['id', 'object', 'squid', 'run', 'task', 'scraping_time']);

const jsonType = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function titleCase(slug) {
  return slug.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

function pagesOf(slug) {
  return Object.entries(EXAMPLES).filter(([k]) => k.split('/')[1] === slug).map(([k, p]) => [k.split('/')[2], p]);
}

const answer = (page) => page.samples.find((s) => /^\d+$/.test(s.label));
const requests = (page) => page.samples.filter((s) => s.label.startsWith('Request')).map((s) => s.body);

/** The squid param type of a sampled value (the get-crawler-parameters page's words: int, float, boolean, string). */
function paramType(values) {
  const v = values.find((x) => x !== null && x !== undefined);
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return values.every((x) => x === null || Number.isInteger(x)) ? 'int' : 'float';
  return 'string';
}

function nameOf(slug, settings) {
  const a = settings && answer(settings)?.body;
  if (a?.crawler?.name) return a.crawler.name;
  const named = [a, ...(settings ? requests(settings) : [])].find((b) => typeof b?.name === 'string' && / \(\d+\)$/.test(b.name));
  return named ? named.name.replace(/ \(\d+\)$/, '') : titleCase(slug);
}

function squidParams(settings) {
  const bodies = [answer(settings)?.body, ...requests(settings)].filter(Boolean);
  const seen = new Map();
  const fns = new Map();
  for (const b of bodies) {
    for (const [k, v] of Object.entries(b.params ?? {})) {
      if (k === 'functions') {
        for (const [f, on] of Object.entries(v ?? {})) if (!fns.has(f)) fns.set(f, on);
        continue;
      }
      if (!seen.has(k)) seen.set(k, []);
      seen.get(k).push(v);
    }
  }
  const squid = {};
  for (const [k, values] of seen) {
    // The answer's value first: it is what the service stored.
    const description = `Documented in update-settings (sampled: ${JSON.stringify(values[0])}).`;
    squid[k] = { type: paramType(values), default: values[0] ?? null, required: false, description };
  }
  const functions = {};
  for (const f of fns.keys()) {
    functions[f] = { display: titleCase(f.replaceAll('_', '-')), credits_per_function: ASSUMED.credits_per_function, default: false };
  }
  return { squid, functions };
}

function taskParams(slug, adds) {
  const task = {};
  let module;
  for (const page of adds) {
    // The requests' tasks; a page with no request: the params of the tasks its answer shows.
    const sent = requests(page);
    const bodies = sent.length ? sent : [{ tasks: (answer(page)?.body?.tasks ?? []).map((t) => t.params ?? {}) }];
    for (const body of bodies) {
      const items = Array.isArray(body.tasks) ? body.tasks : [body];
      for (const t of items) {
        for (const [k, v] of Object.entries(t)) {
          if (k === 'squid' || task[k]) continue;
          const group = /url$/.test(k) ? 'url' : k;
          task[k] = { type: 'string', group, required: false, default: null, example: v, description: `Documented in ${page.key}.` };
        }
      }
    }
    const first = answer(page)?.body?.tasks?.[0];
    if (first && module === undefined) module = typeof first.module === 'number' ? first.module : null;
  }
  if (!Object.keys(task).length) {
    const url = ASSUMED_TASK_URL[slug];
    if (!url) throw new Error(`${slug}: no add-tasks request in the docs and no ASSUMED_TASK_URL`);
    const description = 'A page of the site (assumed: the docs show no task).';
    task.url = { type: 'string', group: 'url', required: false, default: null, example: url, description };
  }
  return { task, module };
}

function attributeType(values) {
  const v = values.filter((x) => x !== null);
  if (!v.length) return 'null';
  const t = jsonType(v[0]);
  if (t === 'number') return v.every((x) => Number.isInteger(x)) ? 'integer' : 'float';
  if (t === 'object' || t === 'array') return 'json';
  if (t === 'boolean') return 'boolean';
  return typeof v[0] === 'string' && v[0].length > 80 ? 'text' : 'string';
}

function attributes(slug, results) {
  const body = results && answer(results)?.body;
  const rows = Array.isArray(body?.data) ? body.data : [];
  if (!rows.length) return null;
  const names = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!ROW_KEYS.has(k) && !names.includes(k)) names.push(k);
  return names.map((name) => {
    const values = rows.filter((r) => name in r).map((r) => r[name]);
    const type = attributeType(values);
    return {
      name,
      type: type === 'null' ? 'string' : type,
      example: values.find((v) => v !== null) ?? null,
      ...(values.length < rows.length ? { optional: true } : {}),
      ...(type === 'null' ? { always_null: true } : {}),
      description: `Documented in examples/${slug}/get-results.`,
    };
  });
}

function crawler(slug) {
  const pages = Object.fromEntries(pagesOf(slug).map(([kind, p]) => [kind, { ...p, key: `examples/${slug}/${kind}` }]));
  const settings = pages['update-settings'];
  const adds = Object.entries(pages).filter(([k]) => k.startsWith('add-task')).map(([, p]) => p);
  const assumed = ['credits_per_row', 'max_concurrency'];
  const { squid, functions } = settings ? squidParams(settings) : { squid: {}, functions: {} };
  if (Object.keys(functions).length) assumed.push('credits_per_function', 'function defaults');
  const { task, module } = taskParams(slug, adds);
  if (ASSUMED_TASK_URL[slug]) assumed.push('task params');
  let attrs = attributes(slug, pages['get-results']);
  if (!attrs) {
    attrs = ASSUMED_ATTRIBUTES;
    assumed.push('attributes');
  }
  if (ASSUMED_ACCOUNT[slug]) assumed.push('account');
  const a = settings && answer(settings)?.body;
  const id = typeof a?.crawler?.id === 'string' && /^[0-9a-f]{32}$/.test(a.crawler.id) ? a.crawler.id : undefined;
  return {
    ...(id ? { id } : {}),
    slug,
    name: nameOf(slug, settings),
    credits_per_row: ASSUMED.credits_per_row,
    max_concurrency: ASSUMED.max_concurrency,
    ...(ASSUMED_ACCOUNT[slug] ? { account_type: ASSUMED_ACCOUNT[slug] } : {}),
    ...(module !== undefined ? { task_module: module } : {}),
    task,
    squid,
    functions,
    attributes: attrs,
    pages: Object.keys(pages).sort(),
    assumed,
  };
}

const slugs = [...new Set(Object.keys(EXAMPLES).map((k) => k.split('/')[1]))].sort();
const unused = Object.keys(ASSUMED_TASK_URL).filter((s) => !slugs.includes(s));
if (unused.length) throw new Error(`ASSUMED_TASK_URL names crawlers the docs do not have: ${unused.join(', ')}`);
const catalogue = slugs.map(crawler);

const WIDTH = 160;

/**
 * A value as TS source starting at column `col` (after `prefix`), within the project's line width: on one line when it
 * fits, else an object or array a member a line, a long string cut into concatenated parts.
 */
function ts(v, col, pad) {
  const one = JSON.stringify(v);
  if (col + one.length + 1 <= WIDTH) return one;
  if (typeof v === 'string') {
    const parts = [];
    for (let rest = v; rest.length; ) {
      // The first part follows the key; the others start a line of their own, after `+ `.
      const n = Math.max(20, WIDTH - (parts.length ? pad.length + 4 : col) - 2);
      let cut = Math.min(rest.length, n);
      while (cut < rest.length && JSON.stringify(rest.slice(0, cut)).length > n) cut--;
      parts.push(JSON.stringify(rest.slice(0, cut)));
      rest = rest.slice(cut);
    }
    return parts.join(`\n${pad}  + `);
  }
  const inner = `${pad}  `;
  if (Array.isArray(v)) return `[\n${v.map((x) => `${inner}${ts(x, inner.length, inner)},`).join('\n')}\n${pad}]`;
  const members = Object.entries(v).map(([k, x]) => {
    const key = `${inner}${JSON.stringify(k)}: `;
    return `${key}${ts(x, key.length, inner)},`;
  });
  return `{\n${members.join('\n')}\n${pad}}`;
}

/** One crawler as TS source: one param, function or attribute a line where it fits, so a re-generation's diff reads well. */
function source(c) {
  const block = (obj) => Object.entries(obj).map(([k, v]) => {
    const key = `      ${JSON.stringify(k)}: `;
    return `${key}${ts(v, key.length, '      ')},`;
  }).join('\n');
  const scalar = Object.entries(c).filter(([k]) => !['task', 'squid', 'functions', 'attributes'].includes(k));
  return [
    '  {',
    ...scalar.map(([k, v]) => `    ${k}: ${ts(v, k.length + 6, '    ')},`),
    `    task: {\n${block(c.task)}\n    },`,
    `    squid: {${Object.keys(c.squid).length ? `\n${block(c.squid)}\n    ` : ''}},`,
    `    functions: {${Object.keys(c.functions).length ? `\n${block(c.functions)}\n    ` : ''}},`,
    `    attributes: [\n${c.attributes.map((a) => `      ${ts(a, 6, '      ')},`).join('\n')}\n    ],`,
    '  },',
  ].join('\n');
}

const text = `// GENERATED by scripts/gen-crawlers.mjs from test/fixtures/docs-examples.json: do not edit; run the script again.
// Every crawler of the docs' examples/ pages, as those pages give it; \`assumed\` names what the docs do not give.
// crawlers.ts merges these with the facts it keeps by hand (the reference pages' crawlers).
import type { DocsCrawler } from './crawler-types.js';

export const DOCS_CRAWLERS: DocsCrawler[] = [
${catalogue.map(source).join('\n')}
];
`;

if (process.argv.includes('--check')) {
  const now = readFileSync(OUT, 'utf8');
  if (now !== text) {
    console.error('src/emulator/docs-crawlers.ts is not what the docs give: run node scripts/gen-crawlers.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log(`${OUT}: ${catalogue.length} crawlers`);
}
