#!/usr/bin/env bash
# `statetui completions bash|zsh|fish` as a user's shell runs them. bash: the generated function is called the
# way bash calls it on Tab (COMP_WORDS, COMP_CWORD) and answers through compgen; every case names the words it
# must offer, in order. zsh: the script loads from fpath and through `source`, registering _statetui for
# statetui. fish: the script loads and `complete -C` answers. The zsh and fish steps run where those shells are
# installed (.ci/run installs them) and say so when skipped.
name=completions
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

tree="$work/tree"
mkdir -p "$tree/photos" "$tree/with space"
touch "$tree/a.bin" "$tree/my.demo" "$tree/it's.txt"

"$bin" completions bash >"$work/statetui.bash" || fail "statetui completions bash failed"
"$bin" completions zsh >"$work/_statetui" || fail "statetui completions zsh failed"
"$bin" completions fish >"$work/statetui.fish" || fail "statetui completions fish failed"

# bash_offers 'WORDS…' EXPECTED: what _statetui offers for the command line WORDS (the last one the word being
# completed, '' for a new word), one candidate a line, compared with EXPECTED.
bash_offers() {
    local line=$1 expected=$2 got
    got=$(cd "$tree" && bash --norc --noprofile -c '
        source "$1"
        eval "COMP_WORDS=($2)"
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        COMPREPLY=()
        _statetui
        printf "%s\n" "${COMPREPLY[@]}"' bash "$work/statetui.bash" "$line" 2>&1 | sed '/^$/d')
    if [ "$got" == "$(printf '%s' "$expected")" ]; then
        pass "bash: [$line] offers $(echo "$expected" | tr '\n' ' ')"
    else
        fail "bash: [$line] offers '$(echo "$got" | tr '\n' ' ')', expected '$(echo "$expected" | tr '\n' ' ')'"
    fi
}

bash -n "$work/statetui.bash" || fail "the bash script does not parse"
bash_offers "statetui ''" $'replay\ngraph\ndemo\ncopy\ninspect\ncompletions\nconfig\nhelp'
bash_offers "statetui gr" 'graph'
bash_offers "statetui graph ''" $'transfer\nupload\nload'
bash_offers "statetui graph transfer --f" $'--full\n--format'
bash_offers "statetui graph transfer --format ''" $'mermaid\ndot\ntable\ntext'
bash_offers "statetui graph --format = d" 'dot'
bash_offers "statetui replay transfer my" 'my.demo'
bash_offers "statetui demo t" $'transfer\ntour'
bash_offers "statetui demo my" 'my.demo'
bash_offers "statetui copy a.bin 'with'" 'with space'
bash_offers "statetui copy it" "it's.txt"
bash_offers "statetui copy a.bin p" 'photos'
bash_offers "statetui copy --headless --exclude '*.tmp' a.bin ph" 'photos'
bash_offers "statetui --trace a" 'a.bin'
bash_offers "statetui --seed 1 ''" ''
bash_offers "statetui --seed 1 --no" '--no-mouse'
bash_offers "statetui -- ''" $'replay\ngraph\ndemo\ncopy\ninspect\ncompletions\nconfig\nhelp'
bash_offers "statetui help c" $'copy\ncompletions\nconfig'
bash_offers "statetui completions ''" $'bash\nzsh\nfish'
bash_offers "statetui -V" '-V'
bash_offers "statetui inspect --h" $'--headless\n--help'

if command -v zsh >/dev/null 2>&1; then
    mkdir -p "$work/fpath"
    cp "$work/_statetui" "$work/fpath/_statetui"
    zsh -n "$work/_statetui" || fail "the zsh script does not parse"
    got=$(zsh -fc 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D -d "$2/zcompdump"; print -r -- "$_comps[statetui]"' \
        zsh "$work/fpath" "$work")
    [ "$got" == _statetui ] && pass "zsh: compinit finds _statetui in fpath" || fail "zsh: compinit gave '$got' for statetui"
    got=$(zsh -fc 'autoload -U compinit; compinit -u -D -d "$2/zcompdump"; source "$1"; print -r -- "$_comps[statetui] $(whence -w _statetui)"' \
        zsh "$work/_statetui" "$work")
    [ "$got" == "_statetui _statetui: function" ] && pass "zsh: the sourced script registers _statetui" ||
        fail "zsh: sourcing the script gave '$got'"
else
    echo "completions e2e: zsh not installed: its script's load check skipped"
fi

# fish_offers 'LINE' EXPECTED: the candidates (without descriptions) fish's `complete -C LINE` prints, sorted.
fish_offers() {
    local line=$1 expected=$2 got
    got=$(cd "$tree" && fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$work/statetui.fish" "$line" 2>&1 |
        cut -f1 | LC_ALL=C sort)
    if [ "$got" == "$(printf '%s' "$expected")" ]; then
        pass "fish: [$line] offers $(echo "$expected" | tr '\n' ' ')"
    else
        fail "fish: [$line] offers '$(echo "$got" | tr '\n' ' ')', expected '$(echo "$expected" | tr '\n' ' ')'"
    fi
}

if command -v fish >/dev/null 2>&1; then
    fish --no-execute "$work/statetui.fish" || fail "the fish script does not parse"
    fish_offers "statetui gr" 'graph'
    fish_offers "statetui graph " $'load\ntransfer\nupload'
    fish_offers "statetui graph transfer --format " $'dot\nmermaid\ntable\ntext'
    fish_offers "statetui copy a.bin ph" 'photos/'
    fish_offers "statetui --seed 1 " ''
    fish_offers "statetui completions " $'bash\nfish\nzsh'
else
    echo "completions e2e: fish not installed: its script's checks skipped"
fi

finish
