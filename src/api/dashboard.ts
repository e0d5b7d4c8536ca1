// Where the vendor's dashboard shows a record, for `--web`: app.lobstr.io/dashboard for the live API; any other base
// URL (the emulator, a staging service) serves it under its own origin, at /dashboard.

export type DashboardPage =
  | { kind: 'home' }
  | { kind: 'squid'; id: string }
  | { kind: 'run'; id: string }
  | { kind: 'billing' };

const LIVE: Readonly<Record<string, string>> = {
  'https://api.lobstr.io': 'https://app.lobstr.io/dashboard',
};

/** The dashboard's root for an API base URL (already normalised: no trailing slash, no /v1). */
export function dashboardRoot(baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  return LIVE[origin] ?? `${origin}/dashboard`;
}

export function dashboardUrl(baseUrl: string, page: DashboardPage): string {
  const root = dashboardRoot(baseUrl);
  switch (page.kind) {
    case 'home':
      return root;
    case 'squid':
      return `${root}/squids/${encodeURIComponent(page.id)}`;
    case 'run':
      return `${root}/runs/${encodeURIComponent(page.id)}`;
    case 'billing':
      return `${root}/billing/auto-reset`;
  }
}
