// How `--help` is laid out, for every command: usage and what it does in one line, then its commands (a noun's verbs),
// its own flags and a short "Inherited flags" block naming only the global flags that apply to it (the full block
// with descriptions is `sq help globals`), as gh does; the longer description follows them. Paragraphs are re-flowed to the terminal's width (80 when
// piped); blocks indented by the author (file formats, tables) are kept as written.
import type { Command, Help, HelpConfiguration, Option } from 'commander';
import { stripAnsi } from '../output/ansi.js';

/** Which global flags apply to a verb (VerbSpec.output / writes), set by program.ts; absent: a command group. */
export const USES = new WeakMap<Command, { output: boolean; writes: boolean }>();
/** The verbs a global flag applies to (OptionSpec.appliesTo); absent: every verb. */
export const APPLIES = new WeakMap<Option, 'output' | 'writes'>();

/** The width help is laid out for: the terminal's, capped for reading; 80 when piped or unknown. */
export function helpWidth(isTTY: boolean, columns: number | undefined): number {
  return isTTY && columns && columns >= 40 ? Math.min(columns, 120) : 80;
}

/** Word-wraps `text` to `width`; a paragraph with an indented line is preformatted and left as it is. */
export function wrapParagraphs(text: string, width: number): string {
  return text
    .split(/\n[ \t]*\n/)
    .map((para) => {
      if (/(^|\n)[ \t]/.test(para)) return para;
      const words = para.split(/\s+/).filter(Boolean);
      const lines: string[] = [];
      let cur = '';
      for (const w of words) {
        if (cur && stripAnsi(cur).length + 1 + stripAnsi(w).length > width) {
          lines.push(cur);
          cur = w;
        } else {
          cur = cur ? `${cur} ${w}` : w;
        }
      }
      lines.push(cur);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** The words that name a command from the root: ['squids', 'chain', 'set']. */
export function commandPath(cmd: Command): string[] {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words;
}

/** The options a command inherits from its ancestors (sq's globals), without --version, which only the root takes. */
export function inheritedOptions(cmd: Command): Option[] {
  const out: Option[] = [];
  for (let c = cmd.parent; c; c = c.parent) out.push(...c.options.filter((o) => !o.hidden && o.long !== '--version'));
  return out;
}

/**
 * An option's help text with its choices and default. Commander shows a default only when the option holds a
 * value; sq's are applied by the verb (the parser leaves "not given" visible), so the text alone states them.
 */
function optionDescription(o: Option): string {
  const extra: string[] = [];
  if (o.argChoices) extra.push(`choices: ${o.argChoices.map((c) => JSON.stringify(c)).join(', ')}`);
  if (o.defaultValueDescription !== undefined) extra.push(`default: ${o.defaultValueDescription}`);
  else if (o.defaultValue !== undefined && typeof o.defaultValue !== 'boolean')
    extra.push(`default: ${JSON.stringify(o.defaultValue)}`);
  return extra.length ? `${o.description} (${extra.join('; ')})` : o.description;
}

/**
 * The global flags that apply to `cmd`: those for every verb, the output flags when it prints data, --dry-run and --yes
 * when it writes. A command group (a noun) gets only those for every verb.
 */
export function applicableGlobals(cmd: Command): Option[] {
  const uses = USES.get(cmd);
  return inheritedOptions(cmd).filter((o) => {
    const to = APPLIES.get(o);
    return to === undefined || (to === 'output' ? uses?.output === true : uses?.writes === true);
  });
}

/** Flag terms side by side, wrapped at `width` under a two-space indent: the inherited block stays a few lines. */
function compact(terms: string[], width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const t of terms) {
    if (cur && 2 + cur.length + 2 + t.length > width) {
      lines.push(`  ${cur}`);
      cur = t;
    } else {
      cur = cur ? `${cur}  ${t}` : t;
    }
  }
  if (cur) lines.push(`  ${cur}`);
  return lines;
}

/** Usage, what it does, commands, arguments, own flags, inherited flags, the longer description (then the examples, added by program.ts). */
function formatHelp(cmd: Command, helper: Help): string {
  // The root's flags are named in a compact block: only its commands set the column.
  const termWidth = cmd.parent
    ? helper.padWidth(cmd, helper)
    : Math.max(...helper.visibleCommands(cmd).map((c) => helper.subcommandTerm(c).length));
  const width = helper.helpWidth ?? 80;
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  const section = (heading: string, lines: string[]) => (lines.length ? [heading, ...lines, ''] : []);
  const out = [`Usage: ${helper.commandUsage(cmd)}`, ''];
  // The summary leads; the rest of the description (program.ts puts it after a blank line) follows the flags.
  const [summary, ...prose] = helper.commandDescription(cmd).split('\n\n');
  if (summary) out.push(helper.boxWrap(summary, width), '');
  out.push(
    ...section(
      'Commands:',
      helper.visibleCommands(cmd).map((c) => item(helper.subcommandTerm(c), helper.subcommandDescription(c))),
    ),
  );
  out.push(
    ...section(
      'Arguments:',
      helper.visibleArguments(cmd).map((a) => item(helper.argumentTerm(a), helper.argumentDescription(a))),
    ),
  );
  if (!cmd.parent) {
    // The root's own flags are the global ones: named here, described by `sq help globals`.
    const terms = helper.visibleOptions(cmd).map((o) => helper.optionTerm(o));
    out.push(...section('Global flags (sq help globals describes them):', compact(terms, width)));
  } else {
    out.push(
      ...section(
        'Options:',
        helper.visibleOptions(cmd).map((o) => item(helper.optionTerm(o), helper.optionDescription(o))),
      ),
    );
    const inherited = applicableGlobals(cmd).map((o) => helper.optionTerm(o));
    out.push(...section('Inherited flags (all of them: sq help globals):', compact(inherited, width)));
  }
  if (prose.length) out.push(helper.boxWrap(prose.join('\n\n'), width), '');
  return out.join('\n');
}

export function helpConfiguration(): HelpConfiguration {
  return {
    showGlobalOptions: true,
    visibleGlobalOptions: applicableGlobals,
    optionDescription,
    boxWrap: (str: string, width: number) => wrapParagraphs(str, width),
    // A command's name and arguments: its own help lists its flags.
    subcommandTerm: (c: Command) =>
      [c.name(), ...c.aliases().slice(0, 1)].join('|') +
      c.registeredArguments
        .map((a) => (a.required ? ` <${a.name()}>` : ` [${a.name()}${a.variadic ? '...' : ''}]`))
        .join(''),
    formatHelp,
  };
}

/**
 * An example as help shows it: `  $ <command>`, continued with ` \` on lines indented under it when it is longer
 * than `width`, so it never wraps and still runs when pasted. Quoted words are never split.
 */
export function exampleLines(example: string, width = 80): string[] {
  const first = `  $ ${example}`;
  if (first.length <= width) return [first];
  const tokens = example.match(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g) ?? [example];
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    const operator = (w: string) => /^(\||\|\||&&|;|>|>>|<|2>)$/.test(w);
    // An option stays on the line of its value, a redirection with its file.
    const pairs =
      (/^-/.test(t) && !t.includes('=') && !/^-/.test(next ?? '-')) || (/^(>|>>|<)$/.test(t) && next !== undefined);
    if (pairs && !operator(next!)) words.push(`${t} ${tokens[++i]}`);
    else words.push(t);
  }
  const lines: string[] = [];
  let cur = '  $';
  for (const w of words) {
    if (cur.length + 1 + w.length + 2 > width && cur.trim() !== '$' && cur.length > 6) {
      lines.push(`${cur} \\`);
      cur = `      ${w}`;
    } else {
      cur = `${cur} ${w}`;
    }
  }
  lines.push(cur);
  return lines;
}
