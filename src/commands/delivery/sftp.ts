import { defineVerb, type OptionsOf } from '../../cli/command.js';
import { nonEmpty, portFlag, required } from '../../validate/index.js';
import type { FtpFields } from '../../api/delivery.js';
import {
  ACTIVE_OPTIONS,
  SFTP_LOGIN_OPTIONS,
  SQUID_OPTION,
  activeFlag,
  configureDelivery,
  readPassword,
  squidToConfigure,
} from './_shared/common.js';

/** Host, port, user and directory from flags, validated before any request. */
function sftpLoginFlags(opts: OptionsOf<typeof SFTP_LOGIN_OPTIONS>): Omit<FtpFields, 'password' | 'is_active'> {
  return {
    host: nonEmpty('--host', required('--host', opts.host, 'the SFTP server hostname or IP address')),
    port: opts.port === undefined ? 22 : portFlag('--port', opts.port),
    username: nonEmpty('--username', required('--username', opts.username, 'the SFTP login user name')),
    directory: nonEmpty(
      '--directory',
      required('--directory', opts.directory, 'the target directory on the server (it must already exist)'),
    ),
  };
}

const SFTP_HINT =
  'The directory must already exist on the server (the service does not create it), and the server must accept ' +
  'connections from the service (firewall / IP allowlist). Check both with `sq delivery test sftp` before relying on it.';

export default defineVerb({
  name: 'sftp',
  writes: true,
  summary: "Send a squid's run results to an SFTP server (POST /v1/delivery)",
  description:
    'Configures SFTP delivery for one squid: after each run the results are uploaded to --directory. Every call ' +
    'replaces the whole SFTP configuration; --port defaults to 22 and the delivery is active unless --inactive.\n\n' +
    'The password is never taken from the command line (it would show in `ps` and in your shell history): pipe it ' +
    'in with --password-stdin, or name an environment variable with --password-env. The API echoes the password ' +
    'back; sq masks it in every output unless --show-secrets.\n\n' +
    'The directory must already exist and the server must accept connections from the service. Run ' +
    '`sq delivery test sftp` with the same flags first.',
  options: [SQUID_OPTION, ...SFTP_LOGIN_OPTIONS, ...ACTIVE_OPTIONS],
  examples: [
    'SFTP_PASSWORD=... sq delivery sftp --squid "Paris restaurants" --host sftp.example.com --username deploy --directory /upload --password-env SFTP_PASSWORD',
    'printf %s "$SFTP_PASSWORD" | sq delivery sftp --squid 3f2a --host 10.0.0.5 --port 2222 --username deploy --directory /data --password-stdin',
    'sq delivery sftp --squid "Paris restaurants" --host sftp.example.com --username deploy --directory /upload --password-env SFTP_PASSWORD --inactive',
  ],
  async run(ctx, _args, opts) {
    const squidRef = squidToConfigure(opts);
    const login = sftpLoginFlags(opts);
    const is_active = activeFlag(opts);
    const password = (await readPassword(ctx, opts, true)) as string;
    const body = { ftp_fields: { ...login, password, is_active } };

    await configureDelivery(ctx, {
      squidRef,
      body,
      channel: 'SFTP',
      success: (squid) => `SFTP delivery ${is_active ? 'active' : 'configured (inactive)'} for squid ${squid}`,
      hint: SFTP_HINT,
      secrets: [password],
    });
  },
});
