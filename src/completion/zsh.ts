// zsh: native _arguments completion, one function per command. Commands with subcommands dispatch on the word
// after them; every level also accepts the global options, as commander does.
import { allCommands, shQuote as q, type ArgModel, type CmdModel, type OptModel, type ValueKind } from './model.js';

/** Text inside an _arguments [description] or a _describe entry. */
function desc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\[/g, '(').replace(/\]/g, ')').replace(/:/g, '\\:');
}

function fnName(c: CmdModel): string {
  return ['_sq', ...c.path].join('__').replace(/[^A-Za-z0-9_]/g, '_');
}

function action(v: ValueKind, message: string): string {
  switch (v.kind) {
    case 'file':
      return `${message}:_files`;
    case 'words':
      return `${message}:(${v.words.join(' ')})`;
    case 'list':
      return `${message}:{_values -s , ${message} ${v.words.join(' ')}}`;
    case 'dynamic':
      return `${message}:{_sq_dynamic ${v.source}}`;
    default:
      return `${message}: `;
  }
}

/** The same completion as `action`, called directly (outside _arguments). */
function direct(v: ValueKind): string | undefined {
  switch (v.kind) {
    case 'file':
      return '_files';
    case 'words':
      return `compadd -- ${v.words.map(q).join(' ')}`;
    case 'dynamic':
      return `_sq_dynamic ${v.source}`;
    default:
      return undefined;
  }
}

function optSpecs(o: OptModel): string[] {
  const exclusive = !o.repeatable && o.names.length > 1 ? `(${o.names.join(' ')})` : '';
  const star = o.repeatable ? '*' : '';
  return o.names.map((n) => {
    const takes = o.value.kind !== 'none';
    const suffix = takes ? (n.startsWith('--') ? '=' : '+') : '';
    const value = takes ? `:${action(o.value, n.replace(/^-+/, '').replace(/[^A-Za-z0-9_-]/g, '') || 'value')}` : '';
    return q(`${exclusive}${star}${n}${suffix}[${desc(o.description)}]${value}`);
  });
}

function argSpecs(args: ArgModel[]): string[] {
  return args.map((a, i) =>
    q(`${a.variadic ? '*' : String(i + 1)}:${action(a.value, a.name.replace(/[^A-Za-z0-9_.-]/g, '_'))}`),
  );
}

function commandFn(c: CmdModel, root: CmdModel): string[] {
  // --help is among the globals here; --version only makes sense before a command.
  const own = (
    c === root
      ? c.options.filter((o) => o.names.includes('--version'))
      : c.options.filter((o) => !o.names.includes('--help'))
  ).flatMap(optSpecs);
  const lines = [`${fnName(c)}() {`];
  if (!c.commands.length) {
    lines.push(`  _arguments -s -S : $_sq_globals ${[...own, ...argSpecs(c.args)].join(' ')}`.trimEnd(), '}', '');
    return lines;
  }
  // A command that also takes an argument of its own (sq squids chain <squid>) offers it beside its subcommands.
  const first = c.args[0] ? direct(c.args[0].value) : undefined;
  const entries = c.commands.flatMap((s) => [s.name, ...s.aliases].map((n) => q(`${n}:${desc(s.summary)}`)));
  lines.push(
    '  local curcontext=$curcontext state line ret=1',
    '  typeset -A opt_args',
    `  _arguments -s -S -C : $_sq_globals ${own.join(' ')} '1: :->cmds' '*:: :->args' && ret=0`.replace(
      /(\S) {2,}/g,
      '$1 ',
    ),
    '  case $state in',
    '    cmds)',
    `      local -a cmds=(${entries.join(' ')})`,
    `      _describe -t commands ${q(`sq ${c.path.join(' ')} command`.replace(/ +/g, ' '))} cmds && ret=0${first ? `\n      ${first} && ret=0` : ''} ;;`,
    '    args)',
    '      case $words[1] in',
    ...c.commands.map((s) => `        ${[s.name, ...s.aliases].map(q).join('|')}) ${fnName(s)} && ret=0 ;;`),
    '      esac ;;',
    '  esac',
    '  return ret',
    '}',
    '',
  );
  return lines;
}

export function zshScript(root: CmdModel): string {
  const globals = root.options.filter((o) => !o.names.includes('--version')).flatMap(optSpecs);
  return [
    '#compdef sq lobstr-sq',
    '# zsh completion for sq. Generated from the command tree by `sq completion zsh`: do not edit.',
    '# Install: sq completion zsh > "${fpath[1]}/_sq" (then start a new shell), or: source <(sq completion zsh)',
    '# Completes sq and lobstr-sq (the same command). With `alias sq=...`, run `setopt complete_aliases` too.',
    '',
    "# Values only the service knows (squid names, run ids...), from sq's own short-lived cache: never a prompt, never an",
    '# error on the screen. The words typed so far go along (--profile, --base-url, --squid change the answer).',
    '# Each value is shown with what it is (a run: its squid, status and age), in the order given.',
    '# The command is the one being completed (sq, lobstr-sq, or what an alias of it stands for).',
    ...DYNAMIC,
    '',
    '_sq_globals=(',
    ...globals.map((g) => `  ${g}`),
    ')',
    '',
    ...allCommands(root).flatMap((c) => commandFn(c, root)),
    // Autoloaded from fpath the file is the body of _sq, so run it; sourced, register it.
    'if [[ "${funcstack[1]}" == _sq ]]; then',
    '  _sq "$@"',
    'else',
    '  compdef _sq sq lobstr-sq',
    'fi',
    '',
  ].join('\n');
}

// Written with @{ for zsh's ${ so the template literal stays raw.
const DYNAMIC = String.raw`_sq_dynamic() {
  local -a cmd vals matches disp
  local v
  cmd=(@{(z)@{aliases[@{service:-sq}]:-@{service:-sq}}})
  vals=(@{(f)"$(@{(Q)cmd} __complete $1 -- @{(z)LBUFFER} 2>/dev/null </dev/null)"})
  for v in $vals; do
    matches+=("@{v%%$'\t'*}")
    if [[ $v == *$'\t'* ]]; then disp+=("@{v%%$'\t'*}  -- @{v#*$'\t'}"); else disp+=("$v"); fi
  done
  # One per line, in the order given (-V: a run list is newest first), each shown with its description.
  compadd -V $1 -l -d disp -- $matches
}`
  .replace(/@\{/g, '${')
  .split('\n');
