// Which profile, key and base URL a command uses. Key: SQ_TOKEN > profile. Base URL: --base-url > SQ_BASE_URL >
// profile > the live service.
import type { ProfileStore } from './store.js';
import { baseUrlFlag } from '../validate/url.js';
import { envFlag } from '../lib/env.js';
import { UsageError } from '../errors.js';
import { allIn } from '../lib/ascii.js';

const DEFAULT_BASE_URL = 'https://api.lobstr.io';

interface ResolvedAuth {
  profile: string;
  token: string | null;
  tokenSource: 'env' | 'profile' | 'none';
  baseUrl: string;
  baseUrlSource: 'flag' | 'env' | 'profile' | 'default';
}

/** What a profile name given by --profile or SQ_PROFILE may be (names already in the file are used as they are). */
const PROFILE_NAME_RULE = '1 to 64 letters, digits, ".", "_" or "-", not starting with "." or "-"';
const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
// Names that are special on JavaScript objects: refused even though the profile file stores them safely.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export function profileName(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  store: ProfileStore,
): string {
  for (const [from, name] of [
    ['--profile', flag],
    ['SQ_PROFILE', env.SQ_PROFILE],
  ] as const) {
    // An empty SQ_PROFILE is an unset one; an empty --profile is a mistake (a variable that expanded to nothing).
    if (name === undefined || (name === '' && from === 'SQ_PROFILE')) continue;
    if (!PROFILE_NAME.test(name) || RESERVED_NAMES.has(name)) {
      throw new UsageError(
        `${from} must be a profile name: ${PROFILE_NAME_RULE}, other than __proto__, constructor or prototype`,
      );
    }
    return name;
  }
  return store.active || 'default';
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
  if (flags.baseUrl !== undefined) {
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
  const from = {
    flag: '--base-url',
    env: 'SQ_BASE_URL',
    profile: `the base_url of profile "${profile}"`,
    default: 'the default base URL',
  }[baseUrlSource];
  return {
    profile,
    token,
    tokenSource,
    baseUrl: normaliseBaseUrl(
      baseUrlFlag(from, baseUrl, DEFAULT_BASE_URL, flags.insecureHttp === true || envFlag(env.SQ_INSECURE_HTTP)),
    ),
    baseUrlSource,
  };
}

/** A key goes in an HTTP header, printable ASCII only: anything else is refused, naming where it came from, not it. */
export function checkApiKey(from: string, token: string): void {
  if (!printableAscii(token)) {
    throw new UsageError(
      `${from} contains characters an API key cannot have (only printable ASCII, no spaces, curly quotes or control characters); the key is not shown`,
    );
  }
}

/** Non-empty, and every character printable ASCII (0x21-0x7e). */
function printableAscii(s: string): boolean {
  return allIn(s, 0x21, 0x7e);
}

/** Accept `https://host`, `https://host/` and `https://host/v1`: paths we send always start with /v1. String
 * operations, not regular expressions: this runs on every call. */
export function normaliseBaseUrl(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  const trimmed = url.slice(0, end);
  return trimmed.endsWith('/v1') ? trimmed.slice(0, -3) : trimmed;
}
