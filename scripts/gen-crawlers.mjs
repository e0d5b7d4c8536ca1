#!/usr/bin/env node
// Generates src/emulator/docs-crawlers.ts, the emulator's crawler catalogue as the vendor's docs give it, from
// test/fixtures/docs-examples.json (the examples/ pages: one entry per page, 57 crawlers) and
// test/fixtures/docs-samples.json (the reference pages: the Google Maps Search Export's result columns). Re-runnable:
// `node scripts/gen-crawlers.mjs` rewrites the file; `--check` exits 1 when the file is not what the docs give
// (test/emulator/crawler-catalogue.test.ts runs it).
//
// What each page gives a crawler (and what this script takes from it):
//   update-settings  its name (the squid name without " (N)", or the answer's crawler.name), its id where the answer
//                    carries a 32-hex crawler id, every squid param (request and answer, with its sampled value as the
//                    default and its JSON type), its functions (params.functions), the form of its answer
//                    (`update_answer`: an echo of the fields sent, the settings record, or the whole squid)
//   add-task*        its task params (the keys of the request's tasks, or of the bare body some pages send) and their
//                    sampled values as examples, a param under the name its answer shows where the request sent
//                    another (that one an alias); the task `module` the answer carries (an integer), or none
//   get-results      its result attributes: every column of the sampled rows, in the rows' order, with their JSON types,
//                    optional when a row leaves it out; the JSON type of the rows' `id` where it is not the get-results
//                    reference page's 32-hex string (three crawlers' rows show an integer)
// What the docs do not give is ASSUMED below, in one table each, and listed by the generated file (`assumed`), so that
// docs/emulator.md and `sq crawlers get` can say which facts are the docs' and which are the emulator's.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/**
 * A call of one of the catalogue's constructors (HELPERS below: sampled, sent, siteUrl, columns), written out as the
 * call: the constructor is the one place that turns the docs' facts into a param or columns.
 */
const CALL = Symbol('call');
const call = (fn, ...args) => ({ [CALL]: { fn, args } });

/** Result columns for a crawler whose examples show no row (ASSUMED: what any page of a site has). */
const ASSUMED_ATTRIBUTES = [
  { name: 'url', type: 'string', example: null, description: 'Page the row was collected from (assumed: the docs show no row).' },
  { name: 'title', type: 'string', example: null, description: 'Title of the item (assumed: the docs show no row).' },
  { name: 'description', type: 'text', example: null, description: 'Text of the item (assumed: the docs show no row).' },
];

/** ASSUMED rates and concurrency where the docs give none (the list-crawlers sample gives them for 4 crawlers). */
const ASSUMED = { credits_per_row: 1, max_concurrency: 10, credits_per_function: 1 };

const SAMPLES = JSON.parse(readFileSync(resolve(root, 'test/fixtures/docs-samples.json'), 'utf8')).pages;

/**
 * The Google Maps Search Export's columns the reference pages name but do not describe: the get-results sample's
 * columns have values and no description, the get-crawler-details `result` list and the collect_business_details
 * description have names only (ASSUMED: the description, the JSON type and example of an unsampled column, and the
 * function of a column no sampled row shows: the get-results sample's rows are the base's).
 */
const ASSUMED_GOOGLE_MAPS = {
  ratings: { description: 'Number of ratings' },
  lat: { description: 'Latitude' },
  lng: { description: 'Longitude' },
  city: { description: 'City' },
  country: { description: 'Country' },
  zip_code: { description: 'Postal code' },
  opening_hours: { description: 'Opening hours' },
  zero_x: { type: 'string', example: '0x12c9c0a7b2f0a5c1:0x2a8b3f1e9d7c6b5a', fn: 'collect_business_details', description: 'Internal Google Maps hex identifier' },
  cid: { type: 'string', example: '3065488262003665754', fn: 'collect_business_details', description: 'Google Maps numeric business identifier (CID)' },
  url: { type: 'string', example: 'https://www.google.com/maps/place/?cid=3065488262003665754', fn: 'collect_business_details', description: 'Place URL' },
  country_name: { type: 'string', example: 'France', fn: 'collect_business_details', description: 'Country name' },
  country_code: { type: 'string', example: 'FR', fn: 'collect_business_details', description: 'Country code' },
  menu: { type: 'string', example: 'https://www.example.com/menu', fn: 'collect_business_details', optional: true, description: 'Menu URL' },
  plus_code: { type: 'string', example: '8FM7+C2 Marseille', fn: 'collect_business_details', description: 'Plus code of the place' },
  is_temporarily_closed: { type: 'boolean', example: false, fn: 'collect_business_details', description: 'Temporarily closed' },
  is_permanently_closed: { type: 'boolean', example: false, fn: 'collect_business_details', description: 'Permanently closed' },
  has_owner: { type: 'boolean', example: true, fn: 'collect_business_details', description: 'Claimed by its owner' },
  poi: { type: 'string', example: 'restaurant', fn: 'collect_business_details', description: 'Point-of-interest type' },
  health: { type: 'string', example: 'operational', fn: 'collect_business_details', description: 'Business status' },
  last_opening_hours_updated_at: { type: 'string', example: '2025-01-15', fn: 'collect_business_details', description: 'When the opening hours last changed' },
  main_image_url: { type: 'string', example: 'https://lh5.googleusercontent.com/p/1', fn: 'fetch_business_images', description: 'Main image of the place' },
  facebook: { type: 'string', example: 'https://www.facebook.com/example', fn: 'extract_emails_from_website', optional: true,
    description: 'Facebook page found on the website' },
  instagram: { type: 'string', example: 'https://www.instagram.com/example', fn: 'extract_emails_from_website', optional: true,
    description: 'Instagram profile found on the website' },
};

/**
 * The Google Maps Search Export's result columns, from the reference pages (docs-samples.json), in this order: the
 * get-crawler-attributes sample's (its own order, types, examples and descriptions; a column of a function is that
 * function's, matched by its display name), then the get-results sample's other columns (in its rows' order, typed by
 * their values, optional where a row leaves one out), then the columns only the get-crawler-details `result` list and
 * the collect_business_details description name, by function in the details page's order of functions' columns.
 * `match_filters` ("whether the result passed your geo and category filters") is a parameter task's only.
 */
function googleMapsAttributes() {
  const details = answer(SAMPLES['get-crawler-details']).body;
  const fnOf = new Map(details.input.filter((i) => i.function).map((i) => [i.display.toLowerCase(), i.name]));
  const out = answer(SAMPLES['get-crawler-attributes']).body.data.map((a) => ({
    name: a.name,
    type: a.type,
    example: a.example,
    ...(a.is_main ? {} : { fn: fnOf.get(a.function.toLowerCase()) ?? a.function }),
    ...(a.name === 'match_filters' ? { params_tasks_only: true } : {}),
    ...(a.name === 'email' ? { optional: true } : {}),
    description: a.description,
  }));
  const has = (n) => out.some((a) => a.name === n);
  const rows = answer(SAMPLES['get-results']).body.data;
  for (const r of rows) {
    for (const name of Object.keys(r)) {
      if (ROW_KEYS.has(name) || has(name)) continue;
      const values = rows.filter((x) => name in x).map((x) => x[name]);
      const example = typeof values[0] === 'string' ? values[0].split(',')[0] : values[0];
      out.push({ name, type: attributeType(values), example, ...(values.length < rows.length ? { optional: true } : {}),
        description: ASSUMED_GOOGLE_MAPS[name].description });
    }
  }
  const described = details.input.find((i) => i.name === 'collect_business_details').description;
  const named = /like (.+)\./.exec(described)[1].split(/, (?:and )?| and /);
  const rest = [...details.result, ...named].filter((n, i, all) => !has(n) && all.indexOf(n) === i);
  const order = ['collect_business_details', 'fetch_business_images', 'extract_emails_from_website'];
  for (const fn of order) {
    for (const name of rest.filter((n) => ASSUMED_GOOGLE_MAPS[n].fn === fn)) {
      const { description, ...a } = ASSUMED_GOOGLE_MAPS[name];
      out.push({ name, ...a, description });
    }
  }
  return out;
}

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
    squid[k] = call('sampled', paramType(values), values[0]);
  }
  const functions = {};
  for (const f of fns.keys()) {
    functions[f] = { display: titleCase(f.replaceAll('_', '-')), credits_per_function: ASSUMED.credits_per_function, default: false };
  }
  return { squid, functions };
}

/**
 * The param a task's answer shows under another name than its request sent (`{screen_name}` sent, `{username}` shown,
 * the same value): [sent name, shown name] pairs, the shown name the param's and the sent one its alias.
 */
function renamed(page) {
  const shown = answer(page)?.body?.tasks ?? [];
  return requests(page).flatMap((b) => (Array.isArray(b.tasks) ? b.tasks : []).flatMap((t, i) => {
    const p = shown[i]?.params ?? {};
    const sent = Object.keys(t).filter((k) => k !== 'squid' && !(k in p));
    const got = Object.keys(p).filter((k) => !(k in t));
    return sent.length === 1 && got.length === 1 && t[sent[0]] === p[got[0]] ? [[sent[0], got[0]]] : [];
  }));
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
          task[k] = call('sent', group, v, page.key);
        }
      }
    }
    for (const [sent, shown] of renamed(page)) {
      const [, example] = task[sent][CALL].args;
      task[shown] = call('sent', shown, example, page.key, [sent]);
      delete task[sent];
    }
    const first = answer(page)?.body?.tasks?.[0];
    if (first && module === undefined) module = typeof first.module === 'number' ? first.module : null;
  }
  if (!Object.keys(task).length) {
    const url = ASSUMED_TASK_URL[slug];
    if (!url) throw new Error(`${slug}: no add-tasks request in the docs and no ASSUMED_TASK_URL`);
    task.url = call('siteUrl', url);
  }
  return { task, module };
}

/** The settings record an update answers (the update-squid reference page's answer): is_active, run_notify when sent. */
const SETTINGS = ['name', 'no_line_breaks', 'is_active', 'params', 'to_complete', 'run_notify', 'export_unique_results'];

/**
 * The form of the update's answer the crawler's update-settings page shows: nothing (an echo of the fields sent) where
 * the answer has the keys sent, or shows no request; 'squid' where it is the whole squid ({id, crawler, …}); 'settings'
 * where it is the settings record, whatever was sent. A page fitting none stops the script.
 */
function updateForm(slug, settings) {
  const a = settings && answer(settings)?.body;
  const sent = settings ? requests(settings)[0] : undefined;
  if (!a || !sent) return {};
  const keys = Object.keys(a);
  if (keys.length === Object.keys(sent).length && keys.every((k) => k in sent)) return {};
  if ('id' in a && 'crawler' in a) return { update_answer: 'squid' };
  const shown = SETTINGS.filter((k) => (k !== 'is_active' && k !== 'run_notify') || k in sent);
  if (keys.length === shown.length && shown.every((k) => k in a)) return { update_answer: 'settings' };
  throw new Error(`${slug}: its update-settings answer is neither an echo, the settings record nor the squid`);
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
  const tuples = names.map((name) => {
    const values = rows.filter((r) => name in r).map((r) => r[name]);
    const type = attributeType(values);
    const flags = {
      ...(values.length < rows.length ? { optional: true } : {}),
      ...(type === 'null' ? { always_null: true } : {}),
    };
    const example = values.find((v) => v !== null) ?? null;
    const t = type === 'null' ? 'string' : type;
    return Object.keys(flags).length ? [name, t, example, flags] : [name, t, example];
  });
  return call('columns', slug, tuples);
}

/**
 * `result_id: 'integer'` where every row the crawler's get-results sample shows has an integer `id` (the reference
 * page's rows, and the emulator's by default, have a 32-hex string): the crawler's rows are generated in its own sample's
 * shape. The other row keys (object, squid, run, scraping_time) have the reference page's types in every sample.
 */
function resultId(results) {
  const rows = results && answer(results)?.body?.data;
  return Array.isArray(rows) && rows.length && rows.every((r) => Number.isInteger(r.id)) ? { result_id: 'integer' } : {};
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
    ...resultId(pages['get-results']),
    ...updateForm(slug, settings),
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
  if (v === ASSUMED_ATTRIBUTES) return 'ASSUMED_COLUMNS';
  const c = v !== null && typeof v === 'object' ? v[CALL] : undefined;
  if (c) return `${c.fn}(${c.args.map((a) => ts(a, col + c.fn.length + 1, `${pad}  `)).join(', ')})`;
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
    `    attributes: ${ts(c.attributes, 16, '    ')},`,
    '  },',
  ].join('\n');
}

// The constructors the generated file calls: each makes the object the functions above tag with its name.
const HELPERS = `
/** A squid param its update-settings page sends, the sampled value its default. */
function sampled(type: string, value: unknown): SquidParamDef {
  return { type, default: value ?? null, required: false, description: \`Documented in update-settings (sampled: \${JSON.stringify(value)}).\` };
}

/** A task param an add-tasks page sends (aliases: the other name it sends it under). */
function sent(group: string, example: unknown, page: string, aliases?: string[]): TaskParamDef {
  const description = \`Documented in \${page}.\`;
  return { type: 'string', group, required: false, default: null, example, ...(aliases ? { aliases } : {}), description };
}

/** The task of a crawler whose docs show none (ASSUMED): a URL of its site. */
function siteUrl(example: string): TaskParamDef {
  const description = 'A page of the site (assumed: the docs show no task).';
  return { type: 'string', group: 'url', required: false, default: null, example, description };
}

type Column = [name: string, type: AttrDef['type'], example: unknown, flags?: { optional?: true; always_null?: true }];

/** The columns of the rows a crawler's get-results page shows. */
function columns(slug: string, list: Column[]): AttrDef[] {
  const description = \`Documented in examples/\${slug}/get-results.\`;
  return list.map(([name, type, example, flags]) => ({ name, type, example, ...flags, description }));
}

/** Result columns for a crawler whose examples show no row (ASSUMED: what any page of a site has). */
const ASSUMED_COLUMNS: AttrDef[] = ${ts(ASSUMED_ATTRIBUTES.slice(), 34, '')};
`;

const raw = `// GENERATED by scripts/gen-crawlers.mjs from test/fixtures/docs-examples.json and docs-samples.json: do not edit;
// run the script again. Every crawler of the docs' examples/ pages, as those pages give it; \`assumed\` names what the
// docs do not give. crawlers.ts merges these with the facts it keeps by hand (the reference pages' crawlers).
import type { AttrDef, DocsCrawler, SquidParamDef, TaskParamDef } from './crawler-types.js';
${HELPERS}
export const DOCS_CRAWLERS: DocsCrawler[] = [
${catalogue.map(source).join('\n')}
];

/** The Google Maps Search Export's columns, as the reference pages name them (the script says in what order). */
export const GOOGLE_MAPS_ATTRIBUTES: AttrDef[] = [
${googleMapsAttributes().map((a) => `  ${ts(a, 2, '  ')},`).join('\n')}
];
`;

// Laid out as the rest of the code is (biome.jsonc), so the formatter's check and --check agree on one text.
const biome = join(root, 'node_modules', '.bin', 'biome');
const text = execFileSync(biome, ['format', `--stdin-file-path=${OUT}`], { cwd: root, input: raw, encoding: 'utf8' });

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
