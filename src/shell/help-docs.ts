// The command reference in two more forms, from the same commander tree as --help (so they cannot drift from it):
// Markdown pages for docs/commands/ (one per noun, plus an index) and roff for `sq help --man`.
// Deterministic: the tree's order, no dates or versions in the Markdown, so regenerating after a merge is a clean diff.
import type { Command, Option } from 'commander';
import { EXAMPLES } from '../cli/global-options.js';
import { ENVIRONMENT, EXIT_CODES, TOPICS } from './help-topics.js';
import { commandPath, inheritedOptions } from '../cli/help-layout.js';

function visibleCommands(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help');
}

function ownOptions(cmd: Command): Option[] {
  return cmd.options.filter((o) => !o.hidden && o.long !== '--version');
}

/** Paragraphs of a description; an indented one is a preformatted block (a file format, a table). */
function paragraphs(text: string): { pre: boolean; text: string }[] {
  return text
    .split(/\n[ \t]*\n/)
    .filter((p) => p.trim())
    .map((p) =>
      /(^|\n)[ \t]/.test(p) ? { pre: true, text: dedent(p) } : { pre: false, text: p.replace(/\s+/g, ' ').trim() },
    );
}

function dedent(block: string): string {
  const lines = block.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

// ---- Markdown ----

function mdText(s: string): string {
  // Inline code stays as written; elsewhere <placeholders> must not be read as HTML.
  return s
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/\*/g, '\\*')
            .replace(/_/g, '\\_'),
    )
    .join('');
}

/** A table's first two lines: its two headers and the rule under them. */
const mdHead = (a: string, b: string) => [`| ${a} | ${b} |`, '|---|---|'];

function mdCell(s: string): string {
  return mdText(s).replace(/\|/g, '\\|');
}

function mdOptions(cmd: Command, opts: Option[]): string[] {
  const help = cmd.createHelp();
  return [
    ...mdHead('Option', 'Description'),
    ...opts.map((o) => `| \`${help.optionTerm(o)}\` | ${mdCell(help.optionDescription(o))} |`),
  ];
}

function mdCommand(cmd: Command, level: number): string[] {
  const help = cmd.createHelp();
  const words = commandPath(cmd);
  const out = [`${'#'.repeat(level)} sq ${words.join(' ')}`, ''];
  for (const p of paragraphs(help.commandDescription(cmd)))
    out.push(...(p.pre ? ['```text', p.text, '```'] : [mdText(p.text)]), '');
  out.push('```text', `Usage: ${help.commandUsage(cmd)}`, '```', '');
  const aliases = cmd.aliases();
  if (aliases.length) out.push(`Alias: ${aliases.map((a) => `\`${a}\``).join(', ')}`, '');
  const subs = visibleCommands(cmd);
  if (subs.length) {
    out.push(
      ...mdHead('Command', 'What it does'),
      ...subs.map(
        (s) => `| [\`sq ${commandPath(s).join(' ')}\`](#${anchor(s)}) | ${mdCell(s.summary() || s.description())} |`,
      ),
      '',
    );
  }
  const own = ownOptions(cmd);
  if (own.length) out.push(...mdOptions(cmd, own), '');
  if (words.length) out.push('Global options: see [the index](README.md#global-options).', '');
  const examples = EXAMPLES.get(cmd);
  if (examples?.length) out.push('Examples:', '', '```bash', ...examples, '```', '');
  return out;
}

function anchor(cmd: Command): string {
  return `sq-${commandPath(cmd).join('-')}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
}

/** docs/commands/: file name → content. README.md is the index; one page per top-level command. */
export function markdownReference(program: Command): Map<string, string> {
  const files = new Map<string, string>();
  const nouns = visibleCommands(program);
  const index = [
    '# sq command reference',
    '',
    '<!-- Generated from the command tree by `npm run build && node test/help/regen-docs.mjs`: do not edit. -->',
    '',
    mdText(program.description()),
    '',
    ...mdHead('Command', 'What it does'),
    ...nouns.map((n) => `| [\`sq ${n.name()}\`](${n.name()}.md) | ${mdCell(n.summary() || n.description())} |`),
    '',
    '## Global options',
    '',
    'Every command accepts these.',
    '',
    ...mdOptions(program, ownOptions(program)),
    '',
    '## Environment',
    '',
    ...mdHead('Variable', 'Meaning'),
    ...ENVIRONMENT.map(([k, v]) => `| \`${k}\` | ${mdCell(v)} |`),
    '',
    '## Exit codes',
    '',
    ...mdHead('Code', 'Meaning'),
    ...EXIT_CODES.map(([k, v]) => `| ${k} | ${mdCell(v)} |`),
    '',
    '## Help topics',
    '',
    "What a command's help leaves out to stay short; also `sq help <topic>`.",
    '',
    ...Object.entries(TOPICS).flatMap(([k, v]) => [
      `### ${k}`,
      '',
      `${mdText(v.summary)}.`,
      '',
      ...paragraphs(v.text).flatMap((p) => (p.pre ? ['```text', p.text, '```', ''] : [mdText(p.text), ''])),
    ]),
    'Examples:',
    '',
    '```bash',
    ...(EXAMPLES.get(program) ?? []),
    '```',
    '',
  ];
  files.set('README.md', index.join('\n'));
  for (const n of nouns) {
    const page = [
      '<!-- Generated from the command tree by `npm run build && node test/help/regen-docs.mjs`: do not edit. -->',
      '',
      ...mdCommand(n, 1),
    ];
    const below = (c: Command, level: number): void => {
      for (const v of visibleCommands(c)) {
        page.push(...mdCommand(v, level));
        below(v, level + 1);
      }
    };
    below(n, 2);
    files.set(`${n.name()}.md`, `${page.join('\n').trimEnd()}\n`);
  }
  return files;
}

// ---- roff (man) ----

const ASCII: Record<string, string> = {
  '\u2026': '...',
  '\u221e': 'infinity',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2014': '--',
  '\u2013': '-',
  '\u00d7': 'x',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2713': 'ok',
  '\u00b7': '-',
};

function roff(s: string): string {
  return (
    s
      .replace(/\\/g, '\\e')
      .replace(/-/g, '\\-')
      .replace(/^([.'])/gm, '\\&$1')
      // A manual page must render on an ASCII terminal too, where troff has no glyph for most of Unicode.
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x00-\x7f]/gu, (c) => ASCII[c] ?? '?')
  );
}

function roffParagraphs(text: string): string[] {
  return paragraphs(text).flatMap((p) =>
    p.pre ? ['.PP', '.RS 4', '.nf', roff(p.text), '.fi', '.RE'] : ['.PP', roff(p.text)],
  );
}

function roffOptions(cmd: Command, opts: Option[]): string[] {
  const help = cmd.createHelp();
  return opts.flatMap((o) => ['.TP', `.B ${roff(help.optionTerm(o))}`, roff(help.optionDescription(o))]);
}

function roffExamples(cmd: Command): string[] {
  const examples = EXAMPLES.get(cmd);
  return examples?.length
    ? ['.PP', 'Examples:', '.RS 4', '.nf', ...examples.map((e) => roff(`$ ${e}`)), '.fi', '.RE']
    : [];
}

/** `sq runs start` in bold, then what follows it ([options] <squid>). */
function synopsis(cmd: Command): string[] {
  const words = ['sq', ...commandPath(cmd)];
  const rest = cmd.createHelp().commandUsage(cmd).split(' ').slice(words.length).join(' ');
  return ['.PP', `.B ${roff(words.join(' '))}`, ...(rest ? [roff(rest)] : [])];
}

/** The body of one command: usage, description, options, examples; then its subcommands the same way. */
function roffCommand(cmd: Command, heading: string): string[] {
  const help = cmd.createHelp();
  const out = [heading, ...synopsis(cmd)];
  out.push(...roffParagraphs(help.commandDescription(cmd)));
  const own = ownOptions(cmd);
  if (own.length && commandPath(cmd).length) out.push('.PP', 'Options:', '.RS 4', ...roffOptions(cmd, own), '.RE');
  out.push(...roffExamples(cmd));
  for (const s of visibleCommands(cmd)) out.push(...roffCommand(s, `.SS ${roff(`sq ${commandPath(s).join(' ')}`)}`));
  return out;
}

/**
 * A manual page: sq(1) with every command, or sq-<noun>[-<verb>](1) for one command and those under it.
 * `version` goes in the footer only.
 */
export function manPage(program: Command, cmd: Command, version: string): string {
  const words = commandPath(cmd);
  const name = ['sq', ...words].join('-');
  const out = [
    `.TH ${roff(name.toUpperCase())} 1 "" "sq ${roff(version)}" "sq manual"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(cmd.summary() || cmd.description().split('\n')[0])}`,
    '.SH SYNOPSIS',
    ...synopsis(cmd).slice(1),
    '.SH DESCRIPTION',
    ...roffParagraphs(cmd.createHelp().commandDescription(cmd)),
  ];
  const own = ownOptions(cmd);
  if (own.length && words.length) out.push('.SH OPTIONS', ...roffOptions(cmd, own));
  out.push('.SH GLOBAL OPTIONS', ...roffOptions(program, words.length ? inheritedOptions(cmd) : own));
  out.push(
    ...roffExamples(cmd)
      .map((l, i) => (i === 0 ? '.SH EXAMPLES' : l))
      .filter((l) => l !== 'Examples:'),
  );
  const subs = visibleCommands(cmd);
  if (subs.length)
    out.push('.SH COMMANDS', ...subs.flatMap((s) => roffCommand(s, `.SS ${roff(`sq ${commandPath(s).join(' ')}`)}`)));
  if (!words.length) {
    out.push('.SH ENVIRONMENT', ...ENVIRONMENT.flatMap(([k, v]) => ['.TP', `.B ${roff(k)}`, roff(v)]));
    out.push('.SH EXIT STATUS', ...EXIT_CODES.flatMap(([k, v]) => ['.TP', `.B ${k}`, roff(v)]));
    out.push(
      '.SH TOPICS',
      ...Object.entries(TOPICS).flatMap(([k, v]) => [`.SS ${roff(k)}`, ...roffParagraphs(v.text)]),
    );
  }
  out.push(
    '.SH SEE ALSO',
    roff(
      words.length
        ? `sq(1), sq ${words.join(' ')} --help`
        : 'sq <command> --help, sq help topics, sq help environment, sq help exit-codes',
    ),
  );
  return `${out.join('\n')}\n`;
}
