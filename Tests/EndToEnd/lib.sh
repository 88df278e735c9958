# Shared by every end-to-end script: source it first, after setting `name` (used in messages and in the
# temporary folder's name), and `build=no` when the script needs no debug `statetui`.
#
# It sets strict mode and the repository root as the working directory, builds the debug `statetui` into $bin,
# makes a private folder $work that is removed on exit together with what may still run in it (the process in
# $background, the private tmux server on $socket), and defines:
#   fail / pass   report one check (fail counts it and goes on); finish reports the count and exits 1 if any failed
#   tm            tmux on the private server
#   screen_of T   the text of tmux session T's screen
#   poll_screen T S RE   waits up to S seconds for session T's screen to match the extended regex RE (1 if not)
# Screens are polled with a bounded wait, never a fixed sleep.
set -euo pipefail
# Kept apart from `name`, which a script may reuse as a loop variable.
e2e_name=$name
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
SWIFT=${SWIFT:-swift}

if [ "${build:-yes}" != no ]; then
    "$SWIFT" build --product statetui >/dev/null
    bin="$("$SWIFT" build --show-bin-path)/statetui"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/statetui-$e2e_name.XXXXXX")
socket="$work/tmux.sock"
background=""
tm() { tmux -S "$socket" -f /dev/null "$@"; }
# Stops the private tmux server and waits (at most 5 s) until its process has gone: `kill-server` returns while
# the server is still shutting down, and a `new-session` that reaches the dying server fails with "server exited
# unexpectedly".
tm_stop() {
    local pid
    pid="$(tm display-message -p '#{pid}' 2>/dev/null || true)"
    tm kill-server >/dev/null 2>&1 || true
    [ -n "$pid" ] || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
}
cleanup() {
    if [ -n "$background" ]; then kill -9 "$background" 2>/dev/null || true; fi
    if command -v tmux >/dev/null 2>&1; then tm_stop; fi
    # The shell and the app may still be writing into $work while they go down: retry briefly.
    chmod -R u+rwX "$work" 2>/dev/null || true
    for _ in 1 2 3 4 5; do rm -rf "$work" 2>/dev/null && break; sleep 0.2; done
}
trap cleanup EXIT

failures=0
fail() {
    echo "FAIL $e2e_name e2e: $*" >&2
    failures=$((failures + 1))
}
pass() { echo "ok   $e2e_name e2e: $*"; }
# Ends the script: exit 1 naming how many checks failed, else the message given (or "all checks passed").
finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$e2e_name e2e: $failures check(s) failed" >&2
        exit 1
    fi
    echo "$e2e_name e2e: ${1:-all checks passed}"
}

screen_of() { tm capture-pane -p -t "$1"; }
poll_screen() {
    local target=$1 deadline=$((SECONDS + $2)) pattern=$3
    until screen_of "$target" | grep -E -q -- "$pattern"; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}
