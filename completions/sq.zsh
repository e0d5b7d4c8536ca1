#compdef sq lobstr-sq
# zsh completion for sq. Generated from the command tree by `sq completion zsh`: do not edit.
# Install: sq completion zsh > "${fpath[1]}/_sq" (then start a new shell), or: source <(sq completion zsh)
# Completes sq and lobstr-sq (the same command). With `alias sq=...`, run `setopt complete_aliases` too.

# Values only the service knows (squid names, run ids...), from sq's own short-lived cache: never a prompt, never an
# error on the screen. The words typed so far go along (--profile, --base-url, --squid change the answer).
# Each value is shown with what it is (a run: its squid, status and age), in the order given.
# The command is the one being completed (sq, lobstr-sq, or what an alias of it stands for).
_sq_dynamic() {
  local -a cmd vals matches disp
  local v
  cmd=(${(z)${aliases[${service:-sq}]:-${service:-sq}}})
  vals=(${(f)"$(${(Q)cmd} __complete $1 -- ${(z)LBUFFER} 2>/dev/null </dev/null)"})
  for v in $vals; do
    matches+=("${v%%$'\t'*}")
    if [[ $v == *$'\t'* ]]; then disp+=("${v%%$'\t'*}  -- ${v#*$'\t'}"); else disp+=("$v"); fi
  done
  # One per line, in the order given (-V: a run list is newest first), each shown with its description.
  compadd -V $1 -l -d disp -- $matches
}

_sq_globals=(
  '--profile=[stored profile to use (env SQ_PROFILE; default\: the active one, else "default")]:profile:{_sq_dynamic profiles}'
  '--base-url=[API origin, paths start with /v1 (env SQ_BASE_URL; default\: the profile'\''s, else https\://api.lobstr.io)]:base-url: '
  '--insecure-http[allow a plain http\:// base URL to a host other than loopback (env SQ_INSECURE_HTTP=1)\: the key travels unencrypted]'
  '--json[machine output\: exactly one JSON document on stdout (same as --format json)]'
  '--format=[output format (default\: table on a terminal, tsv when piped)]:format:(table json ndjson csv tsv)'
  '--fields=[comma-separated fields/columns to show; dotted paths allowed (e.g. id,squid.name)]:fields: '
  '--jq=[filter the JSON output with jq (implies --json; strings print unquoted, other values as compact JSON, one per line)]:jq: '
  '--template=[format the JSON output with Go template syntax as gh does\: range, if/else, with, printf, join, tablerow… (implies --json)]:template: '
  '--full-ids[whole ids in terminal tables (they show the shortest unique prefix, 8 characters or more; piped output is always whole)]'
  '--wide[terminal tables show every column whole\: no column left out or cut, none hidden for saying the same on every row, whole ids]'
  '--absolute-times[local date, time and UTC offset in terminal tables instead of "3 min ago" (piped output keeps the API'\''s timestamps)]'
  '--csv-safe[CSV and TSV\: a text cell starting with =, +, -, @, a tab or a CR gets a leading '\'' so a spreadsheet never runs it as a formula (also SQ_CSV_SAFE=1)]'
  '--no-color[no colour (also NO_COLOR; FORCE_COLOR forces it)]'
  '(-q --quiet)-q[no hints or progress on stderr]'
  '(-q --quiet)--quiet[no hints or progress on stderr]'
  '(-v --verbose)-v[HTTP trace on stderr (secrets redacted)]'
  '(-v --verbose)--verbose[HTTP trace on stderr (secrets redacted)]'
  '(-y --yes)-y[answer yes to confirmations]'
  '(-y --yes)--yes[answer yes to confirmations]'
  '--no-input[never prompt (also SQ_NO_INPUT, CI); a missing answer is a usage error]'
  '--dry-run[on writes\: print the request (secrets masked) and send nothing]'
  '--show-secrets[show passwords, keys and webhook URL tokens the API echoes back (they are masked otherwise)]'
  '(-h --help)-h[show help]'
  '(-h --help)--help[show help]'
)

_sq() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '(-V --version)-V[print the version]' '(-V --version)--version[print the version]' '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('auth:Log in, log out and show which key and profile are in use' 'profiles:List and remove stored profiles' 'config:Get and set settings of a profile (spending caps and confirmations)' 'me:Show the current user' 'balance:Show the credit balance (remaining = available - consumed)' 'status:Show the account at a glance\: plan, credits, auto-reset, runs in progress, failures' 'crawlers:Browse crawlers\: what they take as input and what they return' 'squids:Create, configure, empty and delete squids (scraping jobs built on a crawler)' 'tasks:Add, upload, list and delete the tasks (URLs or parameter sets) of a squid' 'runs:Start, watch, abort and download runs' 'results:List and export the results of a squid or a run' 'credits:Show where credits went\: per crawler and function, per squid' 'accounts:Synchronize, list, limit and delete third-party site accounts (the logins some crawlers need)' 'go:Scrape in one step\: squid, params, tasks, run, wait, export; a rerun picks up where it stopped' 'delivery:Configure where results go\: SFTP, webhooks, e-mail, sheets, S3; apply from a file' 'billing:Show and set the automatic billing reset (re-charges the card on file)' 'plan:Show what would change to make the account match a file (--detailed-exitcode\: exit 10 when it differs)' 'apply:Make the account match a file\: squids, tasks, delivery, billing' 'export:Write the current account as a file for plan / apply' 'webhook:Receive webhook events locally (listen, validate, forward)' 'api:Make an authenticated API request (same auth, pacing and retries)' 'mcp:Serve the account to AI agents over MCP (stdio, or Streamable HTTP); read-only unless --allow-writes' 'emulator:Run the local emulator of the whole API' 'doctor:Check that sq can work here\: key, base URL and TLS, clock, rate budget, file modes, profile, completion, Node.js, updates' 'version:Show the version of sq, with the Node.js version and the platform' 'completion:Print the shell completion script for bash, zsh or fish' 'help:help on a command, or a topic (sq help topics lists them)')
      _describe -t commands 'sq command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'auth') _sq__auth && ret=0 ;;
        'profiles') _sq__profiles && ret=0 ;;
        'config') _sq__config && ret=0 ;;
        'me') _sq__me && ret=0 ;;
        'balance') _sq__balance && ret=0 ;;
        'status') _sq__status && ret=0 ;;
        'crawlers') _sq__crawlers && ret=0 ;;
        'squids') _sq__squids && ret=0 ;;
        'tasks') _sq__tasks && ret=0 ;;
        'runs') _sq__runs && ret=0 ;;
        'results') _sq__results && ret=0 ;;
        'credits') _sq__credits && ret=0 ;;
        'accounts') _sq__accounts && ret=0 ;;
        'go') _sq__go && ret=0 ;;
        'delivery') _sq__delivery && ret=0 ;;
        'billing') _sq__billing && ret=0 ;;
        'plan') _sq__plan && ret=0 ;;
        'apply') _sq__apply && ret=0 ;;
        'export') _sq__export && ret=0 ;;
        'webhook') _sq__webhook && ret=0 ;;
        'api') _sq__api && ret=0 ;;
        'mcp') _sq__mcp && ret=0 ;;
        'emulator') _sq__emulator && ret=0 ;;
        'doctor') _sq__doctor && ret=0 ;;
        'version') _sq__version && ret=0 ;;
        'completion') _sq__completion && ret=0 ;;
        'help') _sq__help && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__auth() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('login:Store an API key in a profile after checking it with GET /v1/me' 'logout:Remove the stored key of a profile (the profile and its base URL stay)' 'status:Show the profile, base URL, key source, masked key and user; exit 4 when the key is rejected' 'switch:Make a stored profile the active one')
      _describe -t commands 'sq auth command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'login') _sq__auth__login && ret=0 ;;
        'logout') _sq__auth__logout && ret=0 ;;
        'status') _sq__auth__status && ret=0 ;;
        'switch') _sq__auth__switch && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__auth__login() {
  _arguments -s -S : $_sq_globals '--with-token[read the key from stdin (at most 4 KiB) instead of prompting]'
}

_sq__auth__logout() {
  _arguments -s -S : $_sq_globals
}

_sq__auth__status() {
  _arguments -s -S : $_sq_globals
}

_sq__auth__switch() {
  _arguments -s -S : $_sq_globals '1:profile:{_sq_dynamic profiles}'
}

_sq__profiles() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List stored profiles (keys masked to their last 4 characters)' 'ls:List stored profiles (keys masked to their last 4 characters)' 'remove:Delete a stored profile and its key' 'rm:Delete a stored profile and its key')
      _describe -t commands 'sq profiles command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__profiles__list && ret=0 ;;
        'remove'|'rm') _sq__profiles__remove && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__profiles__list() {
  _arguments -s -S : $_sq_globals
}

_sq__profiles__remove() {
  _arguments -s -S : $_sq_globals '1:profile:{_sq_dynamic profiles}'
}

_sq__config() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('get:Print a setting of the profile (its environment variable, else the profile'\''s value, else the default)' 'set:Set a setting of the profile (stored in the profile file)' 'unset:Remove a setting from the profile (back to its default)' 'list:List every setting with its value for the profile, where that value comes from, and what it does' 'ls:List every setting with its value for the profile, where that value comes from, and what it does')
      _describe -t commands 'sq config command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'get') _sq__config__get && ret=0 ;;
        'set') _sq__config__set && ret=0 ;;
        'unset') _sq__config__unset && ret=0 ;;
        'list'|'ls') _sq__config__list && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__config__get() {
  _arguments -s -S : $_sq_globals '1:key: '
}

_sq__config__set() {
  _arguments -s -S : $_sq_globals '1:key: ' '2:value: '
}

_sq__config__unset() {
  _arguments -s -S : $_sq_globals '1:key: '
}

_sq__config__list() {
  _arguments -s -S : $_sq_globals
}

_sq__me() {
  _arguments -s -S : $_sq_globals
}

_sq__balance() {
  _arguments -s -S : $_sq_globals
}

_sq__status() {
  _arguments -s -S : $_sq_globals '--timeout=[give up on what has not answered by then, at most 5m]:timeout: ' '--web[open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL]'
}

_sq__crawlers() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List the crawlers squids can be built on (GET /v1/crawlers)' 'ls:List the crawlers squids can be built on (GET /v1/crawlers)' 'get:Show one crawler\: inputs, result columns, credits, account type (GET /v1/crawlers/{id})' 'view:Show one crawler\: inputs, result columns, credits, account type (GET /v1/crawlers/{id})' 'params:List a crawler'\''s task and squid parameters and its paid functions (GET /v1/crawlers/{id}/params)' 'attributes:List the result columns a crawler produces (GET /v1/crawlers/{id}/attributes, public)' 'attrs:List the result columns a crawler produces (GET /v1/crawlers/{id}/attributes, public)')
      _describe -t commands 'sq crawlers command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__crawlers__list && ret=0 ;;
        'get'|'view') _sq__crawlers__get && ret=0 ;;
        'params') _sq__crawlers__params && ret=0 ;;
        'attributes'|'attrs') _sq__crawlers__attributes && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__crawlers__list() {
  _arguments -s -S : $_sq_globals '--search=[only crawlers whose name, slug or description contains this text]:search: ' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__crawlers__get() {
  _arguments -s -S : $_sq_globals '1:crawler:{_sq_dynamic crawlers}'
}

_sq__crawlers__params() {
  _arguments -s -S : $_sq_globals '1:crawler:{_sq_dynamic crawlers}'
}

_sq__crawlers__attributes() {
  _arguments -s -S : $_sq_globals '1:crawler:{_sq_dynamic crawlers}'
}

_sq__squids() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List squids, newest first (GET /v1/squids)' 'ls:List squids, newest first (GET /v1/squids)' 'get:Show one squid\: crawler, params, schedule, last run (GET /v1/squids/{id})' 'view:Show one squid\: crawler, params, schedule, last run (GET /v1/squids/{id})' 'create:Create a squid on a crawler (POST /v1/squids)' 'update:Change a squid'\''s name, concurrency, params, schedule or accounts (POST /v1/squids/{id}), then show it' 'activate:Let a squid run again, on demand and on its schedule (POST /v1/squids/{id} is_active\: true)' 'deactivate:Stop a squid from running\: no run starts, its schedule pauses, a running run stops (is_active\: false)' 'empty:Delete every task of one type from a squid (POST /v1/squids/{id}/empty; irreversible)' 'delete:Delete a squid with its tasks, runs and results (DELETE /v1/squids/{id}; irreversible)' 'rm:Delete a squid with its tasks, runs and results (DELETE /v1/squids/{id}; irreversible)' 'credits:Show what each finished run of a squid cost, with its final status (GET /v1/squids/{id}/credits)' 'estimate:Show what a run of a squid would cost before it starts\: credits per service, time, balance after, auto-reset charges' 'chain:Show where a squid'\''s results go next\: its chain (GET /v1/squids/{id}/chain)')
      _describe -t commands 'sq squids command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__squids__list && ret=0 ;;
        'get'|'view') _sq__squids__get && ret=0 ;;
        'create') _sq__squids__create && ret=0 ;;
        'update') _sq__squids__update && ret=0 ;;
        'activate') _sq__squids__activate && ret=0 ;;
        'deactivate') _sq__squids__deactivate && ret=0 ;;
        'empty') _sq__squids__empty && ret=0 ;;
        'delete'|'rm') _sq__squids__delete && ret=0 ;;
        'credits') _sq__squids__credits && ret=0 ;;
        'estimate') _sq__squids__estimate && ret=0 ;;
        'chain') _sq__squids__chain && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__squids__list() {
  _arguments -s -S : $_sq_globals '--name=[only squids whose name contains this text (case-insensitive)]:name: ' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__squids__get() {
  _arguments -s -S : $_sq_globals '--web[open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL]' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__create() {
  _arguments -s -S : $_sq_globals '--crawler=[crawler id, prefix, name or slug (required)]:crawler:{_sq_dynamic crawlers}' '--name=[squid name (at most 255 characters)]:name: ' '--account=[platform account for an account crawler (id, prefix or username)]:account:{_sq_dynamic accounts}'
}

_sq__squids__update() {
  _arguments -s -S : $_sq_globals '--name=[new name (at most 255 characters)]:name: ' '--concurrency=[parallel workers, 1-20 (the crawler and plan may cap it)]:concurrency: ' '*--param=[set a squid parameter (repeatable)]:param: ' '--schedule=[run on this cron schedule, e.g. "0 9 * * 1"]:schedule: ' '--timezone=[IANA time zone of the schedule, e.g. Europe/Paris (exit 2 if unknown)]:timezone: ' '--no-schedule[remove the schedule]' '--to-complete[each run continues where the last one stopped]' '--no-to-complete[each run starts over]' '--line-breaks[keep line breaks in exported cells]' '--no-line-breaks[strip line breaks from exported cells]' '--export-unique-results[exports keep one row per unique result (export_unique_results)]' '--no-export-unique-results[exports keep every row, duplicates too]' '--run-notify=[e-mail a run'\''s end\: on_success, on_error or none (run_notify)]:run-notify: ' '--active[let the squid run (is_active; a schedule then fires)]' '--inactive[stop the squid from running (is_active false)]' '*--add-account=[link this account too, keeping the others (repeatable)]:add-account:{_sq_dynamic accounts}' '*--remove-account=[unlink this account, keeping the others (repeatable)]:remove-account:{_sq_dynamic accounts}' '*--account=[REPLACE the linked accounts with exactly these (repeatable)]:account:{_sq_dynamic accounts}' '--no-accounts[unlink every account]' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__activate() {
  _arguments -s -S : $_sq_globals '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__deactivate() {
  _arguments -s -S : $_sq_globals '1:squid:{_sq_dynamic squids}'
}

_sq__squids__empty() {
  _arguments -s -S : $_sq_globals '--type=[which tasks to delete (required)]:type:(url params)' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__delete() {
  _arguments -s -S : $_sq_globals '1:squid:{_sq_dynamic squids}'
}

_sq__squids__credits() {
  _arguments -s -S : $_sq_globals '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__estimate() {
  _arguments -s -S : $_sq_globals '1:squid:{_sq_dynamic squids}'
}

_sq__squids__chain() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('set:Create or change a squid'\''s chain (POST, or PATCH when it has one), then show it' 'delete:Remove a squid'\''s chain (DELETE /v1/squids/{id}/chain); the target squid stays' 'rm:Remove a squid'\''s chain (DELETE /v1/squids/{id}/chain); the target squid stays')
      _describe -t commands 'sq squids chain command' cmds && ret=0
      _sq_dynamic squids && ret=0 ;;
    args)
      case $words[1] in
        'set') _sq__squids__chain__set && ret=0 ;;
        'delete'|'rm') _sq__squids__chain__delete && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__squids__chain__set() {
  _arguments -s -S : $_sq_globals '--target-crawler=[the crawler results go to\: id, prefix, name or slug (required to create)]:target-crawler:{_sq_dynamic crawlers}' '*--field-map=[result field → task param of the target crawler, e.g. url=url (repeatable; required to create)]:field-map: ' '--autostart[start the target'\''s run when results arrive]' '--no-autostart[queue the tasks and leave the target'\''s run paused]' '--target-name=[name of the target squid (at most 255 characters)]:target-name: ' '--target-concurrency=[concurrency of the target squid, 1-20]:target-concurrency: ' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '1:squid:{_sq_dynamic squids}'
}

_sq__squids__chain__delete() {
  _arguments -s -S : $_sq_globals '1:squid:{_sq_dynamic squids}'
}

_sq__tasks() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List the tasks of a squid (GET /v1/tasks?squid=)' 'ls:List the tasks of a squid (GET /v1/tasks?squid=)' 'get:Show one task with its status (GET /v1/tasks/{id})' 'view:Show one task with its status (GET /v1/tasks/{id})' 'add:Add tasks to a squid (POST /v1/tasks); duplicates are skipped by the API' 'upload:Upload tasks from a CSV/TSV file (POST /v1/tasks/upload, multipart)' 'upload-status:Show the state of a task upload (GET /v1/tasks/upload/{id})' 'delete:Delete a task (DELETE /v1/tasks/{id})' 'rm:Delete a task (DELETE /v1/tasks/{id})')
      _describe -t commands 'sq tasks command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__tasks__list && ret=0 ;;
        'get'|'view') _sq__tasks__get && ret=0 ;;
        'add') _sq__tasks__add && ret=0 ;;
        'upload') _sq__tasks__upload && ret=0 ;;
        'upload-status') _sq__tasks__upload_status && ret=0 ;;
        'delete'|'rm') _sq__tasks__delete && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__tasks__list() {
  _arguments -s -S : $_sq_globals '--squid=[squid id, prefix or exact name (required)]:squid:{_sq_dynamic squids}' '--type=[detail level]:type:(url params)' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__tasks__get() {
  _arguments -s -S : $_sq_globals '--squid=[when <task> is an id prefix, look for it only in this squid'\''s tasks (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:task: '
}

_sq__tasks__add() {
  _arguments -s -S : $_sq_globals '--squid=[squid id, prefix or exact name (required)]:squid:{_sq_dynamic squids}' '--key=[task parameter each value is sent as]:key: ' '--file=[values (one per line) or a JSON array of task objects; "-" for stdin]:file:_files' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '*:values: '
}

_sq__tasks__upload() {
  _arguments -s -S : $_sq_globals '--squid=[squid id, prefix or exact name (required)]:squid:{_sq_dynamic squids}' '--wait[wait until the upload is processed and print its summary]' '--timeout=[give up waiting after this long, at most 7d (with --wait)]:timeout: ' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '1:file:_files'
}

_sq__tasks__upload_status() {
  _arguments -s -S : $_sq_globals '1:id: '
}

_sq__tasks__delete() {
  _arguments -s -S : $_sq_globals '--squid=[when <task> is an id prefix, look for it only in this squid'\''s tasks (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:task: '
}

_sq__runs() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List runs newest first\: a squid'\''s, or the most recent across squids' 'ls:List runs newest first\: a squid'\''s, or the most recent across squids' 'get:Show one run (status, results, credits, export state)' 'view:Show one run (status, results, credits, export state)' 'start:Start a run of a squid; --wait follows it to the end' 'watch:Wait for a run to finish and its export to be ready, showing progress' 'stats:Show a run'\''s progress\: percent done, tasks done/left, results, ETA' 'credits:Show what a run cost\: total credits, the breakdown per function, and the rates (GET /v1/runs/{run}/credits)' 'tasks:List the tasks of a run with their status and result counts' 'abort:Stop a running run (results collected so far are still exported and billed)' 'stop:Stop a running run (results collected so far are still exported and billed)' 'download:Download a finished run'\''s export as CSV, XLSX, JSON or JSONL')
      _describe -t commands 'sq runs command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__runs__list && ret=0 ;;
        'get'|'view') _sq__runs__get && ret=0 ;;
        'start') _sq__runs__start && ret=0 ;;
        'watch') _sq__runs__watch && ret=0 ;;
        'stats') _sq__runs__stats && ret=0 ;;
        'credits') _sq__runs__credits && ret=0 ;;
        'tasks') _sq__runs__tasks && ret=0 ;;
        'abort'|'stop') _sq__runs__abort && ret=0 ;;
        'download') _sq__runs__download && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__runs__list() {
  _arguments -s -S : $_sq_globals '--squid=[squid id, id prefix or exact name]:squid:{_sq_dynamic squids}' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__runs__get() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '--web[open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL]' '1:run:{_sq_dynamic runs}'
}

_sq__runs__start() {
  _arguments -s -S : $_sq_globals '--squid=[squid id, id prefix or exact name (required)]:squid:{_sq_dynamic squids}' '--wait[wait until the run is done and its export is ready]' '--idempotency-key=[start at most one run for KEY\: the run KEY started in the last 24 h (kept per profile in the cache directory) is shown, or waited for, instead of a new one, whatever state it is in]:idempotency-key: ' '--timeout=[give up waiting after this long, at most 7d (exit 7; the run continues on the server)]:timeout: ' '--interval=[time between polls, at most 1h; at least 5s against the live service]:interval: ' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: '
}

_sq__runs__watch() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '--timeout=[give up waiting after this long, at most 7d (exit 7; the run continues on the server)]:timeout: ' '--interval=[time between polls, at most 1h; at least 5s against the live service]:interval: ' '--web[open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL]' '1:run:{_sq_dynamic runs}'
}

_sq__runs__stats() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:run:{_sq_dynamic runs}'
}

_sq__runs__credits() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:run:{_sq_dynamic runs}'
}

_sq__runs__tasks() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]' '1:run:{_sq_dynamic runs}'
}

_sq__runs__abort() {
  _arguments -s -S : $_sq_globals '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:run:{_sq_dynamic runs}'
}

_sq__runs__download() {
  _arguments -s -S : $_sq_globals '(-o --output)-o+[where to write\: a file, a directory, or - for stdout]:o:_files' '(-o --output)--output=[where to write\: a file, a directory, or - for stdout]:output:_files' '--force[replace an existing file (-o FILE, or the server'\''s file name)]' '--file-format=[csv, xlsx, json (an array) or jsonl]:file-format:(csv xlsx json jsonl)' '--omit=[leave these columns out (comma-separated)]:omit: ' '--squid=[when <run> is an id prefix, look for it only in this squid'\''s runs (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '1:run:{_sq_dynamic runs}'
}

_sq__results() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List or export the results of a squid or of one run' 'ls:List or export the results of a squid or of one run' 'export:List or export the results of a squid or of one run' 'sync:Keep a database table in step with a squid'\''s results (SQLite or Postgres)')
      _describe -t commands 'sq results command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls'|'export') _sq__results__list && ret=0 ;;
        'sync') _sq__results__sync && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__results__list() {
  _arguments -s -S : $_sq_globals '--squid=[results of every run of this squid (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '--run=[results of this run only (id or id prefix)]:run:{_sq_dynamic runs}' '--task=[only the results of this task (id or id prefix)]:task: ' '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]' '(-o --output)-o+[write the records to this regular file (atomically) instead of stdout; - is stdout]:o:_files' '(-o --output)--output=[write the records to this regular file (atomically) instead of stdout; - is stdout]:output:_files' '--resume[continue an interrupted --all export from its last whole page (-o FILE, or --checkpoint)]' '--checkpoint=[with --all to stdout (ndjson, csv, tsv)\: record the pages written, for --resume]:checkpoint:_files' '--force[with -o\: replace an existing FILE; with --resume --checkpoint\: continue into an empty stdout file (only the pages after the checkpoint)]'
}

_sq__results__sync() {
  _arguments -s -S : $_sq_globals '--squid=[the squid whose done runs to sync (id, id prefix or exact name)]:squid:{_sq_dynamic squids}' '--run=[sync this one done run only (id or id prefix)]:run:{_sq_dynamic runs}' '--to=[the database\: sqlite\:PATH, postgres\://USER@HOST(\:PORT)/DB (or postgresql\://)]:to: ' '--table=[the table (an identifier; default\: from the squid'\''s name)]:table: ' '*--key=[a result attribute that identifies a row across runs (repeatable)\: upsert on it]:key: ' '--follow[keep syncing new done runs until interrupted]' '--interval=[with --follow\: how often to look for new runs, at least 5s, at most 7d]:interval: ' '(-f --file)-f+[sync every squid of this account file that has a sync\: block (sq apply'\''s file; with --squid, that one)]:f:_files' '(-f --file)--file=[sync every squid of this account file that has a sync\: block (sq apply'\''s file; with --squid, that one)]:file:_files' '--from-webhook=[with --follow\: also sync at once on run.done events received on this local port, 0-65535 (0\: any free one)]:from-webhook: '
}

_sq__credits() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('modules:Show credits spent per crawler and function over completed runs (GET /v1/credits/modules)' 'squids:Show credits spent per squid, deleted squids included for 30 days (GET /v1/credits/squids)')
      _describe -t commands 'sq credits command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'modules') _sq__credits__modules && ret=0 ;;
        'squids') _sq__credits__squids && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__credits__modules() {
  _arguments -s -S : $_sq_globals '--days=[only runs completed in the last N days, 1-3650]:days: '
}

_sq__credits__squids() {
  _arguments -s -S : $_sq_globals '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__accounts() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('list:List the platform accounts (site logins) squids can use, with their health and squids (GET /v1/accounts)' 'ls:List the platform accounts (site logins) squids can use, with their health and squids (GET /v1/accounts)' 'get:Show one account with its limits and linked squids (GET /v1/accounts/{id})' 'view:Show one account with its limits and linked squids (GET /v1/accounts/{id})' 'types:List the account types (sites) that can be synchronized, with their cookies (GET /v1/accounts/types)' 'sync:Create or refresh an account from browser cookies (POST /v1/accounts/cookies)' 'update:Change an account'\''s limits, e.g. profiles per day or the batch size (POST /v1/accounts)' 'delete:Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail' 'rm:Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail')
      _describe -t commands 'sq accounts command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'list'|'ls') _sq__accounts__list && ret=0 ;;
        'get'|'view') _sq__accounts__get && ret=0 ;;
        'types') _sq__accounts__types && ret=0 ;;
        'sync') _sq__accounts__sync && ret=0 ;;
        'update') _sq__accounts__update && ret=0 ;;
        'delete'|'rm') _sq__accounts__delete && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__accounts__list() {
  _arguments -s -S : $_sq_globals '--limit=[how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)]:limit: ' '--page=[read this page only (1-1000000; page size = --limit)]:page: ' '--all[read every page, writing records as they arrive (--jq/--template run on each page)]' '--slurp[with --all and --jq/--template\: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)]'
}

_sq__accounts__get() {
  _arguments -s -S : $_sq_globals '1:account:{_sq_dynamic accounts}'
}

_sq__accounts__types() {
  _arguments -s -S : $_sq_globals
}

_sq__accounts__sync() {
  _arguments -s -S : $_sq_globals '--type=[account type name, see `sq accounts types` (required unless --account is given)]:type:{_sq_dynamic account-types}' '--cookies-file=[cookies export; "-" for stdin (required)]:cookies-file:_files' '--account=[refresh this existing account instead of creating one (id or id prefix)]:account:{_sq_dynamic accounts}' '--wait[wait until the synchronization succeeds or fails]' '--timeout=[give up waiting after this long, at most 7d (with --wait)]:timeout: '
}

_sq__accounts__update() {
  _arguments -s -S : $_sq_globals '*--limit=[set one limit (repeatable)]:limit: ' '1:account:{_sq_dynamic accounts}'
}

_sq__accounts__delete() {
  _arguments -s -S : $_sq_globals '1:account:{_sq_dynamic accounts}'
}

_sq__go() {
  _arguments -s -S : $_sq_globals '*-p+[set a squid parameter (repeatable, as squids update)]:p: ' '*--param=[set a squid parameter (repeatable, as squids update)]:param: ' '--account=[platform account a new squid of an account crawler uses (default\: the one healthy one of its type)]:account:{_sq_dynamic accounts}' '--key=[task parameter each TASK is sent as]:key: ' '(-o --output)-o+[write the results to this regular file (atomically) instead of stdout; - is stdout]:o:_files' '(-o --output)--output=[write the results to this regular file (atomically) instead of stdout; - is stdout]:output:_files' '--force[replace an existing -o file (else exit 2, before any request)]' '--timeout=[give up waiting after this long, at most 7d (exit 7; the run continues on the server)]:timeout: ' '--interval=[time between polls, at most 1h; at least 5s against the live service]:interval: ' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '--to=[also sync the run'\''s results into this database, as `sq results sync --run` (sqlite\:PATH, postgres\://…)]:to: ' '--table=[with --to\: the table (default\: from the squid'\''s name)]:table: ' '*--sync-key=[with --to\: a result attribute that identifies a row across runs (repeatable), as `sq results sync --key`]:sync-key: ' '1:crawler:{_sq_dynamic crawlers}' '*:tasks: '
}

_sq__delivery() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('sftp:Send a squid'\''s run results to an SFTP server (POST /v1/delivery)' 'webhook:POST run events of a squid to a URL (POST /v1/delivery)' 'email:E-mail a notice when a squid'\''s runs complete (POST /v1/delivery)' 'sheet:Export a squid'\''s results to a Google Sheet (POST /v1/delivery)' 's3:Upload a squid'\''s results to an S3 bucket (POST /v1/delivery)' 'test:Check an SFTP server, webhook URL or e-mail address through the service before activating it' 'show:Show the delivery configuration of a squid (read from GET /v1/squids/{hash})' 'apply:Apply delivery settings for many squids from a YAML/JSON file (idempotent, for CI)')
      _describe -t commands 'sq delivery command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'sftp') _sq__delivery__sftp && ret=0 ;;
        'webhook') _sq__delivery__webhook && ret=0 ;;
        'email') _sq__delivery__email && ret=0 ;;
        'sheet') _sq__delivery__sheet && ret=0 ;;
        's3') _sq__delivery__s3 && ret=0 ;;
        'test') _sq__delivery__test && ret=0 ;;
        'show') _sq__delivery__show && ret=0 ;;
        'apply') _sq__delivery__apply && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__delivery__sftp() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}' '--host=[SFTP server hostname or IP address]:host: ' '--port=[SFTP server port (1-65535)]:port: ' '--username=[login user name]:username: ' '--directory=[target directory; it must already exist (the service does not create it)]:directory: ' '--password-stdin[read the password from stdin (hidden prompt on a terminal)]' '--password-env=[read the password from this environment variable]:password-env: ' '--active[enable this delivery]' '--inactive[keep the configuration but disable this delivery]'
}

_sq__delivery__webhook() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}' '--url=[http(s) endpoint that receives the events]:url: ' '--events=[comma-separated events to subscribe to\: run.running, run.paused, run.done, run.error, or "all"]:events:{_values -s , events run.running run.paused run.done run.error all}' '--retry[retry failed deliveries (up to 3 times, 15 minutes apart)]' '--no-retry[do not retry failed deliveries]' '--active[enable this delivery]' '--inactive[keep the configuration but disable this delivery]'
}

_sq__delivery__email() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}' '--email=[recipient address]:email: ' '--notifications[send an e-mail when a run completes]' '--no-notifications[keep the address, send no e-mails]'
}

_sq__delivery__sheet() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}' '--url=[the Google Sheet URL]:url: ' '--append[append each run (deduplicated)]' '--overwrite[replace the sheet with the last run]' '--active[enable this delivery]' '--inactive[keep the configuration but disable this delivery]'
}

_sq__delivery__s3() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}' '--bucket=[bucket name]:bucket: ' '--target-path=[folder inside the bucket ("" for the top)]:target-path: ' '--access-key-env=[environment variable holding the AWS access key id]:access-key-env: ' '--secret-key-env=[environment variable holding the AWS secret access key]:secret-key-env: ' '--active[enable this delivery]' '--inactive[keep the configuration but disable this delivery]'
}

_sq__delivery__test() {
  _arguments -s -S : $_sq_globals '--host=[SFTP server hostname or IP address]:host: ' '--port=[SFTP server port (1-65535)]:port: ' '--username=[login user name]:username: ' '--directory=[target directory; it must already exist (the service does not create it)]:directory: ' '--password-stdin[read the password from stdin (hidden prompt on a terminal)]' '--password-env=[read the password from this environment variable]:password-env: ' '--url=[webhook\: the endpoint to try]:url: ' '--email=[email\: where to send the test e-mail]:email: ' '--squid=[reuse this squid'\''s stored configuration for values not given as flags]:squid:{_sq_dynamic squids}' '1:kind: '
}

_sq__delivery__show() {
  _arguments -s -S : $_sq_globals '--squid=[the squid\: full hash, unique hash prefix or exact name]:squid:{_sq_dynamic squids}'
}

_sq__delivery__apply() {
  _arguments -s -S : $_sq_globals '(-f --file)-f+[the YAML or JSON file ("-" reads stdin)]:f:_files' '(-f --file)--file=[the YAML or JSON file ("-" reads stdin)]:file:_files' '--force[send every channel in the file even when it looks unchanged]' '*--assume-unchanged=[take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)]:assume-unchanged: '
}

_sq__billing() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('auto-reset:Show or set the automatic billing reset (renews the plan and charges the card when usage crosses a threshold)')
      _describe -t commands 'sq billing command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'auto-reset') _sq__billing__auto_reset && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__billing__auto_reset() {
  _arguments -s -S : $_sq_globals '--enable[turn automatic resets on (asks for confirmation; --yes in scripts)]' '--disable[turn automatic resets off]' '--threshold=[usage percentage that triggers a reset (integer 1-100)]:threshold: ' '--max-resets=[maximum resets in any rolling 24 hours (integer 1-10)]:max-resets: ' '--web[open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL]'
}

_sq__plan() {
  _arguments -s -S : $_sq_globals '(-f --file)-f+[the account file, YAML or JSON ("-" reads stdin)]:f:_files' '(-f --file)--file=[the account file, YAML or JSON ("-" reads stdin)]:file:_files' '--detailed-exitcode[exit 10 when apply would send something (0\: nothing)]' '*--assume-unchanged=[take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)]:assume-unchanged: '
}

_sq__apply() {
  _arguments -s -S : $_sq_globals '(-f --file)-f+[the account file, YAML or JSON ("-" reads stdin)]:f:_files' '(-f --file)--file=[the account file, YAML or JSON ("-" reads stdin)]:file:_files' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '*--assume-unchanged=[take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)]:assume-unchanged: '
}

_sq__export() {
  _arguments -s -S : $_sq_globals
}

_sq__webhook() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('listen:Receive webhook events on this machine\: validate, print, optionally forward')
      _describe -t commands 'sq webhook command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'listen') _sq__webhook__listen && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__webhook__listen() {
  _arguments -s -S : $_sq_globals '--port=[port to listen on, 0-65535 (0 = any free port)]:port: ' '--host=[address to bind]:host: ' '--path=[URL path that receives events]:path: ' '--events=[events to keep\: run.running, run.paused, run.done, run.error, or "all"]:events:{_values -s , events run.running run.paused run.done run.error all}' '--forward-to=[relay each kept event (original body and Content-Type) to this http(s) URL]:forward-to: '
}

_sq__api() {
  _arguments -s -S : $_sq_globals '(-X --method)-X+[HTTP method]:X:(GET POST PUT PATCH DELETE HEAD)' '(-X --method)--method=[HTTP method]:method:(GET POST PUT PATCH DELETE HEAD)' '*-f+[string field (repeatable)]:f: ' '*--raw-field=[string field (repeatable)]:raw-field: ' '*-F+[typed field\: JSON if it parses, else a string (repeatable)]:F: ' '*--field=[typed field\: JSON if it parses, else a string (repeatable)]:field: ' '--input=[request body from a file ("-" for stdin)]:input:_files' '--paginate[follow every page of a list endpoint]' '*-H+[add a request header (repeatable)]:H: ' '*--header=[add a request header (repeatable)]:header: ' '(-i --include)-i[print the HTTP status line and response headers before the body]' '(-i --include)--include[print the HTTP status line and response headers before the body]' '--max-credits=[estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default\: SQ_MAX_CREDITS, else `sq config get max-credits`]:max-credits: ' '1:path: '
}

_sq__mcp() {
  _arguments -s -S : $_sq_globals '--allow-writes=[serve write tools\: alone, all but deletes and billing; "all"\: every one; or a comma-separated list of tools]:allow-writes: ' '--root=[the directory whose files tools may read (plan/apply "file"); without it no tool reads a file]:root: ' '*--secret-env=[environment variables a write may read a secret from (comma-separated, repeatable)]:secret-env: ' '--confirm-above=[go and runs_start answer needs_confirmation above this estimate (0-1000000000)]:confirm-above: ' '--max-message-bytes=[the largest JSON-RPC message (1024-1073741824)]:max-message-bytes: ' '--http=[serve Streamable HTTP on HOST\:PORT (port 0\: any; a port alone binds 127.0.0.1)]:http: ' '--token-env=[with --http\: the Bearer token is this environment variable'\''s value]:token-env: '
}

_sq__emulator() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  _arguments -s -S -C : $_sq_globals '1: :->cmds' '*:: :->args' && ret=0
  case $state in
    cmds)
      local -a cmds=('start:Start the emulator; prints {"base_url","token"} as one JSON line on stdout')
      _describe -t commands 'sq emulator command' cmds && ret=0 ;;
    args)
      case $words[1] in
        'start') _sq__emulator__start && ret=0 ;;
      esac ;;
  esac
  return ret
}

_sq__emulator__start() {
  _arguments -s -S : $_sq_globals '--host=[address to bind (loopback by default)]:host: ' '--port=[port, 0-65535; 0 picks a free one]:port: ' '--seed=[initial data]:seed:(demo empty)' '--clock=[business time for runs, webhook retries, billing checks]:clock:(real virtual)' '--time-scale=[real clock speed-up, e.g. 60 = one minute per second (1-3600)]:time-scale: ' '--free-plan[cap paginated lists at 50 records with the free-plan warning]' '--rate-limits=[on, off, or a multiplier of the documented limits (e.g. 0.1)]:rate-limits: ' '--state=[keep state across restarts in this file (written atomically)]:state:_files'
}

_sq__doctor() {
  _arguments -s -S : $_sq_globals '--strict[warnings fail too (exit 1)\: completion, Node.js end of life, updates, file modes, rate budget]'
}

_sq__version() {
  _arguments -s -S : $_sq_globals
}

_sq__completion() {
  _arguments -s -S : $_sq_globals '1:shell:(bash zsh fish)'
}

_sq__help() {
  _arguments -s -S : $_sq_globals '--man[print the manual page (roff) of sq, or of the command named; read it with `sq help --man | man -l -`]' '*:topic:(auth profiles config me balance status crawlers squids tasks runs results credits accounts go delivery billing plan apply export webhook api mcp emulator doctor version completion environment exit-codes globals)'
}

if [[ "${funcstack[1]}" == _sq ]]; then
  _sq "$@"
else
  compdef _sq sq lobstr-sq
fi
