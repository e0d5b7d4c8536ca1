// What the delivery verbs share: the --squid option, the --active/--inactive pair, secrets that must never come from
// argv (visible in `ps` and shell history) and never leave in an error message, and the write itself.
import type { Ctx } from '../../../cli/context.js';
import { defineOptions, type OptionSpec } from '../../../cli/command.js';
import { UsageError } from '../../../errors.js';
import { exclusive, isEmail, nonEmpty, required } from '../../../validate/index.js';
import { readInput } from '../../../cli/stdin.js';
import { postDelivery, type DeliveryBody } from '../../../api/delivery.js';
import { flatten } from '../../../output/fields.js';
import type { Column } from '../../../output/types.js';
import { resolveSquid } from '../../../api/resolve.js';
import { webhookUrlSecrets } from '../../../lib/secrets.js';
import { mcpAllowedEnv, refusedEnvText } from '../../../account/delivery-file.js';
import { appliedState } from '../../../account/applied.js';

async function rememberApplied(ctx: Ctx, squidId: string, body: DeliveryBody): Promise<void> {
  const applied = await appliedState(ctx);
  applied.remember(squidId, body);
  try {
    applied.save();
  } catch (err) {
    ctx.out.warn(
      `could not keep what was applied in ${applied.file} (${(err as Error).message}): \`sq plan\` will send the fields the API does not read back again`,
    );
  }
}

export const SQUID_OPTION = {
  flags: '--squid <squid>',
  description: 'the squid: full hash, unique hash prefix or exact name',
  complete: 'squid',
} as const satisfies OptionSpec;

/** The --squid of a verb that configures one channel. */
export function squidToConfigure(opts: { squid?: string }): string {
  return nonEmpty('--squid', required('--squid', opts.squid, 'the squid to configure (hash, prefix or name)'));
}

export const ACTIVE_OPTIONS = defineOptions([
  { flags: '--active', description: 'enable this delivery', defaultText: 'active' },
  { flags: '--inactive', description: 'keep the configuration but disable this delivery' },
]);

export function activeFlag(opts: { active?: boolean; inactive?: boolean }): boolean {
  exclusive(opts, [['--active', '--inactive']]);
  return !opts.inactive;
}

/** A hidden --password option, so that passing one is explained instead of "unknown option". */
export const ARGV_PASSWORD_TRAP = {
  flags: '--password <password>',
  description: 'not accepted: see --password-stdin',
  secretTrap: '--password-stdin (pipe it in) or --password-env VAR',
} as const satisfies OptionSpec;

/** Where an SFTP delivery logs in (`delivery sftp`, `delivery test sftp`). */
export const SFTP_LOGIN_OPTIONS = defineOptions([
  { flags: '--host <host>', description: 'SFTP server hostname or IP address' },
  { flags: '--port <port>', description: 'SFTP server port (1-65535)', defaultText: '22' },
  { flags: '--username <user>', description: 'login user name' },
  {
    flags: '--directory <dir>',
    description: 'target directory; it must already exist (the service does not create it)',
  },
  { flags: '--password-stdin', description: 'read the password from stdin (hidden prompt on a terminal)' },
  { flags: '--password-env <VAR>', description: 'read the password from this environment variable' },
  ARGV_PASSWORD_TRAP,
]);

/** An e-mail flag's value (`delivery email`, `delivery test email`), trimmed. */
export function emailFlag(flag: string, value: unknown): string {
  const s = nonEmpty(flag, value).trim();
  if (!isEmail(s))
    throw new UsageError(`${flag} must be an e-mail address like ops@example.com (got ${JSON.stringify(value)})`);
  return s;
}

/** A password longer than this on stdin is a wrong pipe (a file of secrets), not a password. */
const MAX_PASSWORD_BYTES = 4096;

/** The SFTP password: --password-env VAR, --password-stdin (a hidden prompt when stdin is a terminal). */
export async function readPassword(
  ctx: Ctx,
  opts: { passwordEnv?: string; passwordStdin?: boolean },
  required: boolean,
): Promise<string | undefined> {
  const fromEnv = opts.passwordEnv;
  exclusive(opts, [['--password-stdin', '--password-env']]);
  if (typeof fromEnv === 'string') return envSecret(ctx, '--password-env', fromEnv);
  if (opts.passwordStdin) {
    if (ctx.io.stdinIsTTY && ctx.canPrompt()) {
      const p = await ctx.prompter();
      const pw = await p.password('SFTP password (input is hidden):', { flag: '--password-env VAR' });
      if (!pw) throw new UsageError('no password entered');
      ctx.addSecret(pw);
      return pw;
    }
    // One trailing newline is what `echo` adds; anything else belongs to the password.
    const pw = (await readInput(ctx, '--password-stdin', '-', MAX_PASSWORD_BYTES)).replace(/\r?\n$/, '');
    if (!pw)
      throw new UsageError(
        '--password-stdin: nothing on stdin (e.g. `printf %s "$SFTP_PASSWORD" | sq delivery sftp ... --password-stdin`)',
      );
    ctx.addSecret(pw);
    return pw;
  }
  if (required) {
    throw new UsageError(
      'the SFTP password is required: pipe it in with --password-stdin, or name an environment variable with --password-env VAR (never on the command line)',
    );
  }
  return undefined;
}

export function envSecret(ctx: Ctx, flag: string, name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `${flag} takes the NAME of an environment variable (e.g. ${flag} SFTP_PASSWORD), got an invalid name`,
    );
  }
  const allowed = mcpAllowedEnv(ctx.env);
  if (allowed && !allowed.has(name)) throw new UsageError(`${flag}: ${refusedEnvText(name)}`);
  const v = ctx.env[name];
  if (v === undefined || v === '') throw new UsageError(`${flag}: environment variable ${name} is not set or empty`);
  ctx.addSecret(v);
  return v;
}

/**
 * A webhook URL often carries its credential in the query (?token=…), as a password (user:pw@host) or in its path
 * (Slack's /services/T…/B…/SECRET, Discord's /api/webhooks/ID/TOKEN; see isSecretPathSegment): those values
 * join the known secrets, so every message, error and trace shows them masked, like a password (records are masked by
 * maskSecrets). --show-secrets leaves them visible.
 */
export function hideUrlSecrets(ctx: Ctx, url: string): string {
  if (ctx.globals.showSecrets) return url;
  for (const secret of webhookUrlSecrets(url)) ctx.addSecret(secret);
  return url;
}

/**
 * The API's echo of a delivery config: JSON formats keep the response as it is; tables and CSV/TSV get one
 * column per leaf field ("host", "events.run.done"), since a nested object would otherwise be one JSON cell.
 */
async function showEcho(ctx: Ctx, res: Record<string, unknown>, title: string): Promise<void> {
  const cols: Column[] = flatten(res).map(([key]) => ({
    key,
    header: key.replace(/^(ftp|webhook|google_sheet|s3)_fields\./, ''),
  }));
  await ctx.out.record(res, { title, columns: cols });
}

interface DeliveryWrite {
  squidRef: string;
  body: DeliveryBody;
  /** Names the channel in the echo's title: "SFTP" → "SFTP delivery of squid Paris restaurants". */
  channel: string;
  /** The success line, given the squid's name (or id when it has none). */
  success: (squid: string) => string;
  /** A reminder printed after the success line. */
  hint?: string;
  /** Secret values of the body, scrubbed from every message and error. */
  secrets?: (string | undefined)[];
}

/** The write every channel verb makes: resolve the squid, then print the request (--dry-run) or POST it and show the echo. */
export async function configureDelivery(ctx: Ctx, w: DeliveryWrite): Promise<void> {
  // Registered secrets are scrubbed from every stderr line and error (main.ts, the output module).
  for (const secret of w.secrets ?? []) ctx.addSecret(secret);
  const http = await ctx.http();
  const squid = await resolveSquid(http, w.squidRef);
  const res = await postDelivery(http, squid.id, w.body);
  // Kept for `sq plan`/`sq apply`, which compare the fields the API does not read back with what sq last applied.
  if (http.sendsWrites) await rememberApplied(ctx, squid.id, w.body);
  const label = squid.name || squid.id;
  await showEcho(ctx, res, `${w.channel} delivery of squid ${label}`);
  ctx.out.success(w.success(label));
  if (w.hint) ctx.out.info(w.hint);
}
