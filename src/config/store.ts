// Profiles live in one JSON file written through conf (atomic writes, mode 0600, directory 0700).
// Reads take a plain fs path: loading conf costs ~60 ms, which `sq me` should not pay on every call.
import { readFileSync, mkdirSync, chmodSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { importPackage } from '../import-package.js';

export interface Profile {
  token?: string;
  base_url?: string;
  user?: string;
}

export interface ProfileData {
  active?: string;
  profiles: Record<string, Profile>;
}

export const CONFIG_FILE = 'config.json';

/** Where profiles are stored: SQ_CONFIG_DIR, else the platform config dir that conf (env-paths) picks for "sq". */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.SQ_CONFIG_DIR) return env.SQ_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'sq');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'sq', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'sq');
}

export class ProfileStore {
  readonly dir: string;
  readonly file: string;
  private data: ProfileData;

  constructor(env: Record<string, string | undefined>) {
    this.dir = configDir(env);
    this.file = join(this.dir, CONFIG_FILE);
    this.data = readData(this.file);
  }

  get active(): string | undefined {
    return this.data.active;
  }

  names(): string[] {
    return Object.keys(this.data.profiles).sort();
  }

  get(name: string): Profile | undefined {
    return this.data.profiles[name];
  }

  async save(name: string, profile: Profile, makeActive: boolean): Promise<void> {
    this.data.profiles[name] = profile;
    if (makeActive || !this.data.active) this.data.active = name;
    await this.write();
  }

  async setActive(name: string): Promise<void> {
    this.data.active = name;
    await this.write();
  }

  async remove(name: string): Promise<boolean> {
    if (!this.data.profiles[name]) return false;
    delete this.data.profiles[name];
    if (this.data.active === name) delete this.data.active;
    await this.write();
    return true;
  }

  private async write(): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is ignored for an existing directory and masked by umask for a new one.
    chmodSync(this.dir, 0o700);
    const { default: Conf } = await importPackage<typeof import('conf')>('conf');
    const conf = new Conf<ProfileData>({
      cwd: this.dir,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      projectName: 'sq',
    });
    conf.store = this.data;
    if (existsSync(this.file)) chmodSync(this.file, 0o600);
  }
}

function readData(file: string): ProfileData {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return { profiles: {} };
  }
  try {
    const parsed = JSON.parse(raw) as Partial<ProfileData>;
    const profiles = parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {};
    return { active: typeof parsed.active === 'string' ? parsed.active : undefined, profiles };
  } catch {
    return { profiles: {} };
  }
}
