// A real terminal (tmux): `sq apply` shows the plan, then asks once; "n" sends nothing (exit 11, cancelled), "y" applies it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../../helpers/fs.js';
import { type Term, useTmuxEmulator } from './tmux.js';

const { emu, open: openTerm } = useTmuxEmulator();
let term: Term | undefined;
let file: string;

beforeAll(async () => {
  file = join(tempDir('sq-tty-apply-'), 'sq.yaml');
  writeFileSync(file, 'squids:\n  "Lyon bakeries":\n    concurrency: 3\n    email: { address: ops@example.com }\n');
});

const open = () => openTerm(['apply', '-f', file]);

it('shows the plan, asks once, and on "n" sends nothing (exit 11, cancelled)', async () => {
  await emu.control('POST', '/_emulator/reset');
  await emu.clearRequests();
  term = await open();
  const screen = await term.waitFor(/Apply these 2 changes\?/);
  // The plan is on the screen above the question.
  expect(screen).toMatch(
    /~ update squid "Lyon bakeries"[\s\S]*concurrency: 1 → 3[\s\S]*Plan: 0 to create, 2 to change, 0 to delete\.[\s\S]*Apply these 2 changes\?/,
  );
  expect(screen.match(/Apply these/g)).toHaveLength(1);
  await term.keys('n', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:11/);
  expect(after).toMatch(/cancelled: nothing was sent/);
  expect((await emu.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
}, 60_000);

it('on "y" applies the plan (exit 0)', async () => {
  await emu.control('POST', '/_emulator/reset');
  await emu.clearRequests();
  term = await open();
  await term.waitFor(/Apply these 2 changes\?/);
  await term.keys('y', 'Enter');
  const after = await term.waitFor(/EXIT:\d+/);
  expect(after).toMatch(/EXIT:0/);
  expect(after).toMatch(/Applied 2 changes/);
  expect((await emu.requests('POST')).map((r) => r.path)).toEqual([
    expect.stringMatching(/^\/v1\/squids\/[0-9a-f]{32}$/),
    '/v1/delivery',
  ]);
}, 60_000);
