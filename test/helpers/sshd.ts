// The real SFTP server the delivery tests upload to. Defaults match .ci/sshd-setup.sh; CI may point the
// tests at another server through SQ_TEST_SFTP_* variables.
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  directory: string;
}

const SETUP_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.ci/sshd-setup.sh');

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

/** The configured server, or null when nothing listens on its port. */
export async function sftpTarget(): Promise<SftpTarget | null> {
  const t = sftpSettings();
  return (await portOpen(t.host, t.port)) ? t : null;
}

/**
 * The server, started with .ci/sshd-setup.sh when it is not running and we are local (CI must provide it, so
 * under CI=true a missing server throws and the tests fail rather than skip).
 */
export async function requireSftpTarget(): Promise<SftpTarget> {
  const found = await sftpTarget();
  if (found) return found;
  const t = sftpSettings();
  if (process.env.CI === 'true') {
    throw new Error(`SFTP test server not reachable at ${t.host}:${t.port} (CI=true): run .ci/sshd-setup.sh first`);
  }
  const { execa } = await import('execa');
  await execa('bash', [SETUP_SCRIPT], { env: { SQ_TEST_SFTP_PORT: String(t.port) }, stdio: 'pipe' });
  const started = await sftpTarget();
  if (!started) throw new Error(`SFTP test server still not reachable at ${t.host}:${t.port} after ${SETUP_SCRIPT}`);
  return started;
}
