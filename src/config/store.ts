// Profiles live in one JSON file written through conf (atomic writes: temp file, fsync, rename; mode 0600, directory
// 0700). Reads take a plain fs path: `sq me` should not load conf on every call.
// Every change is a read-modify-write under a cross-process lock (lib/lock.ts), so that two `sq auth login` running at
// once both end up in the file.
import { closeSync, constants, readFileSync, chmodSync, existsSync, renameSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { importPackage } from '../import-package.js';
import { SqError, UsageError } from '../errors.js';
import { withFileLock } from '../lib/lock.js';
import { isRecord } from '../lib/guards.js';
import { openRegularSync } from '../lib/regular-file.js';
import { makeDirSync } from '../lib/regular-file.js';

interface Profile {
  token?: string;
  base_url?: string;
  user?: string;
  /** `sq config set` values of this profile, by key (src/config/settings.ts); strings as typed, checked on set. */
  settings?: Record<string, string>;
}

interface ProfileData {
  active?: string;
  profiles: Record<string, Profile>;
}

export const CONFIG_FILE = 'config.json';

/** Where profiles are stored: SQ_CONFIG_DIR, else the platform config dir that conf (env-paths) picks for "sq". */
function configDir(env: Record<string, string | undefined>): string {
  if (env.SQ_CONFIG_DIR) return env.SQ_CONFIG_DIR;
  const home = homeOf(env);
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'sq');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'sq', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'sq');
}

/** A crashed sq leaves its lock behind: after `STALE_MS` the next sq takes it over. */
const STALE_MS = 10_000;
const LOCK_WAIT_MS = 30_000;

function homeOf(env: Record<string, string | undefined>): string {
  // node:os only without HOME: not loaded by every call that reads the profile file.
  return env.HOME || process.getBuiltinModule('node:os').homedir();
}

/**
 * The home directory the profile directory would be made in when that home does not exist (a service account's, a
 * container's $HOME): sq never creates it. Undefined when SQ_CONFIG_DIR or XDG_CONFIG_HOME name the place, or it exists.
 */
function missingHome(env: Record<string, string | undefined>, dir: string): string | undefined {
  if (env.SQ_CONFIG_DIR || (process.platform !== 'darwin' && process.platform !== 'win32' && env.XDG_CONFIG_HOME))
    return undefined;
  const home = homeOf(env);
  if (!dir.startsWith(home) || statSync(home, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return home;
}

export class ProfileStore {
  readonly dir: string;
  readonly file: string;
  /** The file exists but is not a profile file; its content is never shown (it may hold keys). */
  readonly corrupt: boolean;
  /** Set when the file can be read by other users (the group or everyone): a warning, not an error. */
  readonly exposedMode: number | null;
  private data: ProfileData;
  private readonly env: Record<string, string | undefined>;

  constructor(env: Record<string, string | undefined>) {
    this.env = env;
    this.dir = configDir(env);
    this.file = join(this.dir, CONFIG_FILE);
    const { data, st } = readData(this.file);
    this.data = data ?? { profiles: noProfiles() };
    this.corrupt = data === null;
    // The stat of the file just read, when there is one: one system call fewer than a stat of the path.
    this.exposedMode = exposedMode(this.file, st);
  }

  /** The error every reader gets from a corrupt file: where it is and what to do, nothing of what it holds. */
  corruptError(): UsageError {
    return new UsageError(
      `the profile file ${this.file} is corrupt (not a JSON object of profiles); its content is not shown, as it may ` +
        `hold keys. Fix or delete it, or run \`sq auth login\` to replace it (the old file is kept as a backup)`,
    );
  }

  get active(): string | undefined {
    return this.data.active;
  }

  names(): string[] {
    return Object.keys(this.data.profiles).sort();
  }

  get(name: string): Profile | undefined {
    return Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
  }

  /**
   * Store a profile; `change` gets the stored one as it is under the lock. `replaceCorrupt`: a corrupt file is moved
   * to config.json.corrupt-<time> (mode 0600) and replaced, instead of being an error.
   */
  async save(
    name: string,
    change: (current: Profile | undefined) => Profile,
    makeActive: boolean,
    opts: { replaceCorrupt?: boolean } = {},
  ): Promise<void> {
    await this.update((d) => {
      d.profiles[name] = change(Object.hasOwn(d.profiles, name) ? d.profiles[name] : undefined);
      if (makeActive || !d.active) d.active = name;
      return true;
    }, opts);
  }

  /** False (and nothing written) when there is no such profile by the time the lock is held. */
  async setActive(name: string): Promise<boolean> {
    return this.update((d) => {
      if (!Object.hasOwn(d.profiles, name)) return false;
      d.active = name;
      return true;
    });
  }

  /** Drop the stored key (and the user it belonged to); false when there was none. */
  async forgetKey(name: string): Promise<boolean> {
    return this.update((d) => {
      const p = Object.hasOwn(d.profiles, name) ? d.profiles[name] : undefined;
      if (!p?.token) return false;
      const { token: _token, user: _user, ...rest } = p;
      d.profiles[name] = rest;
      return true;
    });
  }

  /** A `sq config` value of the profile, or undefined when it is not set. */
  setting(name: string, key: string): string | undefined {
    const s = this.get(name)?.settings;
    return s && Object.hasOwn(s, key) ? s[key] : undefined;
  }

  /** Set (or with undefined, remove) a `sq config` value of the profile; the profile is made when it does not exist. */
  async saveSetting(name: string, key: string, value: string | undefined): Promise<void> {
    await this.update((d) => {
      const p = Object.hasOwn(d.profiles, name) ? d.profiles[name] : undefined;
      const settings = Object.assign(Object.create(null) as Record<string, string>, p?.settings ?? {});
      if (value === undefined) delete settings[key];
      else settings[key] = value;
      const { settings: _old, ...rest } = p ?? {};
      d.profiles[name] = Object.keys(settings).length ? { ...rest, settings: { ...settings } } : rest;
      return true;
    });
  }

  async remove(name: string): Promise<boolean> {
    return this.update((d) => {
      if (!Object.hasOwn(d.profiles, name)) return false;
      delete d.profiles[name];
      if (d.active === name) delete d.active;
      return true;
    });
  }

  /** The profile directory, made (0700) when it is missing; a home directory that does not exist is never made. */
  makeDir(): void {
    // Looked at only when something is to be written: a call that reads the profiles never needs it.
    const home = missingHome(this.env, this.dir);
    if (home !== undefined) {
      throw new SqError(
        `cannot store profiles in ${this.dir}: the home directory ${home} does not exist, and sq does not create it; ` +
          `set SQ_CONFIG_DIR to a directory for them, or pass the key in SQ_TOKEN (nothing stored)`,
      );
    }
    makeDirSync(this.dir);
    // mkdir's mode is ignored for an existing directory and masked by umask for a new one.
    chmodSync(this.dir, 0o700);
  }

  /** Lock, re-read, apply `change`, write atomically when it returns true, unlock. */
  private async update(change: (d: ProfileData) => boolean, opts: { replaceCorrupt?: boolean } = {}): Promise<boolean> {
    this.makeDir();
    const { default: Conf } = await importPackage<typeof import('conf')>('conf');
    // The lock only guards a write of a few milliseconds; if it was taken over anyway, the write stays atomic.
    return withFileLock(`${this.file}.lock`, () => this.locked(Conf, change, opts), {
      staleMs: STALE_MS,
      waitMs: LOCK_WAIT_MS,
    }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      throw new SqError(`the profile file ${this.file} is locked by another sq command; try again (ELOCKED)`);
    });
  }

  private locked(
    Conf: typeof import('conf').default,
    change: (d: ProfileData) => boolean,
    opts: { replaceCorrupt?: boolean },
  ): boolean {
    let fresh = readData(this.file).data;
    if (fresh === null) {
      if (!opts.replaceCorrupt) throw this.corruptError();
      const backup = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(this.file, backup);
      chmodSync(backup, 0o600);
      fresh = { profiles: noProfiles() };
    }
    this.data = fresh;
    if (!change(fresh)) return false;
    const conf = new Conf<ProfileData>({
      cwd: this.dir,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      projectName: 'sq',
    });
    conf.store = fresh;
    if (existsSync(this.file)) chmodSync(this.file, 0o600);
    return true;
  }
}

/** Profiles are kept in an object without a prototype, so that every name (`__proto__` too) is an own key. */
function noProfiles(): Record<string, Profile> {
  return Object.create(null) as Record<string, Profile>;
}

const PROFILE_FIELDS = ['token', 'base_url', 'user'] as const;

/** A stored profile: an object whose token, base_url and user, when present, are strings, and settings strings by key. */
function isProfile(value: unknown): value is Profile {
  if (!isRecord(value) || !PROFILE_FIELDS.every((k) => value[k] === undefined || typeof value[k] === 'string'))
    return false;
  const s = value.settings;
  return s === undefined || (isRecord(s) && Object.values(s).every((v) => typeof v === 'string'));
}

/** The profiles in the file (null when it is not a profile file), and the stat of the regular file it read. */
function readData(file: string): { data: ProfileData | null; st?: Stats } {
  let raw: string;
  let fd: number;
  let st: Stats;
  try {
    // Only a regular file, never blocking on a FIFO: a directory or FIFO at config.json is a corrupt profile file.
    ({ fd, st } = openRegularSync(file, constants.O_RDONLY));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { data: code === 'EISDIR' || code === 'ENOTREG' ? null : { profiles: noProfiles() } };
  }
  try {
    raw = readFileSync(fd, 'utf8');
  } catch {
    return { data: null, st };
  } finally {
    closeSync(fd);
  }
  return { data: profileData(raw), st };
}

function profileData(raw: string): ProfileData | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const profiles = parsed.profiles === undefined ? {} : parsed.profiles;
  if (!isRecord(profiles) || !Object.values(profiles).every(isProfile)) return null;
  return {
    active: typeof parsed.active === 'string' ? parsed.active : undefined,
    profiles: Object.assign(noProfiles(), profiles),
  };
}

/** The file's permission bits when others than its owner can read or write it, else null; `st`: its stat, if known. */
function exposedMode(file: string, st?: Stats): number | null {
  if (process.platform === 'win32') return null;
  try {
    const mode = (st ?? statSync(file)).mode & 0o777;
    return mode & 0o077 ? mode : null;
  } catch {
    return null;
  }
}
