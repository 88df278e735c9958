#!/usr/bin/env bash
# Issue 17's screens end to end, in tmux as a person uses them: `statetui copy` copies a directory tree in which
# one file fails (a directory planted where it would land), the Transfers screen shows each file's size, bytes
# done, rate and ETA while it runs, a click selects the failed file and Enter opens its detail pane with the
# whole error (compared with the one `copy --headless` prints for the same tree), a click on a tab shows
# History, `/` searches it; then, on the dashboard's own simulated Transfers, `s p` typed fast ends paused.
# Issue 23: the copy dashboard has only its copies, their History and Graph (the transfer model alone), a total
# row and no fault key; `S` starts every transfer; a copy into a directory another copy writes into shows the wait
# (which journal, which process), `q` stops waiting, and once the other run is done the dashboard opens and copies.
# SIGTERM stops the copy dashboard as Ctrl-C does (exit 143, partial and journal kept); a dashboard whose terminal
# closes (SIGHUP) finishes its destination's directories and removes its journals, as `q` does.
# Every wait is bounded (the screen is polled, never slept on); the private tmux server and the files go
# with the script.
name=ux
wait_seconds=20
# shellcheck source=tmux-session.sh
source "$(dirname "$0")/tmux-session.sh"
# A left click at column $1, row $2 (counted from 1), as a terminal reporting the mouse in SGR form sends it.
click() {
    keys -l $'\e[<0;'"$1;$2"'M'
    keys -l $'\e[<0;'"$1;$2"'m'
}
# The screen row (counted from 1) of the first line matching $1.
row_of() { screen | grep -n -E -m 1 -- "$1" | cut -d: -f1; }
# The screen column (counted from 1) where $1 starts on the screen's first line.
column_on_top() { screen | head -n 1 | awk -v text="$1" '{ print index($0, text) }'; }

step="a tree to copy, a directory planted where one of its files would land"
src="$work/src/tree"
dst="$work/dst"
mkdir -p "$src/sub" "$dst/tree/sub/bad.bin/kept"
head -c $((24 << 20)) /dev/urandom >"$src/big.bin"
head -c $((4 << 20)) /dev/urandom >"$src/sub/small.bin"
head -c $((1 << 20)) /dev/urandom >"$src/sub/bad.bin"
echo notes >"$src/notes.txt"
echo planted >"$dst/tree/sub/bad.bin/kept/file"
# The error the copy gives for the planted file, as `copy --headless` reports it on a scratch destination.
mkdir -p "$work/headless/tree/sub/bad.bin"
status=0
"$bin" copy "$src" "$work/headless" --headless >/dev/null 2>"$work/headless.err" || status=$?
[ $status = 1 ] || fail "copy --headless with the planted directory exited $status, not 1"
error=$(sed -n 's|^statetui: tree/sub/bad\.bin: ||p' "$work/headless.err" | sed "s|$work/headless|$dst|")
[ -n "$error" ] || fail "copy --headless did not report the planted file: $(cat "$work/headless.err")"

step="statetui copy opens the Transfers screen on the tree"
tm new-session -d -s "$session" -x 100 -y 30 \
    "env TERM=screen STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=10 '$bin' copy '$src' '$dst' --start; echo exit=\$?; sleep 60"
tm set -g escape-time 0
wait_for '^ 1 Transfers'
wait_for '│ Name +Size +Done +Rate +ETA State +│'

step="issue 23: the copy dashboard is a copy tool: its copies, their History and their Graph, a total row, no f"
wait_for '^ 1 Transfers +2 Graph +3 History *$'
wait_for '^│ total: [0-9.]+ [kMG]?B of [0-9.]+ [kMG]?B · [0-9]+% · .* · [0-9]+ of 4 files +│$'
! screen | grep -q -E 'Upload|f fail next' || fail "the copy dashboard shows a simulated screen or the fault key"

step="size, bytes done, rate and ETA of a running file"
wait_for '│ tree/big\.bin +25 MB +[0-9.]+ [kMG]?B +[0-9.]+ [kMG]?B/s +[0-9]+:[0-9][0-9] running · [0-9]+% · request #1'

step="the planted file fails; a click selects it"
wait_for '│ tree/sub/bad\.bin .*failed at 0% · '
y=$(row_of 'tree/sub/bad\.bin')
click 5 "$y"
wait_for 'r retry'

step="Enter opens its detail pane with the whole error"
keys Enter
wait_for '─ tree/sub/bad\.bin ─'
wait_for '│ Error +'
# The error as drawn, wrapped over as many lines as it takes: from its label to the records, borders and
# label dropped; compared without the spaces the wrapping moved.
shown=$(screen | sed -n '/│ Error /,/Last records/p' | grep -v 'Last records' | sed -e 's/│//g' -e 's/^ *Error//')
[ "$(tr -d ' \n' <<<"$shown")" = "$(tr -d ' \n' <<<"$error")" ] ||
    fail "the pane's error is not the whole error: shown [$shown], expected [$error]"
keys Escape
wait_gone '─ tree/sub/bad\.bin ─'

step="a click on the History tab shows History; / searches it"
wait_for '│ tree/big\.bin .*completed · '
click $(($(column_on_top '3 History') + 2)) 1
wait_for 'records · [0-9]+ stale · [0-9]+ invalid · ([0-9]+ missed · )?following'
keys /
wait_for 'enter searches · esc cancels'
keys -l succeeded
keys Enter
wait_for '· /succeeded \([1-9][0-9]* rows\) +│$'

step="q leaves with exit 1, the planted file's failure said on standard error"
keys -l q
wait_for '^exit=1$'
wait_for '1 of [0-9]+ transfers failed'

step="on the dashboard's simulated Transfers, s p typed fast ends paused"
tm kill-session -t "$session"
tm new-session -d -s "$session" -x 100 -y 30 "env TERM=screen '$bin' --seed 1; echo exit=\$?; sleep 60"
wait_for '│ photos\.tar .* idle +│'
keys s p
wait_for '│ photos\.tar .*paused · [0-9]+% · request #1'

step="issue 23: S starts every transfer that can start with one key"
keys S
wait_for '│ backup\.img .*running · [0-9]+% · request #1'
wait_for '│ notes\.md .*running · [0-9]+% · request #1'
wait_for '│ photos\.tar .*paused · [0-9]+% · request #1'
keys q
wait_for '^exit=0$'

step="issue 23: a copy into a directory another statetui copy writes into shows the wait on its dashboard"
busy="$work/busy"
mkdir -p "$busy"
env STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=30 "$bin" copy "$src/big.bin" "$busy" --headless \
    >"$work/busy.out" 2>&1 &
first=$!
tries=0
until [ -n "$(find "$busy" -name '.statetui-partial.*' -size +0 2>/dev/null)" ]; do
    tries=$((tries + 1))
    [ $tries -le 1000 ] || fail "the first copy into $busy never started"
    sleep 0.01
done
tm kill-session -t "$session"
tm new-session -d -s "$session" -x 100 -y 30 "env TERM=screen '$bin' copy '$src/notes.txt' '$busy'; echo exit=\$?; sleep 60"
wait_for "Waiting for $busy/\\.statetui-journal"
wait_for "Another statetui copy \\(pid $first\\) writes into that directory"
wait_for 'q stop waiting'
step="q stops waiting: exit 1, nothing copied, the reason on standard error"
keys q
wait_for '^exit=1$'
wait_for "stopped waiting for $busy/\\.statetui-journal \\(pid $first\\);"
[ ! -e "$busy/notes.txt" ] || fail "the run that stopped waiting copied notes.txt"

step="a run that waits opens the dashboard once the other run is done, then copies"
tm kill-session -t "$session"
tm new-session -d -s "$session" -x 100 -y 30 \
    "env TERM=screen '$bin' copy '$src/notes.txt' '$busy' --start; echo exit=\$?; sleep 60"
wait_for "Waiting for $busy/\\.statetui-journal"
wait $first || fail "the first copy into $busy failed: $(cat "$work/busy.out")"
wait_for '^ 1 Transfers +2 Graph +3 History *$'
wait_for '│ notes\.txt .*completed · '

step="issue 23: the copy dashboard's Graph shows the transfer model only, and ] does not leave it"
keys 2
wait_for '^│  transfer  by case '
keys ']'
wait_for '^│  transfer  by case '
! screen | grep -q -E ' upload | load |\[ \] model' || fail "the copy dashboard's Graph offers the demo's models"
keys q
wait_for '^exit=0$'
cmp -s "$src/big.bin" "$busy/big.bin" && cmp -s "$src/notes.txt" "$busy/notes.txt" ||
    fail "the two runs into $busy did not both copy their file intact"

step="SIGTERM stops the copy dashboard as Ctrl-C does: exit 143, the partial and the journal kept, a rerun continues"
slow="$work/slow"
mkdir -p "$slow"
tm kill-session -t "$session"
tm new-session -d -s "$session" -x 100 -y 30 \
    "env TERM=screen STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=30 '$bin' copy '$src/big.bin' '$slow' --start 2>'$work/term.err'; echo exit=\$?; sleep 60"
wait_for '│ big\.bin .*running · [0-9]+% · request #1'
pid=$(pgrep -x -f -- "$bin copy $src/big.bin $slow --start") || fail "no copy dashboard process for $slow"
kill -TERM "$pid"
wait_for '^exit=143$'
grep -q '^statetui: stopped by SIGTERM; partial files and the journal are kept' "$work/term.err" ||
    fail "the dashboard stopped by SIGTERM did not say so: $(cat "$work/term.err")"
[ -n "$(find "$slow" -name '.statetui-partial.*' -size +0)" ] && [ -e "$slow/.statetui-journal" ] ||
    fail "the dashboard stopped by SIGTERM did not keep its partial and journal"
"$bin" copy "$src/big.bin" "$slow" --headless >"$work/term-rerun.out" 2>&1 || fail "the rerun after SIGTERM failed"
cmp -s "$src/big.bin" "$slow/big.bin" || fail "the rerun after SIGTERM did not copy big.bin intact"

step="a copy dashboard whose terminal closes (SIGHUP) finishes its destination: modes set, no journal left"
keep="$work/hup/keys"
mkdir -p "$keep/private" "$work/hup/dst"
echo secret >"$keep/private/key"
chmod 750 "$keep/private"
tm kill-session -t "$session"
tm new-session -d -s "$session" -x 100 -y 30 \
    "env TERM=screen '$bin' copy '$keep' '$work/hup/dst' --start 2>'$work/hup.err'; echo exit=\$?; sleep 60"
wait_for '│ keys/private/key .*completed · '
pid=$(pgrep -x -f -- "$bin copy $keep $work/hup/dst --start") || fail "no copy dashboard process for $keep"
tm kill-session -t "$session"
tries=0
while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -le 1000 ] || fail "the copy dashboard went on after its terminal closed"
    sleep 0.01
done
[ "$(stat -c %a "$work/hup/dst/keys/private")" = 750 ] ||
    fail "after the terminal closed keys/private is $(stat -c %a "$work/hup/dst/keys/private"), not 750 as its source"
[ -z "$(find "$work/hup/dst" -name '.statetui-journal')" ] || fail "after the terminal closed a journal was left"
grep -q '^statetui: stopped by SIGHUP' "$work/hup.err" || fail "the closed dashboard did not say SIGHUP stopped it"
cmp -s "$keep/private/key" "$work/hup/dst/keys/private/key" || fail "keys/private/key differs after SIGHUP"

echo "$name test: ok"
