# Shared by the tmux end-to-end scripts: source it after setting `name` (used in messages, the temporary
# folder and the tmux session) and `wait_seconds` (how long wait_for and wait_gone poll before failing).
# Builds the debug `statetui` into $bin, makes a private tmux server in $work, and defines tm, fail, screen,
# wait_for, wait_gone and keys. Screens are polled with a bounded wait, never a fixed sleep.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
SWIFT=${SWIFT:-swift}

if ! command -v tmux >/dev/null 2>&1; then
    echo "$name test: tmux is required (.ci/run installs it)" >&2
    exit 1
fi

"$SWIFT" build --product statetui >/dev/null
bin="$("$SWIFT" build --show-bin-path)/statetui"

work=$(mktemp -d "${TMPDIR:-/tmp}/statetui-$name.XXXXXX")
socket="$work/tmux.sock"
session=$name
tm() { tmux -S "$socket" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    # The shell and the app may still be writing into $work while the server goes down: retry briefly.
    for _ in 1 2 3 4 5; do rm -rf "$work" 2>/dev/null && break; sleep 0.2; done
}
trap cleanup EXIT

step=start
fail() {
    echo "$name test: step '$step': $*" >&2
    echo "--- screen ---" >&2
    tm capture-pane -p -t "$session" >&2 || true
    exit 1
}
screen() { tm capture-pane -p -t "$session"; }
# Waits up to $wait_seconds for the screen to match an extended regular expression.
wait_for() {
    local pattern=$1 deadline=$((SECONDS + wait_seconds))
    until screen | grep -E -q -- "$pattern"; do
        [ $SECONDS -lt $deadline ] || fail "waited $wait_seconds s for /$pattern/"
        sleep 0.05
    done
}
# Waits up to $wait_seconds for the screen to stop matching.
wait_gone() {
    local pattern=$1 deadline=$((SECONDS + wait_seconds))
    while screen | grep -E -q -- "$pattern"; do
        [ $SECONDS -lt $deadline ] || fail "waited $wait_seconds s for /$pattern/ to go"
        sleep 0.05
    done
}
keys() { tm send-keys -t "$session" "$@"; }
