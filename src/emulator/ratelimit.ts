// Fixed-window rate limits per key and path prefix. Windows run on real time (Date.now), never on the business
// clock: a client's pacing is about wall-clock seconds even when business time is virtual. A test in the same process
// may give its own clock (EmulatorOptions.rateClock), shared with the sq it runs, so a minute's window passes at once.
import { RATE_LIMITS } from '../tables/rate-limits.js';

interface LimitRule {
  prefix: string;
  limit: number;
  windowMs: number;
  /** A limit the rate-limiting page gives (its table); false for the 600/min the emulator chose. */
  documented: boolean;
}

/** The documented limits (the client's table); any other /v1 prefix gets 600/min (our choice, the docs state none). */
const LIMIT_RULES: readonly LimitRule[] = Object.entries(RATE_LIMITS).map(([p, rule]) => ({
  prefix: `/v1/${p}`,
  ...rule,
  documented: true,
}));
const DEFAULT_LIMIT_RULE = { limit: 600, windowMs: 60_000, documented: false };

export type RateLimitSetting = 'on' | 'off' | number;

interface RateDecision {
  allowed: boolean;
  /** Whether the path has a limit of the rate-limiting page's table (which 429 body it answers: rateLimitBody). */
  documented: boolean;
  headers: Record<string, string>;
  retryAfterS: number;
}

/** `/v1/runtasks/x` → `/v1/runtasks`; the prefix is the first segment after /v1, so runtasks ≠ runs. */
function prefixOf(path: string): string {
  const seg = path.split('/').filter(Boolean);
  return seg.length >= 2 ? `/${seg[0]}/${seg[1]}` : `/${seg[0] ?? ''}`;
}

function ruleFor(path: string): LimitRule {
  const prefix = prefixOf(path);
  const rule = LIMIT_RULES.find((r) => r.prefix === prefix);
  return rule ? { ...rule } : { prefix, ...DEFAULT_LIMIT_RULE };
}

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    public setting: RateLimitSetting = 'on',
    readonly now: () => number = Date.now,
  ) {}

  allowedPerWindow(base: number): number {
    if (typeof this.setting === 'number') return Math.max(1, Math.floor(base * this.setting));
    return base;
  }

  check(key: string, path: string, now = this.now()): RateDecision {
    const rule = ruleFor(path);
    const allowed = this.allowedPerWindow(rule.limit);
    const id = `${key}\u0000${rule.prefix}`;
    let w = this.windows.get(id);
    if (!w || now >= w.start + rule.windowMs) {
      // Windows are aligned to the clock (whole seconds, whole minutes), so X-RateLimit-Reset, a whole UNIX
      // second, is exactly when the window ends; a window started mid-second would announce a reset up to a
      // second late and halve a paced client's throughput on the 2-per-second /v1/results.
      w = { start: now - (now % rule.windowMs), count: 0 };
      this.windows.set(id, w);
    }
    const resetMs = w.start + rule.windowMs;
    const off = this.setting === 'off';
    const ok = off || w.count < allowed;
    // With limits off nothing is counted, so Remaining never tells a client to slow down.
    if (ok && !off) w.count++;
    const retryAfterS = Math.max(1, Math.ceil((resetMs - now) / 1000));
    return {
      allowed: ok,
      documented: rule.documented,
      retryAfterS,
      headers: {
        'X-RateLimit-Limit': String(allowed),
        'X-RateLimit-Remaining': String(Math.max(0, allowed - w.count)),
        'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
        // The clock Reset is on: a client measures Reset against Date.
        Date: new Date(now).toUTCString(),
      },
    };
  }

  clear(): void {
    this.windows.clear();
  }
}

/**
 * The 429 body. The docs show two (api-reference §3: a client must take both): the rate-limiting page's
 * `{error, type, code}` for the limits of its table (the seconds to wait in Retry-After), and the errors page's
 * DRF throttle `{detail: "Request was throttled. Expected available in N seconds."}`, which the emulator answers
 * where the table gives no limit (/v1/me, /v1/accounts, /v1/crawlers…: the framework's own throttle, as the
 * wording says). Both send Retry-After. docs/emulator.md lists the choice.
 */
export function rateLimitBody(retryAfterS: number, documented = true): Record<string, unknown> {
  if (!documented)
    return {
      detail: `Request was throttled. Expected available in ${retryAfterS} second${retryAfterS === 1 ? '' : 's'}.`,
    };
  return {
    error: 'Rate limit exceeded. Please try again later.',
    type: 'RateLimitExceeded',
    code: 429,
  };
}
