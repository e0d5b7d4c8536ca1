import { defineVerb } from '../../cli/command.js';
import type { Ctx } from '../../cli/context.js';
import { eventsFlag, httpUrlFlag, intFlag, nonEmpty, RUN_EVENTS } from '../../validate/index.js';
import { UsageError } from '../../errors.js';
import { shownUrl } from '../../lib/secrets.js';
import type { WebhookPayload } from '../../webhook/payload.js';

/** Back to the line's start and erase it (what the progress bar's frames start with, src/io/progress.ts). */
const CLEAR_LINE = '\r\x1b[2K';

function lineFor(ctx: Ctx, p: WebhookPayload): string {
  const { json, line } = ctx.out.spec;
  if (json) return JSON.stringify(p);
  if (line) return line([p.timestamp, p.event, p.id, p.squid.id, p.squid.name]).replace(/\n$/, '');
  const safe = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `${safe(p.timestamp)}  ${ctx.out.style.bold(p.event)}  ${safe(p.id)}  ${safe(p.squid.name)}`;
}

export default defineVerb({
  name: 'listen',
  summary: 'Receive webhook events on this machine: validate, print, optionally forward',
  description:
    'Starts a local HTTP receiver for the events the service POSTs (run.running, run.paused, run.done, run.error). ' +
    'Each POST body is checked against the documented payload (id, object "run", event, squid.id, squid.name, ' +
    'timestamp "YYYY/MM/DD HH:MM:SS" UTC): a valid event is printed as one line on stdout and answered 200; an ' +
    'invalid one is answered 400 with the reason (413 for a body over 1 MiB), which is also reported on stderr.\n\n' +
    'Output: "<timestamp>  <event>  <run id>  <squid name>" on a terminal, TSV/CSV (timestamp, event, run id, squid ' +
    'id, squid name) when asked or piped, and one JSON object per line (NDJSON) with --json or --format ndjson.\n' +
    '--events keeps only those events (the others are still answered 200, so the service does not retry them). ' +
    '--forward-to relays each kept event, original body and Content-Type, to another URL; a forwarding failure is ' +
    'reported on stderr and the service still gets 200.\n\n' +
    'The URL is printed on stderr at start ("Listening on http://127.0.0.1:PORT"). --port 0 (the default) picks a ' +
    'free port. The service must be able to reach this machine: for the hosted service use a tunnel; with ' +
    '`sq emulator start` it works as is. Stop with Ctrl-C (SIGINT) or SIGTERM: that is the normal way to end it, and ' +
    'it exits 0.',
  options: [
    { flags: '--port <port>', description: 'port to listen on, 0-65535 (0 = any free port)', defaultText: '0' },
    { flags: '--host <host>', description: 'address to bind', defaultText: '127.0.0.1' },
    { flags: '--path <path>', description: 'URL path that receives events', defaultText: '/' },
    {
      flags: '--events <list>',
      description: `events to keep: ${RUN_EVENTS.join(', ')}, or "all"`,
      defaultText: 'all',
      complete: { list: [...RUN_EVENTS, 'all'] },
    },
    {
      flags: '--forward-to <url>',
      description: 'relay each kept event (original body and Content-Type) to this http(s) URL',
    },
  ],
  examples: [
    'sq webhook listen --port 8788',
    'sq webhook listen --port 0 --json',
    'sq webhook listen --events run.done,run.error --forward-to http://localhost:3000/hooks/sq',
  ],
  async run(ctx, _args, opts) {
    const port = opts.port === undefined ? 0 : intFlag('--port', opts.port, 0, 65535);
    const host = opts.host === undefined ? '127.0.0.1' : nonEmpty('--host', opts.host);
    const path = opts.path === undefined ? '/' : nonEmpty('--path', opts.path);
    if (!path.startsWith('/')) throw new UsageError(`--path must start with "/" (got ${JSON.stringify(path)})`);
    const events = new Set(eventsFlag('--events', opts.events ?? 'all'));
    const forwardTo = opts.forwardTo === undefined ? undefined : new URL(httpUrlFlag('--forward-to', opts.forwardTo));
    // Its token (?token=, ?sig=, user:pw@) is masked in every message, unless --show-secrets.
    const forwardShown = forwardTo && shownUrl(forwardTo.href, ctx.globals.showSecrets);

    const { startListener } = await import('../../webhook/server.js');
    const printing = new Set<Promise<void>>();
    let listener;
    try {
      listener = await startListener({
        host,
        port,
        path,
        events,
        forwardTo,
        onEvent: (p) => {
          const s = ctx.outputSettings();
          // On a terminal, the line starts by clearing the one the cursor is on: a progress bar another sq draws there
          // (`sq runs watch` in the same terminal, redrawn with \r and no newline) would otherwise have this line glued
          // to its end. The bar redraws itself whole on its next frame, below this line.
          if (s.jq === null && s.template === null)
            return ctx.out.text(`${ctx.io.stdoutIsTTY ? CLEAR_LINE : ''}${lineFor(ctx, p)}`);
          // --jq/--template run on each event, as jq does on a stream of documents; a failure skips that event only.
          // Events print in the order they came (jq takes one document at a time); stopping waits for those accepted.
          const shown = ctx.out
            .json(p)
            .catch((err: unknown) => ctx.out.warn(`event ${p.event} of run ${p.id}: ${(err as Error).message}`));
          printing.add(shown);
          void shown.finally(() => printing.delete(shown));
        },
        onInvalid: (reason, from, status) =>
          ctx.out.warn(`rejected a request from ${from} (answered ${status}): ${reason}`),
        onForwardError: (msg, p) =>
          ctx.out.warn(`forwarding ${p.event} of run ${p.id} to ${forwardShown} failed: ${msg}`),
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EADDRINUSE')
        throw new UsageError(`--port ${port}: the port is already in use on ${host} (use --port 0 for a free one)`);
      if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
        throw new UsageError(`--host ${host}: cannot listen on that address`);
      throw err;
    }
    ctx.out.info(`Listening on ${listener.url}`, { force: true });
    if (forwardTo) ctx.out.info(`Forwarding ${[...events].join(', ')} to ${forwardShown}`);
    ctx.out.info('Press Ctrl-C to stop.');

    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await listener.close();
    await Promise.all(printing);
    ctx.out.info('Stopped.');
    return 0;
  },
});
