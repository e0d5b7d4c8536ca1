// `--web`: open a dashboard page in the browser ($BROWSER, else the platform's opener), or, with no browser to open
// (CI, no terminal, no display, no opener installed), print the URL on stdout for the user or the script to use.
import { spawn } from 'node:child_process';
import type { Ctx } from './context.js';
import type { OptionSpec } from './command.js';
import { envFlag } from '../lib/env.js';
import { dashboardUrl, type DashboardPage } from '../api/dashboard.js';

export const WEB_OPTION = {
  flags: '--web',
  description:
    'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL',
} as const satisfies OptionSpec;

/** Why no browser is opened here, or null when one may be. */
function noBrowser(ctx: Ctx): string | null {
  const env = ctx.env;
  if (envFlag(env.CI) || envFlag(env.GITHUB_ACTIONS)) return 'CI';
  if (!ctx.io.stdoutIsTTY) return 'no terminal';
  if (env.BROWSER !== undefined) return env.BROWSER.trim() === '' ? 'BROWSER is empty' : null;
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display';
  return null;
}

/** The command that opens `url`: $BROWSER (its first entry; %s stands for the URL), else the platform's. */
function opener(env: Record<string, string | undefined>, url: string): [string, string[]] {
  const browser = env.BROWSER?.split(process.platform === 'win32' ? ';' : ':')[0]?.trim();
  if (browser) {
    const words = browser.split(/\s+/);
    const args = words.slice(1);
    return args.some((a) => a.includes('%s'))
      ? [words[0], args.map((a) => a.replaceAll('%s', url))]
      : [words[0], [...args, url]];
  }
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/** Starts the browser, detached; false when it could not be started. */
function launch(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    } catch {
      return resolve(false);
    }
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/** Opens the dashboard page of `page` for the base URL in use, or prints its URL. */
export async function openWeb(ctx: Ctx, page: DashboardPage): Promise<void> {
  const http = await ctx.http({ auth: false });
  const url = dashboardUrl(http.baseUrl, page);
  const why = noBrowser(ctx);
  if (why === null) {
    const [command, args] = opener(ctx.env, url);
    if (await launch(command, args)) {
      ctx.out.info(`Opening ${url} in your browser.`);
      return;
    }
    ctx.out.warn(`could not start ${command} to open the page; its URL follows`);
  }
  ctx.out.text(`${url}\n`);
}
