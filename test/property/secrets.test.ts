// Property: for any SFTP password and API key, no command that handles them prints either one, in any format,
// with or without --verbose; with --show-secrets the echoed password does appear (so the check can fail).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir, type SqResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/fs.js';
import { pathSecretUrl } from '../helpers/path-secrets.js';

const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
const COMBOS = FORMATS.flatMap((f) => [false, true].map((v) => [...(v ? ['--verbose'] : []), '--format', f]));

// Printable ASCII without whitespace and without "*" (the mask itself); at least 3 distinct characters, so a
// shrunk "aaaaaaaa" cannot be mistaken for a leak of something ordinary.
const printable = fc.mapToConstant({ num: 94, build: (i) => String.fromCharCode(0x21 + i) }).filter((c) => c !== '*');
const secret = (chars: fc.Arbitrary<string>) =>
  fc
    .array(chars, { minLength: 8, maxLength: 40 })
    .map((a) => a.join(''))
    .filter((s) => new Set(s).size >= 3);
const keyChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));

const dir = tempDir('sq-prop-');
const APPLY = join(dir, 'apply.yaml');
writeFileSync(
  APPLY,
  'squids:\n  "Paris restaurants":\n    sftp: { host: 127.0.0.1, port: 2222, username: deploy, password: ${SFTP_PASSWORD}, directory: /upload }\n',
);

/** The secret as written raw, and as JSON would escape it. */
function forms(s: string): string[] {
  return [...new Set([s, JSON.stringify(s).slice(1, -1)])];
}

// ~900 calls a file, each checked for 2-4 forms: a plain test, and expect() only for a leak (expect's bookkeeping for
// every check, ~3,000 of them, cost more than the look-ups themselves).
function assertClean(r: SqResult, secrets: string[], what: string) {
  const all = r.stdout + r.stderr;
  for (const s of secrets)
    for (const f of forms(s)) if (all.includes(f)) expect.fail(`${what} leaked a secret:\n${all}`);
}

describe('secrets never appear in output', () => {
  it('delivery sftp / test sftp / apply, billing auto-reset, auth login and status', async () => {
    await fc.assert(
      fc.asyncProperty(secret(printable), secret(keyChars), async (password, key) => {
        const emu = await startTestEmulator({ token: key });
        emu.expectWrites('POST /v1/delivery', 'POST /v1/delivery/test-sftp');
        try {
          const env = { ...emu.env({ SFTP_PASSWORD: password }), NO_COLOR: '1' };
          const sftpArgs = [
            '--host',
            '127.0.0.1',
            '--port',
            '2222',
            '--username',
            'deploy',
            '--directory',
            '/upload',
            '--password-env',
            'SFTP_PASSWORD',
          ];
          for (const combo of COMBOS) {
            const runs: [string, string[], { stdin?: string }?][] = [
              ['delivery sftp', ['delivery', 'sftp', '--squid', 'Paris restaurants', ...sftpArgs]],
              // Port 1: a refused connection, so the failure path (exit 1 with the reason) is covered too.
              ['delivery test sftp', ['delivery', 'test', 'sftp', ...sftpArgs.map((a) => (a === '2222' ? '1' : a))]],
              ['delivery apply --dry-run', ['delivery', 'apply', '-f', APPLY, '--dry-run']],
              ['delivery apply', ['delivery', 'apply', '-f', APPLY, '--force']],
              ['delivery show', ['delivery', 'show', '--squid', 'Paris restaurants']],
              ['billing auto-reset', ['billing', 'auto-reset']],
              ['auth status', ['auth', 'status']],
            ];
            for (const [what, args] of runs) {
              const r = await sq([...args, ...combo], { env });
              expect([0, 1], `${what} ${combo.join(' ')}: ${r.stderr}`).toContain(r.code);
              assertClean(r, [password, key], `${what} ${combo.join(' ')}`);
            }
            // Login from stdin into a fresh profile, then status from that profile (no SQ_TOKEN).
            const cfg = tempConfigDir();
            const plain = { SQ_CONFIG_DIR: cfg, SQ_BASE_URL: emu.baseUrl, NO_COLOR: '1' };
            const login = await sq(['auth', 'login', '--with-token', ...combo], { env: plain, stdin: `${key}\n` });
            expect(login.code, login.stderr).toBe(0);
            assertClean(login, [key], `auth login ${combo.join(' ')}`);
            const status = await sq(['auth', 'status', ...combo], { env: plain });
            expect(status.code).toBe(0);
            assertClean(status, [key], `auth status (profile) ${combo.join(' ')}`);
          }
          const shown = await sq(
            ['delivery', 'sftp', '--squid', 'Paris restaurants', ...sftpArgs, '--show-secrets', '--json'],
            { env },
          );
          expect(JSON.parse(shown.stdout).ftp_fields.password).toBe(password);
        } finally {
          await emu.close();
        }
      }),
      // Each run is 90 calls (9 commands in 10 formats) against an emulator of its own. 6 random pairs, after one
      // written to hold what each format escapes or quotes its own way (quotes, backslash, comma, pipe, <>&, a
      // ${…} reference), at less than half the cost of 15; SQ_PROPERTY_RUNS=200 for a long hunt.
      {
        numRuns: Number(process.env.SQ_PROPERTY_RUNS ?? 6),
        examples: [[`p"a\\s,s'w;o|r<d>&%\${x}`, 'k3y_-ABCdefGHI0123456789xyz']],
      },
    );
  }, 240_000);
});

describe('a webhook URL whose token is its path', () => {
  it('delivery webhook (dry run, -v, echo), delivery show, squids get and export never print the token; --show-secrets does', async () => {
    const emu = await startTestEmulator();
    emu.expectWrites('POST /v1/delivery');
    try {
      const env = { ...emu.env(), NO_COLOR: '1' };
      await fc.assert(
        fc.asyncProperty(pathSecretUrl, async ({ url, secret }) => {
          const set = ['delivery', 'webhook', '--squid', 'Paris restaurants', '--url', url, '--events', 'run.done'];
          const runs: string[][] = [
            [...set, '--dry-run', '--verbose'],
            [...set, '--verbose', '--json'],
            [...set, '--format', 'table'],
            ['delivery', 'show', '--squid', 'Paris restaurants', '--format', 'table'],
            ['delivery', 'show', '--squid', 'Paris restaurants', '--json', '--verbose'],
            ['squids', 'get', 'Paris restaurants', '--json'],
            ['export'],
            ['export', '--json'],
          ];
          for (const args of runs) {
            const r = await sq(args, { env });
            expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
            assertClean(r, [secret], args.join(' '));
          }
          const shown = await sq(['export', '--show-secrets'], { env });
          expect(shown.stdout).toContain(secret);
        }),
        { numRuns: Number(process.env.SQ_PROPERTY_RUNS ?? 15) },
      );
    } finally {
      await emu.close();
    }
  }, 240_000);
});
