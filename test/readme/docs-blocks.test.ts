// Every example block of docs/*.md, run: bash by bash, account files by plan and apply, workflow excerpts by their
// `run:` lines, MCP client configurations by connecting as the client would (a process the client starts, or a server
// on the documented address), the --json document by its JSON Schema; all against an emulator whose clock is sped up
// so runs end in moments. Each `sq` of a block is the command tree run in this process (test/helpers/sq-shell.ts:
// what the blocks prove is that the commands work as written; the built binary's start is test/e2e's): as a process
// each, the ~40 calls cost ~12 s of CPU. A block of a kind this test does not know fails it, so a new example is
// run from the day it is written.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/fs.js';
import { unusedPort } from '../helpers/net.js';
import { useSqShell } from '../helpers/sq-shell.js';

const root = resolve(import.meta.dirname, '../..');
const emu = useEmulator({ clock: 'real', timeScale: 200 });
const shell = useSqShell();

interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
}

function docBlocks(): Block[] {
  const out: Block[] = [];
  for (const file of readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const text = readFileSync(join(root, 'docs', file), 'utf8');
    for (const m of text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
      out.push({ file, line: text.slice(0, m.index).split('\n').length, lang: m[1], text: m[2] });
    }
  }
  return out;
}

/** The working directory every block runs in: the files the examples name, a profile dir, the emulator's env. */
function workspace() {
  const cwd = tempDir('sq-docs-blocks-');
  writeFileSync(join(cwd, 'lyon-tasks.csv'), 'category,city,country\nbakery,Lyon,France\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: cwd,
    NO_COLOR: '1',
    SQ_BASE_URL: emu.baseUrl,
    SQ_TOKEN: emu.token,
    SQ_CONFIG_DIR: join(cwd, '.sq'),
    SFTP_PASSWORD: 'docs-Secret-7',
  };
  const bash = (script: string, extra: Record<string, string> = {}) =>
    execa('bash', ['-c', `set -euo pipefail\n${shell.prelude}\nnpx() { shift; shift; sq "$@"; }\n${script}`], {
      cwd,
      env: { ...env, ...extra },
      extendEnv: false,
      reject: false,
      timeout: 90_000,
    });
  return { cwd, env, bash };
}
type Workspace = ReturnType<typeof workspace>;

/** An account file: plan (exit 0), apply --yes, then plan --detailed-exitcode says nothing is left to send. */
async function accountFile(w: Workspace, b: Block): Promise<void> {
  const f = `block-${b.line}.yaml`;
  writeFileSync(join(w.cwd, f), b.text);
  // The file the bash blocks of docs/account-as-code.md plan: its main example.
  if (b.file === 'account-as-code.md' && b.text.includes('crawler:')) writeFileSync(join(w.cwd, 'sq.yaml'), b.text);
  const plan = await w.bash(`sq plan -f ${f}`);
  expect(plan.exitCode, `${b.file}:${b.line}: sq plan\n${plan.stdout}${plan.stderr}`).toBe(0);
  const apply = await w.bash(`sq apply -f ${f} --yes`);
  expect(apply.exitCode, `${b.file}:${b.line}: sq apply\n${apply.stderr}`).toBe(0);
  const again = await w.bash(`sq plan -f ${f} --detailed-exitcode`);
  expect(again.exitCode, `${b.file}:${b.line}: plan after apply\n${again.stdout}${again.stderr}`).toBe(0);
}

/** A workflow excerpt: each `run:` line, with the step's env. */
async function workflow(w: Workspace, b: Block): Promise<void> {
  const steps = parse(b.text) as { run?: string; env?: Record<string, string> }[];
  expect(Array.isArray(steps), `${b.file}:${b.line}: a list of steps`).toBe(true);
  for (const step of steps) {
    expect(step.run, `${b.file}:${b.line}: a run step`).toBeTypeOf('string');
    // ${{ secrets.X }} is the job's: the emulator's token stands for the key.
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, String(v).includes('${{') ? emu.token : String(v)]),
    );
    if (step.run!.includes('delivery.yaml'))
      writeFileSync(
        join(w.cwd, 'delivery.yaml'),
        'squids:\n  "Paris restaurants":\n    email: { address: ops@example.com }\n',
      );
    const r = await w.bash(step.run!, env);
    // The cap's own example: exit 9 (over budget) is what its comment says may happen.
    const ok = step.run!.includes('exit 9') ? [0, 9] : [0];
    expect(ok, `${b.file}:${b.line}: ${step.run}\n${r.stderr}`).toContain(r.exitCode);
  }
}

/** `claude mcp add NAME -- sq mcp …` or `claude mcp add --transport http NAME URL --header …`: what Claude Code runs. */
async function claudeLines(w: Workspace, b: Block): Promise<void> {
  for (const line of b.text
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)) {
    const http = /--transport http \S+ (\S+) --header "Authorization: Bearer \$MCP_TOKEN"$/.exec(line);
    if (http) {
      expect(http[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      await httpConfig(w, { url: http[1], token: 'docs-token-0123456789abcdef' });
      continue;
    }
    const stdio = / -- (sq mcp.*)$/.exec(line);
    expect(stdio, `${b.file}:${b.line}: ${line}`).not.toBeNull();
    await stdioConfig(w, stdio![1].split(/\s+/).slice(1));
  }
}

async function stdioConfig(w: Workspace, args: string[]): Promise<void> {
  const client = new Client({ name: 'docs', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: 'bash',
      args: ['-c', `${shell.prelude}\nsq "$@"`, 'bash', ...args],
      env: w.env,
      stderr: 'pipe',
    }),
  );
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('squids_list');
  } finally {
    await client.close();
  }
}

/** `sq mcp --http` on the documented address (its port swapped for a free one), then a client with the header. */
async function httpConfig(w: Workspace, cfg: { url: string; token: string }): Promise<void> {
  const port = await unusedPort();
  const url = cfg.url.replace(/:\d+\//, `:${port}/`);
  const server = execa('bash', ['-c', `${shell.prelude}\nsq mcp --http 127.0.0.1:${port} --token-env MCP_TOKEN`], {
    cwd: w.cwd,
    env: { ...w.env, MCP_TOKEN: cfg.token },
    extendEnv: false,
    reject: false,
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.stdout!.on('data', (d) => String(d).includes('"url"') && ok());
      server.on('exit', () => fail(new Error('sq mcp --http ended before it listened')));
    });
    const client = new Client({ name: 'docs', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${cfg.token}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();
  } finally {
    server.kill('SIGTERM');
    await server;
  }
}

/** `sq mcp --http ADDR` lines: each started (its port swapped), its first line read, then stopped. */
async function httpLines(w: Workspace, b: Block): Promise<void> {
  for (const line of b.text
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)) {
    const port = await unusedPort();
    const script = line.replace('127.0.0.1:8931', `127.0.0.1:${port}`);
    const p = execa('bash', ['-c', `${shell.prelude}\n${script}`], {
      cwd: w.cwd,
      env: w.env,
      extendEnv: false,
      reject: false,
    });
    const first = await new Promise<string>((ok, fail) => {
      p.stdout!.on('data', (d) => ok(String(d)));
      p.on('exit', () => fail(new Error(`${b.file}:${b.line}: ${line}: ended before it listened`)));
    });
    // The token is printed when sq made it; one from --token-env is the caller's, and stays unprinted (null).
    const said = JSON.parse(first.split('\n')[0]);
    expect(said.url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(line.includes('--token-env') ? said.token : typeof said.token).toBe(
      line.includes('--token-env') ? null : 'string',
    );
    p.kill('SIGTERM');
    await p;
  }
}

/** An MCP client configuration: the server it names, connected to. */
async function mcpConfig(w: Workspace, b: Block): Promise<void> {
  const sq = (
    JSON.parse(b.text) as {
      mcpServers: Record<string, { command?: string; args?: string[]; url?: string; headers?: Record<string, string> }>;
    }
  ).mcpServers.sq;
  if (sq.command) {
    expect(sq.command).toBe('sq');
    await stdioConfig(w, sq.args ?? []);
  } else {
    expect(sq.headers?.Authorization).toBe('Bearer TOKEN');
    await httpConfig(w, { url: sq.url!, token: 'docs-token-0123456789abcdef' });
  }
}

/** The kind of each block, and what runs it. */
function runnerOf(b: Block): ((w: Workspace, b: Block) => Promise<void>) | 'not an example' | undefined {
  if (b.lang === '') return b.text.split('\n').some((l) => /^\s*sq /.test(l)) ? undefined : 'not an example';
  if (b.lang === 'yaml' && /^squids:/m.test(b.text)) return accountFile;
  if (b.lang === 'yaml' && /^\s*- run: /m.test(b.text)) return workflow;
  if (b.lang === 'bash' && b.text.includes('claude mcp add')) return claudeLines;
  if (b.lang === 'bash' && /^\S*.*sq mcp --http/m.test(b.text)) return httpLines;
  if (b.lang === 'bash')
    return async (w, blk) => {
      const r = await w.bash(blk.text);
      expect(r.exitCode, `${blk.file}:${blk.line}\n${blk.text}\n${r.stdout}\n${r.stderr}`).toBe(0);
    };
  if (b.lang === 'json' && b.text.includes('"mcpServers"')) return mcpConfig;
  if (b.lang === 'json' && b.text.includes('"summary"')) {
    return async () => {
      const schema = JSON.parse(readFileSync(join(root, 'schema/sq-plan.schema.json'), 'utf8'));
      // The document as shown, with its "…" placeholders standing for values of the right type.
      const doc = JSON.parse(b.text.replaceAll('"id": "…"', '"id": "0cc85ca9"'));
      const validate = new Ajv2020({ strict: false }).compile(schema);
      expect(validate(doc), `${b.file}:${b.line}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
  }
  return undefined;
}

describe('docs/*.md: every example block runs', () => {
  const blocks = docBlocks();

  it('every block is of a kind this test runs', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(15);
    expect(
      blocks.filter((b) => runnerOf(b) === undefined).map((b) => `${b.file}:${b.line} (${b.lang || 'no language'})`),
    ).toEqual([]);
  });

  it('each runs as written, in order, in one workspace', async () => {
    emu.expectWrites(/^POST \/v1\//);
    const w = workspace();
    // The account file first: the bash blocks after it plan the sq.yaml it is.
    const ordered = [...blocks].sort(
      (a, b) => Number(b.file === 'account-as-code.md') - Number(a.file === 'account-as-code.md'),
    );
    let ran = 0;
    for (const b of ordered) {
      const run = runnerOf(b);
      if (typeof run !== 'function') continue;
      await run(w, b);
      ran++;
    }
    expect(ran).toBeGreaterThanOrEqual(12);
  }, 600_000);
});
