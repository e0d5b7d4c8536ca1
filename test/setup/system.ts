// Global setup of npm run test:system (vitest.system.config.ts) only: the tests of what only the system can bring —
// OpenSSH's SFTP server, tmux for prompts in a real terminal, zsh and fish for completion, man for the man pages.
// A missing tool fails the run at once, naming the Debian package to install: never a silent skip. As root, it starts
// the private OpenSSH server of .ci/sshd-setup.sh (it adds a user and listens on loopback: a change to the machine
// that npm test never makes).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export default function setup(): void {
  const missing = [
    !existsSync('/usr/sbin/sshd') && 'openssh-server',
    !existsSync('/usr/lib/openssh/sftp-server') && 'openssh-sftp-server',
    !have('tmux') && 'tmux',
    !have('zsh') && 'zsh',
    !have('fish') && 'fish',
    !have('man') && 'man-db',
    !existsSync('/usr/lib/postgresql') && 'postgresql',
  ].filter((x): x is string => !!x);
  if (missing.length) {
    throw new Error(
      `test:system: missing ${missing.join(', ')} (the OpenSSH, terminal, completion and man tests need them): ` +
        `apt-get install -y --no-install-recommends ${missing.join(' ')}`,
    );
  }
  if (process.getuid?.() === 0 && !process.env.SQ_TEST_SFTP_HOST) {
    const r = spawnSync('bash', [resolve(root, '.ci/sshd-setup.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0)
      throw new Error('test:system: .ci/sshd-setup.sh could not start the OpenSSH test server (see above)');
  }
}
