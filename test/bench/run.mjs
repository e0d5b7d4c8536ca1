// npm run bench: runs every test/bench/*.bench.mjs in turn (after the build), passing their JSON lines through.
// Each line: {"name","value","unit","target"}. Figures are ratios against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = 0;
for (const f of readdirSync(dir).filter((n) => n.endsWith('.bench.mjs')).sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  process.stderr.write(`bench: ${f}\n`);
  const r = spawnSync(process.execPath, [join(dir, f)], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`bench: ${f} exited ${r.status}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
