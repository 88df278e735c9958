#!/usr/bin/env bash
# `statetui inspect` end to end in a private tmux server: a copy started with --inspectable in one session,
# `statetui inspect` listing it in another, `statetui inspect statetui-copy` following it through start, pause,
# resume and completion (the copy dashboard's keys sent with send-keys), `--headless` of the same run parsed as
# JSON lines by jq (.ci/run installs it) naming every transition, and a copy killed with kill -9 reported as
# exited while `inspect` still exits 0. Screens are polled with a bounded wait, never a fixed sleep.
name=inspect-screens
wait_seconds=30
source "$(dirname "$0")/tmux-session.sh"

command -v jq >/dev/null 2>&1 || {
    echo "inspect test: jq is required (.ci/run installs it)" >&2
    exit 1
}

# A private runtime directory: the sockets of this run only.
mkdir -m 700 "$work/run"
src="$work/src"
dst="$work/dst"
mkdir "$src" "$dst" "$work/dst2"
head -c $((6 << 20)) /dev/urandom >"$src/one.bin"
head -c $((6 << 20)) /dev/urandom >"$src/two.bin"
copy_env="XDG_RUNTIME_DIR='$work/run' TERM=screen STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=25"
run_env="XDG_RUNTIME_DIR='$work/run' TERM=screen"

# Waits up to $wait_seconds for session $1's screen to match the extended regular expression $2.
wait_in() {
    poll_screen "$1" "$wait_seconds" "$2" || {
        session=$1
        fail "waited $wait_seconds s in $1 for /$2/"
    }
}

# Sends KEY to session FROM, then waits in session IN for each extended regular expression RE in turn.
press() {
    local from=$1 key=$2 in=$3 pattern
    shift 3
    tm send-keys -t "$from" "$key"
    for pattern in "$@"; do wait_in "$in" "$pattern"; done
}

step="copy --inspectable waits with its rows idle"
tm new-session -d -s copy -x 110 -y 24 \
    "env $copy_env '$bin' copy --inspectable '$src/one.bin' '$src/two.bin' '$dst'; echo exit=\$?; sleep 60"
wait_in copy 'one\.bin .*idle'

step="statetui inspect lists the copy"
tm new-session -d -s list -x 100 -y 10 "env $run_env '$bin' inspect; echo exit=\$?; sleep 60"
wait_in list '^statetui-copy +[0-9]+ +2 '
wait_in list '^exit=0$'

step="--headless follows the same run"
env XDG_RUNTIME_DIR="$work/run" "$bin" inspect statetui-copy --headless >"$work/headless.jsonl" 2>"$work/headless.err" &
headless=$!

step="statetui inspect NAME opens the Machines screen"
tm new-session -d -s watch -x 120 -y 30 "env $run_env '$bin' inspect statetui-copy; echo exit=\$?; sleep 60"
wait_in watch 'statetui-copy · pid [0-9]+ · 2 machines · live'
wait_in watch 'one\.bin +idle +'

step="s in the copy starts one.bin and inspect shows it running"
press copy s watch 'one\.bin +running · [0-9]+% · request #1'

step="p pauses it"
press copy p copy 'one\.bin .*paused'
wait_in watch 'one\.bin +paused · [0-9]+% · request #1'

step="p resumes it and it completes"
press copy p watch 'one\.bin +(running|completed) · ' 'one\.bin +completed · '

step="/ filters the Machines list (typed letters go into it), esc clears it"
press watch / watch 'enter keeps · esc clears'
tm send-keys -t watch -l two
press watch Enter watch '/two: 1 of 2'
wait_in watch 'two\.bin +idle'
! tm capture-pane -p -t watch | grep -q 'one\.bin' || fail "the filter /two still shows one.bin"
press watch Escape watch 'one\.bin +completed · '
press watch g watch 'one\.bin +completed · '

step="History travels back to the pause"
press watch 2 watch 'Machine +one\.bin'
press watch Home watch 'travelled back' 'event +.*start'

step="/ searches History as the dashboard does (typed letters go into it), enter travels to the match, esc ends it"
press watch / watch 'enter searches · esc cancels'
tm send-keys -t watch -l pause
press watch Enter watch '/pause \([0-9]+ rows\)' 'event +pause'
press watch n watch 'event +pause'
press watch Escape watch 'missed · travelled back'
press watch o watch 'sorted by event' 'event▾'
press watch o watch 'sorted by outcome' 'outcome▾'
press watch o watch 'sorted by state'
press watch o watch 'missed · travelled back'

step="Graph shows the learned graph by case with the current state in words; ] and [ pick the machine; v the canonical text"
press watch 3 watch 'learned from [0-9]+ transitions seen · by case · now completed · '
press watch ']' watch 'Machine +two\.bin +learned'
press watch '[' watch 'Machine +one\.bin +learned'
press watch v watch 'now TransferModel\(phase: completed'

step="q in the copy (two.bin never started: exit 1): inspect says the program exited and keeps the last picture"
press copy q copy '^exit=1$'
wait_in watch 'program exited'
wait_in watch 'now TransferModel\(phase: completed'
press watch q watch '^exit=0$'

step="--headless exits 0 with the program and its lines name every transition"
headless_status=0
wait "$headless" || headless_status=$?
[ "$headless_status" = 0 ] || fail "--headless exited $headless_status: $(cat "$work/headless.err")"
jq -e -s 'length > 0' "$work/headless.jsonl" >/dev/null || fail "--headless printed lines that are not JSON"
[ "$(head -n 1 "$work/headless.jsonl" | jq -r .type)" = hello ] || fail "the first line is not hello"
[ "$(tail -n 1 "$work/headless.jsonl" | jq -r .type)" = bye ] || fail "the last line is not bye"
# Every state the machine reached (each `state` line) is the `after` of a `record` that moved or updated it,
# and start, pause and resume are among the events.
missing=$(jq -s -r '
    (map(select(.type == "record" and (.outcome == "moved" or .outcome == "updated")) | [.machine, .after])) as $reached
    | map(select(.type == "state") | select([.machine, .state] as $s | $reached | index([$s]) | not))
    | length' "$work/headless.jsonl")
[ "$missing" = 0 ] || fail "$missing state lines have no record naming their transition"
for event in start pause resume; do
    jq -e -s --arg event "$event" 'any(.[]; .type == "record" and .outcome == "moved" and (.event | contains($event)))' \
        "$work/headless.jsonl" >/dev/null || fail "no $event transition in --headless output"
done
jq -e -s 'any(.[]; .type == "state" and (.state | contains("phase: completed")))' "$work/headless.jsonl" >/dev/null ||
    fail "--headless never saw the copy complete"

step="kill -9 of the program is reported and inspect exits 0"
tm new-session -d -s victim -x 110 -y 24 \
    "env $copy_env '$bin' copy --inspectable --start '$src/one.bin' '$src/two.bin' '$work/dst2'; echo exit=\$?; sleep 60"
wait_in victim 'one\.bin .*running'
sock=$(ls "$work/run/statetui/" | grep -E '^statetui-copy\.[0-9]+\.sock$' | head -n 1)
pid=${sock#statetui-copy.}
pid=${pid%.sock}
tm new-session -d -s watch2 -x 80 -y 24 "env $run_env '$bin' inspect '$pid'; echo exit=\$?; sleep 60"
wait_in watch2 'statetui-copy · pid [0-9]+ · 2 machines · live'
kill -9 "$pid"
wait_in watch2 'program exited \(connection lost\)'
# Issue 24: the machines of a killed program are not `live` any more.
wait_in watch2 ' gone +│'
press watch2 q watch2 '^exit=0$'

echo "ok   inspect e2e: list, Machines/History/Graph follow start, pause, resume and completion;" \
    "--headless names every transition; kill -9 is reported and inspect exits 0"
