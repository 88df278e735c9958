#!/usr/bin/env bash
# Issue 23's output rows end to end: `statetui copy --headless` writes its lines as they happen (to a file
# watched live, through a pipe, and what is there after kill -9), a total line at most once a second in the
# issue's format, a summary at the end; `statetui replay` fed through a pipe answers each line before it waits
# for the next. Every wait is bounded (the output is polled, never slept on).
name=copy-progress
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# Throttled so a copy lasts a few seconds: 64 KiB chunks, 10 ms after each.
slow=(env STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=10 "$bin")
src="$work/src"
mkdir -p "$src"
head -c $((16 << 20)) /dev/urandom >"$src/big.bin"
head -c $((1 << 20)) /dev/urandom >"$src/small.bin"

# Waits up to 20 s until FILE has a line matching the extended regex RE; 1 if it never does.
wait_for_line() {
    local file=$1 pattern=$2 deadline=$((SECONDS + 20))
    until grep -E -q -- "$pattern" "$file" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}

step="written as it happens, a total line while it runs, the log kept after kill -9"
mkdir "$work/live"
"${slow[@]}" copy "$src/big.bin" "$work/live" --headless >"$work/live.out" 2>"$work/live.err" &
background=$!
if wait_for_line "$work/live.out" '^big\.bin: running\(request: 1, percent: [0-9]+\)$' && kill -0 "$background"; then
    pass "a progress line is in the log while the copy runs"
else
    fail "no progress line while the copy runs (held back?): $(cat "$work/live.out")"
fi
total='^total: [0-9.]+ [kMG]?B of 16 MB · [0-9]+% · ([0-9.]+ [kMG]?B/s|–) · ETA ([0-9]+:[0-9][0-9]|[0-9]+h[0-9][0-9]m|–) · 0 of 1 files$'
if wait_for_line "$work/live.out" "$total" && kill -0 "$background"; then
    pass "a total line in the issue's format while the copy runs: $(grep -E -m 1 '^total:' "$work/live.out")"
else
    fail "no total line in the format while the copy runs: $(cat "$work/live.out")"
fi
kill -9 "$background"
wait "$background" 2>/dev/null || true
background=""
if grep -q '^big\.bin: running' "$work/live.out"; then
    pass "after kill -9 the log so far is there"
else
    fail "after kill -9 the log is empty"
fi

step="through a pipe: the first line arrives while the copy still runs"
mkdir "$work/piped"
mkfifo "$work/pipe"
"${slow[@]}" copy "$src/big.bin" "$work/piped" --headless >"$work/pipe" 2>/dev/null &
background=$!
first=""
if read -r -t 20 first <"$work/pipe" && kill -0 "$background"; then
    pass "the first line came through the pipe while the copy ran: $first"
else
    fail "nothing came through the pipe while the copy ran (first line: '$first')"
fi
kill -9 "$background"
wait "$background" 2>/dev/null || true
background=""

step="a summary ends the output; total lines at most once a second"
mkdir "$work/done"
status=0
"${slow[@]}" copy "$src/big.bin" "$src/small.bin" "$work/done" --headless >"$work/done.out" 2>"$work/done.err" ||
    status=$?
summary=$(tail -n 1 "$work/done.out")
if [ $status = 0 ] && [[ $summary =~ ^copied\ 2\ files\ \(17\ MB\),\ skipped\ 0,\ failed\ 0\ in\ [0-9]+\ s$ ]]; then
    pass "the summary: $summary"
else
    fail "exit $status, last line '$summary', stderr: $(cat "$work/done.err")"
fi
seconds=$(echo "$summary" | sed -n 's/.* in \([0-9]*\) s$/\1/p')
totals=$(grep -c '^total:' "$work/done.out" || true)
if [ -n "$seconds" ] && [ "$totals" -le $((seconds + 1)) ]; then
    pass "$totals total lines in a copy of about $seconds s"
else
    fail "$totals total lines in a copy of $seconds s"
fi

step="replay through a pipe answers each line before it waits for the next"
coproc replay { exec "$bin" replay transfer; }
background=$replay_PID
echo start >&"${replay[1]}"
answer=""
if read -r -t 10 answer <&"${replay[0]}" && [ "$answer" = "to running(request: 1, percent: 0)" ]; then
    pass "replay answered 'start' while its input stayed open"
else
    fail "replay did not answer while its input stayed open (got '$answer')"
fi
exec {replay[1]}>&-
wait "$background" 2>/dev/null || true
background=""

finish
