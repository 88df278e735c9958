#!/usr/bin/env bash
# End-to-end checks of `statetui inspect` against a real `statetui copy --inspectable --headless` process, with
# a private XDG_RUNTIME_DIR: the list names the copy; `--headless` follows it through start and completion as
# JSON lines (every line parses, the records' sequence numbers have no gap, the transfer reaches completed,
# `bye` ends it, exit 0); a second run is killed with SIGKILL while followed (exit 0, its socket is removed by
# the next listing); a client that sends garbage or never reads leaves the copy's output and result unchanged;
# unknown names exit 2. The copy is throttled with STATETUI_COPY_CHUNK_DELAY_MS; waits are bounded polls.
name=inspect
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
mkdir "$work/src" "$work/dst" "$work/dst2"
head -c 4000000 /dev/urandom > "$work/src/a.bin"

# Waits (at most 10 s) until the copy is listed by `statetui inspect`.
wait_listed() {
    for _ in $(seq 1 200); do
        if "$bin" inspect | grep -q "^statetui-copy "; then return 0; fi
        sleep 0.05
    done
    return 1
}

# 1. Follow a copy from start to completion.
STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=20 \
    "$bin" copy --headless --inspectable "$work/src/a.bin" "$work/dst" > "$work/copy.out" 2>&1 &
background=$!
wait_listed || fail "the copy is not listed"
"$bin" inspect | grep -Eq "^statetui-copy +$background +1 +20[0-9-]+T" || fail "list row: $("$bin" inspect)"
# A client that sends garbage, and one that never reads, beside the real one.
python3 - "$XDG_RUNTIME_DIR/statetui/statetui-copy.$background.sock" <<'PY' &
import socket, sys, time
garbage = socket.socket(socket.AF_UNIX); garbage.connect(sys.argv[1])
stalled = socket.socket(socket.AF_UNIX); stalled.connect(sys.argv[1])
try:
    garbage.sendall(b"{\"type\":\"send\",\"event\":\"cancel\"}\n" * 4096)
except OSError:
    pass
time.sleep(3)
PY
"$bin" inspect statetui-copy --headless > "$work/inspect.out"
status=$?
wait "$background" || fail "the copy failed: $(cat "$work/copy.out")"
background=""
[ "$status" -eq 0 ] || fail "inspect --headless exited $status"
jq -e . "$work/inspect.out" > /dev/null || fail "a line is not JSON"
[ "$(head -1 "$work/inspect.out" | jq -r '.type + " " + (.version|tostring)')" = "hello 1" ] || fail "first line is not hello 1"
[ "$(tail -1 "$work/inspect.out" | jq -r .type)" = "bye" ] || fail "last line is not bye"
grep -q '"outcome":"moved".*completed' "$work/inspect.out" || grep -q 'completed(file' "$work/inspect.out" \
    || fail "completion not seen"
first=$(jq -r 'select(.type == "machine") | .sequence' "$work/inspect.out" | head -1)
jq -r 'select(.type == "record") | .sequence' "$work/inspect.out" > "$work/sequences"
missed=$(jq -s '[.[] | select(.type == "missed") | .count] | add // 0' "$work/inspect.out")
last=$(tail -1 "$work/sequences")
count=$(wc -l < "$work/sequences")
[ $((last - first)) -eq $((count + ${missed:-0})) ] || fail "records $first..$last: $count seen, ${missed:-0} missed"
cmp -s "$work/src/a.bin" "$work/dst/a.bin" || fail "the copy differs"
grep -q 'a.bin: completed' "$work/copy.out" || fail "copy output: $(cat "$work/copy.out")"

# 2. Kill the followed program: the client exits 0, the next listing removes the dead socket.
STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=50 \
    "$bin" copy --headless --inspectable "$work/src/a.bin" "$work/dst2" > /dev/null 2>&1 &
background=$!
wait_listed || fail "the second copy is not listed"
"$bin" inspect "$background" --headless > "$work/killed.out" &
follower=$!
sleep 0.5
kill -9 "$background"
wait "$background" 2>/dev/null || true
background=""
wait "$follower" || fail "inspect of a killed program exited $?"
[ "$(head -1 "$work/killed.out" | jq -r .type)" = "hello" ] || fail "killed: no hello"
[ -z "$("$bin" inspect | grep statetui-copy || true)" ] || fail "the dead program is still listed"
[ -z "$(ls "$XDG_RUNTIME_DIR/statetui")" ] || fail "dead socket left: $(ls "$XDG_RUNTIME_DIR/statetui")"

# 3. Unknown names.
set +e
"$bin" inspect nobody --headless 2> "$work/err"
status=$?
set -e
[ "$status" -eq 2 ] || fail "unknown name exited $status"
grep -q "no inspectable program named nobody" "$work/err" || fail "unknown name message: $(cat "$work/err")"

# Serves one client on the socket $peer: sends BYTES, then says nothing more for 30 s. Runs
# `statetui inspect $peer --headless` against it with its standard error in ERR_FILE, and sets status.
inspect_fake_peer() {
    local bytes=$1 err_file=$2 server
    rm -f "$peer"
    python3 - "$peer" "$bytes" <<'PY' &
import socket, sys, time
server = socket.socket(socket.AF_UNIX); server.bind(sys.argv[1]); server.listen(1)
client, _ = server.accept()
client.sendall(sys.argv[2].encode("latin-1"))
time.sleep(30)
PY
    server=$!
    for _ in $(seq 1 100); do [ -S "$peer" ] && break; sleep 0.05; done
    set +e
    timeout -k 10 20 "$bin" inspect "$peer" --headless > /dev/null 2> "$err_file"
    status=$?
    set -e
    kill "$server" 2>/dev/null || true
}

# 4. Issue 24: a peer that accepts and never says hello is given up on after 5 s, exit 1, saying so.
peer="$work/peer.1.sock"
inspect_fake_peer "" "$work/silent.err"
[ "$status" -eq 1 ] || fail "a silent peer: exit $status, expected 1"
[ "$(cat "$work/silent.err")" = "statetui: inspect: $peer: no hello within 5 seconds; not an inspector, or it is stuck" ] ||
    fail "a silent peer: $(cat "$work/silent.err")"

# 5. Issue 24: escape sequences a peer sends reach standard error escaped, never raw.
inspect_fake_peer $'\e]2;TITLE\a\e[2J\n' "$work/escapes.err"
[ "$status" -eq 1 ] || fail "an escaping peer: exit $status, expected 1"
if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$work/escapes.err"; then fail "raw control bytes on stderr"; fi
grep -qF 'not an inspector message: "\u{1B}]2;TITLE\u{7}\u{1B}[2J"' "$work/escapes.err" ||
    fail "an escaping peer: $(cat "$work/escapes.err")"

# 6. Issue 24: the listing deletes stale sockets only: a regular file and a symlink under a dead
# program's name stay.
echo mine > "$XDG_RUNTIME_DIR/statetui/notes.999999.sock"
ln -s notes.999999.sock "$XDG_RUNTIME_DIR/statetui/pointer.999998.sock"
"$bin" inspect > /dev/null
[ "$(cat "$XDG_RUNTIME_DIR/statetui/notes.999999.sock")" = mine ] || fail "the listing deleted a regular file"
[ -L "$XDG_RUNTIME_DIR/statetui/pointer.999998.sock" ] || fail "the listing deleted a symlink"

finish ok
