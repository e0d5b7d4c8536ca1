// createOutput: the only place that decides how data looks. Commands hand over records and lists; how each one
// becomes bytes is render.ts.

import { FORMAT_SPECS, type Output, type OutputSettings, type RenderOptions } from './types.js';
import { makeStyle } from './ansi.js';
import { terminalOutput, terminalSafe } from './cells.js';
import { redactDeep, redactText } from '../lib/secrets.js';
import { Sink } from './sink.js';
import { importPackage } from '../import-package.js';
import { jsonText } from './json-text.js';
import {
  recordShaper,
  renderList,
  renderRecord,
  tableOptions,
  type CreateOutputOptions,
  type Rendering,
} from './render.js';

export type { Column } from './types.js';
export { resolveOutputSettings, type OutputSettingsInput } from './settings.js';

interface OutputIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function createOutput(io: OutputIO, settings: OutputSettings, options: CreateOutputOptions = {}): Output {
  const spec = FORMAT_SPECS[settings.format];
  // --jq/--template see the document the command would print with --json (after masking and --fields): the whole
  // of it, or each page with --all (RenderOptions.pageOf). Their output streams to stdout as it is made.
  const filtered = settings.jq !== null || settings.template !== null;
  // On a terminal, no format but the table (safe cell by cell, and coloured) passes control characters through.
  const out = new Sink(
    io.stdout,
    settings.stdoutIsTTY && (!spec.terminal || filtered) ? terminalOutput(spec.json !== null && !filtered) : undefined,
  );
  const style = makeStyle(settings.color);
  const { stderrColor, errStyle, message, warn } = stderrLines(io, settings, options);

  const target = {
    limits: settings.limits,
    write: (s: string) => out.write(s),
    closed: () => out.closed,
    signal: options.signal,
    now: options.now,
  };
  async function writeFiltered(doc: unknown): Promise<void> {
    if (settings.template) await settings.template.render(doc, target);
    else await (await import('./jq.js')).runJq(doc, settings.jq!, target);
  }

  const shape = recordShaper(settings, options, warn);
  const { known } = shape;
  const r: Rendering = {
    out,
    settings,
    shape,
    message,
    tableOpts: tableOptions(settings, options.now),
    filtered,
    writeFiltered,
  };
  const list = (items: Iterable<unknown> | AsyncIterable<unknown>, opts?: RenderOptions) => renderList(r, items, opts);
  const record = (data: unknown, opts?: RenderOptions) => renderRecord(r, data, opts);

  return {
    settings,
    spec,
    get closed() {
      return out.closed;
    },
    style,
    errStyle,
    record,
    list,
    async json(doc: unknown) {
      const shown = redactDeep(doc, known());
      if (filtered) await writeFiltered(shown);
      else out.writeNow(`${jsonText(shown, 2)}\n`);
    },
    text(s: string) {
      const shown = redactText(s, known());
      out.writeNow(shown === '' || shown.endsWith('\n') ? shown : shown + '\n');
    },
    info(msg, opts) {
      if (settings.quiet && !opts?.force) return;
      message(msg);
    },
    warn,
    success(msg) {
      if (settings.quiet || spec.json) return;
      message(msg.startsWith('✓') ? msg : `${errStyle.green('✓')} ${msg}`);
    },
    to(stream, over = {}) {
      return createOutput(
        { stdout: stream, stderr: io.stderr },
        { ...settings, ...over, color: false, stdoutIsTTY: false, columns: 0 },
        options,
      );
    },
    spin<T>(label: string, task: () => Promise<T>): Promise<T> {
      if (!settings.stderrIsTTY || settings.quiet || spec.json) return task();
      return spinWhile(io.stderr, stderrColor, label, task);
    },
  };
}

/** The stderr side: messages and warnings, redacted and made terminal-safe, in stderr's own colours. */
function stderrLines(io: OutputIO, settings: OutputSettings, options: CreateOutputOptions) {
  // stderr's Sink on the first message: most calls say nothing there, and the first touch of process.stderr makes
  // the stream (bin/sq.js leaves it unmade until then).
  let err: Sink | undefined;
  const stderrColor = settings.stderrColor ?? settings.color;
  const errStyle = makeStyle(stderrColor);
  // A message may quote API data (a squid's name): no control characters reach stderr but the colours of errStyle.
  const message = (line: string) => {
    const text = terminalSafe(redactText(line, options.secrets ?? []), stderrColor);
    (err ??= new Sink(io.stderr)).writeNow(text.endsWith('\n') ? text : text + '\n');
  };
  const warn = (msg: string) => message(`${errStyle.yellow('warning:')} ${msg}`);
  return { stderrColor, errStyle, message, warn };
}

/** A spinner on stderr (a terminal) while `task` runs. */
async function spinWhile<T>(
  stream: NodeJS.WritableStream,
  color: boolean,
  label: string,
  task: () => Promise<T>,
): Promise<T> {
  const { default: ora } = await importPackage<typeof import('ora')>('ora');
  const spinner = ora({
    text: label,
    stream,
    // We already decided stderr is a terminal; ora's own probe would be fooled by wrapped streams.
    isEnabled: true,
    // ora would otherwise grab stdin on a TTY and swallow keystrokes meant for prompts.
    discardStdin: false,
    color: color ? 'cyan' : false,
  }).start();
  try {
    return await task();
  } finally {
    spinner.stop();
  }
}
