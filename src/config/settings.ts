// The keys of `sq config get|set|list` (per profile, as `gh config`): one table, so a new setting is one entry here.
// A value is stored as the text given (checked by `parse` when set) and read back through `parse`.
import { UsageError } from '../errors.js';

export interface SettingDef {
  /** What it does, for `sq config list` and `--help`. */
  description: string;
  /** The allowed values, in words, for the error when a value is refused. */
  allowed: string;
  /** The value when none is set (undefined: unset means off). */
  default?: string;
  /** The environment variable that overrides the profile's value, when there is one. */
  env?: string;
  /** The value as stored (normalised), or a UsageError naming the key and the allowed values. */
  parse(key: string, value: string): string;
}

/** A number of credits: 0 or more, fractions allowed (rates such as 0.5 credits a row exist). */
export function creditsValue(from: string, value: string): string {
  const t = value.trim();
  const n = Number(t);
  if (t === '' || !/^\d+(\.\d+)?$/.test(t) || !Number.isFinite(n)) {
    throw new UsageError(
      `${from} must be a number of credits, 0 or more (e.g. 500 or 12.5); got ${JSON.stringify(value)}`,
    );
  }
  // What is stored must read back: 1e22 or 1e-7 (as String() writes them) is no number of credits.
  if (n > MAX_CREDITS)
    throw new UsageError(`${from} must be at most ${MAX_CREDITS} credits; got ${JSON.stringify(value)}`);
  const out = String(n);
  if (!/^\d+(\.\d+)?$/.test(out))
    throw new UsageError(
      `${from} must be a number of credits with at most 6 decimals (e.g. 0.5); got ${JSON.stringify(value)}`,
    );
  return out;
}

/** The largest number of credits a cap or threshold takes: far above any account's, and exact as a double. */
export const MAX_CREDITS = 1_000_000_000_000;

export const SETTINGS: Record<string, SettingDef> = {
  'max-credits': {
    description:
      'the default --max-credits of `sq runs start` and `sq go`: a run whose estimate is above it is not started (exit 9)',
    allowed: 'a number of credits, 0 or more',
    env: 'SQ_MAX_CREDITS',
    parse: (key, v) => creditsValue(key, v),
  },
  'confirm-above': {
    description:
      'on a terminal, `sq runs start` and `sq go` show the estimate and ask y/N before a run estimated above this many credits',
    allowed: 'a number of credits, 0 or more',
    default: '100',
    parse: (key, v) => creditsValue(key, v),
  },
  'update-notifier': {
    description:
      'after a command on a terminal, at most once a day, say on stderr that a newer sq is published (never in CI, never ' +
      'when piped); SQ_NO_UPDATE_NOTIFIER=1 turns it off too',
    allowed: 'on or off',
    default: 'on',
    parse: (key, v) => {
      const t = v.trim().toLowerCase();
      if (t !== 'on' && t !== 'off') throw new UsageError(`${key} must be on or off; got ${JSON.stringify(v)}`);
      return t;
    },
  },
  'csv-safe': {
    description:
      "CSV and TSV output: a text cell starting with =, +, -, @, a tab or a CR gets a leading ' so a spreadsheet never runs it " +
      'as a formula (as --csv-safe; SQ_CSV_SAFE=1 too)',
    allowed: 'on or off',
    default: 'off',
    env: 'SQ_CSV_SAFE',
    parse: (key, v) => {
      const t = v.trim().toLowerCase();
      if (/^(1|true|yes|on)$/.test(t)) return 'on';
      if (/^(0|false|no|off)$/.test(t)) return 'off';
      throw new UsageError(`${key} must be on or off; got ${JSON.stringify(v)}`);
    },
  },
};

export function settingKeys(): string[] {
  return Object.keys(SETTINGS);
}

/** The definition of a key, or a UsageError listing the keys. */
export function settingDef(key: string): SettingDef {
  if (!Object.hasOwn(SETTINGS, key))
    throw new UsageError(`unknown config key ${JSON.stringify(key)}; the keys are: ${settingKeys().join(', ')}`);
  return SETTINGS[key];
}

export interface ResolvedSetting {
  key: string;
  value: string | undefined;
  source: 'env' | 'profile' | 'default' | 'unset';
}

/** Where a stored value was read: the profile and its file, named when the value is not valid. */
export interface SettingPlace {
  profile: string;
  file: string;
}

/** A value stored in the profile file that its key does not take (the file edited by hand, an older sq). */
export class BadStoredSettingError extends UsageError {
  constructor(
    readonly key: string,
    readonly allowed: string,
    where?: SettingPlace,
  ) {
    // Read from the profile file: its value is not quoted back (no error quotes the content of a file it read).
    const place = where ? ` in profile "${where.profile}" of ${where.file}` : ' in the profile';
    super(
      `the ${key} setting stored${place} is not valid (it takes ${allowed}): run \`sq config unset ${key}\` ` +
        `(back to its default) or \`sq config set ${key} VALUE\``,
    );
  }
}

/** A key's value for a command: its environment variable (unless empty), else the profile's, else the default. A
 * stored value the key does not take is a BadStoredSettingError. */
export function resolveSetting(
  key: string,
  stored: string | undefined,
  env: Record<string, string | undefined>,
  where?: SettingPlace,
): ResolvedSetting {
  const def = settingDef(key);
  const fromEnv = def.env ? env[def.env] : undefined;
  if (def.env && fromEnv !== undefined && fromEnv !== '')
    return { key, value: def.parse(def.env, fromEnv), source: 'env' };
  if (stored !== undefined) {
    try {
      return { key, value: def.parse(key, stored), source: 'profile' };
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      throw new BadStoredSettingError(key, def.allowed, where);
    }
  }
  return def.default !== undefined
    ? { key, value: def.default, source: 'default' }
    : { key, value: undefined, source: 'unset' };
}
