// Every route the emulator serves, in one table: method, path pattern, the routes/ file whose register function
// handles it (billing's lives in ../billing.ts, with its timer), and the docs pages that document it, or, for a route
// no docs-samples page has, where it comes from. test/emulator/endpoint-table.test.ts checks the table both ways:
// each registered route is listed and each listed route registered, each docs page's request lands on a route that
// lists the page, and each page listed exists and names that route.

export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** The file under routes/ (without .ts) that registers it. */
  handler: string;
  /** docs-samples.json pages that document this request. */
  pages: string[];
  /** For a route no page documents: the changelog line, reference or emulator doc it follows. */
  source?: string;
}

export const ENDPOINTS: readonly Endpoint[] = [
  { method: 'GET', path: '/v1/me', handler: 'user', pages: ['authentication', 'user-me'] },
  { method: 'GET', path: '/v1/user/balance', handler: 'user', pages: ['get-balance'] },
  { method: 'GET', path: '/v1/crawlers', handler: 'crawlers', pages: ['list-crawlers'] },
  { method: 'GET', path: '/v1/crawlers/:hash', handler: 'crawlers', pages: ['get-crawler-details'] },
  { method: 'GET', path: '/v1/crawlers/:hash/params', handler: 'crawlers', pages: ['get-crawler-parameters'] },
  { method: 'GET', path: '/v1/crawlers/:hash/attributes', handler: 'crawlers', pages: ['get-crawler-attributes'] },
  { method: 'POST', path: '/v1/squids', handler: 'squids', pages: ['create-squid'] },
  { method: 'GET', path: '/v1/squids', handler: 'squids', pages: ['list-squids'] },
  { method: 'GET', path: '/v1/squids/:hash', handler: 'squids', pages: ['get-squid-details'] },
  { method: 'POST', path: '/v1/squids/:hash', handler: 'squids', pages: ['link-account-to-squid', 'update-squid'] },
  { method: 'POST', path: '/v1/squids/:hash/empty', handler: 'squids', pages: ['empty-squid'] },
  { method: 'DELETE', path: '/v1/squids/:hash', handler: 'squids', pages: ['delete-squid'] },
  { method: 'POST', path: '/v1/squid/estimate', handler: 'estimate', pages: [], source: "api-changelog: the vendor SDK's squids.estimate" },
  { method: 'GET', path: '/v1/squids/:hash/chain', handler: 'chains', pages: ['get-squid-chain'] },
  { method: 'POST', path: '/v1/squids/:hash/chain', handler: 'chains', pages: ['configure-squid-chain'] },
  { method: 'PATCH', path: '/v1/squids/:hash/chain', handler: 'chains', pages: ['update-squid-chain'] },
  { method: 'DELETE', path: '/v1/squids/:hash/chain', handler: 'chains', pages: ['delete-squid-chain'] },
  { method: 'POST', path: '/v1/tasks', handler: 'tasks', pages: ['add-tasks'] },
  { method: 'GET', path: '/v1/tasks', handler: 'tasks', pages: ['list-tasks'] },
  { method: 'GET', path: '/v1/tasks/:hash', handler: 'tasks', pages: ['get-task'] },
  { method: 'DELETE', path: '/v1/tasks/:hash', handler: 'tasks', pages: ['delete-task'] },
  { method: 'POST', path: '/v1/tasks/upload', handler: 'uploads', pages: ['upload-tasks'] },
  { method: 'POST', path: '/v2/squid/:id/task', handler: 'tasks-v2', pages: [], source: 'examples/: the add-tasks pages of six crawlers (one task, its params the body)' },
  { method: 'GET', path: '/v1/tasks/upload/:id', handler: 'uploads', pages: ['check-upload-status'] },
  { method: 'POST', path: '/v1/runs', handler: 'runs', pages: ['start-run'] },
  { method: 'GET', path: '/v1/runs', handler: 'runs', pages: ['list-runs'] },
  { method: 'GET', path: '/v1/runs/:hash', handler: 'runs', pages: ['get-run'] },
  { method: 'GET', path: '/v1/runs/:hash/stats', handler: 'runs', pages: ['get-run-stats'] },
  { method: 'GET', path: '/v1/runs/:hash/credits', handler: 'runs', pages: ['get-run-credits'] },
  { method: 'POST', path: '/v1/runs/:hash/abort', handler: 'runs', pages: ['abort-run'] },
  { method: 'GET', path: '/v1/runs/:hash/download', handler: 'runs', pages: ['download-run'] },
  { method: 'GET', path: '/v1/runs/:hash/tasks', handler: 'runs', pages: [], source: "get-run-tasks, the spelling of the vendor's clients" },
  { method: 'GET', path: '/v1/runtasks', handler: 'runs', pages: ['get-run-tasks'] },
  { method: 'GET', path: '/v1/results', handler: 'results', pages: ['get-results'] },
  { method: 'GET', path: '/_emulator/files/:name', handler: 'results', pages: [], source: "the file behind a download URL (download-run's s3)" },
  { method: 'GET', path: '/v1/accounts', handler: 'accounts', pages: ['list-accounts'] },
  { method: 'GET', path: '/v1/accounts/types', handler: 'accounts', pages: [], source: 'list-account-types, the spelling of api-reference' },
  { method: 'GET', path: '/v1/account_types', handler: 'accounts', pages: ['list-account-types'] },
  { method: 'GET', path: '/v1/accounts/:hash', handler: 'accounts', pages: ['get-account-details'] },
  { method: 'DELETE', path: '/v1/accounts/:hash', handler: 'accounts', pages: ['delete-account'] },
  { method: 'POST', path: '/v1/accounts', handler: 'accounts', pages: ['update-account-limits'] },
  { method: 'POST', path: '/v1/synchronize', handler: 'accounts', pages: [], source: 'sync-account, the spelling of api-reference' },
  { method: 'POST', path: '/v1/accounts/cookies', handler: 'accounts', pages: ['refresh-cookies', 'sync-account'] },
  { method: 'GET', path: '/v1/synchronize/:id', handler: 'accounts', pages: ['check-sync-status'] },
  { method: 'GET', path: '/v1/credits/modules', handler: 'credits', pages: [], source: 'api-changelog 2026-05-12' },
  { method: 'GET', path: '/v1/credits/squids', handler: 'credits', pages: [], source: 'api-changelog 2026-06-02' },
  { method: 'GET', path: '/v1/squids/:hash/credits', handler: 'credits', pages: [], source: 'api-changelog 2026-06-02' },
  { method: 'GET', path: '/v1/googlemaps/locations', handler: 'googlemaps', pages: [], source: 'api-changelog, examples: Google Maps locations' },
  { method: 'GET', path: '/v1/googlelocations', handler: 'googlemaps', pages: [], source: 'examples/google-search-scraper/get-geolocation' },
  { method: 'GET', path: '/dashboard', handler: 'dashboard', pages: [], source: 'emulator dashboard (docs/emulator.md)' },
  { method: 'GET', path: '/dashboard/squids/:id', handler: 'dashboard', pages: [], source: 'emulator dashboard (docs/emulator.md)' },
  { method: 'GET', path: '/dashboard/runs/:id', handler: 'dashboard', pages: [], source: 'emulator dashboard (docs/emulator.md)' },
  { method: 'GET', path: '/dashboard/billing/auto-reset', handler: 'dashboard', pages: [], source: 'emulator dashboard (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/clock', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/clock/advance', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/reset', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/requests', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'DELETE', path: '/_emulator/requests', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/faults', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'PUT', path: '/_emulator/faults', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'DELETE', path: '/_emulator/faults', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/config', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/config', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/slots', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/launches', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/generate', handler: 'control', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/v1/plans/auto-reset', handler: '../billing', pages: [], source: 'spec: Billing Auto-Reset' },
  { method: 'POST', path: '/v1/plans/auto-reset', handler: '../billing', pages: [], source: 'spec: Billing Auto-Reset' },
  { method: 'POST', path: '/_emulator/usage', handler: '../billing', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/_emulator/payment', handler: '../billing', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/v1/delivery', handler: 'delivery', pages: ['configure-email-delivery', 'configure-google-sheet-delivery', 'configure-s3-delivery', 'configure-sftp-delivery', 'configure-webhook-delivery'] },
  { method: 'GET', path: '/_emulator/deliveries', handler: 'delivery', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'GET', path: '/_emulator/outbox', handler: 'delivery', pages: [], source: 'emulator control plane (docs/emulator.md)' },
  { method: 'POST', path: '/v1/delivery/test-webhook', handler: 'delivery', pages: ['test-delivery'] },
  { method: 'POST', path: '/v1/delivery/test-sftp', handler: 'delivery', pages: ['test-delivery'] },
  { method: 'POST', path: '/v1/delivery/test-email', handler: 'delivery', pages: ['test-delivery'] },
  { method: 'POST', path: '/v1/delivery/test-googlesheet', handler: 'delivery', pages: ['test-delivery'] },
  { method: 'POST', path: '/v1/delivery/test-s3', handler: 'delivery', pages: ['test-delivery'] },
];
