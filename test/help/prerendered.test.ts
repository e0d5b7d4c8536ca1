// `sq <command…> --help` to a pipe or a file is printed by bin/sq.js from dist/help/ (rendered by the build,
// esbuild.config.mjs) without loading the CLI. That is only right if every file is byte for byte what the CLI itself
// prints, for every command, and if the launcher leaves everything else to the CLI.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binCacheDir, sq } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { loadTree } from './tree.js';

const root = resolve(import.meta.dirname, '../..');
const helpDir = join(root, 'dist/help');
const BIN = join(root, 'bin/sq.js');
// Every command: the root (`sq --help`), every noun, verb and subcommand, and `sq help`.
const commands: string[][] = [[], ...(await loadTree()).map((t) => t.words), ['help']];
const fileOf = (words: string[]) => join(helpDir, `${['sq', ...words].join('.')}.txt`);

describe('pre-rendered help (dist/help/)', () => {
  it('has one file per command, and none for a command that does not exist', () => {
    expect(readdirSync(helpDir).sort()).toEqual(commands.map((w) => `${['sq', ...w].join('.')}.txt`).sort());
  });

  for (const words of commands) {
    it(`sq ${[...words, '--help'].join(' ')}: the file is byte for byte what the CLI prints to a pipe (--help and -h)`, async () => {
      const file = readFileSync(fileOf(words), 'utf8');
      for (const flag of ['--help', '-h']) {
        const r = await sq([...words, flag]);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe(file);
      }
    });
  }

  it('does not depend on the environment: the CLI prints the same help with settings, a wide COLUMNS and colour forced', async () => {
    const env = {
      SQ_PROFILE: 'work',
      SQ_BASE_URL: 'http://127.0.0.1:1',
      SQ_TOKEN: 'sq_test_0123456789',
      COLUMNS: '200',
      FORCE_COLOR: '3',
      CI: '1',
      SQ_CSV_SAFE: '1',
    };
    for (const words of [[], ['squids'], ['runs', 'start'], ['squids', 'chain', 'set']]) {
      const r = await sq([...words, '--help'], { env });
      expect(r.stdout).toBe(readFileSync(fileOf(words), 'utf8'));
    }
  });
});

describe('bin/sq.js and the pre-rendered help', () => {
  const run = (args: string[], stdout: 'pipe' | number = 'pipe', extra: Record<string, string> = {}) => {
    const log = join(tempDir('sq-help-log-'), 'load.log');
    const r = spawnSync(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SQ_CONFIG_DIR: tempDir('sq-help-cfg-'),
        SQ_CACHE_DIR: binCacheDir(),
        SQ_NO_UPDATE_NOTIFIER: '1',
        SQ_TEST_LOAD_LOG: log,
        ...extra,
      },
      stdio: ['ignore', stdout, 'pipe'],
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr, cliLoaded: existsSync(log) };
  };

  it('prints the file to a pipe without loading the CLI (the bundle logs no file), exit 0', () => {
    for (const args of [['squids', 'list', '--help'], ['--help'], ['squids', 'chain', 'set', '-h']]) {
      const r = run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(readFileSync(fileOf(args.slice(0, -1)), 'utf8'));
      expect(r.cliLoaded, `sq ${args.join(' ')} loaded the CLI`).toBe(false);
    }
  });

  it('prints the file to a file the same way', () => {
    const out = join(tempDir('sq-help-out-'), 'help.txt');
    const fd = openSync(out, 'w');
    let r;
    try {
      r = run(['runs', 'start', '--help'], fd);
    } finally {
      closeSync(fd);
    }
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(fileOf(['runs', 'start']), 'utf8'));
    expect(r.cliLoaded).toBe(false);
  });

  it('answers to a device that is not a terminal (/dev/null) the same way, exit 0', () => {
    const fd = openSync('/dev/null', 'w');
    try {
      const r = run(['runs', '--help'], fd);
      expect(r.code, r.stderr).toBe(0);
      expect(r.cliLoaded).toBe(false);
    } finally {
      closeSync(fd);
    }
  });

  it('leaves to the CLI an unknown command, another argument or flag, and help asked with `sq help`', () => {
    const unknown = run(['squids', 'lst', '--help']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "lst" for sq squids');
    expect(unknown.cliLoaded).toBe(true);
    for (const args of [
      ['squids', 'list', '--json', '--help'],
      ['help', 'squids'],
      ['squids', '--help', 'list'],
    ]) {
      const r = run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.cliLoaded, `sq ${args.join(' ')} did not run the CLI`).toBe(true);
    }
  });
});
