// Flag validation, before any request. A failure becomes a UsageError (exit 2) whose message names the flag, the
// allowed values and what was given. Plain checks, not zod: these rules are simple, and loading zod would cost every
// command with a flag.
import { UsageError } from '../errors.js';
import { attributeName } from '../lib/flag-name.js';
import { formatDuration, MAX_TIMEOUT_MS, parseDuration } from './duration.js';

import { RUN_EVENTS, type RunEventName } from '../api/events.js';

export { RUN_EVENTS, type RunEventName };

function fail(flag: string, rule: string, got: unknown): never {
  throw new UsageError(`${flag} must be ${rule} (got ${JSON.stringify(got)})`);
}

/** Decimal integer text ("42", " -3 "): its number; undefined for anything else. */
function intText(value: unknown): number | undefined {
  return typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** A string with something besides white space: trimmed; undefined for anything else. */
function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

function check<T>(parse: (value: unknown) => T | undefined, value: unknown, flag: string, rule: string): T {
  const r = parse(value);
  if (r === undefined) fail(flag, rule, value);
  return r;
}

/** An integer in [min, max]; accepts numbers or their decimal text. */
export function intFlag(flag: string, value: unknown, min: number, max: number): number {
  const rule = `an integer from ${min} to ${max}`;
  const n = typeof value === 'number' ? value : check(intText, value, flag, rule);
  if (!Number.isSafeInteger(n) || n < min || n > max) fail(flag, rule, value);
  return n;
}

export function optionalInt(flag: string, value: unknown, min: number, max: number): number | undefined {
  return value === undefined ? undefined : intFlag(flag, value, min, max);
}

export function portFlag(flag: string, value: unknown): number {
  return intFlag(flag, value, 1, 65535);
}

export { httpUrlFlag } from './url.js';

/** A positive duration, at most maxMs (7d unless told: see duration.ts for why every duration is bounded). */
export function durationFlag(flag: string, value: unknown, opts: { minMs?: number; maxMs?: number } = {}): number {
  const maxMs = opts.maxMs ?? MAX_TIMEOUT_MS;
  const min = opts.minMs ? ` of at least ${formatDuration(opts.minMs)} and` : ' of';
  const rule = `a duration like 30s, 10m or 2h${min} at most ${formatDuration(maxMs)}`;
  const s = check(nonEmptyText, typeof value === 'number' ? String(value) : value, flag, rule);
  const ms = parseDuration(s);
  if (ms === null || ms <= 0 || ms > maxMs || (opts.minMs !== undefined && ms < opts.minMs)) fail(flag, rule, value);
  return ms;
}

export function enumFlag<T extends string>(flag: string, value: unknown, allowed: readonly T[]): T {
  return check(
    (v) => ((allowed as readonly unknown[]).includes(v) ? (v as T) : undefined),
    value,
    flag,
    `one of ${allowed.join(', ')}`,
  );
}

/** A comma-separated subset of the four run events; "all" means every one. */
export function eventsFlag(flag: string, value: unknown): RunEventName[] {
  const rule = `a comma-separated list of ${RUN_EVENTS.join(', ')} (or "all")`;
  const s = check(nonEmptyText, value, flag, rule);
  if (s === 'all') return [...RUN_EVENTS];
  const list = s.split(',').map((e) => e.trim());
  const bad = list.filter((e) => !(RUN_EVENTS as readonly string[]).includes(e));
  if (bad.length || list.some((e) => e === '')) {
    throw new UsageError(
      `${flag}: unknown event ${
        bad
          .filter(Boolean)
          .map((b) => JSON.stringify(b))
          .join(', ') || '""'
      }; allowed: ${RUN_EVENTS.join(', ')} (or "all")`,
    );
  }
  return [...new Set(list)] as RunEventName[];
}

/** Counts are bounded like durations: past this, --all streams everything without a number to get wrong. */
const MAX_LIMIT = 1_000_000;
const MAX_PAGE = 1_000_000;

export function pageFlag(value: unknown): number | undefined {
  return value === undefined ? undefined : intFlag('--page', value, 1, MAX_PAGE);
}

/** --limit counts records (paged internally at 100). */
export function limitFlag(value: unknown, max = MAX_LIMIT): number | undefined {
  return value === undefined ? undefined : intFlag('--limit', value, 1, max);
}

/** Loose on purpose: something@domain.tld; the service checks the rest. */
export function isEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);
}

export function nonEmpty(flag: string, value: unknown): string {
  return check(nonEmptyText, value, flag, 'a non-empty value');
}

/** The longest name sq sends (--name of a squid): names are labels in lists; 100,000 characters is a wrong paste. */
export const MAX_NAME_CHARS = 255;

/** A name to send: not empty, at most MAX_NAME_CHARS characters, no control characters. */
export function nameFlag(flag: string, value: unknown): string {
  const name = nonEmpty(flag, value);
  const length = [...name].length;
  if (length > MAX_NAME_CHARS)
    throw new UsageError(`${flag} must be at most ${MAX_NAME_CHARS} characters (got ${length})`);
  if (/[\x00-\x1f\x7f-\x9f]/.test(name))
    throw new UsageError(`${flag} must not contain control characters (line breaks, tabs, escapes)`);
  return name;
}

/** `--output` for the option key `output`, `--dry-run` for `dryRun`. */
type Kebab<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `-${Lowercase<H>}`}${Kebab<T>}`
  : S;
/** The flags of a verb's typed options (command.ts, OptionsOf): a flag the verb does not have is a compile error. */
type FlagOf<O> = `--${Kebab<keyof O & string>}`;

/** Flags that only make sense together or apart. */
export function exclusive<O extends object>(opts: O, flags: [FlagOf<O>, FlagOf<O>][]): void {
  const given = (flag: string) => {
    const v = (opts as Record<string, unknown>)[attributeName(flag)];
    return v !== undefined && v !== false;
  };
  for (const [a, b] of flags) if (given(a) && given(b)) throw new UsageError(`${a} and ${b} cannot be used together`);
}

/** A flag's value (opts.squid for '--squid'), which must be given: else exit 2 naming the flag. */
export function required(flag: `--${string}`, value: string | boolean | undefined, hint = ''): string {
  if (value === undefined || value === '' || typeof value === 'boolean')
    throw new UsageError(`${flag} is required${hint ? `: ${hint}` : ''}`);
  return value;
}
