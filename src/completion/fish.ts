// fish: `complete -c sq` lines guarded by conditions on the command path. A generated __sq_walk finds the path
// (subcommands, aliases, options that take a value) the same way the bash driver does, cached per command line.
import { allCommands, valueOptionNames, type CmdModel, type OptModel, type ValueKind } from './model.js';

/** A fish single-quoted string. */
function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function valueFlags(v: ValueKind): string {
  switch (v.kind) {
    case 'none':
      return '';
    case 'file':
      return ' -r -F';
    case 'words':
      return ` -x -a ${q(v.words.join(' '))}`;
    case 'list':
      return ` -x -a ${q(`(__sq_list ${v.words.join(' ')})`)}`;
    case 'dynamic':
      return ` -x -a ${q(`(__sq_dynamic ${v.source})`)}`;
    default:
      return ' -x';
  }
}

function optLine(o: OptModel, cond: string | undefined): string {
  const names = o.names
    .map((n) => (n.startsWith('--') ? `-l ${n.slice(2)}` : n.length === 2 ? `-s ${n.slice(1)}` : `-o ${n.slice(1)}`))
    .join(' ');
  const condition = cond === undefined ? '' : ` -n ${q(cond)}`;
  return `complete -c sq${condition} ${names}${valueFlags(o.value)} -d ${q(o.description)}`;
}

export function fishScript(root: CmdModel): string {
  const cmds = allCommands(root);
  const key = (c: CmdModel) => c.path.join(' ');
  const out: string[] = [
    '# fish completion for sq. Generated from the command tree by `sq completion fish`: do not edit.',
    '# Install: sq completion fish > ~/.config/fish/completions/sq.fish',
    '# Completes sq and lobstr-sq (the same command; lobstr-sq takes the completions of sq).',
    '',
    'function __sq_words',
    "    printf '%s\\n' $argv",
    'end',
    '',
    '# Options at a command path that take a value (the walk skips their values).',
    'function __sq_vopts',
    '    switch $argv[1]',
  ];
  for (const c of cmds) {
    const v = valueOptionNames(c === root ? [] : c.options);
    if (v.length) out.push(`        case ${q(key(c))}`, `            __sq_words ${v.join(' ')}`);
  }
  out.push('    end', `    __sq_words ${valueOptionNames(root.options).join(' ')}`, 'end', '');
  out.push(
    '# The canonical name of subcommand word $argv[2] under path $argv[1].',
    'function __sq_canon',
    '    switch "$argv[1]|$argv[2]"',
  );
  for (const c of cmds) {
    for (const s of c.commands)
      out.push(
        `        case ${[s.name, ...s.aliases].map((n) => q(`${key(c)}|${n}`)).join(' ')}`,
        `            echo ${q(s.name)}`,
      );
  }
  out.push('    end', 'end', '', WALK);

  out.push('complete -c sq -f', '');
  for (const o of root.options) out.push(optLine(o, o.names.includes('--version') ? '__sq_is ""' : undefined));
  for (const c of cmds) {
    const k = key(c);
    out.push('', `# sq ${k}`.trimEnd());
    for (const s of c.commands) {
      for (const n of [s.name, ...s.aliases]) {
        const d = n === s.name ? s.summary : `alias of ${s.name}: ${s.summary}`;
        out.push(`complete -c sq -n ${q(`__sq_sub ${q(k)}`)} -a ${q(n)} -d ${q(d)}`);
      }
    }
    if (c !== root) for (const o of c.options) if (!o.names.includes('--help')) out.push(optLine(o, `__sq_is ${q(k)}`));
    c.args.forEach((a, i) => {
      const flags = valueFlags(a.value);
      if (a.value.kind !== 'none' && a.value.kind !== 'free') {
        const cond = a.variadic ? `__sq_arg ${q(k)} ${i} +` : `__sq_arg ${q(k)} ${i}`;
        out.push(`complete -c sq -n ${q(cond)}${flags.replace(' -x', ' -f').replace(' -r', '')}`);
      }
    });
  }
  out.push('', 'complete -c lobstr-sq --wraps sq', '');
  return out.join('\n');
}

const WALK = String.raw`# Values only the service knows (squid names, run ids...), with a description after a Tab, from sq's own short-lived
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
`;
