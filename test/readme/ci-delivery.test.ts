// The README's "Delivery in CI" example as a deploy job runs it: its delivery.yaml and the `run:` lines of its
// workflow, as written, by bash against the emulator, each `sq` the command tree in this process
// (test/helpers/sq-shell.ts: ~0.2 s of CPU less a call than the built binary, whose start is test/e2e's). Then the change a user makes next (a new
// webhook event, another SFTP directory): fields the API does not read back, which apply must still send.
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { tempDir } from '../helpers/fs.js';
import { useEmulator } from '../helpers/emulator.js';
import { useSqShell } from '../helpers/sq-shell.js';

const root = resolve(import.meta.dirname, '../..');
const emu = useEmulator();
const shell = useSqShell();

/** The README's `# delivery.yaml` block, and the `run:` commands of the workflow block after it. */
function ciExample(): { file: string; runs: string[] } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Delivery in CI'), readme.indexOf('## The account as code'));
  const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  const file = blocks.find((b) => b.startsWith('# delivery.yaml'));
  const workflow = blocks.find((b) => b.includes('.github/workflows'));
  if (!file || !workflow)
    throw new Error('README: the Delivery in CI section lost its delivery.yaml or workflow block');
  const runs = [...workflow.matchAll(/^\s*- run: (sq .*?)(?:\s+#.*)?$/gm)].map((m) => m[1]);
  return { file, runs };
}

describe('README: Delivery in CI', () => {
  it('runs as written; a changed events list and directory are sent; plan says 10 before and 0 after; a lost state is sent again', async () => {
    emu.expectWrites('POST /v1/delivery');
    const { file, runs } = ciExample();
    expect(runs.length).toBeGreaterThanOrEqual(2);
    const cwd = tempDir('sq-readme-ci-');
    const config = join(cwd, 'config');
    writeFileSync(join(cwd, 'delivery.yaml'), file);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      NO_COLOR: '1',
      SQ_CONFIG_DIR: config,
      ...emu.env({ SFTP_PASSWORD: 'ci-Secret-42' }),
    };
    const bash = (script: string) =>
      execa('bash', ['-c', `set -euo pipefail\n${shell.prelude}\n${script}`], {
        cwd,
        env,
        extendEnv: false,
        reject: false,
      });
    const plan = async () => (await bash('sq plan -f delivery.yaml --detailed-exitcode')).exitCode;

    expect(await plan()).toBe(10);
    for (const line of runs) {
      const r = await bash(line);
      expect(r.exitCode, `${line}\n${r.stderr}`).toBe(0);
    }
    expect(await plan()).toBe(0);

    // The next commit: one more event, another directory. Neither is in the API's answer.
    const changed = file
      .replace('events: [run.done, run.error]', 'events: [run.running, run.done, run.error]')
      .replace('directory: /upload', 'directory: /incoming');
    expect(changed).not.toBe(file);
    writeFileSync(join(cwd, 'delivery.yaml'), changed);
    const before = await bash('sq plan -f delivery.yaml --detailed-exitcode');
    expect(before.exitCode, before.stdout + before.stderr).toBe(10);
    expect(before.stdout).toContain('directory: "/upload" → "/incoming"');
    expect(before.stdout).toContain('events.run.running: false → true');
    for (const line of runs) expect((await bash(line)).exitCode, line).toBe(0);
    expect(await plan()).toBe(0);

    const id = emu.squidId('Paris restaurants');
    const stored = emu.emu.state.squids[id] as Record<string, any>;
    expect(stored.ftp_fields.directory).toBe('/incoming');
    expect(stored.webhook_fields.events).toMatchObject({ 'run.running': true, 'run.done': true, 'run.error': true });
    const show = await bash('sq delivery show --squid "Paris restaurants" --json');
    expect(JSON.parse(show.stdout).last_applied).toMatchObject({
      sftp: { directory: '/incoming' },
      webhook: { 'events.run.running': true },
    });

    // A fresh runner (or a deleted state file): what cannot be read back is sent once more.
    rmSync(join(config, 'applied'), { recursive: true });
    const lost = await bash('sq plan -f delivery.yaml --detailed-exitcode');
    expect(lost.exitCode).toBe(10);
    expect(lost.stdout).toContain('directory: cannot be read back: will be sent ("/incoming")');
    expect(lost.stdout).toContain('retry: cannot be read back: will be sent (true)');
  }, 120_000);
});
