# fish completion for sq. Generated from the command tree by `sq completion fish`: do not edit.
# Install: sq completion fish > ~/.config/fish/completions/sq.fish
# Completes sq and lobstr-sq (the same command; lobstr-sq takes the completions of sq).

function __sq_words
    printf '%s\n' $argv
end

# Options at a command path that take a value (the walk skips their values).
function __sq_vopts
    switch $argv[1]
        case 'status'
            __sq_words --timeout
        case 'crawlers list'
            __sq_words --search --limit --page
        case 'squids list'
            __sq_words --name --limit --page
        case 'squids create'
            __sq_words --crawler --name --account
        case 'squids update'
            __sq_words --name --concurrency --param --schedule --timezone --run-notify --add-account --remove-account --account --max-credits
        case 'squids activate'
            __sq_words --max-credits
        case 'squids empty'
            __sq_words --type
        case 'squids credits'
            __sq_words --limit --page
        case 'squids chain set'
            __sq_words --target-crawler --field-map --target-name --target-concurrency --max-credits
        case 'tasks list'
            __sq_words --squid --type --limit --page
        case 'tasks get'
            __sq_words --squid
        case 'tasks add'
            __sq_words --squid --key --file --max-credits
        case 'tasks upload'
            __sq_words --squid --timeout --max-credits
        case 'tasks delete'
            __sq_words --squid
        case 'runs list'
            __sq_words --squid --limit --page
        case 'runs get'
            __sq_words --squid
        case 'runs start'
            __sq_words --squid --idempotency-key --timeout --interval --max-credits
        case 'runs watch'
            __sq_words --squid --timeout --interval
        case 'runs stats'
            __sq_words --squid
        case 'runs credits'
            __sq_words --squid
        case 'runs tasks'
            __sq_words --squid --limit --page
        case 'runs abort'
            __sq_words --squid
        case 'runs download'
            __sq_words -o --output --file-format --omit --squid
        case 'results list'
            __sq_words --squid --run --task --limit --page -o --output --checkpoint
        case 'results sync'
            __sq_words --squid --run --to --table --key --interval -f --file --from-webhook
        case 'credits modules'
            __sq_words --days
        case 'credits squids'
            __sq_words --limit --page
        case 'accounts list'
            __sq_words --limit --page
        case 'accounts sync'
            __sq_words --type --cookies-file --account --timeout
        case 'accounts update'
            __sq_words --limit
        case 'go'
            __sq_words -p --param --account --key -o --output --timeout --interval --max-credits --to --table --sync-key
        case 'delivery sftp'
            __sq_words --squid --host --port --username --directory --password-env
        case 'delivery webhook'
            __sq_words --squid --url --events
        case 'delivery email'
            __sq_words --squid --email
        case 'delivery sheet'
            __sq_words --squid --url
        case 'delivery s3'
            __sq_words --squid --bucket --target-path --access-key-env --secret-key-env
        case 'delivery test'
            __sq_words --host --port --username --directory --password-env --url --email --squid
        case 'delivery show'
            __sq_words --squid
        case 'delivery apply'
            __sq_words -f --file --assume-unchanged
        case 'billing auto-reset'
            __sq_words --threshold --max-resets
        case 'plan'
            __sq_words -f --file --assume-unchanged
        case 'apply'
            __sq_words -f --file --max-credits --assume-unchanged
        case 'webhook listen'
            __sq_words --port --host --path --events --forward-to
        case 'api'
            __sq_words -X --method -f --raw-field -F --field --input -H --header --max-credits
        case 'mcp'
            __sq_words --allow-writes --root --secret-env --confirm-above --max-message-bytes --http --token-env
        case 'emulator start'
            __sq_words --host --port --seed --clock --time-scale --rate-limits --state
    end
    __sq_words --profile --base-url --format --fields --jq --template
end

# The canonical name of subcommand word $argv[2] under path $argv[1].
function __sq_canon
    switch "$argv[1]|$argv[2]"
        case '|auth'
            echo 'auth'
        case '|profiles'
            echo 'profiles'
        case '|config'
            echo 'config'
        case '|me'
            echo 'me'
        case '|balance'
            echo 'balance'
        case '|status'
            echo 'status'
        case '|crawlers'
            echo 'crawlers'
        case '|squids'
            echo 'squids'
        case '|tasks'
            echo 'tasks'
        case '|runs'
            echo 'runs'
        case '|results'
            echo 'results'
        case '|credits'
            echo 'credits'
        case '|accounts'
            echo 'accounts'
        case '|go'
            echo 'go'
        case '|delivery'
            echo 'delivery'
        case '|billing'
            echo 'billing'
        case '|plan'
            echo 'plan'
        case '|apply'
            echo 'apply'
        case '|export'
            echo 'export'
        case '|webhook'
            echo 'webhook'
        case '|api'
            echo 'api'
        case '|mcp'
            echo 'mcp'
        case '|emulator'
            echo 'emulator'
        case '|doctor'
            echo 'doctor'
        case '|version'
            echo 'version'
        case '|completion'
            echo 'completion'
        case '|help'
            echo 'help'
        case 'auth|login'
            echo 'login'
        case 'auth|logout'
            echo 'logout'
        case 'auth|status'
            echo 'status'
        case 'auth|switch'
            echo 'switch'
        case 'profiles|list' 'profiles|ls'
            echo 'list'
        case 'profiles|remove' 'profiles|rm'
            echo 'remove'
        case 'config|get'
            echo 'get'
        case 'config|set'
            echo 'set'
        case 'config|unset'
            echo 'unset'
        case 'config|list' 'config|ls'
            echo 'list'
        case 'crawlers|list' 'crawlers|ls'
            echo 'list'
        case 'crawlers|get' 'crawlers|view'
            echo 'get'
        case 'crawlers|params'
            echo 'params'
        case 'crawlers|attributes' 'crawlers|attrs'
            echo 'attributes'
        case 'squids|list' 'squids|ls'
            echo 'list'
        case 'squids|get' 'squids|view'
            echo 'get'
        case 'squids|create'
            echo 'create'
        case 'squids|update'
            echo 'update'
        case 'squids|activate'
            echo 'activate'
        case 'squids|deactivate'
            echo 'deactivate'
        case 'squids|empty'
            echo 'empty'
        case 'squids|delete' 'squids|rm'
            echo 'delete'
        case 'squids|credits'
            echo 'credits'
        case 'squids|estimate'
            echo 'estimate'
        case 'squids|chain'
            echo 'chain'
        case 'squids chain|set'
            echo 'set'
        case 'squids chain|delete' 'squids chain|rm'
            echo 'delete'
        case 'tasks|list' 'tasks|ls'
            echo 'list'
        case 'tasks|get' 'tasks|view'
            echo 'get'
        case 'tasks|add'
            echo 'add'
        case 'tasks|upload'
            echo 'upload'
        case 'tasks|upload-status'
            echo 'upload-status'
        case 'tasks|delete' 'tasks|rm'
            echo 'delete'
        case 'runs|list' 'runs|ls'
            echo 'list'
        case 'runs|get' 'runs|view'
            echo 'get'
        case 'runs|start'
            echo 'start'
        case 'runs|watch'
            echo 'watch'
        case 'runs|stats'
            echo 'stats'
        case 'runs|credits'
            echo 'credits'
        case 'runs|tasks'
            echo 'tasks'
        case 'runs|abort' 'runs|stop'
            echo 'abort'
        case 'runs|download'
            echo 'download'
        case 'results|list' 'results|ls' 'results|export'
            echo 'list'
        case 'results|sync'
            echo 'sync'
        case 'credits|modules'
            echo 'modules'
        case 'credits|squids'
            echo 'squids'
        case 'accounts|list' 'accounts|ls'
            echo 'list'
        case 'accounts|get' 'accounts|view'
            echo 'get'
        case 'accounts|types'
            echo 'types'
        case 'accounts|sync'
            echo 'sync'
        case 'accounts|update'
            echo 'update'
        case 'accounts|delete' 'accounts|rm'
            echo 'delete'
        case 'delivery|sftp'
            echo 'sftp'
        case 'delivery|webhook'
            echo 'webhook'
        case 'delivery|email'
            echo 'email'
        case 'delivery|sheet'
            echo 'sheet'
        case 'delivery|s3'
            echo 's3'
        case 'delivery|test'
            echo 'test'
        case 'delivery|show'
            echo 'show'
        case 'delivery|apply'
            echo 'apply'
        case 'billing|auto-reset'
            echo 'auto-reset'
        case 'webhook|listen'
            echo 'listen'
        case 'emulator|start'
            echo 'start'
    end
end

# Values only the service knows (squid names, run ids...), with a description after a Tab, from sq's own short-lived
# cache: never a prompt, never an error on the screen. The words typed so far go along (--profile, --squid...).
function __sq_dynamic
    set -l cmd (commandline -opc)[1]
    $cmd __complete $argv[1] -- (commandline -opc)[2..-1] 2>/dev/null </dev/null
end

# Comma-separated values: complete the last item after the ones already typed, never offering one twice.
function __sq_list
    set -l tok (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    set -l head ''
    string match -q -- '*,*' $tok; and set head (string replace -r -- '[^,]*$' '' $tok)
    set -l chosen (string split -- , $head)
    for w in $argv
        contains -- $w $chosen; or printf '%s%s\n' $head $w
    end
end

# Prints the command path reached by the words before the cursor, then how many positional arguments follow it.
function __sq_walk
    set -l line (commandline -pc)
    if test "$line" = "$__sq_walk_line"
        printf '%s\n' $__sq_walk_result
        return
    end
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l nargs 0
    set -l dashdash 0
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dashdash = 0
            if test "$w" = '--'
                set dashdash 1
                continue
            end
            if string match -q -- '-*' $w
                contains -- $w (__sq_vopts "$path"); and set skip 1
                continue
            end
        end
        set -l c ''
        if test $nargs = 0 -a $dashdash = 0
            set c (__sq_canon "$path" $w)
        end
        if test -n "$c"
            set path (string trim -- "$path $c")
        else
            set nargs (math $nargs + 1)
        end
    end
    set -g __sq_walk_line $line
    set -g __sq_walk_result $path $nargs
    printf '%s\n' $path $nargs
end

# True at command path $argv[1].
function __sq_is
    set -l r (__sq_walk)
    test "$r[1]" = "$argv[1]"
end

# True where a subcommand of $argv[1] may come (no positional argument yet).
function __sq_sub
    set -l r (__sq_walk)
    test "$r[1]" = "$argv[1]" -a "$r[2]" = 0
end

# True at positional argument $argv[2] of path $argv[1] (or any later one when $argv[3] is '+').
function __sq_arg
    set -l r (__sq_walk)
    test "$r[1]" = "$argv[1]"; or return 1
    if test (count $argv) -ge 3
        test $r[2] -ge $argv[2]
    else
        test $r[2] = $argv[2]
    end
end

complete -c sq -f

complete -c sq -l profile -x -a '(__sq_dynamic profiles)' -d 'stored profile to use (env SQ_PROFILE; default: the active one, else "default")'
complete -c sq -l base-url -x -d 'API origin, paths start with /v1 (env SQ_BASE_URL; default: the profile\'s, else https://api.lobstr.io)'
complete -c sq -l insecure-http -d 'allow a plain http:// base URL to a host other than loopback (env SQ_INSECURE_HTTP=1): the key travels unencrypted'
complete -c sq -l json -d 'machine output: exactly one JSON document on stdout (same as --format json)'
complete -c sq -l format -x -a 'table json ndjson csv tsv' -d 'output format (default: table on a terminal, tsv when piped)'
complete -c sq -l fields -x -d 'comma-separated fields/columns to show; dotted paths allowed (e.g. id,squid.name)'
complete -c sq -l jq -x -d 'filter the JSON output with jq (implies --json; strings print unquoted, other values as compact JSON, one per line)'
complete -c sq -l template -x -d 'format the JSON output with Go template syntax as gh does: range, if/else, with, printf, join, tablerow… (implies --json)'
complete -c sq -l full-ids -d 'whole ids in terminal tables (they show the shortest unique prefix, 8 characters or more; piped output is always whole)'
complete -c sq -l wide -d 'terminal tables show every column whole: no column left out or cut, none hidden for saying the same on every row, whole ids'
complete -c sq -l absolute-times -d 'local date, time and UTC offset in terminal tables instead of "3 min ago" (piped output keeps the API\'s timestamps)'
complete -c sq -l csv-safe -d 'CSV and TSV: a text cell starting with =, +, -, @, a tab or a CR gets a leading \' so a spreadsheet never runs it as a formula (also SQ_CSV_SAFE=1)'
complete -c sq -l no-color -d 'no colour (also NO_COLOR; FORCE_COLOR forces it)'
complete -c sq -s q -l quiet -d 'no hints or progress on stderr'
complete -c sq -s v -l verbose -d 'HTTP trace on stderr (secrets redacted)'
complete -c sq -s y -l yes -d 'answer yes to confirmations'
complete -c sq -l no-input -d 'never prompt (also SQ_NO_INPUT, CI); a missing answer is a usage error'
complete -c sq -l dry-run -d 'on writes: print the request (secrets masked) and send nothing'
complete -c sq -l show-secrets -d 'show passwords, keys and webhook URL tokens the API echoes back (they are masked otherwise)'
complete -c sq -n '__sq_is ""' -s V -l version -d 'print the version'
complete -c sq -s h -l help -d 'show help'

# sq
complete -c sq -n '__sq_sub \'\'' -a 'auth' -d 'Log in, log out and show which key and profile are in use'
complete -c sq -n '__sq_sub \'\'' -a 'profiles' -d 'List and remove stored profiles'
complete -c sq -n '__sq_sub \'\'' -a 'config' -d 'Get and set settings of a profile (spending caps and confirmations)'
complete -c sq -n '__sq_sub \'\'' -a 'me' -d 'Show the current user'
complete -c sq -n '__sq_sub \'\'' -a 'balance' -d 'Show the credit balance (remaining = available - consumed)'
complete -c sq -n '__sq_sub \'\'' -a 'status' -d 'Show the account at a glance: plan, credits, auto-reset, runs in progress, failures'
complete -c sq -n '__sq_sub \'\'' -a 'crawlers' -d 'Browse crawlers: what they take as input and what they return'
complete -c sq -n '__sq_sub \'\'' -a 'squids' -d 'Create, configure, empty and delete squids (scraping jobs built on a crawler)'
complete -c sq -n '__sq_sub \'\'' -a 'tasks' -d 'Add, upload, list and delete the tasks (URLs or parameter sets) of a squid'
complete -c sq -n '__sq_sub \'\'' -a 'runs' -d 'Start, watch, abort and download runs'
complete -c sq -n '__sq_sub \'\'' -a 'results' -d 'List and export the results of a squid or a run'
complete -c sq -n '__sq_sub \'\'' -a 'credits' -d 'Show where credits went: per crawler and function, per squid'
complete -c sq -n '__sq_sub \'\'' -a 'accounts' -d 'Synchronize, list, limit and delete third-party site accounts (the logins some crawlers need)'
complete -c sq -n '__sq_sub \'\'' -a 'go' -d 'Scrape in one step: squid, params, tasks, run, wait, export; a rerun picks up where it stopped'
complete -c sq -n '__sq_sub \'\'' -a 'delivery' -d 'Configure where results go: SFTP, webhooks, e-mail, sheets, S3; apply from a file'
complete -c sq -n '__sq_sub \'\'' -a 'billing' -d 'Show and set the automatic billing reset (re-charges the card on file)'
complete -c sq -n '__sq_sub \'\'' -a 'plan' -d 'Show what would change to make the account match a file (--detailed-exitcode: exit 10 when it differs)'
complete -c sq -n '__sq_sub \'\'' -a 'apply' -d 'Make the account match a file: squids, tasks, delivery, billing'
complete -c sq -n '__sq_sub \'\'' -a 'export' -d 'Write the current account as a file for plan / apply'
complete -c sq -n '__sq_sub \'\'' -a 'webhook' -d 'Receive webhook events locally (listen, validate, forward)'
complete -c sq -n '__sq_sub \'\'' -a 'api' -d 'Make an authenticated API request (same auth, pacing and retries)'
complete -c sq -n '__sq_sub \'\'' -a 'mcp' -d 'Serve the account to AI agents over MCP (stdio, or Streamable HTTP); read-only unless --allow-writes'
complete -c sq -n '__sq_sub \'\'' -a 'emulator' -d 'Run the local emulator of the whole API'
complete -c sq -n '__sq_sub \'\'' -a 'doctor' -d 'Check that sq can work here: key, base URL and TLS, clock, rate budget, file modes, profile, completion, Node.js, updates'
complete -c sq -n '__sq_sub \'\'' -a 'version' -d 'Show the version of sq, with the Node.js version and the platform'
complete -c sq -n '__sq_sub \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish'
complete -c sq -n '__sq_sub \'\'' -a 'help' -d 'help on a command, or a topic (sq help topics lists them)'

# sq auth
complete -c sq -n '__sq_sub \'auth\'' -a 'login' -d 'Store an API key in a profile after checking it with GET /v1/me'
complete -c sq -n '__sq_sub \'auth\'' -a 'logout' -d 'Remove the stored key of a profile (the profile and its base URL stay)'
complete -c sq -n '__sq_sub \'auth\'' -a 'status' -d 'Show the profile, base URL, key source, masked key and user; exit 4 when the key is rejected'
complete -c sq -n '__sq_sub \'auth\'' -a 'switch' -d 'Make a stored profile the active one'

# sq auth login
complete -c sq -n '__sq_is \'auth login\'' -l with-token -d 'read the key from stdin (at most 4 KiB) instead of prompting'

# sq auth logout

# sq auth status

# sq auth switch
complete -c sq -n '__sq_arg \'auth switch\' 0' -f -a '(__sq_dynamic profiles)'

# sq profiles
complete -c sq -n '__sq_sub \'profiles\'' -a 'list' -d 'List stored profiles (keys masked to their last 4 characters)'
complete -c sq -n '__sq_sub \'profiles\'' -a 'ls' -d 'alias of list: List stored profiles (keys masked to their last 4 characters)'
complete -c sq -n '__sq_sub \'profiles\'' -a 'remove' -d 'Delete a stored profile and its key'
complete -c sq -n '__sq_sub \'profiles\'' -a 'rm' -d 'alias of remove: Delete a stored profile and its key'

# sq profiles list

# sq profiles remove
complete -c sq -n '__sq_arg \'profiles remove\' 0' -f -a '(__sq_dynamic profiles)'

# sq config
complete -c sq -n '__sq_sub \'config\'' -a 'get' -d 'Print a setting of the profile (its environment variable, else the profile\'s value, else the default)'
complete -c sq -n '__sq_sub \'config\'' -a 'set' -d 'Set a setting of the profile (stored in the profile file)'
complete -c sq -n '__sq_sub \'config\'' -a 'unset' -d 'Remove a setting from the profile (back to its default)'
complete -c sq -n '__sq_sub \'config\'' -a 'list' -d 'List every setting with its value for the profile, where that value comes from, and what it does'
complete -c sq -n '__sq_sub \'config\'' -a 'ls' -d 'alias of list: List every setting with its value for the profile, where that value comes from, and what it does'

# sq config get

# sq config set

# sq config unset

# sq config list

# sq me

# sq balance

# sq status
complete -c sq -n '__sq_is \'status\'' -l timeout -x -d 'give up on what has not answered by then, at most 5m'
complete -c sq -n '__sq_is \'status\'' -l web -d 'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL'

# sq crawlers
complete -c sq -n '__sq_sub \'crawlers\'' -a 'list' -d 'List the crawlers squids can be built on (GET /v1/crawlers)'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'ls' -d 'alias of list: List the crawlers squids can be built on (GET /v1/crawlers)'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'get' -d 'Show one crawler: inputs, result columns, credits, account type (GET /v1/crawlers/{id})'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'view' -d 'alias of get: Show one crawler: inputs, result columns, credits, account type (GET /v1/crawlers/{id})'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'params' -d 'List a crawler\'s task and squid parameters and its paid functions (GET /v1/crawlers/{id}/params)'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'attributes' -d 'List the result columns a crawler produces (GET /v1/crawlers/{id}/attributes, public)'
complete -c sq -n '__sq_sub \'crawlers\'' -a 'attrs' -d 'alias of attributes: List the result columns a crawler produces (GET /v1/crawlers/{id}/attributes, public)'

# sq crawlers list
complete -c sq -n '__sq_is \'crawlers list\'' -l search -x -d 'only crawlers whose name, slug or description contains this text'
complete -c sq -n '__sq_is \'crawlers list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'crawlers list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'crawlers list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'crawlers list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq crawlers get
complete -c sq -n '__sq_arg \'crawlers get\' 0' -f -a '(__sq_dynamic crawlers)'

# sq crawlers params
complete -c sq -n '__sq_arg \'crawlers params\' 0' -f -a '(__sq_dynamic crawlers)'

# sq crawlers attributes
complete -c sq -n '__sq_arg \'crawlers attributes\' 0' -f -a '(__sq_dynamic crawlers)'

# sq squids
complete -c sq -n '__sq_sub \'squids\'' -a 'list' -d 'List squids, newest first (GET /v1/squids)'
complete -c sq -n '__sq_sub \'squids\'' -a 'ls' -d 'alias of list: List squids, newest first (GET /v1/squids)'
complete -c sq -n '__sq_sub \'squids\'' -a 'get' -d 'Show one squid: crawler, params, schedule, last run (GET /v1/squids/{id})'
complete -c sq -n '__sq_sub \'squids\'' -a 'view' -d 'alias of get: Show one squid: crawler, params, schedule, last run (GET /v1/squids/{id})'
complete -c sq -n '__sq_sub \'squids\'' -a 'create' -d 'Create a squid on a crawler (POST /v1/squids)'
complete -c sq -n '__sq_sub \'squids\'' -a 'update' -d 'Change a squid\'s name, concurrency, params, schedule or accounts (POST /v1/squids/{id}), then show it'
complete -c sq -n '__sq_sub \'squids\'' -a 'activate' -d 'Let a squid run again, on demand and on its schedule (POST /v1/squids/{id} is_active: true)'
complete -c sq -n '__sq_sub \'squids\'' -a 'deactivate' -d 'Stop a squid from running: no run starts, its schedule pauses, a running run stops (is_active: false)'
complete -c sq -n '__sq_sub \'squids\'' -a 'empty' -d 'Delete every task of one type from a squid (POST /v1/squids/{id}/empty; irreversible)'
complete -c sq -n '__sq_sub \'squids\'' -a 'delete' -d 'Delete a squid with its tasks, runs and results (DELETE /v1/squids/{id}; irreversible)'
complete -c sq -n '__sq_sub \'squids\'' -a 'rm' -d 'alias of delete: Delete a squid with its tasks, runs and results (DELETE /v1/squids/{id}; irreversible)'
complete -c sq -n '__sq_sub \'squids\'' -a 'credits' -d 'Show what each finished run of a squid cost, with its final status (GET /v1/squids/{id}/credits)'
complete -c sq -n '__sq_sub \'squids\'' -a 'estimate' -d 'Show what a run of a squid would cost before it starts: credits per service, time, balance after, auto-reset charges'
complete -c sq -n '__sq_sub \'squids\'' -a 'chain' -d 'Show where a squid\'s results go next: its chain (GET /v1/squids/{id}/chain)'

# sq squids list
complete -c sq -n '__sq_is \'squids list\'' -l name -x -d 'only squids whose name contains this text (case-insensitive)'
complete -c sq -n '__sq_is \'squids list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'squids list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'squids list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'squids list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq squids get
complete -c sq -n '__sq_is \'squids get\'' -l web -d 'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL'
complete -c sq -n '__sq_arg \'squids get\' 0' -f -a '(__sq_dynamic squids)'

# sq squids create
complete -c sq -n '__sq_is \'squids create\'' -l crawler -x -a '(__sq_dynamic crawlers)' -d 'crawler id, prefix, name or slug (required)'
complete -c sq -n '__sq_is \'squids create\'' -l name -x -d 'squid name (at most 255 characters)'
complete -c sq -n '__sq_is \'squids create\'' -l account -x -a '(__sq_dynamic accounts)' -d 'platform account for an account crawler (id, prefix or username)'

# sq squids update
complete -c sq -n '__sq_is \'squids update\'' -l name -x -d 'new name (at most 255 characters)'
complete -c sq -n '__sq_is \'squids update\'' -l concurrency -x -d 'parallel workers, 1-20 (the crawler and plan may cap it)'
complete -c sq -n '__sq_is \'squids update\'' -l param -x -d 'set a squid parameter (repeatable)'
complete -c sq -n '__sq_is \'squids update\'' -l schedule -x -d 'run on this cron schedule, e.g. "0 9 * * 1"'
complete -c sq -n '__sq_is \'squids update\'' -l timezone -x -d 'IANA time zone of the schedule, e.g. Europe/Paris (exit 2 if unknown)'
complete -c sq -n '__sq_is \'squids update\'' -l no-schedule -d 'remove the schedule'
complete -c sq -n '__sq_is \'squids update\'' -l to-complete -d 'each run continues where the last one stopped'
complete -c sq -n '__sq_is \'squids update\'' -l no-to-complete -d 'each run starts over'
complete -c sq -n '__sq_is \'squids update\'' -l line-breaks -d 'keep line breaks in exported cells'
complete -c sq -n '__sq_is \'squids update\'' -l no-line-breaks -d 'strip line breaks from exported cells'
complete -c sq -n '__sq_is \'squids update\'' -l export-unique-results -d 'exports keep one row per unique result (export_unique_results)'
complete -c sq -n '__sq_is \'squids update\'' -l no-export-unique-results -d 'exports keep every row, duplicates too'
complete -c sq -n '__sq_is \'squids update\'' -l run-notify -x -d 'e-mail a run\'s end: on_success, on_error or none (run_notify)'
complete -c sq -n '__sq_is \'squids update\'' -l active -d 'let the squid run (is_active; a schedule then fires)'
complete -c sq -n '__sq_is \'squids update\'' -l inactive -d 'stop the squid from running (is_active false)'
complete -c sq -n '__sq_is \'squids update\'' -l add-account -x -a '(__sq_dynamic accounts)' -d 'link this account too, keeping the others (repeatable)'
complete -c sq -n '__sq_is \'squids update\'' -l remove-account -x -a '(__sq_dynamic accounts)' -d 'unlink this account, keeping the others (repeatable)'
complete -c sq -n '__sq_is \'squids update\'' -l account -x -a '(__sq_dynamic accounts)' -d 'REPLACE the linked accounts with exactly these (repeatable)'
complete -c sq -n '__sq_is \'squids update\'' -l no-accounts -d 'unlink every account'
complete -c sq -n '__sq_is \'squids update\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_arg \'squids update\' 0' -f -a '(__sq_dynamic squids)'

# sq squids activate
complete -c sq -n '__sq_is \'squids activate\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_arg \'squids activate\' 0' -f -a '(__sq_dynamic squids)'

# sq squids deactivate
complete -c sq -n '__sq_arg \'squids deactivate\' 0' -f -a '(__sq_dynamic squids)'

# sq squids empty
complete -c sq -n '__sq_is \'squids empty\'' -l type -x -a 'url params' -d 'which tasks to delete (required)'
complete -c sq -n '__sq_arg \'squids empty\' 0' -f -a '(__sq_dynamic squids)'

# sq squids delete
complete -c sq -n '__sq_arg \'squids delete\' 0' -f -a '(__sq_dynamic squids)'

# sq squids credits
complete -c sq -n '__sq_is \'squids credits\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'squids credits\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'squids credits\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'squids credits\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'
complete -c sq -n '__sq_arg \'squids credits\' 0' -f -a '(__sq_dynamic squids)'

# sq squids estimate
complete -c sq -n '__sq_arg \'squids estimate\' 0' -f -a '(__sq_dynamic squids)'

# sq squids chain
complete -c sq -n '__sq_sub \'squids chain\'' -a 'set' -d 'Create or change a squid\'s chain (POST, or PATCH when it has one), then show it'
complete -c sq -n '__sq_sub \'squids chain\'' -a 'delete' -d 'Remove a squid\'s chain (DELETE /v1/squids/{id}/chain); the target squid stays'
complete -c sq -n '__sq_sub \'squids chain\'' -a 'rm' -d 'alias of delete: Remove a squid\'s chain (DELETE /v1/squids/{id}/chain); the target squid stays'
complete -c sq -n '__sq_arg \'squids chain\' 0' -f -a '(__sq_dynamic squids)'

# sq squids chain set
complete -c sq -n '__sq_is \'squids chain set\'' -l target-crawler -x -a '(__sq_dynamic crawlers)' -d 'the crawler results go to: id, prefix, name or slug (required to create)'
complete -c sq -n '__sq_is \'squids chain set\'' -l field-map -x -d 'result field → task param of the target crawler, e.g. url=url (repeatable; required to create)'
complete -c sq -n '__sq_is \'squids chain set\'' -l autostart -d 'start the target\'s run when results arrive'
complete -c sq -n '__sq_is \'squids chain set\'' -l no-autostart -d 'queue the tasks and leave the target\'s run paused'
complete -c sq -n '__sq_is \'squids chain set\'' -l target-name -x -d 'name of the target squid (at most 255 characters)'
complete -c sq -n '__sq_is \'squids chain set\'' -l target-concurrency -x -d 'concurrency of the target squid, 1-20'
complete -c sq -n '__sq_is \'squids chain set\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_arg \'squids chain set\' 0' -f -a '(__sq_dynamic squids)'

# sq squids chain delete
complete -c sq -n '__sq_arg \'squids chain delete\' 0' -f -a '(__sq_dynamic squids)'

# sq tasks
complete -c sq -n '__sq_sub \'tasks\'' -a 'list' -d 'List the tasks of a squid (GET /v1/tasks?squid=)'
complete -c sq -n '__sq_sub \'tasks\'' -a 'ls' -d 'alias of list: List the tasks of a squid (GET /v1/tasks?squid=)'
complete -c sq -n '__sq_sub \'tasks\'' -a 'get' -d 'Show one task with its status (GET /v1/tasks/{id})'
complete -c sq -n '__sq_sub \'tasks\'' -a 'view' -d 'alias of get: Show one task with its status (GET /v1/tasks/{id})'
complete -c sq -n '__sq_sub \'tasks\'' -a 'add' -d 'Add tasks to a squid (POST /v1/tasks); duplicates are skipped by the API'
complete -c sq -n '__sq_sub \'tasks\'' -a 'upload' -d 'Upload tasks from a CSV/TSV file (POST /v1/tasks/upload, multipart)'
complete -c sq -n '__sq_sub \'tasks\'' -a 'upload-status' -d 'Show the state of a task upload (GET /v1/tasks/upload/{id})'
complete -c sq -n '__sq_sub \'tasks\'' -a 'delete' -d 'Delete a task (DELETE /v1/tasks/{id})'
complete -c sq -n '__sq_sub \'tasks\'' -a 'rm' -d 'alias of delete: Delete a task (DELETE /v1/tasks/{id})'

# sq tasks list
complete -c sq -n '__sq_is \'tasks list\'' -l squid -x -a '(__sq_dynamic squids)' -d 'squid id, prefix or exact name (required)'
complete -c sq -n '__sq_is \'tasks list\'' -l type -x -a 'url params' -d 'detail level'
complete -c sq -n '__sq_is \'tasks list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'tasks list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'tasks list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'tasks list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq tasks get
complete -c sq -n '__sq_is \'tasks get\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <task> is an id prefix, look for it only in this squid\'s tasks (id, id prefix or exact name)'

# sq tasks add
complete -c sq -n '__sq_is \'tasks add\'' -l squid -x -a '(__sq_dynamic squids)' -d 'squid id, prefix or exact name (required)'
complete -c sq -n '__sq_is \'tasks add\'' -l key -x -d 'task parameter each value is sent as'
complete -c sq -n '__sq_is \'tasks add\'' -l file -r -F -d 'values (one per line) or a JSON array of task objects; "-" for stdin'
complete -c sq -n '__sq_is \'tasks add\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'

# sq tasks upload
complete -c sq -n '__sq_is \'tasks upload\'' -l squid -x -a '(__sq_dynamic squids)' -d 'squid id, prefix or exact name (required)'
complete -c sq -n '__sq_is \'tasks upload\'' -l wait -d 'wait until the upload is processed and print its summary'
complete -c sq -n '__sq_is \'tasks upload\'' -l timeout -x -d 'give up waiting after this long, at most 7d (with --wait)'
complete -c sq -n '__sq_is \'tasks upload\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_arg \'tasks upload\' 0' -F

# sq tasks upload-status

# sq tasks delete
complete -c sq -n '__sq_is \'tasks delete\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <task> is an id prefix, look for it only in this squid\'s tasks (id, id prefix or exact name)'

# sq runs
complete -c sq -n '__sq_sub \'runs\'' -a 'list' -d 'List runs newest first: a squid\'s, or the most recent across squids'
complete -c sq -n '__sq_sub \'runs\'' -a 'ls' -d 'alias of list: List runs newest first: a squid\'s, or the most recent across squids'
complete -c sq -n '__sq_sub \'runs\'' -a 'get' -d 'Show one run (status, results, credits, export state)'
complete -c sq -n '__sq_sub \'runs\'' -a 'view' -d 'alias of get: Show one run (status, results, credits, export state)'
complete -c sq -n '__sq_sub \'runs\'' -a 'start' -d 'Start a run of a squid; --wait follows it to the end'
complete -c sq -n '__sq_sub \'runs\'' -a 'watch' -d 'Wait for a run to finish and its export to be ready, showing progress'
complete -c sq -n '__sq_sub \'runs\'' -a 'stats' -d 'Show a run\'s progress: percent done, tasks done/left, results, ETA'
complete -c sq -n '__sq_sub \'runs\'' -a 'credits' -d 'Show what a run cost: total credits, the breakdown per function, and the rates (GET /v1/runs/{run}/credits)'
complete -c sq -n '__sq_sub \'runs\'' -a 'tasks' -d 'List the tasks of a run with their status and result counts'
complete -c sq -n '__sq_sub \'runs\'' -a 'abort' -d 'Stop a running run (results collected so far are still exported and billed)'
complete -c sq -n '__sq_sub \'runs\'' -a 'stop' -d 'alias of abort: Stop a running run (results collected so far are still exported and billed)'
complete -c sq -n '__sq_sub \'runs\'' -a 'download' -d 'Download a finished run\'s export as CSV, XLSX, JSON or JSONL'

# sq runs list
complete -c sq -n '__sq_is \'runs list\'' -l squid -x -a '(__sq_dynamic squids)' -d 'squid id, id prefix or exact name'
complete -c sq -n '__sq_is \'runs list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'runs list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'runs list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'runs list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq runs get
complete -c sq -n '__sq_is \'runs get\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_is \'runs get\'' -l web -d 'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL'
complete -c sq -n '__sq_arg \'runs get\' 0' -f -a '(__sq_dynamic runs)'

# sq runs start
complete -c sq -n '__sq_is \'runs start\'' -l squid -x -a '(__sq_dynamic squids)' -d 'squid id, id prefix or exact name (required)'
complete -c sq -n '__sq_is \'runs start\'' -l wait -d 'wait until the run is done and its export is ready'
complete -c sq -n '__sq_is \'runs start\'' -l idempotency-key -x -d 'start at most one run for KEY: the run KEY started in the last 24 h (kept per profile in the cache directory) is shown, or waited for, instead of a new one, whatever state it is in'
complete -c sq -n '__sq_is \'runs start\'' -l timeout -x -d 'give up waiting after this long, at most 7d (exit 7; the run continues on the server)'
complete -c sq -n '__sq_is \'runs start\'' -l interval -x -d 'time between polls, at most 1h; at least 5s against the live service'
complete -c sq -n '__sq_is \'runs start\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'

# sq runs watch
complete -c sq -n '__sq_is \'runs watch\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_is \'runs watch\'' -l timeout -x -d 'give up waiting after this long, at most 7d (exit 7; the run continues on the server)'
complete -c sq -n '__sq_is \'runs watch\'' -l interval -x -d 'time between polls, at most 1h; at least 5s against the live service'
complete -c sq -n '__sq_is \'runs watch\'' -l web -d 'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL'
complete -c sq -n '__sq_arg \'runs watch\' 0' -f -a '(__sq_dynamic runs)'

# sq runs stats
complete -c sq -n '__sq_is \'runs stats\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_arg \'runs stats\' 0' -f -a '(__sq_dynamic runs)'

# sq runs credits
complete -c sq -n '__sq_is \'runs credits\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_arg \'runs credits\' 0' -f -a '(__sq_dynamic runs)'

# sq runs tasks
complete -c sq -n '__sq_is \'runs tasks\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_is \'runs tasks\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'runs tasks\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'runs tasks\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'runs tasks\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'
complete -c sq -n '__sq_arg \'runs tasks\' 0' -f -a '(__sq_dynamic runs)'

# sq runs abort
complete -c sq -n '__sq_is \'runs abort\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_arg \'runs abort\' 0' -f -a '(__sq_dynamic runs)'

# sq runs download
complete -c sq -n '__sq_is \'runs download\'' -s o -l output -r -F -d 'where to write: a file, a directory, or - for stdout'
complete -c sq -n '__sq_is \'runs download\'' -l force -d 'replace an existing file (-o FILE, or the server\'s file name)'
complete -c sq -n '__sq_is \'runs download\'' -l file-format -x -a 'csv xlsx json jsonl' -d 'csv, xlsx, json (an array) or jsonl'
complete -c sq -n '__sq_is \'runs download\'' -l omit -x -d 'leave these columns out (comma-separated)'
complete -c sq -n '__sq_is \'runs download\'' -l squid -x -a '(__sq_dynamic squids)' -d 'when <run> is an id prefix, look for it only in this squid\'s runs (id, id prefix or exact name)'
complete -c sq -n '__sq_arg \'runs download\' 0' -f -a '(__sq_dynamic runs)'

# sq results
complete -c sq -n '__sq_sub \'results\'' -a 'list' -d 'List or export the results of a squid or of one run'
complete -c sq -n '__sq_sub \'results\'' -a 'ls' -d 'alias of list: List or export the results of a squid or of one run'
complete -c sq -n '__sq_sub \'results\'' -a 'export' -d 'alias of list: List or export the results of a squid or of one run'
complete -c sq -n '__sq_sub \'results\'' -a 'sync' -d 'Keep a database table in step with a squid\'s results (SQLite or Postgres)'

# sq results list
complete -c sq -n '__sq_is \'results list\'' -l squid -x -a '(__sq_dynamic squids)' -d 'results of every run of this squid (id, id prefix or exact name)'
complete -c sq -n '__sq_is \'results list\'' -l run -x -a '(__sq_dynamic runs)' -d 'results of this run only (id or id prefix)'
complete -c sq -n '__sq_is \'results list\'' -l task -x -d 'only the results of this task (id or id prefix)'
complete -c sq -n '__sq_is \'results list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'results list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'results list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'results list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'
complete -c sq -n '__sq_is \'results list\'' -s o -l output -r -F -d 'write the records to this regular file (atomically) instead of stdout; - is stdout'
complete -c sq -n '__sq_is \'results list\'' -l resume -d 'continue an interrupted --all export from its last whole page (-o FILE, or --checkpoint)'
complete -c sq -n '__sq_is \'results list\'' -l checkpoint -r -F -d 'with --all to stdout (ndjson, csv, tsv): record the pages written, for --resume'
complete -c sq -n '__sq_is \'results list\'' -l force -d 'with -o: replace an existing FILE; with --resume --checkpoint: continue into an empty stdout file (only the pages after the checkpoint)'

# sq results sync
complete -c sq -n '__sq_is \'results sync\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid whose done runs to sync (id, id prefix or exact name)'
complete -c sq -n '__sq_is \'results sync\'' -l run -x -a '(__sq_dynamic runs)' -d 'sync this one done run only (id or id prefix)'
complete -c sq -n '__sq_is \'results sync\'' -l to -x -d 'the database: sqlite:PATH, postgres://USER@HOST[:PORT]/DB (or postgresql://)'
complete -c sq -n '__sq_is \'results sync\'' -l table -x -d 'the table (an identifier; default: from the squid\'s name)'
complete -c sq -n '__sq_is \'results sync\'' -l key -x -d 'a result attribute that identifies a row across runs (repeatable): upsert on it'
complete -c sq -n '__sq_is \'results sync\'' -l follow -d 'keep syncing new done runs until interrupted'
complete -c sq -n '__sq_is \'results sync\'' -l interval -x -d 'with --follow: how often to look for new runs, at least 5s, at most 7d'
complete -c sq -n '__sq_is \'results sync\'' -s f -l file -r -F -d 'sync every squid of this account file that has a sync: block (sq apply\'s file; with --squid, that one)'
complete -c sq -n '__sq_is \'results sync\'' -l from-webhook -x -d 'with --follow: also sync at once on run.done events received on this local port, 0-65535 (0: any free one)'

# sq credits
complete -c sq -n '__sq_sub \'credits\'' -a 'modules' -d 'Show credits spent per crawler and function over completed runs (GET /v1/credits/modules)'
complete -c sq -n '__sq_sub \'credits\'' -a 'squids' -d 'Show credits spent per squid, deleted squids included for 30 days (GET /v1/credits/squids)'

# sq credits modules
complete -c sq -n '__sq_is \'credits modules\'' -l days -x -d 'only runs completed in the last N days, 1-3650'

# sq credits squids
complete -c sq -n '__sq_is \'credits squids\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'credits squids\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'credits squids\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'credits squids\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq accounts
complete -c sq -n '__sq_sub \'accounts\'' -a 'list' -d 'List the platform accounts (site logins) squids can use, with their health and squids (GET /v1/accounts)'
complete -c sq -n '__sq_sub \'accounts\'' -a 'ls' -d 'alias of list: List the platform accounts (site logins) squids can use, with their health and squids (GET /v1/accounts)'
complete -c sq -n '__sq_sub \'accounts\'' -a 'get' -d 'Show one account with its limits and linked squids (GET /v1/accounts/{id})'
complete -c sq -n '__sq_sub \'accounts\'' -a 'view' -d 'alias of get: Show one account with its limits and linked squids (GET /v1/accounts/{id})'
complete -c sq -n '__sq_sub \'accounts\'' -a 'types' -d 'List the account types (sites) that can be synchronized, with their cookies (GET /v1/accounts/types)'
complete -c sq -n '__sq_sub \'accounts\'' -a 'sync' -d 'Create or refresh an account from browser cookies (POST /v1/accounts/cookies)'
complete -c sq -n '__sq_sub \'accounts\'' -a 'update' -d 'Change an account\'s limits, e.g. profiles per day or the batch size (POST /v1/accounts)'
complete -c sq -n '__sq_sub \'accounts\'' -a 'delete' -d 'Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail'
complete -c sq -n '__sq_sub \'accounts\'' -a 'rm' -d 'alias of delete: Delete an account (DELETE /v1/accounts/{id}); squids using it will then fail'

# sq accounts list
complete -c sq -n '__sq_is \'accounts list\'' -l limit -x -d 'how many records to show, at most 1000000 (read 100 per request; at most 100 with --page; --all for everything)'
complete -c sq -n '__sq_is \'accounts list\'' -l page -x -d 'read this page only (1-1000000; page size = --limit)'
complete -c sq -n '__sq_is \'accounts list\'' -l all -d 'read every page, writing records as they arrive (--jq/--template run on each page)'
complete -c sq -n '__sq_is \'accounts list\'' -l slurp -d 'with --all and --jq/--template: run the filter once on the whole list, held in memory (at most SQ_SLURP_MAX_MB, 256 MB)'

# sq accounts get
complete -c sq -n '__sq_arg \'accounts get\' 0' -f -a '(__sq_dynamic accounts)'

# sq accounts types

# sq accounts sync
complete -c sq -n '__sq_is \'accounts sync\'' -l type -x -a '(__sq_dynamic account-types)' -d 'account type name, see `sq accounts types` (required unless --account is given)'
complete -c sq -n '__sq_is \'accounts sync\'' -l cookies-file -r -F -d 'cookies export; "-" for stdin (required)'
complete -c sq -n '__sq_is \'accounts sync\'' -l account -x -a '(__sq_dynamic accounts)' -d 'refresh this existing account instead of creating one (id or id prefix)'
complete -c sq -n '__sq_is \'accounts sync\'' -l wait -d 'wait until the synchronization succeeds or fails'
complete -c sq -n '__sq_is \'accounts sync\'' -l timeout -x -d 'give up waiting after this long, at most 7d (with --wait)'

# sq accounts update
complete -c sq -n '__sq_is \'accounts update\'' -l limit -x -d 'set one limit (repeatable)'
complete -c sq -n '__sq_arg \'accounts update\' 0' -f -a '(__sq_dynamic accounts)'

# sq accounts delete
complete -c sq -n '__sq_arg \'accounts delete\' 0' -f -a '(__sq_dynamic accounts)'

# sq go
complete -c sq -n '__sq_is \'go\'' -s p -l param -x -d 'set a squid parameter (repeatable, as squids update)'
complete -c sq -n '__sq_is \'go\'' -l account -x -a '(__sq_dynamic accounts)' -d 'platform account a new squid of an account crawler uses (default: the one healthy one of its type)'
complete -c sq -n '__sq_is \'go\'' -l key -x -d 'task parameter each TASK is sent as'
complete -c sq -n '__sq_is \'go\'' -s o -l output -r -F -d 'write the results to this regular file (atomically) instead of stdout; - is stdout'
complete -c sq -n '__sq_is \'go\'' -l force -d 'replace an existing -o file (else exit 2, before any request)'
complete -c sq -n '__sq_is \'go\'' -l timeout -x -d 'give up waiting after this long, at most 7d (exit 7; the run continues on the server)'
complete -c sq -n '__sq_is \'go\'' -l interval -x -d 'time between polls, at most 1h; at least 5s against the live service'
complete -c sq -n '__sq_is \'go\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_is \'go\'' -l to -x -d 'also sync the run\'s results into this database, as `sq results sync --run` (sqlite:PATH, postgres://…)'
complete -c sq -n '__sq_is \'go\'' -l table -x -d 'with --to: the table (default: from the squid\'s name)'
complete -c sq -n '__sq_is \'go\'' -l sync-key -x -d 'with --to: a result attribute that identifies a row across runs (repeatable), as `sq results sync --key`'
complete -c sq -n '__sq_arg \'go\' 0' -f -a '(__sq_dynamic crawlers)'

# sq delivery
complete -c sq -n '__sq_sub \'delivery\'' -a 'sftp' -d 'Send a squid\'s run results to an SFTP server (POST /v1/delivery)'
complete -c sq -n '__sq_sub \'delivery\'' -a 'webhook' -d 'POST run events of a squid to a URL (POST /v1/delivery)'
complete -c sq -n '__sq_sub \'delivery\'' -a 'email' -d 'E-mail a notice when a squid\'s runs complete (POST /v1/delivery)'
complete -c sq -n '__sq_sub \'delivery\'' -a 'sheet' -d 'Export a squid\'s results to a Google Sheet (POST /v1/delivery)'
complete -c sq -n '__sq_sub \'delivery\'' -a 's3' -d 'Upload a squid\'s results to an S3 bucket (POST /v1/delivery)'
complete -c sq -n '__sq_sub \'delivery\'' -a 'test' -d 'Check an SFTP server, webhook URL or e-mail address through the service before activating it'
complete -c sq -n '__sq_sub \'delivery\'' -a 'show' -d 'Show the delivery configuration of a squid (read from GET /v1/squids/{hash})'
complete -c sq -n '__sq_sub \'delivery\'' -a 'apply' -d 'Apply delivery settings for many squids from a YAML/JSON file (idempotent, for CI)'

# sq delivery sftp
complete -c sq -n '__sq_is \'delivery sftp\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'
complete -c sq -n '__sq_is \'delivery sftp\'' -l host -x -d 'SFTP server hostname or IP address'
complete -c sq -n '__sq_is \'delivery sftp\'' -l port -x -d 'SFTP server port (1-65535)'
complete -c sq -n '__sq_is \'delivery sftp\'' -l username -x -d 'login user name'
complete -c sq -n '__sq_is \'delivery sftp\'' -l directory -x -d 'target directory; it must already exist (the service does not create it)'
complete -c sq -n '__sq_is \'delivery sftp\'' -l password-stdin -d 'read the password from stdin (hidden prompt on a terminal)'
complete -c sq -n '__sq_is \'delivery sftp\'' -l password-env -x -d 'read the password from this environment variable'
complete -c sq -n '__sq_is \'delivery sftp\'' -l active -d 'enable this delivery'
complete -c sq -n '__sq_is \'delivery sftp\'' -l inactive -d 'keep the configuration but disable this delivery'

# sq delivery webhook
complete -c sq -n '__sq_is \'delivery webhook\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'
complete -c sq -n '__sq_is \'delivery webhook\'' -l url -x -d 'http(s) endpoint that receives the events'
complete -c sq -n '__sq_is \'delivery webhook\'' -l events -x -a '(__sq_list run.running run.paused run.done run.error all)' -d 'comma-separated events to subscribe to: run.running, run.paused, run.done, run.error, or "all"'
complete -c sq -n '__sq_is \'delivery webhook\'' -l retry -d 'retry failed deliveries (up to 3 times, 15 minutes apart)'
complete -c sq -n '__sq_is \'delivery webhook\'' -l no-retry -d 'do not retry failed deliveries'
complete -c sq -n '__sq_is \'delivery webhook\'' -l active -d 'enable this delivery'
complete -c sq -n '__sq_is \'delivery webhook\'' -l inactive -d 'keep the configuration but disable this delivery'

# sq delivery email
complete -c sq -n '__sq_is \'delivery email\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'
complete -c sq -n '__sq_is \'delivery email\'' -l email -x -d 'recipient address'
complete -c sq -n '__sq_is \'delivery email\'' -l notifications -d 'send an e-mail when a run completes'
complete -c sq -n '__sq_is \'delivery email\'' -l no-notifications -d 'keep the address, send no e-mails'

# sq delivery sheet
complete -c sq -n '__sq_is \'delivery sheet\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'
complete -c sq -n '__sq_is \'delivery sheet\'' -l url -x -d 'the Google Sheet URL'
complete -c sq -n '__sq_is \'delivery sheet\'' -l append -d 'append each run (deduplicated)'
complete -c sq -n '__sq_is \'delivery sheet\'' -l overwrite -d 'replace the sheet with the last run'
complete -c sq -n '__sq_is \'delivery sheet\'' -l active -d 'enable this delivery'
complete -c sq -n '__sq_is \'delivery sheet\'' -l inactive -d 'keep the configuration but disable this delivery'

# sq delivery s3
complete -c sq -n '__sq_is \'delivery s3\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'
complete -c sq -n '__sq_is \'delivery s3\'' -l bucket -x -d 'bucket name'
complete -c sq -n '__sq_is \'delivery s3\'' -l target-path -x -d 'folder inside the bucket ("" for the top)'
complete -c sq -n '__sq_is \'delivery s3\'' -l access-key-env -x -d 'environment variable holding the AWS access key id'
complete -c sq -n '__sq_is \'delivery s3\'' -l secret-key-env -x -d 'environment variable holding the AWS secret access key'
complete -c sq -n '__sq_is \'delivery s3\'' -l active -d 'enable this delivery'
complete -c sq -n '__sq_is \'delivery s3\'' -l inactive -d 'keep the configuration but disable this delivery'

# sq delivery test
complete -c sq -n '__sq_is \'delivery test\'' -l host -x -d 'SFTP server hostname or IP address'
complete -c sq -n '__sq_is \'delivery test\'' -l port -x -d 'SFTP server port (1-65535)'
complete -c sq -n '__sq_is \'delivery test\'' -l username -x -d 'login user name'
complete -c sq -n '__sq_is \'delivery test\'' -l directory -x -d 'target directory; it must already exist (the service does not create it)'
complete -c sq -n '__sq_is \'delivery test\'' -l password-stdin -d 'read the password from stdin (hidden prompt on a terminal)'
complete -c sq -n '__sq_is \'delivery test\'' -l password-env -x -d 'read the password from this environment variable'
complete -c sq -n '__sq_is \'delivery test\'' -l url -x -d 'webhook: the endpoint to try'
complete -c sq -n '__sq_is \'delivery test\'' -l email -x -d 'email: where to send the test e-mail'
complete -c sq -n '__sq_is \'delivery test\'' -l squid -x -a '(__sq_dynamic squids)' -d 'reuse this squid\'s stored configuration for values not given as flags'

# sq delivery show
complete -c sq -n '__sq_is \'delivery show\'' -l squid -x -a '(__sq_dynamic squids)' -d 'the squid: full hash, unique hash prefix or exact name'

# sq delivery apply
complete -c sq -n '__sq_is \'delivery apply\'' -s f -l file -r -F -d 'the YAML or JSON file ("-" reads stdin)'
complete -c sq -n '__sq_is \'delivery apply\'' -l force -d 'send every channel in the file even when it looks unchanged'
complete -c sq -n '__sq_is \'delivery apply\'' -l assume-unchanged -x -d 'take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)'

# sq billing
complete -c sq -n '__sq_sub \'billing\'' -a 'auto-reset' -d 'Show or set the automatic billing reset (renews the plan and charges the card when usage crosses a threshold)'

# sq billing auto-reset
complete -c sq -n '__sq_is \'billing auto-reset\'' -l enable -d 'turn automatic resets on (asks for confirmation; --yes in scripts)'
complete -c sq -n '__sq_is \'billing auto-reset\'' -l disable -d 'turn automatic resets off'
complete -c sq -n '__sq_is \'billing auto-reset\'' -l threshold -x -d 'usage percentage that triggers a reset (integer 1-100)'
complete -c sq -n '__sq_is \'billing auto-reset\'' -l max-resets -x -d 'maximum resets in any rolling 24 hours (integer 1-10)'
complete -c sq -n '__sq_is \'billing auto-reset\'' -l web -d 'open the page in the dashboard instead ($BROWSER, else the system opener); with no browser, no terminal or in CI, print its URL'

# sq plan
complete -c sq -n '__sq_is \'plan\'' -s f -l file -r -F -d 'the account file, YAML or JSON ("-" reads stdin)'
complete -c sq -n '__sq_is \'plan\'' -l detailed-exitcode -d 'exit 10 when apply would send something (0: nothing)'
complete -c sq -n '__sq_is \'plan\'' -l assume-unchanged -x -d 'take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)'

# sq apply
complete -c sq -n '__sq_is \'apply\'' -s f -l file -r -F -d 'the account file, YAML or JSON ("-" reads stdin)'
complete -c sq -n '__sq_is \'apply\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'
complete -c sq -n '__sq_is \'apply\'' -l assume-unchanged -x -d 'take this delivery field that cannot be read back as unchanged (FIELD or CHANNEL.FIELD, e.g. directory, webhook.events; repeatable, comma-separated)'

# sq export

# sq webhook
complete -c sq -n '__sq_sub \'webhook\'' -a 'listen' -d 'Receive webhook events on this machine: validate, print, optionally forward'

# sq webhook listen
complete -c sq -n '__sq_is \'webhook listen\'' -l port -x -d 'port to listen on, 0-65535 (0 = any free port)'
complete -c sq -n '__sq_is \'webhook listen\'' -l host -x -d 'address to bind'
complete -c sq -n '__sq_is \'webhook listen\'' -l path -x -d 'URL path that receives events'
complete -c sq -n '__sq_is \'webhook listen\'' -l events -x -a '(__sq_list run.running run.paused run.done run.error all)' -d 'events to keep: run.running, run.paused, run.done, run.error, or "all"'
complete -c sq -n '__sq_is \'webhook listen\'' -l forward-to -x -d 'relay each kept event (original body and Content-Type) to this http(s) URL'

# sq api
complete -c sq -n '__sq_is \'api\'' -s X -l method -x -a 'GET POST PUT PATCH DELETE HEAD' -d 'HTTP method'
complete -c sq -n '__sq_is \'api\'' -s f -l raw-field -x -d 'string field (repeatable)'
complete -c sq -n '__sq_is \'api\'' -s F -l field -x -d 'typed field: JSON if it parses, else a string (repeatable)'
complete -c sq -n '__sq_is \'api\'' -l input -r -F -d 'request body from a file ("-" for stdin)'
complete -c sq -n '__sq_is \'api\'' -l paginate -d 'follow every page of a list endpoint'
complete -c sq -n '__sq_is \'api\'' -s H -l header -x -d 'add a request header (repeatable)'
complete -c sq -n '__sq_is \'api\'' -s i -l include -d 'print the HTTP status line and response headers before the body'
complete -c sq -n '__sq_is \'api\'' -l max-credits -x -d 'estimate first and start nothing (exit 9) when the run would cost more than N credits (a number, at least 0); default: SQ_MAX_CREDITS, else `sq config get max-credits`'

# sq mcp
complete -c sq -n '__sq_is \'mcp\'' -l allow-writes -x -d 'serve write tools: alone, all but deletes and billing; "all": every one; or a comma-separated list of tools'
complete -c sq -n '__sq_is \'mcp\'' -l root -x -d 'the directory whose files tools may read (plan/apply "file"); without it no tool reads a file'
complete -c sq -n '__sq_is \'mcp\'' -l secret-env -x -d 'environment variables a write may read a secret from (comma-separated, repeatable)'
complete -c sq -n '__sq_is \'mcp\'' -l confirm-above -x -d 'go and runs_start answer needs_confirmation above this estimate (0-1000000000)'
complete -c sq -n '__sq_is \'mcp\'' -l max-message-bytes -x -d 'the largest JSON-RPC message (1024-1073741824)'
complete -c sq -n '__sq_is \'mcp\'' -l http -x -d 'serve Streamable HTTP on HOST:PORT (port 0: any; a port alone binds 127.0.0.1)'
complete -c sq -n '__sq_is \'mcp\'' -l token-env -x -d 'with --http: the Bearer token is this environment variable\'s value'

# sq emulator
complete -c sq -n '__sq_sub \'emulator\'' -a 'start' -d 'Start the emulator; prints {"base_url","token"} as one JSON line on stdout'

# sq emulator start
complete -c sq -n '__sq_is \'emulator start\'' -l host -x -d 'address to bind (loopback by default)'
complete -c sq -n '__sq_is \'emulator start\'' -l port -x -d 'port, 0-65535; 0 picks a free one'
complete -c sq -n '__sq_is \'emulator start\'' -l seed -x -a 'demo empty' -d 'initial data'
complete -c sq -n '__sq_is \'emulator start\'' -l clock -x -a 'real virtual' -d 'business time for runs, webhook retries, billing checks'
complete -c sq -n '__sq_is \'emulator start\'' -l time-scale -x -d 'real clock speed-up, e.g. 60 = one minute per second (1-3600)'
complete -c sq -n '__sq_is \'emulator start\'' -l free-plan -d 'cap paginated lists at 50 records with the free-plan warning'
complete -c sq -n '__sq_is \'emulator start\'' -l rate-limits -x -d 'on, off, or a multiplier of the documented limits (e.g. 0.1)'
complete -c sq -n '__sq_is \'emulator start\'' -l state -r -F -d 'keep state across restarts in this file (written atomically)'

# sq doctor
complete -c sq -n '__sq_is \'doctor\'' -l strict -d 'warnings fail too (exit 1): completion, Node.js end of life, updates, file modes, rate budget'

# sq version

# sq completion
complete -c sq -n '__sq_arg \'completion\' 0' -f -a 'bash zsh fish'

# sq help
complete -c sq -n '__sq_is \'help\'' -l man -d 'print the manual page (roff) of sq, or of the command named; read it with `sq help --man | man -l -`'
complete -c sq -n '__sq_arg \'help\' 0 +' -f -a 'auth profiles config me balance status crawlers squids tasks runs results credits accounts go delivery billing plan apply export webhook api mcp emulator doctor version completion environment exit-codes globals'

complete -c lobstr-sq --wraps sq
