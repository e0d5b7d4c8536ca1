// The checks of `sq doctor`: each answers one "why does sq not work here?" with ok, what it found, and the fix.
// They read what sq itself uses (the profile store, the pacing state, the cache dir) and never change anything.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Ctx } from '../cli/context.js';
import type { ProfileStore } from '../config/store.js';
import { resolveAuth } from '../config/resolve.js';
import { RATE_LIMITS } from '../api/rate-limits.js';
import type { User } from '../api/records.js';
import { sane, stateFile } from '../api/pacing-state.js';
import { cacheDir } from '../lib/cache-dir.js';
import { readRegularSync } from '../lib/regular-file.js';
import { AuthError, SqError } from '../errors.js';
import { importPackage } from '../import-package.js';
import { VERSION } from '../version.js';
import { fetchLatest, isNewer, upgradeHint } from '../update/check.js';
import type { Check } from '../output/checklist.js';

/** A server clock further than this from ours makes rate-limit resets and relative times wrong. */
export const MAX_SKEW_MS = 30_000;
/** How long the base URL probe waits for an answer. */
const PROBE_MS = 5000;

const pass = (name: string, detail: string): Check => ({ name, ok: true, level: 'ok', detail, fix: null });
/** sq cannot work here: exit 1. */
const fail = (name: string, detail: string, fix: string): Check => ({ name, ok: false, level: 'fail', detail, fix });
/** sq works, but this should be fixed: printed with its fix, exit 0 (1 with --strict). */
const warn = (name: string, detail: string, fix: string): Check => ({ name, ok: false, level: 'warn', detail, fix });

/**
 * The day Node.js line `major` (18 to 26) stops getting security fixes (nodejs.org/en/about/previous-releases): an
 * even (LTS) line on April 30 three years after its release, an odd one on June 1 six months after its release.
 */
function nodeEndOfLife(major: number): string | undefined {
  if (!(major >= 18 && major <= 26)) return undefined;
  return major % 2 === 0 ? `${2016 + major / 2}-04-30` : `${2014 + (major - 1) / 2}-06-01`;
}

export function nodeCheck(version: string, now: number): Check {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  const end = nodeEndOfLife(major);
  const v = version.replace(/^v/, '');
  if (end === undefined) {
    return major < 18
      ? fail('node', `Node.js ${v}: too old for sq (needs >= 20.18.1)`, 'install Node.js 24 (the current LTS line)')
      : pass('node', `Node.js ${v}`);
  }
  if (Date.parse(`${end}T23:59:59Z`) < now) {
    return warn(
      'node',
      `Node.js ${v}: the ${major}.x line reached its end of life on ${end} (no more security fixes)`,
      'install Node.js 24 (the current LTS line), or use the standalone executable, which carries its own',
    );
  }
  return pass('node', `Node.js ${v} (the ${major}.x line is supported until ${end})`);
}

/** Where --profile, SQ_PROFILE or the profile file's active entry put the profile in use. */
export function profileCheck(ctx: Ctx, store: ProfileStore): Check {
  let auth;
  try {
    auth = resolveAuth(ctx.globals, ctx.env, store);
  } catch (err) {
    if (err instanceof SqError) return fail('profile', err.message, 'fix the value named above');
    throw err;
  }
  const source =
    ctx.globals.profile !== undefined
      ? 'the --profile flag'
      : ctx.env.SQ_PROFILE
        ? 'SQ_PROFILE'
        : store.active
          ? `the active profile of ${store.file}`
          : 'the default (no profile stored yet)';
  const stored = store.get(auth.profile) !== undefined;
  if (!stored && (ctx.globals.profile !== undefined || ctx.env.SQ_PROFILE) && !ctx.env.SQ_TOKEN) {
    return fail(
      'profile',
      `profile "${auth.profile}" (from ${source}) is not in ${store.file}${store.names().length ? ` (profiles: ${store.names().join(', ')})` : ''}`,
      `sq auth login --profile ${auth.profile}, or pick a stored one (sq profiles list)`,
    );
  }
  const from = { flag: '--base-url', env: 'SQ_BASE_URL', profile: 'the profile', default: 'the default' }[
    auth.baseUrlSource
  ];
  const base = `base URL ${auth.baseUrl} from ${from}`;
  return pass('profile', `"${auth.profile}" from ${source}; ${base}`);
}

/** The profile file (it holds the API keys) and its directory: readable by this user only. */
export function permissionsCheck(store: ProfileStore): Check {
  if (process.platform === 'win32')
    return pass('permissions', `${store.file}: not checked on Windows (ACLs, not modes)`);
  const problems: string[] = [];
  const fixes: string[] = [];
  const dir = statSync(store.dir, { throwIfNoEntry: false });
  if (dir && (dir.mode & 0o077) !== 0) {
    problems.push(`${store.dir} is mode ${mode(dir.mode)}`);
    fixes.push(`chmod 700 "${store.dir}"`);
  }
  const file = statSync(store.file, { throwIfNoEntry: false });
  if (!file)
    return problems.length
      ? warn('permissions', problems.join('; '), fixes.join(' && '))
      : pass('permissions', `${store.file}: none yet (written 0600 when a key is stored)`);
  if ((file.mode & 0o077) !== 0) {
    problems.push(`${store.file} is mode ${mode(file.mode)}: other users can read the API keys in it`);
    fixes.push(`chmod 600 "${store.file}"`);
  }
  if (problems.length) return warn('permissions', problems.join('; '), fixes.join(' && '));
  return pass('permissions', `${store.file} is 0600, its directory 0700`);
}

function mode(m: number): string {
  return (m & 0o777).toString(8).padStart(4, '0');
}

export interface Probe {
  /** The answer's Date header in ms, when it had one. */
  date: number | null;
  /** ms on our clock when the answer came. */
  at: number;
}

/** One GET /v1/me without the key: is the base URL reachable, its TLS certificate valid, and is it the API (a JSON
 * 401); its Date for the clock check. */
export async function probeBaseUrl(ctx: Ctx, baseUrl: string): Promise<{ check: Check; probe: Probe | null }> {
  const url = new URL(`${baseUrl}/v1/me`);
  // Loaded here, not at start: node:https brings TLS, which a command on a cached answer never needs.
  const { get } = await importPackage<typeof import('node:https')>(
    url.protocol === 'https:' ? 'node:https' : 'node:http',
  );
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no answer within ${PROBE_MS / 1000} s`), { code: 'ETIMEDOUT' }));
    }, PROBE_MS);
    const req = get(url, { headers: { 'user-agent': `sq/${VERSION} doctor` }, signal: ctx.signal }, (res) => {
      clearTimeout(timer);
      res.resume();
      const date = typeof res.headers.date === 'string' ? Date.parse(res.headers.date) : Number.NaN;
      const tls = url.protocol === 'https:' ? ', TLS certificate valid' : ' (plain http)';
      const type = String(res.headers['content-type'] ?? 'no content type').split(';')[0];
      const api = [200, 401, 403].includes(res.statusCode ?? 0) && type.includes('json');
      const check = api
        ? pass(
            'base_url',
            `${baseUrl} is the API: GET /v1/me without a key answered HTTP ${res.statusCode} (${type})${tls}`,
          )
        : fail(
            'base_url',
            `${baseUrl} is not the API: GET /v1/me answered HTTP ${res.statusCode} (${type}), not the API's JSON 401 for a request without a key`,
            'check the base URL (--base-url, SQ_BASE_URL or the profile): it is the origin of the API, e.g. https://api.lobstr.io',
          );
      resolve({ check, probe: { date: Number.isNaN(date) ? null : date, at: ctx.now() } });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = err.code ?? '';
      const tlsError = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code);
      const check = tlsError
        ? fail(
            'base_url',
            `${baseUrl}: its TLS certificate is not valid (${code})`,
            'check the base URL (--base-url, SQ_BASE_URL or the profile), or a proxy that intercepts TLS (NODE_EXTRA_CA_CERTS names its CA)',
          )
        : fail(
            'base_url',
            `${baseUrl} cannot be reached (${code || err.message})`,
            'check the network and the base URL (--base-url, SQ_BASE_URL or the profile)',
          );
      resolve({ check, probe: null });
    });
  });
}

export function clockCheck(probe: Probe | null): Check {
  if (!probe) return fail('clock', 'not checked: the base URL did not answer', 'fix base_url first');
  if (probe.date === null) return pass('clock', 'not checked: the answer had no Date header');
  // Date has a one-second resolution.
  const skew = probe.date - probe.at;
  const s = Math.round(Math.abs(skew) / 1000);
  if (Math.abs(skew) > MAX_SKEW_MS) {
    return fail(
      'clock',
      `this machine's clock is ${s} s ${skew > 0 ? 'behind' : 'ahead of'} the server's`,
      'turn on time synchronisation (NTP: timedatectl set-ntp true, or the system settings)',
    );
  }
  return pass('clock', `within ${Math.max(1, s)} s of the server's`);
}

/** GET /v1/me with the key in use. */
export async function keyCheck(ctx: Ctx, store: ProfileStore, reachable: boolean): Promise<Check> {
  const auth = resolveAuth(ctx.globals, ctx.env, store);
  const from = auth.tokenSource === 'env' ? 'SQ_TOKEN' : `profile "${auth.profile}"`;
  if (!auth.token)
    return fail(
      'key',
      `no API key (SQ_TOKEN is unset and profile "${auth.profile}" has none)`,
      'sq auth login, or set SQ_TOKEN',
    );
  if (!reachable)
    return fail(
      'key',
      `a key from ${from}, not checked: the base URL is not the API, or did not answer`,
      'fix base_url first',
    );
  try {
    const http = await ctx.http();
    const me = await http.get<User | null>('/v1/me');
    const who = typeof me?.email === 'string' ? ` (${me.email})` : '';
    return pass('key', `the key from ${from} is accepted${who}`);
  } catch (err) {
    if (err instanceof AuthError)
      return fail(
        'key',
        `the key from ${from} is rejected (${err.message})`,
        `sq auth login${auth.tokenSource === 'env' ? ' after unsetting SQ_TOKEN, or set SQ_TOKEN to a valid key' : ` --profile ${auth.profile}`} ` +
          `with a key from the dashboard`,
      );
    if (err instanceof SqError)
      return fail(
        'key',
        `the key from ${from} could not be checked: ${err.message}`,
        'try again; sq doctor --verbose shows the requests',
      );
    throw err;
  }
}

/** What is left of each documented rate window, as sq's shared pacing state last heard it. */
export function rateCheck(ctx: Ctx, store: ProfileStore): Check {
  const dir = cacheDir(ctx.env);
  const auth = resolveAuth(ctx.globals, ctx.env, store);
  const now = ctx.now();
  let buckets: Record<string, unknown> = {};
  if (dir !== undefined) {
    try {
      const doc = JSON.parse(readRegularSync(stateFile(dir, auth.token, new URL(auth.baseUrl).origin))) as {
        buckets?: Record<string, unknown>;
      };
      if (doc && typeof doc.buckets === 'object' && doc.buckets) buckets = doc.buckets;
    } catch {
      // none yet: every window is whole
    }
  }
  const parts: string[] = [];
  const blocked: string[] = [];
  for (const [prefix, rule] of Object.entries(RATE_LIMITS)) {
    const per = rule.windowMs === 1000 ? 's' : 'min';
    const s = sane(buckets[prefix], now);
    if (s.pausedUntil > now) {
      const wait = Math.ceil((s.pausedUntil - now) / 1000);
      blocked.push(`${prefix} (a 429: paused ${wait} s more)`);
      parts.push(`${prefix} paused ${wait} s`);
      continue;
    }
    const server = s.server;
    const live = server && (server.resetAt === null ? server.until > now : server.resetAt > now);
    const limit = (live && server.limit) || rule.limit;
    const sent = s.sent.filter((t) => t > now - rule.windowMs).length;
    const left = live ? Math.max(0, server.remaining - (s.seq - server.seq)) : Math.max(0, rule.limit - sent);
    if (left === 0) {
      const reset =
        live && server.resetAt !== null ? Math.ceil((server.resetAt - now) / 1000) : Math.ceil(rule.windowMs / 1000);
      blocked.push(`${prefix} (none left; the window resets in ${reset} s)`);
    }
    parts.push(`${prefix} ${left}/${limit} per ${per}`);
  }
  const where = dir === undefined ? ' (no cache dir: this process only)' : '';
  if (blocked.length)
    return warn(
      'rate_budget',
      `${parts.join(', ')}${where}; exhausted: ${blocked.join(', ')}`,
      'wait for the window to reset; parallel sq calls with this key share one budget',
    );
  return pass('rate_budget', `${parts.join(', ')}${where}`);
}

/** Is sq's completion installed where the current shell ($SHELL) looks for it? */
export function completionCheck(env: Record<string, string | undefined>): Check {
  const shell = (env.SHELL ?? '').split('/').pop() ?? '';
  const home = env.HOME;
  if (!['bash', 'zsh', 'fish'].includes(shell))
    return pass(
      'completion',
      `not checked: the shell ${shell ? `"${shell}"` : '($SHELL unset)'} is not bash, zsh or fish`,
    );
  if (!home) return warn('completion', `not found: $HOME is unset`, `source <(sq completion ${shell})`);
  const data = env.XDG_DATA_HOME || join(home, '.local/share');
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const files: Record<string, string[]> = {
    bash: [
      join(data, 'bash-completion/completions/sq'),
      '/etc/bash_completion.d/sq',
      '/usr/share/bash-completion/completions/sq',
      '/usr/local/share/bash-completion/completions/sq',
    ],
    zsh: [
      join(home, '.zfunc/_sq'),
      '/usr/local/share/zsh/site-functions/_sq',
      '/usr/share/zsh/site-functions/_sq',
      '/usr/share/zsh/vendor-completions/_sq',
      '/opt/homebrew/share/zsh/site-functions/_sq',
    ],
    fish: [
      join(config, 'fish/completions/sq.fish'),
      '/usr/share/fish/vendor_completions.d/sq.fish',
      '/usr/local/share/fish/vendor_completions.d/sq.fish',
    ],
  };
  const rcs: Record<string, string[]> = {
    bash: [join(home, '.bashrc'), join(home, '.bash_profile'), join(home, '.bash_completion'), join(home, '.profile')],
    zsh: [join(env.ZDOTDIR || home, '.zshrc')],
    fish: [join(config, 'fish/config.fish')],
  };
  const file = files[shell].find((f) => existsSync(f));
  if (file) return pass('completion', `${shell}: ${file}`);
  const rc = rcs[shell].find((f) => {
    try {
      return readRegularSync(f).includes(`completion ${shell}`);
    } catch {
      return false;
    }
  });
  if (rc) return pass('completion', `${shell}: loaded by ${rc}`);
  const install = {
    bash: `echo 'source <(sq completion bash)' >> ~/.bashrc`,
    zsh: `echo 'source <(sq completion zsh)' >> ${env.ZDOTDIR ? '$ZDOTDIR' : '~'}/.zshrc`,
    fish: 'sq completion fish > ~/.config/fish/completions/sq.fish',
  }[shell];
  return warn(
    'completion',
    `${shell}: not installed (no completion file, and no \`sq completion ${shell}\` in ${rcs[shell].join(' or ')})`,
    install!,
  );
}

/** Is a newer sq published? Asked of the registry (1 s), never an error when it does not answer. */
export async function updateCheck(env: Record<string, string | undefined>): Promise<Check> {
  // Held: sq doctor waits for this answer (1 s at most), and an unref'd request would let the process end first.
  const latest = await fetchLatest(env, undefined, { hold: true });
  if (latest === null) return pass('update', `sq ${VERSION}; the registry did not answer within 1 s (not checked)`);
  if (isNewer(latest)) return warn('update', `sq ${VERSION}; ${latest} is available`, upgradeHint(latest));
  return pass('update', `sq ${VERSION} is the latest`);
}

export async function runChecks(ctx: Ctx): Promise<Check[]> {
  const store = await ctx.config();
  const profile = profileCheck(ctx, store);
  const checks: Check[] = [];
  let baseUrl: string | null = null;
  try {
    baseUrl = resolveAuth(ctx.globals, ctx.env, store).baseUrl;
  } catch {
    // the profile check says why
  }
  const update = updateCheck(ctx.env);
  if (baseUrl === null) {
    checks.push(fail('key', 'not checked: the profile or base URL is not usable', 'fix profile first'));
    checks.push(fail('base_url', 'not checked: the profile or base URL is not usable', 'fix profile first'));
    checks.push(fail('clock', 'not checked: the base URL is not usable', 'fix profile first'));
    checks.push(fail('rate_budget', 'not checked: the profile is not usable', 'fix profile first'));
  } else {
    const { check: base, probe } = await probeBaseUrl(ctx, baseUrl);
    checks.push(await keyCheck(ctx, store, base.ok));
    checks.push(base, clockCheck(probe), rateCheck(ctx, store));
  }
  checks.push(
    permissionsCheck(store),
    profile,
    completionCheck(ctx.env),
    nodeCheck(process.version, ctx.now()),
    await update,
  );
  return checks;
}
