// Vitest global setup: the tests use real parts (an OpenSSH server for SFTP, tmux for prompts, zsh and fish for
// completion). Tests never change the machine: installing them is .ci/run's job. Here a missing tool is a clear
// message (locally the tests that need it then fail saying what to install); under CI it stops the run at once.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export default function setup(): void {
  const isRoot = process.getuid?.() === 0;
  const missing = [
    !existsSync('/usr/sbin/sshd') && 'openssh-server',
    !existsSync('/usr/lib/openssh/sftp-server') && 'openssh-sftp-server',
    !have('tmux') && 'tmux',
    !have('zsh') && 'zsh',
    !have('fish') && 'fish',
  ].filter((x): x is string => !!x);
  if (missing.length) {
    const what = `test setup: missing ${missing.join(', ')} (the SFTP, terminal and completion tests need them); ` +
      `run .ci/run as root, or: apt-get install -y --no-install-recommends ${missing.join(' ')}`;
    if (process.env.CI) throw new Error(what);
    process.stderr.write(`${what}\n`);
  }
  if (isRoot && existsSync('/usr/sbin/sshd')) {
    const r = spawnSync('bash', [resolve(root, '.ci/sshd-setup.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) process.stderr.write('test setup: could not start the test SFTP server (see above)\n');
  }
}
