# Drives an interactive zsh in a pseudo-terminal and prints what completion offers for each command line given as
# an argument: one "== <line>" header, then the candidates, one per line. Usage: zsh -f capture.zsh <dir with _sq> <line>...
# With CAPTURE_BUFFER=1 in the environment, also the command line as the Tab left it, as one "=> <line>".
zmodload zsh/zpty || exit 3
local dir=$1; shift
local out=$dir/capture.out
zpty z zsh -f -i
zpty -w z "PROMPT='<<P>>'; fpath=($dir \$fpath); autoload -Uz compinit; compinit -u -d $dir/.zcompdump"
# Record every candidate completion adds (compadd -O lists the matches without adding them).
zpty -w z "compadd() { local -a __m; builtin compadd -O __m \"\$@\"; print -rl -- \$__m >> $out; builtin compadd \"\$@\" }"
zpty -w z "zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no; LISTMAX=100000"
zpty -w z "_capture_buffer() { print -r -- \"=> \$BUFFER\" >> $out }; zle -N _capture_buffer; bindkey '^X^B' _capture_buffer"
local n=0 junk
# Type only at a fresh prompt: zsh may drop keys typed ahead of it. The markers are computed by the shell, so the
# echo of the typed command cannot match them.
zpty -w z "print __ready_\$(( 6 * 7 ))__"
zpty -r -m z junk "*__ready_42__*<<P>>*"
for line in "$@"; do
  n=$((n + 1))
  : > $out
  zpty -w -n z "$line"$'\t'
  [[ -n $CAPTURE_BUFFER ]] && zpty -w -n z $'\C-x\C-b'
  zpty -w -n z $'\C-e\C-u'
  zpty -w z "print __done_\$(( $n * 1 ))__"
  zpty -r -m z junk "*__done_${n}__*<<P>>*"
  print -r -- "== $line"
  grep -v '^$' $out | sort -u
done
zpty -d z
