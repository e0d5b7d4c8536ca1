// OpenSSH's SFTP server, for the interop tests of npm run test:system only (npm test uses ssh2's server from npm:
// sftp-server.ts). test/setup/system.ts starts it with .ci/sshd-setup.sh (as root); CI may point the tests at
// another server through SQ_TEST_SFTP_* variables. Never started from a test: a missing server fails the test.
import net from 'node:net';

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  directory: string;
}

export function sftpSettings(): SftpTarget {
  return {
    host: process.env.SQ_TEST_SFTP_HOST ?? '127.0.0.1',
    port: Number(process.env.SQ_TEST_SFTP_PORT ?? 2222),
    username: process.env.SQ_TEST_SFTP_USER ?? 'sqtest',
    password: process.env.SQ_TEST_SFTP_PASSWORD ?? 'sqtest-pw-2222',
    directory: process.env.SQ_TEST_SFTP_DIR ?? '/srv/sq-sftp/upload',
  };
}

function portOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** The OpenSSH server .ci/sshd-setup.sh started; when nothing listens, an error that says what to install and run. */
export async function requireSftpTarget(): Promise<SftpTarget> {
  const t = sftpSettings();
  if (await portOpen(t.host, t.port)) return t;
  throw new Error(
    `OpenSSH test server not reachable at ${t.host}:${t.port}: apt-get install -y openssh-server openssh-sftp-server, ` +
      'then run npm run test:system as root (its setup runs .ci/sshd-setup.sh), or set SQ_TEST_SFTP_*',
  );
}
