// Progress on stderr: a redrawn bar on a terminal; otherwise one plain line per change, so CI logs and `2>file`
// show what happened without a flood of carriage returns.
import { displayWidth, truncateWidth } from '../output/width.js';

// count is in a module of its own: the list commands' paging hint (cli/paging.ts) needs it, not the width tables.
export { count } from './count.js';

interface ProgressOptions {
  stream: NodeJS.WritableStream;
  /** stderr is a terminal: draw a bar in place. */
  tty: boolean;
  /** --quiet, or a JSON format on stderr: say nothing. */
  enabled: boolean;
  columns?: number;
  now?: () => number;
  /** Minimum ms between terminal redraws. */
  throttleMs?: number;
}

interface ProgressUpdate {
  /** 0..1, or null when unknown (the bar is then left empty). */
  fraction: number | null;
  /** Shown after the bar on a terminal, and as the whole line otherwise. */
  text: string;
  /** Plain mode prints a line only when this changes (defaults to `text`). */
  key?: string;
}

const BAR_WIDTH = 24;

export class Progress {
  private lastKey: string | null = null;
  private lastDraw = 0;
  private drawn = false;
  private readonly now: () => number;

  constructor(private readonly opts: ProgressOptions) {
    this.now = opts.now ?? Date.now;
  }

  update(u: ProgressUpdate, force = false): void {
    if (!this.opts.enabled) return;
    if (!this.opts.tty) {
      const key = u.key ?? u.text;
      if (key === this.lastKey) return;
      this.lastKey = key;
      this.opts.stream.write(`${u.text}\n`);
      return;
    }
    const t = this.now();
    if (!force && this.drawn && t - this.lastDraw < (this.opts.throttleMs ?? 100)) return;
    this.draw(u);
    this.lastDraw = t;
  }

  /** A line that must stay on screen (a status change): replaces the bar, which the next update() redraws at once. */
  log(line: string): void {
    if (!this.opts.enabled) return;
    if (this.opts.tty && this.drawn) this.opts.stream.write('\r\x1b[2K');
    this.opts.stream.write(`${line}\n`);
    this.drawn = false;
  }

  /** Remove the bar (before the final output, or on error). */
  clear(): void {
    if (this.opts.enabled && this.opts.tty && this.drawn) this.opts.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(u: ProgressUpdate): void {
    const max = Math.max(20, (this.opts.columns ?? 80) - 1);
    const withBar = `${bar(u.fraction)} ${u.text}`;
    // The bar only repeats the percentage: on a terminal too narrow for the whole line it goes first, so the text (a
    // pause's reason) keeps those columns. Cut by display width, never wrapping onto the next row.
    const line = displayWidth(withBar) <= max ? withBar : u.text;
    this.opts.stream.write(`\r\x1b[2K${truncateWidth(line, max)}`);
    this.drawn = true;
  }
}

export function bar(fraction: number | null, width = BAR_WIDTH): string {
  const f = fraction === null ? 0 : Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}]`;
}

/** 0:07, 12:03, 1:02:03 */
export function elapsed(ms: number): string {
  const t = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
