# Shared by the tmux end-to-end scripts: source it after setting `name` (used in messages, the temporary
# folder and the tmux session) and `wait_seconds` (how long wait_for and wait_gone poll before failing).
# On top of lib.sh (the debug `statetui` in $bin, the private folder $work and tmux server, tm), it defines
# a fail that stops at the first failure showing the screen, screen, wait_for, wait_gone and keys.
if ! command -v tmux >/dev/null 2>&1; then
    echo "$name test: tmux is required (.ci/run installs it)" >&2
    exit 1
fi
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

session=$name
step=start
# Replaces lib.sh's counting fail: a screen script cannot go on from a screen it did not reach.
fail() {
    echo "$name test: step '$step': $*" >&2
    echo "--- screen ---" >&2
    tm capture-pane -p -t "$session" >&2 || true
    exit 1
}
screen() { screen_of "$session"; }
# Waits up to $wait_seconds for the screen to match an extended regular expression.
wait_for() { poll_screen "$session" "$wait_seconds" "$1" || fail "waited $wait_seconds s for /$1/"; }
# Waits up to $wait_seconds for the screen to stop matching.
wait_gone() {
    local pattern=$1 deadline=$((SECONDS + wait_seconds))
    while screen | grep -E -q -- "$pattern"; do
        [ $SECONDS -lt $deadline ] || fail "waited $wait_seconds s for /$pattern/ to go"
        sleep 0.05
    done
}
keys() { tm send-keys -t "$session" "$@"; }
