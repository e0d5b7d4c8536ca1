// How `--help` is laid out, for every command: paragraphs re-flowed to the terminal's width (80 when piped), blocks
// indented by the author (file formats, tables) kept as written, and the global options every verb inherits listed
// under their own heading, as gh does.
import type { Command, HelpConfiguration, Option } from 'commander';

/** The width help is laid out for: the terminal's, capped for reading; 80 when piped or unknown. */
export function helpWidth(isTTY: boolean, columns: number | undefined): number {
  return isTTY && columns && columns >= 40 ? Math.min(columns, 120) : 80;
}

/** Word-wraps `text` to `width`; a paragraph with an indented line is preformatted and left as it is. */
function wrapParagraphs(text: string, width: number): string {
  return text
    .split(/\n[ \t]*\n/)
    .map((para) => {
      if (/(^|\n)[ \t]/.test(para)) return para;
      const words = para.split(/\s+/).filter(Boolean);
      const lines: string[] = [];
      let cur = '';
      for (const w of words) {
        if (cur && visible(cur) + 1 + visible(w) > width) {
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

function visible(s: string): number {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[\d;]*m/g, '').length;
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
  else if (o.defaultValue !== undefined && typeof o.defaultValue !== 'boolean') extra.push(`default: ${JSON.stringify(o.defaultValue)}`);
  return extra.length ? `${o.description} (${extra.join('; ')})` : o.description;
}

export function helpConfiguration(): HelpConfiguration {
  return {
    showGlobalOptions: true,
    visibleGlobalOptions: inheritedOptions,
    optionDescription,
    boxWrap: (str: string, width: number) => wrapParagraphs(str, width),
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
    const pairs = (/^-/.test(t) && !t.includes('=') && !/^-/.test(next ?? '-')) || (/^(>|>>|<)$/.test(t) && next !== undefined);
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
