// Vitest global setup: the tests use real parts (an OpenSSH server for SFTP, tmux for prompts, zsh and fish for
// completion). On a fresh Debian machine where we are root, install and start them so `npm test` works as the
// README says; elsewhere, say what is missing (the tests that need it then fail with that message).
import { execFileSync, spawnSync } from 'node:child_process';
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
  if (missing.length && isRoot && have('apt-get')) {
    process.stderr.write(`test setup: installing ${missing.join(', ')} (needed by the SFTP, terminal and completion tests)\n`);
    execFileSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`], { stdio: 'inherit' });
  } else if (missing.length) {
    process.stderr.write(`test setup: missing ${missing.join(', ')}; SFTP/terminal/completion tests will fail (install them, or run .ci/run as root)\n`);
  }
  if (isRoot && existsSync('/usr/sbin/sshd')) {
    const r = spawnSync('bash', [resolve(root, '.ci/sshd-setup.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) process.stderr.write('test setup: could not start the test SFTP server (see above)\n');
  }
}
