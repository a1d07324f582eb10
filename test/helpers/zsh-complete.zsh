# What zsh offers on TAB, as a person at an interactive zsh would get it: `zsh zsh-complete.zsh DIR
# LINE...` starts `zsh -f -i` in a pseudo-terminal (zpty) with DIR in $fpath and compinit run, types
# each LINE and a TAB, and prints `LINE<TAB>candidates` (sorted, space-separated). The candidates are
# caught by wrapping compadd; a function in comppostfuncs marks the end of each completion.
zmodload zsh/zpty || exit 3
local dir=$1 out=$(mktemp -d)
shift
zpty z zsh -f -i
# DIR may also be the completion file itself, then sourced after compinit (`source <(crm completion zsh)`).
if [[ -f $dir ]]; then
  zpty -w z "PROMPT=''; unsetopt autolist; autoload -U compinit; compinit -u -D; source ${(q)dir}"
else
  zpty -w z "PROMPT=''; unsetopt autolist; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
fi
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a __hits; builtin compadd -A __hits "$@"; (( $#__hits )) && print -rl -- $__hits >> $CAPTURE; builtin compadd "$@" }'
zpty -w z '__capture_done() { print -r -- "--done--" >> $CAPTURE }'
local n=0 line file junk
for line in "$@"; do
  file=$out/$((++n))
  zpty -w z "CAPTURE=${(q)file}; comppostfuncs=(__capture_done)"
  zpty -w -n z "$line"$'\t'
  repeat 200; do
    zpty -r -t z junk 2>/dev/null
    [[ -f $file ]] && grep -q -- --done-- $file && break
    sleep 0.05
  done
  zpty -w -n z $'\C-e\C-u'
  print -r -- "$line"$'\t'"${(j: :)${(@ou)${(f)"$(grep -v -- --done-- $file 2>/dev/null)"}}}"
done
zpty -d z
rm -rf $out
