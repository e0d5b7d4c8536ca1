// bash: the tree becomes small lookup functions (case statements keyed by the command path) plus one fixed
// driver, _sq, that walks COMP_WORDS to find the path and asks the lookups what to offer.
import { allCommands, shQuote, valueOptionNames, type CmdModel, type ValueKind } from './model.js';

function spec(v: ValueKind): string | undefined {
  switch (v.kind) {
    case 'file':
      return 'file';
    case 'words':
      return `words ${v.words.join(' ')}`;
    case 'list':
      return `list ${v.words.join(' ')}`;
    case 'dynamic':
      return `dyn ${v.source}`;
    default:
      return undefined;
  }
}

function caseLine(label: string, body: string | undefined): string {
  return `    ${label}) ${body === undefined ? '' : `echo ${shQuote(body)} `};;`;
}

/** A shell function that is one `case` over `subject`: its comment, the case lines, then `tail` (a default). */
function caseFunction(name: string, comment: string, lines: string[], tail = '', subject = '"$1"'): string[] {
  return [`# ${comment}`, `${name}() {`, `  case ${subject} in`, ...lines, '  esac', ...(tail ? [tail] : []), '}', ''];
}

/** A command's path as the scripts' case labels spell it: "squids list". */
const key = (c: CmdModel) => c.path.join(' ');

export function bashScript(root: CmdModel): string {
  const cmds = allCommands(root);
  const globals = root.options;
  const globalValueNames = valueOptionNames(globals);
  const out: string[] = [];
  const fn = (...a: Parameters<typeof caseFunction>) => out.push(...caseFunction(...a));
  out.push(
    '# bash completion for sq. Generated from the command tree by `sq completion bash`: do not edit.',
    '# Install: source <(sq completion bash)   or   sq completion bash > /etc/bash_completion.d/sq',
    "# Completes sq and lobstr-sq (the same command), and an alias sq=... as the README's tour defines.",
    '',
  );
  fn(
    '_sq_cmds',
    'Subcommand words (names and aliases) under a command path.',
    cmds
      .filter((c) => c.commands.length)
      .map((c) => caseLine(shQuote(key(c)), c.commands.flatMap((s) => [s.name, ...s.aliases]).join(' '))),
  );
  fn(
    '_sq_canon',
    'The canonical name of subcommand word $2 under path $1 (aliases resolve to their command).',
    cmds.flatMap((c) =>
      c.commands.map((s) => caseLine([s.name, ...s.aliases].map((w) => shQuote(`${key(c)}|${w}`)).join('|'), s.name)),
    ),
    '',
    '"$1|$2"',
  );
  fn(
    '_sq_opts',
    'Options accepted at a command path: its own, then the global ones.',
    // --help is among the globals; --version only makes sense before a command.
    cmds
      .map(
        (c) =>
          [
            c,
            c.options.filter((o) => (c === root ? o.names.includes('--version') : !o.names.includes('--help'))),
          ] as const,
      )
      .filter(([, own]) => own.length)
      .map(([c, own]) => caseLine(shQuote(key(c)), own.flatMap((o) => o.names).join(' '))),
    `  echo ${shQuote(
      globals
        .filter((o) => !o.names.includes('--version'))
        .flatMap((o) => o.names)
        .join(' '),
    )}`,
  );
  fn(
    '_sq_vopts',
    'Options at a command path that take a value (so the walk can skip the value).',
    cmds
      .filter((c) => c !== root && valueOptionNames(c.options).length)
      .map((c) => caseLine(shQuote(key(c)), valueOptionNames(c.options).join(' '))),
    `  echo ${shQuote(globalValueNames.join(' '))}`,
  );
  fn(
    '_sq_optval',
    'How to complete the value of option $2 at path $1: "file", "words …", "list …" (comma-separated) or nothing.',
    optionValueLines(root, cmds),
    '',
    '"$1|$2"',
  );
  fn(
    '_sq_argval',
    'How to complete positional argument number $2 (from 0) at path $1.',
    argValueLines(cmds),
    '',
    '"$1|$2"',
  );
  out.push(DRIVER);
  return out.join('\n');
}

/** _sq_optval's case lines: each option value with a completion spec (a command's own, then the globals). */
function optionValueLines(root: CmdModel, cmds: CmdModel[]): string[] {
  const globals = root.options;
  const globalNames = new Set(globals.flatMap((o) => o.names));
  const optVals: string[] = [];
  for (const c of cmds) {
    if (c === root) continue;
    for (const o of c.options) {
      const s = spec(o.value);
      // A free value needs a line only to stop a global option of the same name from matching.
      if (o.value.kind !== 'none' && (s !== undefined || o.names.some((n) => globalNames.has(n)))) {
        optVals.push(caseLine(o.names.map((n) => shQuote(`${key(c)}|${n}`)).join('|'), s));
      }
    }
  }
  // Globals apply at every path; they come last so a command's own option of the same name wins.
  for (const o of globals) {
    const s = spec(o.value);
    if (o.value.kind !== 'none') optVals.push(caseLine(o.names.map((n) => `*${shQuote(`|${n}`)}`).join('|'), s));
  }
  return optVals;
}

/** _sq_argval's case lines: each positional argument with a completion spec. */
function argValueLines(cmds: CmdModel[]): string[] {
  const argVals: string[] = [];
  for (const c of cmds) {
    // A free argument needs a line only to stop a later variadic argument's catch-all from matching.
    const variadicSpec = c.args.some((a) => a.variadic && spec(a.value) !== undefined);
    c.args.forEach((a, i) => {
      if (spec(a.value) === undefined && !variadicSpec) return;
      const label = a.variadic ? `${shQuote(`${key(c)}|`)}*` : shQuote(`${key(c)}|${i}`);
      argVals.push(caseLine(label, spec(a.value)));
    });
  }
  return argVals;
}

// Written with @{ for bash's ${ so the template literal stays raw.
const DRIVER = String.raw`# Fill COMPREPLY from a value spec ($1) for the word being completed ($2).
_sq_values() {
  local kind=@{1%% *} words= IFS=$'\n'
  [[ $1 == *' '* ]] && words=@{1#* }
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
      if [[ -n @{BASH_ALIASES[@{COMP_WORDS[0]}]-} ]]; then IFS=$' \t' read -ra cmd <<< "@{BASH_ALIASES[@{COMP_WORDS[0]}]}"; else cmd=("@{COMP_WORDS[0]}"); fi
      [[ $pre == [\"\']* ]] && { q=@{pre:0:1}; pre=@{pre:1}; }
      while IFS=$'\t' read -r v _; do
        [[ -n $v && $v == "$pre"* ]] || continue
        case $q in
          \') v=@{v//\'/\'\\\'\'}; COMPREPLY+=("'$v'") ;;
          # "!" is history expansion even inside "...", where a backslash before it stays: it is closed, escaped, reopened.
          \") v=@{v//\\/\\\\}; v=@{v//\"/\\\"}; v=@{v//\$/\\\$}; v=@{v//\`/\\\`}; v=@{v//!/\"\\!\"}; COMPREPLY+=("\"$v\"") ;;
          *) printf -v v '%q' "$v"; COMPREPLY+=("$v") ;;
        esac
      done < <("@{cmd[@]}" __complete "$words" -- "@{COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null </dev/null) ;;
    list)
      # Comma-separated: complete the last item, keep the ones before it, do not offer one twice.
      local head= last=$2 w
      if [[ $2 == *,* ]]; then head=@{2%,*},; last=@{2##*,}; fi
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
  v=@{v//$'\n'/ }
  [[ $v == *" $2 "* ]]
}

_sq() {
  local cur=@{COMP_WORDS[COMP_CWORD]} prev= path= i w c nargs=0 dashdash=0 opt= subs
  COMPREPLY=()
  # Walk the words before the cursor: options and their values are skipped, a subcommand word extends the path,
  # anything else is a positional argument of the command reached so far.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=@{COMP_WORDS[i]}
    if ((dashdash == 0)); then
      if [[ $w == -- ]]; then dashdash=1; continue; fi
      if [[ $w == -* ]]; then
        if _sq_is_vopt "$path" "$w"; then
          if [[ @{COMP_WORDS[i + 1]} == = ]]; then i=$((i + 2)); else i=$((i + 1)); fi
        fi
        continue
      fi
    fi
    c=
    ((nargs == 0 && dashdash == 0)) && c=$(_sq_canon "$path" "$w")
    if [[ -n $c ]]; then path=@{path:+$path }$c; else nargs=$((nargs + 1)); fi
  done

  ((COMP_CWORD > 0)) && prev=@{COMP_WORDS[COMP_CWORD - 1]}
  # --opt=value arrives as three words when '=' is in COMP_WORDBREAKS: '--opt' '=' 'value'.
  if [[ $cur == = && $prev == -* ]]; then
    opt=$prev; cur=
  elif [[ $prev == = && $COMP_CWORD -gt 1 && @{COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
    opt=@{COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == -* && $dashdash -eq 0 ]]; then
    opt=$prev
  fi
  if [[ -n $opt ]] && _sq_is_vopt "$path" "$opt"; then
    _sq_values "$(_sq_optval "$path" "$opt")" "$cur"
    return 0
  fi
  # --opt=value in one word (COMP_WORDBREAKS without '='): complete the value, keep the prefix.
  if [[ $cur == --*=* && $dashdash -eq 0 ]] && _sq_is_vopt "$path" "@{cur%%=*}"; then
    _sq_values "$(_sq_optval "$path" "@{cur%%=*}")" "@{cur#*=}"
    COMPREPLY=("@{COMPREPLY[@]/#/@{cur%%=*}=}")
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
    COMPREPLY=($(compgen -W "$subs" -- "$cur") "@{COMPREPLY[@]}")
  fi
  return 0
}

complete -F _sq sq lobstr-sq
`.replace(/@\{/g, '${');
