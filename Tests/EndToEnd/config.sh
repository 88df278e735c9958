#!/usr/bin/env bash
# The configuration file (issue 29) on the real dashboard in tmux: a config.toml under XDG_CONFIG_HOME remaps
# quit to x and pause to z and colours the running phase magenta; the help bar names the keys in force, the old
# keys do nothing, the running row is drawn in magenta (not green), y copies the selected path through OSC 52
# (tmux's buffer) unless [clipboard] osc52 = false, and x quits with status 0. `--config FILE`
# names another file, and on a 256-colour terminal the light theme draws from the 256-colour palette; a bad one
# stops statetui with exit status 2 and FILE:LINE before any terminal is touched.
# The screen is polled with a bounded wait, never a fixed sleep.
name=config
wait_seconds=10
# shellcheck source=tmux-session.sh
source "$(dirname "$0")/tmux-session.sh"

mkdir -p "$work/xdg/statetui"
cat > "$work/xdg/statetui/config.toml" <<'TOML'
# remapped by the end-to-end test
[keys]
quit = "x"
pause = "z"

[theme]
active = "magenta"
TOML

tm new-session -d -s "$session" -x 80 -y 24 \
    "env -i PATH=\"$PATH\" HOME=\"$work\" XDG_CONFIG_HOME=\"$work/xdg\" HISTFILE=/dev/null TERM=screen PS1='$ ' bash --norc --noprofile"
tm set -g escape-time 0
# tmux takes what a program copies with OSC 52 into its paste buffer.
tm set -g set-clipboard on
wait_for '^\$'

step="the file under XDG_CONFIG_HOME is read: the help bar names x and z"
keys "clear; $bin --seed 1; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
wait_for 'x quit'
keys s
wait_for '│ photos\.tar .*running · [0-9]+% · request #1'
wait_for 'z pause'

step="the running row is drawn in the configured colour"
row=$(tm capture-pane -p -e -t "$session" | grep -E 'photos\.tar.*running' | head -n 1)
printf '%s' "$row" | grep -q $'\e\\[35m' || fail "the running row is not magenta: $(printf '%q' "$row")"
if printf '%s' "$row" | grep -q $'\e\\[32m'; then fail "the running row is still green: $(printf '%q' "$row")"; fi

step="y copies the selected transfer's path through OSC 52 and says so"
keys y
wait_for 'copied the path of photos\.tar to the clipboard'
[ "$(tm show-buffer 2>/dev/null)" = photos.tar ] || fail "the clipboard holds '$(tm show-buffer 2>/dev/null)', not photos.tar"

step="the old keys do nothing, the new ones act"
keys p q
wait_for '│ photos\.tar .*running · [0-9]+% · request #1'
keys z
wait_for '│ photos\.tar .*paused · [0-9]+%'
keys x
wait_for '^exit=0$'

step="--config names another file; a bad one exits 2 naming the file and the line"
printf '[keys]\nquit = "x"\n\n[theme]\nactive = "chartreuse"\n' > "$work/bad.toml"
keys "clear; $bin --config '$work/bad.toml'; echo exit=\$?" Enter
wait_for '^exit=2$'
wait_for "bad\\.toml:5: expected a colour for active"
keys "clear; $bin --config '$work/missing.toml'; echo exit=\$?" Enter
wait_for '^exit=2$'
wait_for 'missing\.toml: no such file'
printf '[keys]\nhelp = "K"\n' > "$work/other.toml"
keys "clear; $bin --seed 1 --config '$work/other.toml'; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
wait_for 'K help · q quit'
keys q
wait_for '^exit=0$'

step="on a 256-colour terminal the theme draws from the 256-colour palette"
printf '[theme]\nname = "light"\n\n[clipboard]\nosc52 = false\n' > "$work/light.toml"
keys "clear; TERM=screen-256color $bin --seed 1 --config '$work/light.toml'; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
keys s
wait_for '│ photos\.tar .*running · [0-9]+% · request #1'
row=$(tm capture-pane -p -e -t "$session" | grep -E 'photos\.tar.*running' | head -n 1)
printf '%s' "$row" | grep -q $'\e\\[38;5;28m' || fail "the running row is not the light theme's colour 28: $(printf '%q' "$row")"
tm set-buffer unchanged
# v after y: once v's canonical text shows, y has been handled.
keys y v
wait_for '│ photos\.tar .*running\(request: 1'
if screen | grep -q 'copied the'; then fail "[clipboard] osc52 = false, but the status says it copied"; fi
[ "$(tm show-buffer)" = unchanged ] || fail "[clipboard] osc52 = false, but y copied '$(tm show-buffer)'"
keys q
wait_for '^exit=0$'

step="statetui config --default reads back as a valid file"
"$bin" config --default > "$work/default.toml"
"$bin" config --config "$work/default.toml" > "$work/check.out" || fail "the default file does not check"
grep -q 'default\.toml: ok' "$work/check.out" || fail "statetui config did not say ok: $(cat "$work/check.out")"

echo "config test: ok"
