# bash completion for sq. Generated from the command tree by `sq completion bash`: do not edit.
# Install: source <(sq completion bash)   or   sq completion bash > /etc/bash_completion.d/sq
# Completes sq and lobstr-sq (the same command), and an alias sq=... as the README's tour defines.

# Subcommand words (names and aliases) under a command path.
_sq_cmds() {
  case "$1" in
    '') echo 'auth profiles config me balance status crawlers squids tasks runs results credits accounts go delivery billing plan apply export webhook api mcp emulator doctor version completion help' ;;
    'auth') echo 'login logout status switch' ;;
    'profiles') echo 'list ls remove rm' ;;
    'config') echo 'get set unset list ls' ;;
    'crawlers') echo 'list ls get view params attributes attrs' ;;
    'squids') echo 'list ls get view create update activate deactivate empty delete rm credits estimate chain' ;;
    'squids chain') echo 'set delete rm' ;;
    'tasks') echo 'list ls get view add upload upload-status delete rm' ;;
    'runs') echo 'list ls get view start watch stats credits tasks abort stop download' ;;
    'results') echo 'list ls export sync' ;;
    'credits') echo 'modules squids' ;;
    'accounts') echo 'list ls get view types sync update delete rm' ;;
    'delivery') echo 'sftp webhook email sheet s3 test show apply' ;;
    'billing') echo 'auto-reset' ;;
    'webhook') echo 'listen' ;;
    'emulator') echo 'start' ;;
  esac
}

# The canonical name of subcommand word $2 under path $1 (aliases resolve to their command).
_sq_canon() {
  case "$1|$2" in
    '|auth') echo 'auth' ;;
    '|profiles') echo 'profiles' ;;
    '|config') echo 'config' ;;
    '|me') echo 'me' ;;
    '|balance') echo 'balance' ;;
    '|status') echo 'status' ;;
    '|crawlers') echo 'crawlers' ;;
    '|squids') echo 'squids' ;;
    '|tasks') echo 'tasks' ;;
    '|runs') echo 'runs' ;;
    '|results') echo 'results' ;;
    '|credits') echo 'credits' ;;
    '|accounts') echo 'accounts' ;;
    '|go') echo 'go' ;;
    '|delivery') echo 'delivery' ;;
    '|billing') echo 'billing' ;;
    '|plan') echo 'plan' ;;
    '|apply') echo 'apply' ;;
    '|export') echo 'export' ;;
    '|webhook') echo 'webhook' ;;
    '|api') echo 'api' ;;
    '|mcp') echo 'mcp' ;;
    '|emulator') echo 'emulator' ;;
    '|doctor') echo 'doctor' ;;
    '|version') echo 'version' ;;
    '|completion') echo 'completion' ;;
    '|help') echo 'help' ;;
    'auth|login') echo 'login' ;;
    'auth|logout') echo 'logout' ;;
    'auth|status') echo 'status' ;;
    'auth|switch') echo 'switch' ;;
    'profiles|list'|'profiles|ls') echo 'list' ;;
    'profiles|remove'|'profiles|rm') echo 'remove' ;;
    'config|get') echo 'get' ;;
    'config|set') echo 'set' ;;
    'config|unset') echo 'unset' ;;
    'config|list'|'config|ls') echo 'list' ;;
    'crawlers|list'|'crawlers|ls') echo 'list' ;;
    'crawlers|get'|'crawlers|view') echo 'get' ;;
    'crawlers|params') echo 'params' ;;
    'crawlers|attributes'|'crawlers|attrs') echo 'attributes' ;;
    'squids|list'|'squids|ls') echo 'list' ;;
    'squids|get'|'squids|view') echo 'get' ;;
    'squids|create') echo 'create' ;;
    'squids|update') echo 'update' ;;
    'squids|activate') echo 'activate' ;;
    'squids|deactivate') echo 'deactivate' ;;
    'squids|empty') echo 'empty' ;;
    'squids|delete'|'squids|rm') echo 'delete' ;;
    'squids|credits') echo 'credits' ;;
    'squids|estimate') echo 'estimate' ;;
    'squids|chain') echo 'chain' ;;
    'squids chain|set') echo 'set' ;;
    'squids chain|delete'|'squids chain|rm') echo 'delete' ;;
    'tasks|list'|'tasks|ls') echo 'list' ;;
    'tasks|get'|'tasks|view') echo 'get' ;;
    'tasks|add') echo 'add' ;;
    'tasks|upload') echo 'upload' ;;
    'tasks|upload-status') echo 'upload-status' ;;
    'tasks|delete'|'tasks|rm') echo 'delete' ;;
    'runs|list'|'runs|ls') echo 'list' ;;
    'runs|get'|'runs|view') echo 'get' ;;
    'runs|start') echo 'start' ;;
    'runs|watch') echo 'watch' ;;
    'runs|stats') echo 'stats' ;;
    'runs|credits') echo 'credits' ;;
    'runs|tasks') echo 'tasks' ;;
    'runs|abort'|'runs|stop') echo 'abort' ;;
    'runs|download') echo 'download' ;;
    'results|list'|'results|ls'|'results|export') echo 'list' ;;
    'results|sync') echo 'sync' ;;
    'credits|modules') echo 'modules' ;;
    'credits|squids') echo 'squids' ;;
    'accounts|list'|'accounts|ls') echo 'list' ;;
    'accounts|get'|'accounts|view') echo 'get' ;;
    'accounts|types') echo 'types' ;;
    'accounts|sync') echo 'sync' ;;
    'accounts|update') echo 'update' ;;
    'accounts|delete'|'accounts|rm') echo 'delete' ;;
    'delivery|sftp') echo 'sftp' ;;
    'delivery|webhook') echo 'webhook' ;;
    'delivery|email') echo 'email' ;;
    'delivery|sheet') echo 'sheet' ;;
    'delivery|s3') echo 's3' ;;
    'delivery|test') echo 'test' ;;
    'delivery|show') echo 'show' ;;
    'delivery|apply') echo 'apply' ;;
    'billing|auto-reset') echo 'auto-reset' ;;
    'webhook|listen') echo 'listen' ;;
    'emulator|start') echo 'start' ;;
  esac
}

# Options accepted at a command path: its own, then the global ones.
_sq_opts() {
  case "$1" in
    '') echo '-V --version' ;;
    'auth login') echo '--with-token' ;;
    'status') echo '--timeout --web' ;;
    'crawlers list') echo '--search --limit --page --all --slurp' ;;
    'squids list') echo '--name --limit --page --all --slurp' ;;
    'squids get') echo '--web' ;;
    'squids create') echo '--crawler --name --account' ;;
    'squids update') echo '--name --concurrency --param --schedule --timezone --no-schedule --to-complete --no-to-complete --line-breaks --no-line-breaks --export-unique-results --no-export-unique-results --run-notify --active --inactive --add-account --remove-account --account --no-accounts --max-credits' ;;
    'squids activate') echo '--max-credits' ;;
    'squids empty') echo '--type' ;;
    'squids credits') echo '--limit --page --all --slurp' ;;
    'squids chain set') echo '--target-crawler --field-map --autostart --no-autostart --target-name --target-concurrency --max-credits' ;;
    'tasks list') echo '--squid --type --limit --page --all --slurp' ;;
    'tasks get') echo '--squid' ;;
    'tasks add') echo '--squid --key --file --max-credits' ;;
    'tasks upload') echo '--squid --wait --timeout --max-credits' ;;
    'tasks delete') echo '--squid' ;;
    'runs list') echo '--squid --limit --page --all --slurp' ;;
    'runs get') echo '--squid --web' ;;
    'runs start') echo '--squid --wait --idempotency-key --timeout --interval --max-credits' ;;
    'runs watch') echo '--squid --timeout --interval --web' ;;
    'runs stats') echo '--squid' ;;
    'runs credits') echo '--squid' ;;
    'runs tasks') echo '--squid --limit --page --all --slurp' ;;
    'runs abort') echo '--squid' ;;
    'runs download') echo '-o --output --force --file-format --omit --squid' ;;
    'results list') echo '--squid --run --task --limit --page --all --slurp -o --output --resume --checkpoint --force' ;;
    'results sync') echo '--squid --run --to --table --key --follow --interval -f --file --from-webhook' ;;
    'credits modules') echo '--days' ;;
    'credits squids') echo '--limit --page --all --slurp' ;;
    'accounts list') echo '--limit --page --all --slurp' ;;
    'accounts sync') echo '--type --cookies-file --account --wait --timeout' ;;
    'accounts update') echo '--limit' ;;
    'go') echo '-p --param --account --key -o --output --force --timeout --interval --max-credits --to --table --sync-key' ;;
    'delivery sftp') echo '--squid --host --port --username --directory --password-stdin --password-env --active --inactive' ;;
    'delivery webhook') echo '--squid --url --events --retry --no-retry --active --inactive' ;;
    'delivery email') echo '--squid --email --notifications --no-notifications' ;;
    'delivery sheet') echo '--squid --url --append --overwrite --active --inactive' ;;
    'delivery s3') echo '--squid --bucket --target-path --access-key-env --secret-key-env --active --inactive' ;;
    'delivery test') echo '--host --port --username --directory --password-stdin --password-env --url --email --squid' ;;
    'delivery show') echo '--squid' ;;
    'delivery apply') echo '-f --file --force --assume-unchanged' ;;
    'billing auto-reset') echo '--enable --disable --threshold --max-resets --web' ;;
    'plan') echo '-f --file --detailed-exitcode --assume-unchanged' ;;
    'apply') echo '-f --file --max-credits --assume-unchanged' ;;
    'webhook listen') echo '--port --host --path --events --forward-to' ;;
    'api') echo '-X --method -f --raw-field -F --field --input --paginate -H --header -i --include --max-credits' ;;
    'mcp') echo '--allow-writes --root --secret-env --confirm-above --max-message-bytes --http --token-env' ;;
    'emulator start') echo '--host --port --seed --clock --time-scale --free-plan --rate-limits --state' ;;
    'doctor') echo '--strict' ;;
    'help') echo '--man' ;;
  esac
  echo '--profile --base-url --insecure-http --json --format --fields --jq --template --full-ids --wide --absolute-times --csv-safe --no-color -q --quiet -v --verbose -y --yes --no-input --dry-run --show-secrets -h --help'
}

# Options at a command path that take a value (so the walk can skip the value).
_sq_vopts() {
  case "$1" in
    'status') echo '--timeout' ;;
    'crawlers list') echo '--search --limit --page' ;;
    'squids list') echo '--name --limit --page' ;;
    'squids create') echo '--crawler --name --account' ;;
    'squids update') echo '--name --concurrency --param --schedule --timezone --run-notify --add-account --remove-account --account --max-credits' ;;
    'squids activate') echo '--max-credits' ;;
    'squids empty') echo '--type' ;;
    'squids credits') echo '--limit --page' ;;
    'squids chain set') echo '--target-crawler --field-map --target-name --target-concurrency --max-credits' ;;
    'tasks list') echo '--squid --type --limit --page' ;;
    'tasks get') echo '--squid' ;;
    'tasks add') echo '--squid --key --file --max-credits' ;;
    'tasks upload') echo '--squid --timeout --max-credits' ;;
    'tasks delete') echo '--squid' ;;
    'runs list') echo '--squid --limit --page' ;;
    'runs get') echo '--squid' ;;
    'runs start') echo '--squid --idempotency-key --timeout --interval --max-credits' ;;
    'runs watch') echo '--squid --timeout --interval' ;;
    'runs stats') echo '--squid' ;;
    'runs credits') echo '--squid' ;;
    'runs tasks') echo '--squid --limit --page' ;;
    'runs abort') echo '--squid' ;;
    'runs download') echo '-o --output --file-format --omit --squid' ;;
    'results list') echo '--squid --run --task --limit --page -o --output --checkpoint' ;;
    'results sync') echo '--squid --run --to --table --key --interval -f --file --from-webhook' ;;
    'credits modules') echo '--days' ;;
    'credits squids') echo '--limit --page' ;;
    'accounts list') echo '--limit --page' ;;
    'accounts sync') echo '--type --cookies-file --account --timeout' ;;
    'accounts update') echo '--limit' ;;
    'go') echo '-p --param --account --key -o --output --timeout --interval --max-credits --to --table --sync-key' ;;
    'delivery sftp') echo '--squid --host --port --username --directory --password-env' ;;
    'delivery webhook') echo '--squid --url --events' ;;
    'delivery email') echo '--squid --email' ;;
    'delivery sheet') echo '--squid --url' ;;
    'delivery s3') echo '--squid --bucket --target-path --access-key-env --secret-key-env' ;;
    'delivery test') echo '--host --port --username --directory --password-env --url --email --squid' ;;
    'delivery show') echo '--squid' ;;
    'delivery apply') echo '-f --file --assume-unchanged' ;;
    'billing auto-reset') echo '--threshold --max-resets' ;;
    'plan') echo '-f --file --assume-unchanged' ;;
    'apply') echo '-f --file --max-credits --assume-unchanged' ;;
    'webhook listen') echo '--port --host --path --events --forward-to' ;;
    'api') echo '-X --method -f --raw-field -F --field --input -H --header --max-credits' ;;
    'mcp') echo '--allow-writes --root --secret-env --confirm-above --max-message-bytes --http --token-env' ;;
    'emulator start') echo '--host --port --seed --clock --time-scale --rate-limits --state' ;;
  esac
  echo '--profile --base-url --format --fields --jq --template'
}

# How to complete the value of option $2 at path $1: "file", "words …", "list …" (comma-separated) or nothing.
_sq_optval() {
  case "$1|$2" in
    'squids create|--crawler') echo 'dyn crawlers' ;;
    'squids create|--account') echo 'dyn accounts' ;;
    'squids update|--add-account') echo 'dyn accounts' ;;
    'squids update|--remove-account') echo 'dyn accounts' ;;
    'squids update|--account') echo 'dyn accounts' ;;
    'squids empty|--type') echo 'words url params' ;;
    'squids chain set|--target-crawler') echo 'dyn crawlers' ;;
    'tasks list|--squid') echo 'dyn squids' ;;
    'tasks list|--type') echo 'words url params' ;;
    'tasks get|--squid') echo 'dyn squids' ;;
    'tasks add|--squid') echo 'dyn squids' ;;
    'tasks add|--file') echo 'file' ;;
    'tasks upload|--squid') echo 'dyn squids' ;;
    'tasks delete|--squid') echo 'dyn squids' ;;
    'runs list|--squid') echo 'dyn squids' ;;
    'runs get|--squid') echo 'dyn squids' ;;
    'runs start|--squid') echo 'dyn squids' ;;
    'runs watch|--squid') echo 'dyn squids' ;;
    'runs stats|--squid') echo 'dyn squids' ;;
    'runs credits|--squid') echo 'dyn squids' ;;
    'runs tasks|--squid') echo 'dyn squids' ;;
    'runs abort|--squid') echo 'dyn squids' ;;
    'runs download|-o'|'runs download|--output') echo 'file' ;;
    'runs download|--file-format') echo 'words csv xlsx json jsonl' ;;
    'runs download|--squid') echo 'dyn squids' ;;
    'results list|--squid') echo 'dyn squids' ;;
    'results list|--run') echo 'dyn runs' ;;
    'results list|-o'|'results list|--output') echo 'file' ;;
    'results list|--checkpoint') echo 'file' ;;
    'results sync|--squid') echo 'dyn squids' ;;
    'results sync|--run') echo 'dyn runs' ;;
    'results sync|-f'|'results sync|--file') echo 'file' ;;
    'accounts sync|--type') echo 'dyn account-types' ;;
    'accounts sync|--cookies-file') echo 'file' ;;
    'accounts sync|--account') echo 'dyn accounts' ;;
    'go|--account') echo 'dyn accounts' ;;
    'go|-o'|'go|--output') echo 'file' ;;
    'delivery sftp|--squid') echo 'dyn squids' ;;
    'delivery webhook|--squid') echo 'dyn squids' ;;
    'delivery webhook|--events') echo 'list run.running run.paused run.done run.error all' ;;
    'delivery email|--squid') echo 'dyn squids' ;;
    'delivery sheet|--squid') echo 'dyn squids' ;;
    'delivery s3|--squid') echo 'dyn squids' ;;
    'delivery test|--squid') echo 'dyn squids' ;;
    'delivery show|--squid') echo 'dyn squids' ;;
    'delivery apply|-f'|'delivery apply|--file') echo 'file' ;;
    'plan|-f'|'plan|--file') echo 'file' ;;
    'apply|-f'|'apply|--file') echo 'file' ;;
    'webhook listen|--events') echo 'list run.running run.paused run.done run.error all' ;;
    'api|-X'|'api|--method') echo 'words GET POST PUT PATCH DELETE HEAD' ;;
    'api|--input') echo 'file' ;;
    'emulator start|--seed') echo 'words demo empty' ;;
    'emulator start|--clock') echo 'words real virtual' ;;
    'emulator start|--state') echo 'file' ;;
    *'|--profile') echo 'dyn profiles' ;;
    *'|--base-url') ;;
    *'|--format') echo 'words table json ndjson csv tsv' ;;
    *'|--fields') ;;
    *'|--jq') ;;
    *'|--template') ;;
  esac
}

# How to complete positional argument number $2 (from 0) at path $1.
_sq_argval() {
  case "$1|$2" in
    'auth switch|0') echo 'dyn profiles' ;;
    'profiles remove|0') echo 'dyn profiles' ;;
    'crawlers get|0') echo 'dyn crawlers' ;;
    'crawlers params|0') echo 'dyn crawlers' ;;
    'crawlers attributes|0') echo 'dyn crawlers' ;;
    'squids get|0') echo 'dyn squids' ;;
    'squids update|0') echo 'dyn squids' ;;
    'squids activate|0') echo 'dyn squids' ;;
    'squids deactivate|0') echo 'dyn squids' ;;
    'squids empty|0') echo 'dyn squids' ;;
    'squids delete|0') echo 'dyn squids' ;;
    'squids credits|0') echo 'dyn squids' ;;
    'squids estimate|0') echo 'dyn squids' ;;
    'squids chain|0') echo 'dyn squids' ;;
    'squids chain set|0') echo 'dyn squids' ;;
    'squids chain delete|0') echo 'dyn squids' ;;
    'tasks upload|0') echo 'file' ;;
    'runs get|0') echo 'dyn runs' ;;
    'runs watch|0') echo 'dyn runs' ;;
    'runs stats|0') echo 'dyn runs' ;;
    'runs credits|0') echo 'dyn runs' ;;
    'runs tasks|0') echo 'dyn runs' ;;
    'runs abort|0') echo 'dyn runs' ;;
    'runs download|0') echo 'dyn runs' ;;
    'accounts get|0') echo 'dyn accounts' ;;
    'accounts update|0') echo 'dyn accounts' ;;
    'accounts delete|0') echo 'dyn accounts' ;;
    'go|0') echo 'dyn crawlers' ;;
    'completion|0') echo 'words bash zsh fish' ;;
    'help|'*) echo 'words auth profiles config me balance status crawlers squids tasks runs results credits accounts go delivery billing plan apply export webhook api mcp emulator doctor version completion environment exit-codes globals' ;;
  esac
}

# Fill COMPREPLY from a value spec ($1) for the word being completed ($2).
_sq_values() {
  local kind=${1%% *} words= IFS=$'\n'
  [[ $1 == *' '* ]] && words=${1#* }
  case $kind in
    file)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$2")) ;;
    words)
      IFS=$' \t\n'
      COMPREPLY=($(compgen -W "$words" -- "$2")) ;;
    dyn)
      # Values only the service knows (squid names, run ids...), from sq's own short-lived cache: never a prompt,
      # never an error on the screen. The line's words go along (--profile, --base-url, --squid change the answer).
      # Names may hold spaces: one per line, quoted for the shell as typed so far ('...', "..." or backslashes).
      local v q= pre=$2 cmd
      # The command being completed; for an alias (alias sq="node .../bin/sq.js"), what it stands for, split on blanks
      # (IFS is a newline in this function, which would keep "node .../bin/sq.js" one word).
      if [[ -n ${BASH_ALIASES[${COMP_WORDS[0]}]-} ]]; then IFS=$' \t' read -ra cmd <<< "${BASH_ALIASES[${COMP_WORDS[0]}]}"; else cmd=("${COMP_WORDS[0]}"); fi
      [[ $pre == [\"\']* ]] && { q=${pre:0:1}; pre=${pre:1}; }
      while IFS=$'\t' read -r v _; do
        [[ -n $v && $v == "$pre"* ]] || continue
        case $q in
          \') v=${v//\'/\'\\\'\'}; COMPREPLY+=("'$v'") ;;
          # "!" is history expansion even inside "...", where a backslash before it stays: it is closed, escaped, reopened.
          \") v=${v//\\/\\\\}; v=${v//\"/\\\"}; v=${v//\$/\\\$}; v=${v//\`/\\\`}; v=${v//!/\"\\!\"}; COMPREPLY+=("\"$v\"") ;;
          *) printf -v v '%q' "$v"; COMPREPLY+=("$v") ;;
        esac
      done < <("${cmd[@]}" __complete "$words" -- "${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null </dev/null) ;;
    list)
      # Comma-separated: complete the last item, keep the ones before it, do not offer one twice.
      local head= last=$2 w
      if [[ $2 == *,* ]]; then head=${2%,*},; last=${2##*,}; fi
      IFS=$' \t\n'
      COMPREPLY=()
      for w in $(compgen -W "$words" -- "$last"); do
        [[ ,$head == *,"$w",* ]] || COMPREPLY+=("$head$w")
      done ;;
  esac
}

# Whether option $2 takes a value at path $1.
_sq_is_vopt() {
  local v=" $(_sq_vopts "$1") "
  v=${v//$'\n'/ }
  [[ $v == *" $2 "* ]]
}

_sq() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev= path= i w c nargs=0 dashdash=0 opt= subs
  COMPREPLY=()
  # Walk the words before the cursor: options and their values are skipped, a subcommand word extends the path,
  # anything else is a positional argument of the command reached so far.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if ((dashdash == 0)); then
      if [[ $w == -- ]]; then dashdash=1; continue; fi
      if [[ $w == -* ]]; then
        if _sq_is_vopt "$path" "$w"; then
          if [[ ${COMP_WORDS[i + 1]} == = ]]; then i=$((i + 2)); else i=$((i + 1)); fi
        fi
        continue
      fi
    fi
    c=
    ((nargs == 0 && dashdash == 0)) && c=$(_sq_canon "$path" "$w")
    if [[ -n $c ]]; then path=${path:+$path }$c; else nargs=$((nargs + 1)); fi
  done

  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --opt=value arrives as three words when '=' is in COMP_WORDBREAKS: '--opt' '=' 'value'.
  if [[ $cur == = && $prev == -* ]]; then
    opt=$prev; cur=
  elif [[ $prev == = && $COMP_CWORD -gt 1 && ${COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
    opt=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == -* && $dashdash -eq 0 ]]; then
    opt=$prev
  fi
  if [[ -n $opt ]] && _sq_is_vopt "$path" "$opt"; then
    _sq_values "$(_sq_optval "$path" "$opt")" "$cur"
    return 0
  fi
  # --opt=value in one word (COMP_WORDBREAKS without '='): complete the value, keep the prefix.
  if [[ $cur == --*=* && $dashdash -eq 0 ]] && _sq_is_vopt "$path" "${cur%%=*}"; then
    _sq_values "$(_sq_optval "$path" "${cur%%=*}")" "${cur#*=}"
    COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
    return 0
  fi

  if [[ $cur == -* && $dashdash -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$(_sq_opts "$path")" -- "$cur"))
    return 0
  fi
  subs=$(_sq_cmds "$path")
  _sq_values "$(_sq_argval "$path" "$nargs")" "$cur"
  # A command with subcommands may take an argument of its own too (sq squids chain <squid>): offer both.
  if [[ -n $subs && $nargs -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur") "${COMPREPLY[@]}")
  fi
  return 0
}

complete -F _sq sq lobstr-sq
