// The account file of `sq plan`, `sq apply` and `sq delivery apply`: read, checked and planned against the live
// account, and the help those verbs share about it.

import type { OptionSpec } from '../cli/command.js';
import type { Ctx } from '../cli/context.js';
import { required } from '../validate/index.js';
import { loadAccountFile, type Desired } from './file.js';
import { readLive } from './state.js';
import { makePlan, type PlanOptions } from './diff.js';

export const FILE_HELP = `The file (YAML or JSON; a \`sq delivery apply\` file is one too):

  # yaml-language-server: $schema=…   (the URL sq export writes)
  version: 1
  prune: false          # true: delete squids and tasks not listed
  billing:
    auto_reset: { enabled: true, threshold: 80, max_resets: 2 }
  squids:
    "Paris restaurants":          # name (or hash, or hash prefix)
      crawler: google-maps-search-export # id, name or slug; fixed once created
      active: true
      concurrency: 2
      notify: on_error            # on_success | on_error | none
      unique_results: true
      params: { ratings: 4.0+, functions: { fetch_business_images: true } }
      tasks:                      # or: tasks: { file: tasks.csv }
        - https://www.google.com/maps/search/pizza+paris
        - { category: sushi, city: Paris, country: France }
      sftp: { host: sftp.example.com, username: deploy,
              password: \${SFTP_PASSWORD}, directory: /upload }
      webhook: { url: https://ci.example.com/hook,
                 events: [run.done, run.error] }

Only what the file names is managed: a field left out is left as it is. params are compared key by key. Tasks are identified by their values (a URL, or the parameters written): listed tasks are added when missing; a task the file does not list is deleted only with prune: true. Delivery channels take the fields of \`sq delivery apply\` (see its --help). Secrets are \${ENV} references only; the stored value is compared when the service returns it, and a secret (or a webhook/sheet URL) whose variable is not set is reported as "not compared" by plan; apply refuses to send a channel that needs it (exit 2).`;

export const FILE_OPTION = { flags: '-f, --file <file>', description: 'the account file, YAML or JSON ("-" reads stdin)' } as const satisfies OptionSpec;

/**
 * The file of -f, read and checked (its ${ENV} values registered as secrets), and the plan against the live account.
 * `limit` refuses what a narrower verb does not manage (sq delivery apply), before any request.
 */
export async function planOfFile(
  ctx: Ctx,
  opts: { file?: string },
  scope: PlanOptions & { limit?: (want: Desired) => void; allowMissingSecrets?: boolean } = {},
): Promise<ReturnType<typeof makePlan>> {
  const file = required('--file', opts.file, 'the account file (YAML or JSON; "-" for stdin)');
  const want = await loadAccountFile(ctx, file, { allowMissingSecrets: scope.allowMissingSecrets ?? true });
  scope.limit?.(want);
  const http = await ctx.http();
  return makePlan(want, await readLive(http, want, (w) => ctx.out.warn(w)), scope);
}

export const JSON_HELP =
  'With --json: one document, the same keys for 0, 1 or N changes (JSON Schema: schema/sq-plan.schema.json): ' +
  '{version: 1, dry_run, summary: {create, update, delete, applied, failed, skipped, not_compared}, items: [{kind, ' +
  'action, squid, id, channel, changes: [{field, from, to}], add, delete, not_compared, fires_now, needs_yes, status, ' +
  'error, requests}], not_compared: [...]}. status is planned (nothing sent), applied, failed or skipped; secrets ' +
  'are ********.';
