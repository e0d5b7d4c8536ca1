// The help topics that are not commands (`sq help environment`, `sq help exit-codes`), also in the manual page.
export const ENVIRONMENT: [string, string][] = [
  ['SQ_TOKEN', "API key; overrides the profile's stored key (for CI). There is no --token flag."],
  ['SQ_PROFILE', 'profile to use (like --profile); default: the active profile, else "default"'],
  [
    'SQ_BASE_URL',
    "API origin, e.g. http://127.0.0.1:8787 (like --base-url); default: the profile's, else https://api.lobstr.io",
  ],
  [
    'SQ_INSECURE_HTTP',
    'set to 1 to allow a plain http:// base URL to a host other than loopback (like --insecure-http)',
  ],
  [
    'SQ_CONFIG_DIR',
    'where profiles are stored (default: $XDG_CONFIG_HOME/sq, else ~/.config/sq on Linux; ~/Library/Preferences/sq on macOS; %APPDATA%\\sq\\Config on Windows)',
  ],
  ['SQ_NO_INPUT', 'never prompt (like --no-input)'],
  [
    'SQ_MAX_CREDITS',
    'the default --max-credits of runs start and go: a run estimated above it is not started (exit 9); overrides `sq config set max-credits`',
  ],
  ['CI', 'when set, never prompt, no update notice, and --web prints the URL instead of opening a browser'],
  ['GITHUB_ACTIONS', 'when set, no update notice, and --web prints the URL'],
  [
    'BROWSER',
    'the browser --web opens (its first entry; %s stands for the URL), else the system opener (open, xdg-open, start)',
  ],
  [
    'SQ_NO_UPDATE_NOTIFIER',
    'set to 1: no update notice (as `sq config set update-notifier off`); it shows at most once a day, on a terminal',
  ],
  [
    'SQ_UPDATE_URL',
    'the npm registry the update notice and sq doctor ask for the latest sq (default https://registry.npmjs.org)',
  ],
  ['NO_COLOR', 'no colour'],
  ['FORCE_COLOR', 'colour even when not on a terminal'],
  ['TZ', "time zone of --absolute-times in terminal tables (default: the system's)"],
  ['SQ_CSV_SAFE', "set to 1 to put a ' before formula-looking CSV/TSV text cells (like --csv-safe)"],
  ['SQ_CONNECT_TIMEOUT', 'connect timeout (default 10s)'],
  ['SQ_HEADERS_TIMEOUT', 'time to wait for response headers (default 30s)'],
  ['SQ_BODY_TIMEOUT', 'longest silence while reading a body (default 60s)'],
  [
    'SQ_FILTER_MAX_OUTPUT_MB',
    'what one run of --jq/--template may print, per page with --all (default 64; for --jq 4 times the document if more); past it, exit 1',
  ],
  ['SQ_FILTER_MAX_MEMORY_MB', 'the memory jq may grow to (default 512, at most 2047); past it, exit 1'],
  [
    'SQ_SLURP_MAX_MB',
    'the list --jq/--template hold for one run: with --slurp, or a whole list without --all (default 256); past it, exit 1',
  ],
  [
    'SQ_CACHE_DIR',
    'where compiled code is cached, parallel sq calls share their pacing, completion keeps its ' +
      'answers and --jq the fingerprints of expressions that compiled (default: $XDG_CACHE_HOME/sq, ' +
      'else ~/.cache/sq); files unused for a day are removed; empty: off',
  ],
];

export const EXIT_CODES: [number, string][] = [
  [0, 'success (an empty list is success)'],
  [1, 'API or network failure, unexpected error'],
  [2, 'usage or validation error (detected before any request is sent)'],
  [3, 'not found'],
  [4, 'authentication: no key, or key rejected'],
  [5, 'rate limited: gave up after the retry budget'],
  [6, 'a waited-for run ended in error or aborted'],
  [7, 'waiting timed out (--timeout)'],
  [
    8,
    'partial failure of a batch (delivery apply, multi-item commands); per-item report on stderr (interrupted: 130, 143 or 129 with the same report)',
  ],
  [
    9,
    "over budget: a run's estimate is above --max-credits / SQ_MAX_CREDITS / the profile's max-credits; nothing was started (the estimate is on stderr)",
  ],
  [
    10,
    'sq plan --detailed-exitcode: the account differs from the file (as terraform plan -detailed-exitcode); 0 means no change',
  ],
  [
    130,
    'interrupted (Ctrl-C); never a partial file at an -o target (a resumable export keeps its ' +
      'pages aside). SIGHUP, SIGQUIT, SIGTERM: the same, exit 129, 131, 143',
  ],
];

const FILE_HELP = `The file (YAML or JSON; a \`sq delivery apply\` file is one too):

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

Only what the file names is managed: a field left out is left as it is. params are compared key by key. Tasks are
identified by their values (a URL, or the parameters written): listed tasks are added when missing; a task the file
does not list is deleted only with prune: true. Delivery channels take the fields below. Secrets are \${ENV}
references only; the stored value is compared when the service returns it, and a secret (or a webhook/sheet URL) whose
variable is not set is reported as "not compared" by plan; apply refuses to send a channel that needs it (exit 2).`;

const STATE_HELP =
  "Fields the API does not read back (SFTP username, directory and password, a webhook's events and retry, S3 target_path " +
  'and keys) are never assumed equal: they are compared with what sq last applied, kept per profile and account in ' +
  '<config dir>/applied/<profile>.json (next to the profile file, 0600, written atomically; secrets only as a hash ' +
  'keyed with the API key). A field that differs from it is a change; a field sq never applied there is shown as ' +
  '"cannot be read back: will be sent" and is a change too (it is sent), unless --assume-unchanged FIELD names it ' +
  '(then it is listed as not compared). Deleting the file (or a new runner, a new key) forgets it: the next apply sends ' +
  'each such field once and remembers again. A change made outside sq (the dashboard) to such a field is not seen.';

const JSON_HELP =
  'With --json: one document, the same keys for 0, 1 or N changes (JSON Schema: schema/sq-plan.schema.json): ' +
  '{version: 1, dry_run, summary: {create, update, delete, applied, failed, skipped, not_compared}, items: [{kind, ' +
  'action, squid, id, channel, changes: [{field, from, to}], add, delete, not_compared, fires_now, needs_yes, ' +
  'scheduled_run: {schedule, next_run, credits_per_run, note}, status, ' +
  'error, requests}], not_compared: [...]}. status is planned (nothing sent), applied, failed or skipped; secrets ' +
  'are ********.';

const DELIVERY_FILE_HELP = `The delivery part of a file (YAML or JSON; \`sq delivery apply\` takes only this):

  version: 1                  # optional
  squids:
    "Paris restaurants":      # squid name, unique hash prefix or full hash
      sftp:    { host: sftp.example.com, port: 22, username: deploy,
                 password: \${SFTP_PASSWORD}, directory: /upload,
                 active: true }
      webhook: { url: https://ci.example.com/hook,
                 events: [run.done, run.error], retry: true, active: true }
      email:   { address: ops@example.com, notifications: true }
      sheet:   { url: https://docs.google.com/spreadsheets/d/ID/edit,
                 append: false, active: true }
      s3:      { bucket: my-exports, target_path: paris,
                 access_key: \${AWS_ACCESS_KEY_ID},
                 secret_key: \${AWS_SECRET_ACCESS_KEY}, active: true }

Defaults: port 22, active true, retry true, notifications true, append false. events takes a list, a
comma-separated string or "all"; every event not listed is unsubscribed.

\${NAME} in any value is replaced by that environment variable; a missing or empty one is an error (exit 2)
before any request (\`sq apply\` needs only those of the channels it sends). Secrets (sftp.password, s3.access_key, s3.secret_key) must be a single \${NAME}
reference: a literal secret in the file is refused, so the file can be committed. Every value taken from
the environment is handled as a secret: masked in the plan, dry run and report unless --show-secrets (a
token in a URL's path too), and an error quotes the file's \${NAME}, never the value.

The whole file is validated first; errors name the bad field, e.g. squids."Paris restaurants".webhook.events[1].
In \`sq delivery apply\`, a squid the account does not have is an error of the file (exit 2, nothing sent); so is any
key other than the channels (use \`sq apply\`).

The service answers SFTP host, port and is_active, a webhook's or sheet's URL and is_active, S3 bucket and
is_active (never a password or key; older answers had more, and what comes back is compared). The other fields
are compared with what sq last applied (below). Use --force to send every channel anyway. A channel wanted
inactive matches one the service reports inactive (is_active false means not configured).`;

/**
 * The topics `sq help <topic>` shows besides the commands: what a command's --help leaves out to stay short (a
 * screenful, its flags first). docs/commands/README.md and the manual page carry them too.
 */
export const TOPICS: Record<string, { summary: string; text: string }> = {
  'account-file': {
    summary: 'the file of sq plan, sq apply and sq delivery apply (what sq export writes)',
    text: `${FILE_HELP}\n\n${DELIVERY_FILE_HELP}\n\n${STATE_HELP}`,
  },
  'squid-settings': {
    summary: 'sq squids update: each flag in full (params, schedule, accounts, export settings)',
    text:
      'sq squids update: only the given fields change. --param k=v is repeatable; a value stays text unless it is valid JSON ' +
      '(zip=01234 stays "01234", max_results=5 is a number, flag=true a boolean); functions.<name>=true|false ' +
      'switches a paid function; the other params are kept (the API replaces params whole, so sq reads the ' +
      "squid's params and sends them with the given keys changed). Each key is checked against the crawler's parameters first (GET requests only): a key " +
      'the crawler does not declare is exit 2, with the closest names and the allowed ones. --schedule CRON (5 fields: ' +
      'minute hour day-of-month month day-of-week, e.g. "0 9 * * 1") runs the squid on that schedule in --timezone (an ' +
      'IANA name such as Europe/Paris; without it the squid keeps its zone, UTC when never set); --no-schedule removes ' +
      'it; both are checked before any request. --to-complete makes a run continue where the last one stopped; ' +
      '--no-line-breaks strips line breaks from exported cells (--no-to-complete, --line-breaks undo them). ' +
      '--export-unique-results makes exports keep one row per unique result (--no-export-unique-results: every row); ' +
      "--run-notify on_success|on_error|none says when a run's end is e-mailed. --inactive stops the squid from running " +
      'and --active lets it run again (as sq squids deactivate|activate). Each flag is the update field of the same ' +
      'name (export_unique_results, run_notify, is_active); account files take them as unique_results, notify and ' +
      'active. --add-account and --remove-account (id, id prefix or username; ' +
      'repeatable) link or unlink accounts and keep the others: sq reads the links, sends the union or the difference, ' +
      'and reads them back (a change made meanwhile by someone else is re-read and the update sent once more). ' +
      '--account is the explicit REPLACE: the squid ends up linked to exactly the accounts given, every other one is ' +
      "unlinked; --no-accounts unlinks them all (runs then use any account of the crawler's type). An account whose " +
      "type is not the crawler's account type is exit 2 before any write, naming both. The API answers with the " +
      'touched fields only, so sq reads the squid back and shows all of it.',
  },
  'plan-json': { summary: 'the --json document of sq plan, sq apply and sq delivery apply', text: JSON_HELP },
  spending: {
    summary: 'what a command that starts runs says and asks first: the estimate, --max-credits, the y/N',
    text:
      'sq runs start and sq go: with a cap (--max-credits, SQ_MAX_CREDITS or `sq config set max-credits N`) the run is estimated first ' +
      '(POST /v1/squid/estimate) and not started above the cap (exit 9, the estimate on stderr). On a terminal, a run ' +
      'estimated above `confirm-above` (default 100 credits) or that would set off an Auto Billing Reset shows the ' +
      'estimate and asks y/N; --yes skips the question, --no-input without --yes is exit 2. Off a terminal, a run that ' +
      'would set off an Auto Billing Reset (a card charge) needs --yes: without it, exit 9 with the forecast on stderr and ' +
      'no run started. Every start prints one line on stderr, on a terminal or not: "estimated N credits (…), sets off no ' +
      'reset" or "…, sets off 1 Auto Billing Reset (charges the card)" (-q silences it); the estimate, the balance and the ' +
      'auto-reset settings are read beside the squid. A run whose cost cannot be estimated (the estimate failing with a 5xx ' +
      'or unreachable) is exit 9 under a cap; with Auto Billing Reset on (or its settings unreadable) it needs --yes off a ' +
      'terminal (exit 9 without) and a yes on one; with it off, a warning and the start. A reset already due before the run ' +
      "(usage above the threshold) fires anyway and is said apart, not as the run's. A run already recorded " +
      '(--idempotency-key, or by an interrupted sq go) or in progress is not estimated again. ' +
      '`sq squids estimate` shows the estimate alone. sq go estimates once the squid has its tasks; above a cap ' +
      'the squid and its tasks stay, nothing is started.' +
      '\n\nsq apply: ' +
      'a squid the file makes active with a schedule (active: true, schedule: {cron, timezone}) starts runs on it, ' +
      "each charged. The plan shows, per such squid, the schedule, its next run and one run's estimate now " +
      '(scheduled_run in --json). apply turns the schedule on last for that squid, after its params and tasks, says the ' +
      'estimate of one run then, and holds it to the cap and the y/N above (over the cap the schedule stays off: that ' +
      "item fails, exit 9). A chain that starts its target's runs by itself (autostart) is held to the same, as `sq " +
      "squids chain set` holds it. The squid's other changes are applied either way." +
      '\n\nsq squids update: ' +
      '--schedule on an active squid (or --timezone on a scheduled one, or --active on a scheduled one) makes the ' +
      'platform start runs, each charged. Before writing it sq says on stderr the schedule, its next run time and the ' +
      "estimate of one run (on the squid's params after this update: --param changes are sent first), held to the cap " +
      'and the y/N above (over the cap: exit 9, the schedule not written). A schedule on an inactive squid fires nothing ' +
      'until `sq squids activate`, which says the cost then.',
  },
  resume: {
    summary: 'continuing an --all export of sq results list, or a sq go, that stopped',
    text:
      'sq results list: when an --all -o FILE export in ndjson, csv or tsv fails or is interrupted (Ctrl-C, exit 130) after at ' +
      'least one whole page, the pages written so far stay in .FILE.sq-partial with a checkpoint in .FILE.sq-checkpoint, ' +
      'and stderr shows the command to continue: the same one with --resume. --resume checks that the checkpoint matches ' +
      'the command (scope, --task, format, --fields, page size; else exit 2, before any request), that every field of it is ' +
      'sound and agrees with the partial file (its header, whole records, their count; else exit 2), cuts the partial file back ' +
      'to the end of its last whole page, reads only the pages after it, then renames the file into place and removes the ' +
      "checkpoint. If the squid's result count changed meanwhile (a run still adding results), --resume refuses (exit 1) and " +
      'changes nothing: delete the two hidden files and export again. --resume with no checkpoint is exit 2; a new export ' +
      'while a checkpoint or partial file exists is exit 2 too (resume it, or delete them). Two exports or resumes of one file ' +
      "never run at once: the second is exit 2 naming the first's pid (a lock beside the checkpoint). JSON (one array) is not resumable.\n\n" +
      'To stdout, --all --checkpoint CKPT (ndjson, csv, tsv) writes each page in one write and, once it is written whole, ' +
      'records in CKPT the pages and bytes written so far; on success CKPT is removed. A write error (a full disk) or a ' +
      'reader that goes away (| head) is exit 1 and keeps CKPT. After a failure, cut your saved output back to the ' +
      '"bytes" in CKPT (the last page may have been cut mid-write) if it holds at least that many, and append the rest ' +
      'with --resume >> OUT; the CSV/TSV header is not written again. Through a pipe, a reader that stops early (head -c) ' +
      'may have lost the last pages: a shorter output cannot be continued. When stdout is a file, --resume checks it holds ' +
      "exactly CKPT's bytes, whole records, no NUL byte, and the header and record count CKPT says (else exit 2); an empty " +
      'file (> where >> was meant) is refused unless --force. ' +
      '--checkpoint does not go with -o (which keeps its checkpoint beside FILE).' +
      '\n\nsq go: before each step that starts or changes something, sq records what it is doing beside the file ' +
      '(.FILE.sq-go; for stdout, in the cache directory): interrupted at any point (Ctrl-C: exit 130; SIGTERM: 143; ' +
      'even kill -9), the run goes on, and the same command run again continues the job: it finishes a params step ' +
      'that was cut short, never starts a second run while the recorded one exists, and exports that run whatever ' +
      'state it ended in (a run that ended in error or aborted is exported, then exit 6). The record is removed once ' +
      'the export is whole.',
  },
  'mcp-server': {
    summary: 'sq mcp: files, secrets, signals and the Streamable HTTP transport',
    text:
      'Files and secrets: no tool reads a local file unless --root DIR names a directory (then only regular files of at ' +
      "most 1 MiB inside it); plan and apply take the document inline. A write takes secrets (delivery_sftp's " +
      "password_env, delivery_s3's keys, ${VAR} in an applied document, checked as the parser reads it, escapes and " +
      'all) only from the variables --secret-env names. ' +
      'Over stdio a message is at most --max-message-bytes; SIGTERM, SIGINT and SIGHUP cancel the calls in flight and exit ' +
      '143, 130, 129; when stdin closes, calls still running are cancelled within a second.\n\n' +
      'HTTP: --http prints {"url","token"} as one JSON line on stdout, then serves MCP at that URL; every request needs ' +
      "`Authorization: Bearer TOKEN` (401), a browser Origin other than the server's is 403. It binds 127.0.0.1 unless " +
      'a host is given (a warning for any non-loopback one); --token-env NAME takes a fixed token from the environment ' +
      '(then printed as null: it is yours already). ' +
      'A session ends on DELETE, after 30 minutes unused, or, past 64 sessions, when it is the one used longest ago. ' +
      'stdout carries protocol messages only; logs go to stderr.',
  },
  sync: {
    summary: 'sq results sync: --follow, passwords, account files, --dry-run and the database drivers',
    text:
      '--follow keeps going: after the done runs, it looks for new ones every --interval (default 30s, at least 5s), ' +
      'or at once when a run.done event for the squid arrives on --from-webhook PORT (a local receiver on 127.0.0.1, ' +
      "as sq webhook listen; point the squid's webhook, or sq webhook listen --forward-to, at it). Ctrl-C or SIGTERM " +
      'lets the page being written commit, then stops: exit 0 if it came while waiting (every done run is in the ' +
      'table), 130 (SIGINT) or 143 (SIGTERM) if a run was being synced (the next sync continues it).\n\n' +
      'The Postgres password comes from the URL, PGPASSWORD or ~/.pgpass; it is never printed (errors name the host) ' +
      'and a password in --to is wiped from the process title (ps). An unreachable database or a refused login is exit ' +
      "1. With -f FILE, the squids of an account file (sq plan/apply's) that have a sync: block ({to, table, key}) " +
      'are synced, each as if its flags were given; the URL holds no password (PGPASSWORD, ~/.pgpass), or is a ${NAME} ' +
      "reference. --dry-run prints the DDL and the runs and rows to sync, writing nothing. SQLite uses Node's built-in " +
      'node:sqlite where Node has it (22.13 and later), else the node-sqlite3-wasm package (SQLite in WebAssembly: no ' +
      'native build); Postgres uses the pg package. Both load only when a sync runs.',
  },
};
