// The account file (`sq plan|apply -f sq.yaml`, `sq export`): one zod schema is both what the CLI validates with and
// what schema/sq.schema.json is generated from (npm run schema), so editors check exactly what sq accepts.
// A `sq delivery apply` file (squids → channels) is a valid account file: every other key is optional.
import * as z from 'zod/mini';
import { RUN_EVENTS } from '../api/events.js';
import { canonicalTimeZone, parseCron } from '../api/cron.js';

const ENV_REF = '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$';
const d = <T extends z.ZodMiniType>(schema: T, text: string): T => schema.check(z.describe(text)) as T;

/** Secrets are never in the file, only a reference to the environment variable that holds them. */
const secretRef = d(
  z.string().check(z.regex(new RegExp(ENV_REF))),
  'an environment reference like ${SFTP_PASSWORD}; literal secrets are refused',
);
const text = z.string().check(z.minLength(1));
const active = d(z.optional(z.boolean()), 'deliver through this channel (default true)');
const event = z.enum(RUN_EVENTS as unknown as ['run.running', 'run.paused', 'run.done', 'run.error']);

const sftp = z.strictObject({
  host: text,
  port: z.optional(z.union([z.number().check(z.int(), z.minimum(1), z.maximum(65535)), z.string()])),
  username: text,
  password: secretRef,
  directory: text,
  active,
});
const webhook = z.strictObject({
  url: d(text, 'http(s) URL that receives the events'),
  events: d(
    z.union([z.array(event), z.string()]),
    'a list of run.running, run.paused, run.done, run.error, a comma-separated string, or "all"',
  ),
  retry: z.optional(z.boolean()),
  active,
});
const email = z.union([text, z.strictObject({ address: text, notifications: z.optional(z.boolean()) })]);
const sheet = z.strictObject({ url: text, append: z.optional(z.boolean()), active });
const s3 = z.strictObject({
  bucket: text,
  target_path: z.optional(z.string()),
  access_key: z.optional(secretRef),
  secret_key: z.optional(secretRef),
  active,
});

// null: a parameter the service holds without a value, as `sq export` writes it (it matches a task without one).
const taskValue = d(
  z.union([text, z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))]),
  'a URL (the task {url: …}) or an object of task parameters, e.g. {category: pizza, city: Paris}',
);
const tasks = d(
  z.union([
    z.array(taskValue),
    z.strictObject({
      file: d(text, 'CSV/TSV with a header row of task parameters, or one URL per line; relative to this file'),
    }),
  ]),
  'the tasks of the squid, identified by their values: listed ones are added; others are deleted only with prune: true',
);

const NOTIFY = ['on_success', 'on_error', 'none'] as const;

// A squid chain (sq squids chain): null removes the squid's chain; absent leaves it as it is.
const chain = d(
  z.nullable(
    z.strictObject({
      target_crawler: d(text, 'crawler id, name or slug the results go to; a change replaces the chain'),
      field_map: d(
        z.record(z.string().check(z.minLength(1)), z.string().check(z.minLength(1))),
        'result field of this squid → task param of the target crawler, e.g. {url: url}; a change replaces the chain',
      ),
      autostart: d(z.optional(z.boolean()), "start the target squid's run when results arrive (default true)"),
      target_name: d(z.optional(text), 'name of the target squid the chain creates'),
      target_concurrency: d(
        z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(20))),
        'concurrency of the target squid, 1-20',
      ),
    }),
  ),
  'where the results of each done run go next (at most 3 squids in a chain); null removes the chain',
);

const validCron = (v: string): boolean => {
  try {
    parseCron(v);
    return true;
  } catch {
    return false;
  }
};
// Recurring runs (update-squid cron_expression + timezone): null removes the schedule; absent leaves it as it is.
const schedule = d(
  z.nullable(
    z.strictObject({
      cron: d(
        z
          .string()
          .check(
            z.refine(
              validCron,
              'a 5-field cron expression: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1"',
            ),
          ),
        '5-field cron expression, e.g. "0 9 * * 1" (Mondays 09:00)',
      ),
      timezone: d(
        z.optional(
          z.string().check(z.refine((v) => canonicalTimeZone(v) !== null, 'an IANA time zone name, e.g. Europe/Paris')),
        ),
        'IANA time zone of the schedule (default UTC); sent as the zone list spells it (europe/paris: Europe/Paris)',
      ),
    }),
  ),
  'recurring runs: {cron, timezone}; null removes the schedule',
);

/**
 * Where `sq results sync --file` keeps the squid's results (a local step, not the service's: plan and apply leave it
 * alone). No password in the file: it comes from PGPASSWORD or ~/.pgpass, or the whole URL from a ${NAME} reference.
 */
const syncSchema = z.strictObject({
  to: d(
    z
      .string()
      .check(
        z.regex(
          /^(sqlite3?:|postgres(ql)?:\/\/(?![^/@]*:[^/@]*@))|^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/,
          'sqlite:PATH, postgres://USER@HOST/DB without a password, or a ${NAME} reference',
        ),
      ),
    'the database: sqlite:PATH or postgres://USER@HOST[:PORT]/DB (password from PGPASSWORD or ~/.pgpass), or ${NAME}',
  ),
  table: d(
    z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'an identifier: letters, digits and _'))),
    "the table (default: from the squid's name)",
  ),
  key: d(z.optional(z.array(text)), 'result attributes that identify a row across runs (upsert), as --key'),
});

const squidSchema = z.strictObject({
  crawler: d(
    z.optional(text),
    'crawler id, name or slug; needed to create the squid, and cannot change once it exists',
  ),
  active: d(z.optional(z.boolean()), 'is_active: whether the squid can run'),
  concurrency: d(z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(20))), 'parallel workers, 1-20'),
  schedule: z.optional(schedule),
  params: d(
    z.optional(z.record(z.string(), z.unknown())),
    'squid parameters; only the keys listed are managed (functions: {name: true|false})',
  ),
  notify: d(z.optional(z.enum(NOTIFY)), 'run notification e-mails: on_success, on_error or none'),
  unique_results: d(z.optional(z.boolean()), 'export_unique_results: exports keep unique results only'),
  tasks: z.optional(tasks),
  accounts: d(
    z.optional(z.array(text)),
    "platform accounts the squid's runs use, by id, unique id prefix or username; the list replaces the linked ones ([] unlinks them all)",
  ),
  sftp: z.optional(sftp),
  webhook: z.optional(webhook),
  email: z.optional(email),
  sheet: z.optional(sheet),
  s3: z.optional(s3),
  chain: z.optional(chain),
  sync: d(z.optional(syncSchema), "sq results sync --file: the database table this squid's results are kept in"),
});

const billingSchema = z.strictObject({
  auto_reset: z.optional(
    z.strictObject({
      enabled: d(z.optional(z.boolean()), 'automatic billing reset on or off (each reset charges the card on file)'),
      threshold: d(
        z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(100))),
        'usage percentage that triggers a reset, 1-100',
      ),
      max_resets: d(
        z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10))),
        'maximum resets in any rolling 24 hours, 1-10',
      ),
    }),
  ),
});

export const accountSchema = z.strictObject({
  $schema: z.optional(z.string()),
  version: z.optional(z.literal(1)),
  prune: d(z.optional(z.boolean()), 'delete squids and tasks the file does not list (apply also needs --yes)'),
  billing: z.optional(billingSchema),
  squids: d(
    z.optional(z.record(z.string(), squidSchema)),
    'squids by name (a hash or unique hash prefix also finds an existing one)',
  ),
});

export type SquidSpec = z.infer<typeof squidSchema>;
export type ChainSpec = NonNullable<SquidSpec['chain']>;
export type TaskValue = z.infer<typeof taskValue>;

/** The JSON Schema shipped as schema/sq.schema.json. */
export function accountJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(accountSchema, { io: 'input' }) as Record<string, unknown>;
  return { ...js, title: 'sq account file (sq plan / sq apply / sq export)' };
}
