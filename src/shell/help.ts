// `sq help <command…>` and the topics that are not commands: environment, exit-codes, globals, and TOPICS.
import type { Command } from 'commander';
import type { Ctx } from '../cli/context.js';
import { UsageError } from '../errors.js';
import { helpWidth, wrapParagraphs } from '../cli/help-layout.js';
import { ENVIRONMENT, EXIT_CODES, TOPICS } from './help-topics.js';

/** `buildAll` builds the whole command tree (every noun loaded), for the manual page. */
export async function showHelp(
  ctx: Ctx,
  program: Command,
  topic: string[],
  opts: { man?: boolean; buildAll: () => Promise<Command> },
): Promise<number> {
  const t = topic.join(' ');
  const w = helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns);
  if (t === 'environment' || t === 'env') {
    ctx.out.text(`Environment variables:\n${definitions(ENVIRONMENT, 20, w)}\n`);
    return 0;
  }
  if (t === 'exit-codes' || t === 'exit-code') {
    const codes = EXIT_CODES.map(([k, v]): [string, string] => [String(k), v]);
    ctx.out.text(
      `Exit codes:\n${definitions(codes, 5, w)}\n` +
        'With --json, an error is also written to stderr\nas one JSON object:\n' +
        '  {"error":{"code":<exit>,"status":<http|null>,"message":"...",\n' +
        '            "retry_after":<s|null>}}\n',
    );
    return 0;
  }
  if (t === 'globals' || t === 'global') {
    const { GLOBAL_OPTIONS } = await import('../cli/global-flags.js');
    const flags = GLOBAL_OPTIONS.map((o): [string, string] => [o.flags, o.description]);
    ctx.out.text(`Global flags (every command takes them):\n${definitions(flags, 24, w)}\n`);
    return 0;
  }
  const named = TOPICS[t];
  if (named) {
    ctx.out.text(`${wrapParagraphs(named.text, w)}\n`);
    return 0;
  }
  if (t === 'topics') {
    const rows = [...BUILT_IN, ...Object.entries(TOPICS).map(([k, v]): [string, string] => [k, v.summary])];
    ctx.out.text(`Help topics (sq help <topic>):\n${definitions(rows, 14, w)}\n`);
    return 0;
  }
  if (opts.man) {
    // The manual covers every command: build the whole tree, not only the noun asked about.
    const [{ manPage }, { VERSION }] = await Promise.all([import('./help-docs.js'), import('../version.js')]);
    const full = await opts.buildAll();
    ctx.out.text(manPage(full, findCommand(full, topic), VERSION));
    return 0;
  }
  findCommand(program, topic).outputHelp();
  return 0;
}

function findCommand(program: Command, topic: string[]): Command {
  const t = topic.join(' ');
  let cmd: Command = program;
  for (const name of topic) {
    const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    // Bad input before any request, like an unknown command: exit 2.
    if (!next)
      throw new UsageError(
        `no help topic or command "${t}" (topics: ${[...BUILT_IN.map(([k]) => k), ...Object.keys(TOPICS)].join(', ')})`,
      );
    cmd = next;
  }
  return cmd;
}

/** The topics written here rather than in TOPICS. */
const BUILT_IN: [string, string][] = [
  ['environment', 'the environment variables sq reads'],
  ['exit-codes', 'what each exit code means'],
  ['globals', 'the flags every command takes'],
];

/** `  KEY   text…` rows, the text wrapped at `width` under itself (a hanging indent), as the rest of help is. */
export function definitions(rows: readonly (readonly [string, string])[], keyWidth: number, width: number): string {
  const indent = 2 + keyWidth + 1;
  return rows
    .map(([k, v]) => {
      const lines: string[] = [];
      let cur = `  ${k.padEnd(keyWidth)}`;
      if (cur.length > indent - 1) {
        lines.push(cur);
        cur = ' '.repeat(indent - 1);
      }
      let empty = true;
      for (const w of v.split(/\s+/).filter(Boolean)) {
        if (!empty && cur.length + 1 + w.length > width) {
          lines.push(cur);
          cur = ' '.repeat(indent - 1);
          empty = true;
        }
        cur += ` ${w}`;
        empty = false;
      }
      lines.push(cur);
      return lines.join('\n');
    })
    .join('\n');
}
