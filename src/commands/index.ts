// Every noun sq knows, in the order help lists them. Modules load only when their noun is invoked.
import type { NounEntry } from '../cli/command.js';

export const NOUNS: NounEntry[] = [
  {
    name: 'auth',
    summary: 'Log in, log out and show which key and profile are in use',
    load: () => import('./auth/index.js'),
  },
  { name: 'profiles', summary: 'List and remove stored profiles', load: () => import('./profiles/index.js') },
  {
    name: 'config',
    summary: 'Get and set settings of a profile (spending caps and confirmations)',
    load: () => import('./config/index.js'),
  },
  { name: 'me', summary: 'Show the current user', leaf: true, load: () => import('./me.js') },
  {
    name: 'balance',
    summary: 'Show the credit balance (remaining = available - consumed)',
    leaf: true,
    load: () => import('./balance.js'),
  },
  {
    name: 'status',
    summary: 'Show the account at a glance: plan, credits, auto-reset, runs in progress, failures',
    leaf: true,
    load: () => import('./status.js'),
  },
  {
    name: 'crawlers',
    summary: 'Browse crawlers: what they take as input and what they return',
    load: () => import('./crawlers/index.js'),
  },
  {
    name: 'squids',
    summary: 'Create, configure, empty and delete squids (scraping jobs built on a crawler)',
    load: () => import('./squids/index.js'),
  },
  {
    name: 'tasks',
    summary: 'Add, upload, list and delete the tasks (URLs or parameter sets) of a squid',
    load: () => import('./tasks/index.js'),
  },
  { name: 'runs', summary: 'Start, watch, abort and download runs', load: () => import('./runs/index.js') },
  {
    name: 'results',
    summary: 'List and export the results of a squid or a run',
    load: () => import('./results/index.js'),
  },
  {
    name: 'credits',
    summary: 'Show where credits went: per crawler and function, per squid',
    load: () => import('./credits/index.js'),
  },
  {
    name: 'accounts',
    summary: 'Synchronize, list, limit and delete third-party site accounts (the logins some crawlers need)',
    load: () => import('./accounts/index.js'),
  },
  {
    name: 'go',
    summary: 'Scrape in one step: squid, params, tasks, run, wait, export; a rerun picks up where it stopped',
    leaf: true,
    load: () => import('./go.js'),
  },
  {
    name: 'delivery',
    summary: 'Configure where results go: SFTP, webhooks, e-mail, sheets, S3; apply from a file',
    load: () => import('./delivery/index.js'),
  },
  {
    name: 'billing',
    summary: 'Show and set the automatic billing reset (re-charges the card on file)',
    load: () => import('./billing/index.js'),
  },
  {
    name: 'plan',
    summary: 'Show what would change to make the account match a file (--detailed-exitcode: exit 10 when it differs)',
    leaf: true,
    load: () => import('./plan.js'),
  },
  {
    name: 'apply',
    summary: 'Make the account match a file: squids, tasks, delivery, billing',
    leaf: true,
    load: () => import('./apply.js'),
  },
  {
    name: 'export',
    summary: 'Write the current account as a file for plan / apply',
    leaf: true,
    load: () => import('./export.js'),
  },
  {
    name: 'webhook',
    summary: 'Receive webhook events locally (listen, validate, forward)',
    load: () => import('./webhook/index.js'),
  },
  {
    name: 'api',
    summary: 'Make an authenticated API request (same auth, pacing and retries)',
    leaf: true,
    load: () => import('./api.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve the account to AI agents over MCP (stdio, or Streamable HTTP); read-only unless --allow-writes',
    leaf: true,
    output: 'text',
    load: () => import('./mcp.js'),
  },
  { name: 'emulator', summary: 'Run the local emulator of the whole API', load: () => import('./emulator/index.js') },
  {
    name: 'doctor',
    summary:
      'Check that sq can work here: key, base URL and TLS, clock, rate budget, file modes, profile, completion, Node.js, updates',
    leaf: true,
    load: () => import('./doctor.js'),
  },
  {
    name: 'version',
    summary: 'Show the version of sq, with the Node.js version and the platform',
    leaf: true,
    load: () => import('./version.js'),
  },
  {
    name: 'completion',
    summary: 'Print the shell completion script for bash, zsh or fish',
    leaf: true,
    load: () => import('./completion.js'),
  },
];
