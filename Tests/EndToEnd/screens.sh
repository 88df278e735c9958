#!/usr/bin/env bash
# The Upload, Load, Graph and History screens of the real `statetui` dashboard in tmux: every screen visited
# with 1–5, Tab and Shift-Tab, and its keys used — the transfers filtered and sorted, upload start/pause/resume/fail/retry, load refresh/fail/late
# response with the flags pane going impossible, graph model cycling, scrolling and the Mermaid export, history
# machine cycling and its marked records — then the help overlay listing every screen's keys, and the
# interactive `statetui demo` stopped with q. Screens are polled with a bounded wait, never a fixed sleep.
name=screens
wait_seconds=15
# shellcheck source=tmux-session.sh
source "$(dirname "$0")/tmux-session.sh"

tm new-session -d -s "$session" -x 80 -y 24 -c "$work" \
    "env -i PATH=\"$PATH\" HOME=\"$work\" HISTFILE=/dev/null TERM=screen PS1='$ ' bash --norc --noprofile"
tm set -g escape-time 0
wait_for '^\$'
keys "clear; cd '$work'; $bin --seed 1; echo exit=\$?" Enter
wait_for '^ 1 Transfers   2 Upload   3 Load   4 Graph   5 History'

step="transfers: / filters (q goes into the filter), esc clears, o sorts by name and G selects the last row"
keys / q
wait_for '^│ /q▏ 0 of 5'
keys BSpace v i d e o Enter
wait_for '^│ /video: 1 of 5'
wait_gone '│ photos\.tar '
keys Escape
wait_for '│ photos\.tar '
keys o
wait_for '│ Name▾ '
wait_for '^│ sorted by name'
keys G Enter
wait_for '─ video\.mp4 ─'
keys Escape
wait_gone '─ video\.mp4 ─'
keys o o o o
wait_gone 'sorted by'

step="upload: start, pause, resume, complete"
keys 2
wait_for 'State idle'
wait_for 's start · f fail next'
keys s
wait_for 'Uploading… [0-9]+%'
keys p
wait_for 'Paused at [0-9]+%'
wait_for '\[ Resume \]'
keys Space
wait_for 'Upload complete'

step="upload: fail the next one, retry it"
keys f
wait_for 'The next upload will fail half way'
keys s
wait_for 'Upload failed: connection lost at [0-9]+%'
wait_for '\[ Retry \]'
keys r
wait_for 'Upload complete'

step="upload: cancel mid-way; the chunk already on the wire is dropped by the machine as stale"
keys s
wait_for 'Uploading… [0-9]+%'
keys c
wait_for 'State idle'
wait_for 'stale reports dropped: 1'

step="load: refresh, fail, late response, refresh"
keys Tab
wait_for 'LoadState \(enum\)'
keys r
wait_for '│ loaded\(\["a", "b"\]\)'
keys f
keys r
wait_for '│ failed\("offline", previous'
wait_for 'l late response'
keys l
wait_for '• late'
wait_for 'stale responses dropped: 1'
keys r
wait_for 'IMPOSSIBLE: isLoading \+ items \+ error'

step="graph: the diagram by case, the table, cycle the models, scroll, write the Mermaid file"
keys 4
wait_for 'by case'
wait_for '║ idle ║'
keys t
wait_for 'states · [0-9]+ edges'
keys ']'
keys m
wait_for "Mermaid written to .*statetui-upload\\.mmd"
[ -s "$work/statetui-upload.mmd" ] || fail "statetui-upload.mmd was not written"
grep -q '^stateDiagram-v2' "$work/statetui-upload.mmd" || fail "statetui-upload.mmd is not a Mermaid diagram"
keys End
wait_for 'Dead ends \([0-9]+\)'

step="history: one named machine at a time; the load's and the upload's records, stale ones counted"
keys 5
wait_for 'Machine ‹ photos\.tar › 1/7'
keys '['
wait_for 'refreshTapped'
wait_for '[0-9]+ records · 1 stale'
keys '['
wait_for '[0-9]+ records · 1 stale'
wait_for 'following'
keys Up
wait_for 'paused — End to follow'
keys End
wait_for 'following'

step="history: / searches (q and digits go into the pattern), n moves, Esc ends the search"
keys / q 1
wait_for '^│ /q1'
keys BSpace BSpace p a u s e Enter
wait_for '/pause \([0-9]+ rows\)'
keys n
wait_for '/pause \([0-9]+ rows\)'
keys Escape
wait_for 'records · [0-9]+ stale · [0-9]+ invalid · (following|paused)'

step="history: o sorts by event, outcome and state, then time order again"
keys o
wait_for '(following|End to follow) · sorted by event'
wait_for 'event▾'
keys o o o
wait_for 'invalid · (following|paused — End to follow) +│'

step="help lists every screen's keys"
keys '?'
wait_for 'Upload'
# The whole help is taller than 24 rows: PgDn scrolls a page, End to its last lines.
keys PageDown
wait_for 'fail the next upload'
keys End
wait_for 'Graph'
wait_for 'write Mermaid file'
keys Escape
keys BTab
wait_for 'transfer +upload +load +transition table'

step="quit"
keys q
wait_for '^exit=0$'

step="the interactive demo shows its step and stops on q"
keys "clear; $bin demo tour; echo exit=\$?" Enter
wait_for '^ 1 Transfers'
wait_for 'demo tour · step [0-9]+ of [0-9]+'
keys q
wait_for '^exit=0$'

step="an interactive demo played to its end says so and waits for q"
printf '2\nexpect /State idle/\n' >"$work/short.demo"
keys "clear; $bin demo '$work/short.demo'; echo exit=\$?" Enter
wait_for 'demo short done — q quits'
wait_gone '^exit='
keys q
wait_for '^exit=0$'
# Issue 24: a headless demo's memory is flat in its length. Each frame is written as it is drawn and let go;
# 15,000 steps once held ~7 KB each (over 100 MB), now the peak stays near the dashboard's own ~35 MB.
step="a long headless demo keeps its memory flat"
for _ in $(seq 1 15000); do echo tab; done > "$work/long.demo"
"$bin" demo "$work/long.demo" --headless > /dev/null &
player=$!
peak=0
while kill -0 "$player" 2>/dev/null; do
    now=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$player/status" 2>/dev/null || true)
    [ -n "$now" ] && [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.5
done
wait "$player" || fail "the long demo exited $?"
[ "$peak" -gt 0 ] && [ "$peak" -lt 80000 ] || fail "a 15,000-step headless demo peaked at $peak kB (bound 80,000 kB)"

echo "screens test: ok"
