#!/usr/bin/env node
// The newcomer's tour: a local emulator, a fresh config dir, and the built `bin/sq.js` driven through the path a new
// user takes — log in, look around, create a squid, add tasks, get webhook events, run it, export the results, set
// the automatic billing reset. Each command is printed (`$ sq …`) before it runs, with its output under it.
// Run with `npm run demo` (it builds first). Exits 0 when every step worked, 1 naming the steps that did not.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(import.meta.dirname, '../..');
const BIN = join(root, 'bin/sq.js');
const STEP_TIMEOUT_MS = 45_000;
const TOUR_TIMEOUT_MS = 90_000;

const work = mkdtempSync(join(tmpdir(), 'sq-tour-'));
const configDir = join(work, 'config');
// Only what a fresh user has: no SQ_TOKEN/SQ_BASE_URL, so the profile written by `auth login` is what is used.
const env = { PATH: process.env.PATH ?? '', HOME: work, SQ_CONFIG_DIR: configDir, NO_COLOR: '1' };

const failures = [];
const children = new Set();
const say = (s) => process.stdout.write(`${s}\n`);
const indent = (s) =>
  s
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/** Show a command line as the user would type it (quotes where needed). */
function shown(args) {
  return ['sq', ...args]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `"${a.replace(/(["\\$`])/g, '\\$1')}"`))
    .join(' ');
}

/** Run `sq args…` to completion; prints it and its output; records a failure when check() says so. */
async function step(title, args, { input, display, check } = {}) {
  say(`\n# ${title}\n$ ${display ?? shown(args)}`);
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: work, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(input ?? '');
  const timer = setTimeout(() => child.kill('SIGTERM'), STEP_TIMEOUT_MS);
  const code = await new Promise((res) => child.on('close', (c, sig) => res(c ?? (sig ? 128 : 1))));
  clearTimeout(timer);
  children.delete(child);
  if (stdout) say(indent(stdout));
  if (stderr) say(indent(stderr.replace(/^/gm, '(stderr) ')));
  let problem =
    code === 0
      ? undefined
      : `exit ${code}${/unknown command|too many arguments/.test(stderr) ? ' (this verb is not implemented yet?)' : ''}`;
  if (!problem && check) problem = check({ stdout, stderr });
  if (problem) {
    failures.push(`${title} — $ ${display ?? shown(args)}: ${problem}`);
    say(`    ✗ ${problem}`);
  }
  return { code, stdout, stderr };
}

/** Start `sq webhook listen` in the background; resolves with its URL once it says it is listening. */
async function startListener() {
  const args = ['webhook', 'listen', '--port', '0', '--events', 'all'];
  say(`\n# A local webhook receiver, in the background\n$ ${shown(args)} &`);
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const events = [];
  const onEvent = new Set();
  child.stdout.setEncoding('utf8').on('data', (d) => {
    for (const line of d.split('\n').filter(Boolean)) {
      events.push(line);
      say(`    [webhook listen] ${line}`);
    }
    for (const f of onEvent) f();
  });
  /** Resolves once an event holding `text` has arrived, or after `ms` without one (the caller reports that). */
  const arrival = (text, ms) =>
    new Promise((res) => {
      const seen = () => events.some((e) => e.includes(text));
      const done = () => {
        clearTimeout(timer);
        onEvent.delete(check);
        res();
      };
      const check = () => seen() && done();
      const timer = setTimeout(done, ms);
      onEvent.add(check);
      check();
    });
  const exited = new Promise((res) => child.on('close', (c) => res(c)));
  const url = await new Promise((res) => {
    let err = '';
    const timer = setTimeout(() => res(undefined), 10_000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      for (const l of d.split('\n').filter(Boolean)) say(`    [webhook listen] (stderr) ${l}`);
      const m = /Listening on (\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    // exited never rejects (it is the child's exit, whatever its code).
    void exited.then(() => res(undefined));
  });
  if (!url) failures.push(`webhook listen — $ ${shown(args)}: did not print "Listening on <url>"`);
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGINT');
    return Promise.race([exited, sleep(5_000).then(() => (child.kill('SIGKILL'), 'killed'))]);
  };
  return { url, events, arrival, stop };
}

async function tour() {
  if (!existsSync(join(root, 'dist/emulator/index.js'))) {
    failures.push('build: dist/emulator/index.js is missing (run `npm run build`)');
    return;
  }
  const { startEmulator } = await import(join(root, 'dist/emulator/index.js'));
  const emu = await startEmulator({ port: 0, clock: 'real', timeScale: 60, rateLimits: 'on' });
  say(`Emulator on ${emu.baseUrl} (real clock ×60, rate limits on); config in ${configDir}`);
  let listener;
  try {
    const squid = `Tour ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`;
    const csvFile = join(work, 'results.csv');

    await step(
      "Log in with the emulator's demo key: keys come on stdin, never on the command line",
      ['auth', 'login', '--with-token', '--base-url', emu.baseUrl],
      {
        input: `${emu.token}\n`,
        display: `echo "$SQ_DEMO_KEY" | ${shown(['auth', 'login', '--with-token', '--base-url', emu.baseUrl])}`,
      },
    );
    await step('Which key and profile are in use', ['auth', 'status'], {
      check: ({ stdout, stderr }) => ((stdout + stderr).includes(emu.token) ? 'the full key was printed' : undefined),
    });
    await step('Who am I', ['me']);
    await step('Credits left', ['balance']);
    await step('What can be scraped', ['crawlers', 'list'], {
      check: ({ stdout }) =>
        /google-maps-search-export|Google Maps/i.test(stdout) ? undefined : 'the Google Maps crawler is not listed',
    });
    await step('The squids (scraping jobs) already there', ['squids', 'list']);
    await step('A new squid on the Google Maps crawler', [
      'squids',
      'create',
      '--crawler',
      'google-maps-search-export',
      '--name',
      squid,
    ]);
    await step('Two tasks: the searches it will run', [
      'tasks',
      'add',
      '--squid',
      squid,
      'https://www.google.com/maps/search/pizza+paris',
      'https://www.google.com/maps/search/sushi+paris',
    ]);
    await step('Its parameters: the service wants them set before the first run', [
      'squids',
      'update',
      squid,
      '--param',
      'max_results=20',
    ]);

    listener = await startListener();
    if (listener.url) {
      await step('Send run events to that receiver', [
        'delivery',
        'webhook',
        '--squid',
        squid,
        '--url',
        listener.url,
        '--events',
        'run.running,run.done,run.error',
      ]);
    }
    await step('Run it and wait for the end (1 s polls are allowed against a local emulator)', [
      'runs',
      'start',
      '--squid',
      squid,
      '--wait',
      '--interval',
      '1s',
      '--timeout',
      '2m',
    ]);
    await step('The results, as CSV', ['results', 'list', '--squid', squid, '--format', 'csv'], {
      check: ({ stdout }) =>
        stdout.trim().split('\n').length >= 2 ? undefined : 'expected a header and at least one record',
    });
    await step('Every result into a file', ['results', 'export', '--squid', squid, '--all', '-o', csvFile], {
      check: () =>
        existsSync(csvFile) && readFileSync(csvFile, 'utf8').trim().split('\n').length >= 2
          ? undefined
          : `${csvFile} is missing or empty`,
    });
    if (existsSync(csvFile))
      say(`    (${csvFile}: ${readFileSync(csvFile, 'utf8').trim().split('\n').length - 1} records)`);

    if (listener.url) {
      // Deliveries are asynchronous: wait for the emulator to POST run.done (10 s at most).
      await listener.arrival('run.done', 10_000);
      say(`\n# The receiver got ${listener.events.length} event(s)`);
      if (!listener.events.some((e) => e.includes('run.done')))
        failures.push('webhook listen: no run.done event arrived after the run finished');
    }

    await step('The automatic billing reset: current settings', ['billing', 'auto-reset']);
    await step(
      'Turn it on at 90 % usage (it re-charges the card on file, hence --yes)',
      ['billing', 'auto-reset', '--enable', '--threshold', '90', '--yes'],
      {
        check: ({ stdout }) => (/90/.test(stdout) ? undefined : 'the new threshold (90) is not shown'),
      },
    );
  } finally {
    if (listener) {
      say('\n# Stop the receiver (Ctrl-C)');
      const code = await listener.stop();
      if (code !== 0) failures.push(`webhook listen: exit ${code} on Ctrl-C (expected 0)`);
    }
    await emu.close();
  }
}

const guard = setTimeout(() => {
  say(`\nThe tour took longer than ${TOUR_TIMEOUT_MS / 1000} s: stopping.`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
}, TOUR_TIMEOUT_MS);

try {
  await tour();
} catch (err) {
  failures.push(`tour: ${err instanceof Error ? err.stack : String(err)}`);
} finally {
  clearTimeout(guard);
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

if (failures.length) {
  say(`\nTour FAILED: ${failures.length} step(s) did not work:`);
  for (const f of failures) say(`  - ${f}`);
  process.exitCode = 1;
} else {
  say('\nTour done: every step worked.');
}
