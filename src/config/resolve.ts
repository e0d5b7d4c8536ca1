// Which profile, key and base URL a command uses. Key: SQ_TOKEN > profile. Base URL: --base-url > SQ_BASE_URL >
// profile > the live service.
import type { ProfileStore } from './store.js';
import { baseUrlFlag } from '../validate/url.js';
import { envFlag } from '../context.js';

const DEFAULT_BASE_URL = 'https://api.lobstr.io';

interface ResolvedAuth {
  profile: string;
  token: string | null;
  tokenSource: 'env' | 'profile' | 'none';
  baseUrl: string;
  baseUrlSource: 'flag' | 'env' | 'profile' | 'default';
}

export function profileName(flag: string | undefined, env: Record<string, string | undefined>, store: ProfileStore): string {
  return flag || env.SQ_PROFILE || store.active || 'default';
}

export function resolveAuth(
  flags: { profile?: string; baseUrl?: string; insecureHttp?: boolean },
  env: Record<string, string | undefined>,
  store: ProfileStore,
): ResolvedAuth {
  const profile = profileName(flags.profile, env, store);
  const p = store.get(profile);
  let token: string | null = null;
  let tokenSource: ResolvedAuth['tokenSource'] = 'none';
  if (env.SQ_TOKEN) {
    token = env.SQ_TOKEN;
    tokenSource = 'env';
  } else if (p?.token) {
    token = p.token;
    tokenSource = 'profile';
  }
  let baseUrl = DEFAULT_BASE_URL;
  let baseUrlSource: ResolvedAuth['baseUrlSource'] = 'default';
  if (flags.baseUrl) {
    baseUrl = flags.baseUrl;
    baseUrlSource = 'flag';
  } else if (env.SQ_BASE_URL) {
    baseUrl = env.SQ_BASE_URL;
    baseUrlSource = 'env';
  } else if (p?.base_url) {
    baseUrl = p.base_url;
    baseUrlSource = 'profile';
  }
  // A bad URL is a usage error naming where it came from, before any request (not undici's "Invalid URL").
  const from = { flag: '--base-url', env: 'SQ_BASE_URL', profile: `the base_url of profile "${profile}"`, default: 'the default base URL' }[baseUrlSource];
  return { profile, token, tokenSource, baseUrl: normaliseBaseUrl(baseUrlFlag(from, baseUrl, DEFAULT_BASE_URL, flags.insecureHttp === true || envFlag(env.SQ_INSECURE_HTTP))), baseUrlSource };
}

/** Accept `https://host`, `https://host/` and `https://host/v1`: paths we send always start with /v1. */
function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}
