// The help topics that are not commands (`sq help environment`, `sq help exit-codes`), also in the manual page.
export const ENVIRONMENT: [string, string][] = [
  ['SQ_TOKEN', 'API key; overrides the profile\'s stored key (for CI). There is no --token flag.'],
  ['SQ_PROFILE', 'profile to use (like --profile); default: the active profile, else "default"'],
  ['SQ_BASE_URL', 'API origin, e.g. http://127.0.0.1:8787 (like --base-url); default: the profile\'s, else https://api.lobstr.io'],
  ['SQ_INSECURE_HTTP', 'set to 1 to allow a plain http:// base URL to a host other than loopback (like --insecure-http)'],
  ['SQ_CONFIG_DIR', 'where profiles are stored (default: $XDG_CONFIG_HOME/sq, else ~/.config/sq on Linux; ~/Library/Preferences/sq on macOS; %APPDATA%\\sq\\Config on Windows)'],
  ['SQ_NO_INPUT', 'never prompt (like --no-input)'],
  ['CI', 'when set, never prompt'],
  ['NO_COLOR', 'no colour'],
  ['FORCE_COLOR', 'colour even when not on a terminal'],
  ['TZ', 'time zone of --absolute-times in terminal tables (default: the system\'s)'],
  ['SQ_CONNECT_TIMEOUT', 'connect timeout (default 10s)'],
  ['SQ_HEADERS_TIMEOUT', 'time to wait for response headers (default 30s)'],
  ['SQ_BODY_TIMEOUT', 'longest silence while reading a body (default 60s)'],
  ['SQ_FILTER_MAX_OUTPUT_MB', 'what one run of --jq/--template may print, per page with --all (default 64; for --jq 4 times the document if more); past it, exit 1'],
  ['SQ_FILTER_MAX_MEMORY_MB', 'the memory jq may grow to (default 512, at most 2047); past it, exit 1'],
  ['SQ_SLURP_MAX_MB', 'the list --jq/--template hold for one run: with --slurp, or a whole list without --all (default 256); past it, exit 1'],
  ['SQ_CACHE_DIR', 'where compiled code is cached, parallel sq calls share their pacing, completion keeps its answers and --jq the fingerprints of expressions that compiled (default: $XDG_CACHE_HOME/sq, else ~/.cache/sq); files unused for a day are removed; empty: off'],
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
  [8, 'partial failure of a batch (delivery apply, multi-item commands); per-item report on stderr (interrupted: 130, 143 or 129 with the same report)'],
  [10, 'sq plan --detailed-exitcode: the account differs from the file (as terraform plan -detailed-exitcode); 0 means no change'],
  [130, 'interrupted (Ctrl-C); never a partial file at an -o target (a resumable export keeps its pages aside). SIGHUP, SIGQUIT, SIGTERM: the same, exit 129, 131, 143'],
];
