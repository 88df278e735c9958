#!/usr/bin/env bash
# The real `statetui` dashboard in tmux, driven like a person would: select, start a transfer, pause and
# resume it (its late callback shows up as a dropped stale event), cancel, open and close the help overlay,
# shrink the window below 40x12 and back, quit. The screen is checked at each step (polling capture-pane
# with a bounded wait, never a fixed sleep), and the terminal must be restored after q, Ctrl-C, SIGTERM and
# SIGHUP and a fatal signal, and around Ctrl-Z: alternate screen left, cursor visible, mouse reporting off,
# the shell's exit status as documented. The mouse: a click on a tab and on a row, the wheel, the help
# overlay scrolled at 40x12, and --no-mouse. Also: NO_COLOR draws no colour, and stdout not a terminal or an
# unknown TERM is a one-line error with exit status 2. A frame is written to the terminal at once (strace).
name=dashboard
wait_seconds=10
# shellcheck source=tmux-session.sh
source "$(dirname "$0")/tmux-session.sh"
pane() { tm display -p -t "$session" "$1"; }
# The terminal is back as the shell left it: main screen, cursor shown, the prompt, the exit status.
expect_restored() {
    local status=$1
    wait_for "^exit=$status\$"
    [ "$(pane '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
    [ "$(pane '#{cursor_flag}')" = 1 ] || fail "the cursor is still hidden"
    [ "$(pane '#{mouse_standard_flag}#{mouse_sgr_flag}')" = 00 ] || fail "mouse reporting is still on"
}
# A left click at column $1, row $2 (counted from 1), as a terminal reporting the mouse in SGR form (1006)
# sends it: tmux hands what send-keys types to the program as its input.
click() {
    keys -l $'\e[<0;'"$1;$2"'M'
    keys -l $'\e[<0;'"$1;$2"'m'
}
# The wheel turned down ($1 = 65) or up (64) over column 30, row 10.
wheel() { keys -l $'\e[<'"$1"';30;10M'; }
# The dashboard process, a child of the pane's shell.
dashboard_pid() {
    local pid
    pid=$(ps -o pid= --ppid "$(pane '#{pane_pid}')" | tr -d ' ' | head -n 1)
    [ -n "$pid" ] || fail "no dashboard process under the pane's shell"
    echo "$pid"
}
# Starts the dashboard from the shell; with `alone`, no `echo exit=$?` follows it on the command line (a
# job stopped by Ctrl-Z would let that echo run at once).
launch() {
    local options=""
    case "$*" in *--no-mouse*) options=--no-mouse ;; esac
    if [ "${1:-}" = alone ]; then
        keys "clear; $bin --seed 1" Enter
    else
        keys "clear; ${*/--no-mouse/} $bin --seed 1 $options; echo exit=\$?" Enter
    fi
    wait_for '^ 1 Transfers'
    wait_for 'stale events dropped: 0'
    [ "$(pane '#{alternate_on}')" = 1 ] || fail "the dashboard is not on the alternate screen"
    [ "$(pane '#{cursor_flag}')" = 0 ] || fail "the cursor is visible in the dashboard"
    case "$*" in
    *--no-mouse*) [ "$(pane '#{mouse_standard_flag}#{mouse_sgr_flag}')" = 00 ] || fail "--no-mouse, but the mouse is reported" ;;
    *) [ "$(pane '#{mouse_standard_flag}#{mouse_sgr_flag}')" = 11 ] || fail "the dashboard did not ask for the mouse" ;;
    esac
}

tm new-session -d -s "$session" -x 80 -y 24 "env -i PATH=\"$PATH\" HOME=\"$work\" HISTFILE=/dev/null TERM=screen PS1='$ ' bash --norc --noprofile"
tm set -g escape-time 0
wait_for '^\$'

step="the dashboard opens"
launch
wait_for '^ 1 Transfers   2 Upload   3 Load   4 Graph   5 History'
wait_for '│ photos\.tar .* idle +│'
wait_for '↑↓ select · s start · f fail next · enter details · \? help · q quit'

step="select the second transfer and start it"
keys j
keys s
wait_for '│ backup\.img .*running · [0-9]+% · request #1'
wait_for '│ photos\.tar .* idle +│'
wait_for 'p pause · c cancel'

step="pause it; its late callback is dropped as stale"
keys p
wait_for '│ backup\.img .*paused · [0-9]+% · request #1'
wait_for 'p resume · c cancel'
wait_for 'stale events dropped: 1'

step="resume it with space"
keys Space
wait_for '│ backup\.img .*running · [0-9]+% · request #1'

step="cancel it"
keys c
wait_for '│ backup\.img .* idle · after request #1'
wait_for 'stale events dropped: 2'
wait_for '↑↓ select · s start'

step="help overlay opens and closes"
keys '?'
wait_for '─ Help ─'
wait_for 'space / p +pause / resume'
keys Escape
wait_gone '─ Help ─'
wait_for '│ backup\.img .* idle'

step="the mouse: a click on a tab shows its screen, a click on a row selects it, the wheel moves it"
click 17 1
wait_for '^│ State idle'
click 5 1
wait_for '│ Name +Size +Done'
click 10 6
keys f
wait_for '│ dataset\.csv .*next fails *│'
wheel 65
keys f
wait_for '│ video\.mp4 .*next fails *│'
wheel 64
wheel 64
keys f
wait_for '│ backup\.img .*next fails *│'

step="the help overlay scrolls at 40x12, with keys and the wheel"
tm resize-window -t "$session" -x 40 -y 12
wait_for '^ 1 Transfers'
keys '?'
wait_for '↓ [0-9]+ more'
wait_for 'esc close · ↑↓ scroll · q quit'
keys End
wait_for '↑ [0-9]+ more'
wait_for 'ctrl-z suspend to the shell'
keys Home
wait_gone '↑ [0-9]+ more'
wheel 65
wait_for '↑ 3 more'
keys Escape
wait_gone '─ Help'
tm resize-window -t "$session" -x 80 -y 24
wait_for '│ Name +Size +Done +Rate +ETA State +│'

step="resize below 40x12 and back"
tm resize-window -t "$session" -x 30 -y 8
wait_for 'terminal too small'
wait_gone 'Transfers'
tm resize-window -t "$session" -x 1 -y 1
tm resize-window -t "$session" -x 40 -y 12
wait_for '^ 1 Transfers'
wait_for 'stale events dropped: 2'
tm resize-window -t "$session" -x 80 -y 24
wait_for '│ Name +Size +Done +Rate +ETA State +│'
wait_for 'stale events dropped: 2'

step="q quits and restores the terminal"
keys q
expect_restored 0

step="Ctrl-C quits as interrupted and restores the terminal"
launch
keys C-c
expect_restored 130

step="SIGTERM restores the terminal"
launch
kill -TERM "$(dashboard_pid)"
expect_restored 143

step="SIGHUP restores the terminal"
launch
kill -HUP "$(dashboard_pid)"
expect_restored 129

step="a fatal signal restores the terminal"
# Without Swift's interactive crash backtracer, which would wait for a key after the restore.
launch SWIFT_BACKTRACE=enable=no
kill -SEGV "$(dashboard_pid)"
expect_restored 139

# Issue 24: every catchable signal that ends the process restores the terminal first; the exit status
# stays the signal's (128 + its number).
for signal in USR1:138 USR2:140 ALRM:142 PIPE:141; do
    step="SIG${signal%:*} restores the terminal"
    launch
    kill "-${signal%:*}" "$(dashboard_pid)"
    expect_restored "${signal#*:}"
done

# Issue 24: a crash with Swift's backtracer left as it is (SWIFT_BACKTRACE unset) restores the terminal and
# prints one line, never the backtracer's page of source and its "Press space to interact" wait.
for signal in SEGV:139 ABRT:134; do
    step="SIG${signal%:*} restores the terminal and reports the crash in one line"
    launch
    kill "-${signal%:*}" "$(dashboard_pid)"
    expect_restored "${signal#*:}"
    wait_for "^statetui: crashed with SIG${signal%:*} "
    if screen | grep -q 'Press space'; then fail "the backtracer waits for a key"; fi
done

step="a terminal without an alternate screen (TERM=vt100) is cleared on the way out"
keys "clear; TERM=vt100 $bin --seed 1 --no-mouse; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
wait_for 'stale events dropped: 0'
keys q
wait_for '^exit=0$'
if screen | grep -E -q 'Transfers|stale events'; then fail "the last frame stayed on the screen"; fi

step="COLUMNS and LINES do not override the terminal's own size"
launch COLUMNS=500 LINES=300
wait_for '│ photos\.tar .* idle +│$'
wait_for '^ 1 Transfers   2 Upload'
keys q
expect_restored 0

step="a trace that cannot be written is a message and exit status 1"
keys "clear; $bin --seed 1 --trace /dev/full 2>$work/trace.err; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
keys q
expect_restored 1
[ "$(cat "$work/trace.err")" = "statetui: cannot write trace file /dev/full: No space left on device" ] ||
    fail "unexpected error: $(cat "$work/trace.err")"

step="Ctrl-Z suspends to the shell and fg comes back intact"
launch alone
keys j s
wait_for '│ backup\.img .*running · [0-9]+% · request #1'
keys C-z
wait_for 'Stopped'
[ "$(pane '#{alternate_on}')" = 0 ] || fail "suspended but still on the alternate screen"
[ "$(pane '#{cursor_flag}')" = 1 ] || fail "suspended but the cursor is hidden"
keys "fg" Enter
wait_for '^ 1 Transfers'
wait_for '│ backup\.img .*running · [0-9]+% · request #1'
wait_for 'p pause · c cancel'
[ "$(pane '#{alternate_on}')" = 1 ] || fail "back from suspension but not on the alternate screen"
keys q
wait_for '^\$$'
keys 'echo exit=$?' Enter
expect_restored 0

step="NO_COLOR draws without colour"
launch NO_COLOR=1
keys s
wait_for '│ photos\.tar .*running · [0-9]+% · request #1'
if tm capture-pane -p -e -t "$session" | grep -E -q $'\e\\[[0-9;]*(3[0-7]|9[0-7]|38;5;[0-9]+)m'; then
    fail "a colour escape was drawn under NO_COLOR"
fi
keys q
expect_restored 0

step="--no-mouse leaves the mouse to the terminal"
launch --no-mouse
keys q
expect_restored 0

step="a frame goes to the terminal in one write, not a write per cursor movement"
# ncurses flushes at every cursor movement until its screen was once suspended (NCursesTerminal resumes it
# before the first frame); strace shows each write(2) whole.
command -v strace >/dev/null 2>&1 || fail "strace is required (.ci/run installs it)"
launch strace -f -qq -e trace=write -e signal=none -s 1000000 -o "$work/writes"
keys 2
wait_for '^┌─ Upload '
keys q
expect_restored 0
grep -q 'write(1, ".* 1 Transfers .*stale events dropped: 0' "$work/writes" ||
    fail "the first frame was not written at once: $(grep -c 'write(1,' "$work/writes") writes to the terminal"
writes=$(grep -c 'write(1,' "$work/writes")
[ "$writes" -le 20 ] || fail "$writes writes to the terminal for two frames, start and exit"

step="unknown TERM is a one-line error, exit status 2"
keys "clear; TERM=no-such-terminal $bin 2>$work/term.err; echo exit=\$?" Enter
wait_for '^exit=2$'
[ "$(cat "$work/term.err")" = "statetui: unknown terminal type 'no-such-terminal' (TERM)" ] ||
    fail "unexpected error: $(cat "$work/term.err")"

step="standard output not a terminal is a one-line error, exit status 2"
status=0
"$bin" >"$work/out" 2>"$work/err" </dev/null || status=$?
[ "$status" = 2 ] || fail "exit status $status, expected 2"
[ "$(cat "$work/err")" = "statetui: standard output is not a terminal" ] || fail "unexpected error: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "wrote to standard output: $(cat "$work/out")"

echo "dashboard test: ok"
