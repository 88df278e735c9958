#!/usr/bin/env bash
# End-to-end checks of `statetui copy --headless` on real files under /tmp: kill -9 in the middle of a
# multi-file copy and restart, the fault cases (missing source, destination not a directory, out of
# space via `ulimit -f`, a source changing during the copy, a corrupt or truncated journal, an existing
# destination), SIGINT/SIGTERM, bad arguments, and hostile input (FIFO and device sources, symbolic
# links planted in the destination, the destination replaced mid-copy, a sparse 1 GiB file, control
# characters in names, 1,000 files, a 10 MB journal line), and directory trees copied like `cp -r` (kill -9
# mid-tree and rerun, journals removed after success, links copied as links and FIFOs skipped, a planted link in the
# destination refused, no bound on a tree's depth or size, names that are not UTF-8). Every copied file is compared with `sha256sum`.
#
# The copy is throttled with STATETUI_COPY_CHUNK_DELAY_MS so it can be interrupted in the middle; the
# script waits for the partial files to reach a size instead of sleeping a fixed time.
name=copy
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# Throttled enough to interrupt: 256 KiB chunks, 15 ms after each, a durable checkpoint every 1 MiB.
export STATETUI_COPY_CHECKPOINT_BYTES=$((1 << 20))
# `env` execs statetui, so $! of a background `"${slow[@]}" … &` is statetui itself, not a subshell.
slow=(env STATETUI_COPY_CHUNK_DELAY_MS=15 "$bin")

make_file() { head -c "$2" /dev/urandom >"$1"; }
hash_of() { sha256sum "$1" | cut -d' ' -f1; }
same() { [ -f "$2" ] && [ "$(hash_of "$1")" = "$(hash_of "$2")" ]; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
# The partial of NAME in DIR: .statetui-partial. and the first 16 hex digits of the SHA-256 of the name.
partial_of() { printf '%s/.statetui-partial.%s' "$1" "$(printf %s "$2" | sha256sum | cut -c1-16)"; }

# Waits (up to 30 s) until FILE has at least BYTES.
wait_for_size() {
    local file=$1 bytes=$2 tries=0
    while [ "$(size_of "$file")" -lt "$bytes" ]; do
        tries=$((tries + 1))
        [ $tries -le 3000 ] || return 1
        sleep 0.01
    done
}

# Waits until the journal in DIR holds a checkpoint of a file whose name begins with PREFIX.
wait_for_checkpoint() {
    local journal=$1/.statetui-journal prefix=$2 tries=0
    until grep -qF "{\"checkpoint\":{\"name\":\"$prefix" "$journal" 2>/dev/null; do
        tries=$((tries + 1))
        [ $tries -le 3000 ] || return 1
        sleep 0.01
    done
}

# Waits until the partial PATH has BYTES (else fails with MESSAGE) and, given a PREFIX, until the journal beside it
# holds a checkpoint of the file whose name begins so; then kills the background copy with -9. A restart continues
# from the last checkpoint, which is journaled behind the writes: a kill before the first leaves it nothing to
# continue from (on a loaded machine the partial reached 3 MiB before its 1 MiB checkpoint was journaled).
kill_at_size() {
    wait_for_size "$1" "$2" || fail "$3"
    [ -z "${4:-}" ] || wait_for_checkpoint "$(dirname "$1")" "$4" || fail "$3: no checkpoint of $4 was journaled"
    kill -9 "$background"
    wait "$background" 2>/dev/null || true
    background=""
}

# Sets dst to the new, empty destination directory $work/NAME.
new_destination() {
    dst="$work/$1"
    mkdir "$dst"
}

# Starts a throttled `statetui copy ARGS… --headless` in the background ($background); its output goes to
# $work/LOG.out and $work/LOG.err.
copy_slowly() {
    local log=$1
    shift
    "${slow[@]}" copy "$@" --headless >"$work/$log.out" 2>"$work/$log.err" &
    background=$!
}

# Waits for the background copy to end and sets status to its exit status.
wait_copy() {
    status=0
    wait "$background" || status=$?
    background=""
}

src="$work/src"
mkdir -p "$src"
make_file "$src/one.bin" $((12 << 20))
make_file "$src/two.bin" $((9 << 20))
make_file "$src/three.bin" $((300 << 10))
make_file "$src/empty.bin" 0

# 1. kill -9 in the middle of a multi-file copy, then the same command again.
new_destination killed
copy_slowly kill "$src/one.bin" "$src/two.bin" "$src/three.bin" "$src/empty.bin" "$dst"
kill_at_size "$(partial_of "$dst" one.bin)" $((3 << 20)) "kill -9: the copy never got 3 MiB into one.bin" one.bin
[ -f "$(partial_of "$dst" one.bin)" ] || fail "kill -9: no partial of one.bin was left behind"
[ -f "$dst/one.bin" ] && fail "kill -9: one.bin appeared under its final name before it was complete"
for name in one two three empty; do
    # Anything already under a final name must be complete.
    if [ -f "$dst/$name.bin" ] && ! same "$src/$name.bin" "$dst/$name.bin"; then
        fail "kill -9: $name.bin is under its final name but differs from its source"
    fi
done
if "$bin" copy "$src/one.bin" "$src/two.bin" "$src/three.bin" "$src/empty.bin" "$dst" --headless >"$work/restart.out" 2>&1; then
    ok=1
    for name in one two three empty; do
        same "$src/$name.bin" "$dst/$name.bin" || { ok=0; fail "kill -9: after the restart $name.bin differs from its source"; }
    done
    [ -z "$(find "$dst" -name '.statetui-partial.*')" ] || { ok=0; fail "kill -9: partial files remain after the restart"; }
    [ ! -e "$dst/.statetui-journal" ] || { ok=0; fail "kill -9: the journal remains after every transfer completed"; }
    grep -q 'one.bin: running(request: 1, percent: [1-9]' "$work/restart.out" ||
        { ok=0; fail "kill -9: the restart did not continue one.bin past 0%: $(head -3 "$work/restart.out")"; }
    [ $ok = 1 ] && pass "kill -9 mid-copy, restart: every file matches its source's SHA-256, one.bin continued, journal removed"
else
    fail "kill -9: the restart exited $?: $(cat "$work/restart.out")"
fi

# 2. A run over completed files (their journal removed) copies nothing again and succeeds.
before=$(stat -c %Y.%i "$dst/one.bin")
"$bin" copy "$src/one.bin" "$dst" --headless >"$work/again.out" 2>&1 || fail "rerun over a completed copy exited $?"
[ "$(stat -c %Y.%i "$dst/one.bin")" = "$before" ] && pass "rerun skips a completed file" ||
    fail "rerun rewrote the completed one.bin ($before, now $(stat -c %Y.%i "$dst/one.bin")): $(cat "$work/again.out")"

# 3. A missing source fails only its own transfer, with the OS reason.
new_destination missing
status=0
"$bin" copy "$src/three.bin" "$src/nope.bin" "$dst" --headless >"$work/missing.out" 2>"$work/missing.err" || status=$?
if [ $status = 1 ] && grep -q 'nope.bin.*No such file or directory' "$work/missing.err" && same "$src/three.bin" "$dst/three.bin"; then
    pass "missing source: that transfer fails with the OS reason, exit 1, the other completes"
else
    fail "missing source: status $status, stderr: $(cat "$work/missing.err")"
fi

# 4. An unreadable source (not testable as root, who reads everything).
if [ "$(id -u)" != 0 ]; then
    cp "$src/three.bin" "$work/secret.bin"
    chmod 000 "$work/secret.bin"
    status=0
    "$bin" copy "$work/secret.bin" "$dst" --headless >/dev/null 2>"$work/secret.err" || status=$?
    [ $status = 1 ] && grep -q 'Permission denied' "$work/secret.err" && pass "unreadable source fails with the OS reason" ||
        fail "unreadable source: status $status, stderr: $(cat "$work/secret.err")"
else
    echo "skip copy e2e: unreadable file (running as root, who reads everything); a directory instead"
fi
mkdir -p "$work/dir-source"
status=0
"$bin" copy "$src" "$src/three.bin" "$work/dir-source" --headless >/dev/null 2>"$work/dirsource.err" || status=$?
if [ $status = 0 ] && same "$src/one.bin" "$work/dir-source/src/one.bin" && same "$src/three.bin" "$work/dir-source/three.bin" &&
    same "$src/empty.bin" "$work/dir-source/src/empty.bin"; then
    pass "a directory and a file as sources: the directory is copied as a tree beside the file"
else
    fail "directory as source: status $status, stderr: $(cat "$work/dirsource.err")"
fi

# 5. A destination that is not a writable directory is refused before anything starts.
status=0
"$bin" copy "$src/three.bin" "$src/one.bin" --headless >"$work/notdir.out" 2>"$work/notdir.err" || status=$?
if [ $status = 2 ] && grep -q 'is not a writable directory: Not a directory' "$work/notdir.err" && [ ! -s "$work/notdir.out" ] &&
    [ -z "$(find "$src" -name '.*')" ]; then
    pass "destination not a directory: exit 2, clear message, nothing written"
else
    fail "destination not a directory: status $status, stderr: $(cat "$work/notdir.err")"
fi
status=0
"$bin" copy "$src/three.bin" "$work/absent" --headless >/dev/null 2>"$work/absent.err" || status=$?
[ $status = 2 ] && grep -q 'No such file or directory' "$work/absent.err" && pass "missing destination: exit 2" ||
    fail "missing destination: status $status, stderr: $(cat "$work/absent.err")"

# 6. Bad arguments: usage, exit 2.
for arguments in "copy" "copy $src/one.bin" "copy --frobnicate $src/one.bin $work" "copy $src/one.bin $src/one.bin $work --headless"; do
    status=0
    # shellcheck disable=SC2086
    "$bin" $arguments >/dev/null 2>"$work/usage.err" || status=$?
    if [ $status = 2 ] && grep -q 'USAGE:' "$work/usage.err"; then :; else
        fail "'statetui $arguments': status $status, stderr: $(cat "$work/usage.err")"
    fi
done
pass "bad arguments print the usage and exit 2"
"$bin" help copy | grep -q 'statetui copy <source> ... <destination> \[--headless\] \[--start\] \[--overwrite\]' &&
    "$bin" --help | grep -q 'copy' && pass "help mentions copy" || fail "help copy / --help do not describe copy"

# 7. Out of space (a file size limit): the transfer fails with the reason and keeps the partial; a
#    retry without the limit continues from it.
new_destination full
status=0
(ulimit -f 4096 && exec "$bin" copy "$src/one.bin" "$dst" --headless) >"$work/full.out" 2>"$work/full.err" || status=$?
if [ $status = 1 ] && grep -q 'File too large' "$work/full.err" && [ "$(size_of "$(partial_of "$dst" one.bin)")" -gt 0 ] &&
    [ ! -f "$dst/one.bin" ]; then
    "$bin" copy "$src/one.bin" "$dst" --headless >"$work/full-retry.out" 2>&1 && same "$src/one.bin" "$dst/one.bin" &&
        pass "out of space (ulimit -f): fails with 'File too large', keeps the partial, the retry completes" ||
        fail "out of space: the retry did not produce a matching file: $(cat "$work/full-retry.out")"
else
    fail "out of space: status $status, partial $(size_of "$(partial_of "$dst" one.bin)"), stderr: $(cat "$work/full.err")"
fi

# 8. A source that changes during the copy fails validation instead of producing a corrupt file.
new_destination changing
cp "$src/one.bin" "$work/changing.bin"
copy_slowly changing "$work/changing.bin" "$dst"
wait_for_size "$(partial_of "$dst" changing.bin)" $((1 << 20)) || fail "changing source: the copy never started"
printf 'appended while copying' >>"$work/changing.bin"
wait_copy
if [ $status = 1 ] && grep -q 'changed during the copy' "$work/changing.err" && [ ! -f "$dst/changing.bin" ]; then
    pass "source changing during the copy: fails validation, no final file"
else
    fail "changing source: status $status, final file $([ -f "$dst/changing.bin" ] && echo present || echo absent), stderr: $(cat "$work/changing.err")"
fi

# 9. A corrupt or a truncated journal is reported and the affected transfers restart cleanly.
for damage in corrupt truncate; do
    new_destination "journal-$damage"
    copy_slowly "$damage-killed" "$src/one.bin" "$src/two.bin" "$dst"
    kill_at_size "$(partial_of "$dst" one.bin)" $((3 << 20)) "$damage journal: the copy never got going"
    journal="$dst/.statetui-journal"
    if [ $damage = corrupt ]; then
        # Flip the checksum of the second line (a record about one of the files).
        sed -i '2s/^./X/' "$journal"
        expected='checksum mismatch'
    else
        truncate -s -5 "$journal"
        expected='truncated line'
    fi
    status=0
    "$bin" copy "$src/one.bin" "$src/two.bin" "$dst" --headless >"$work/$damage.out" 2>"$work/$damage.err" || status=$?
    if [ $status = 0 ] && grep -q "journal line [0-9]*: $expected" "$work/$damage.err" && same "$src/one.bin" "$dst/one.bin" &&
        same "$src/two.bin" "$dst/two.bin"; then
        pass "$damage journal: reported ($expected), both files restart and match"
    else
        fail "$damage journal: status $status, stderr: $(cat "$work/$damage.err")"
    fi
done

# 10. An existing destination file is not overwritten without --overwrite.
new_destination existing
printf 'precious' >"$dst/three.bin"
status=0
"$bin" copy "$src/three.bin" "$dst" --headless >/dev/null 2>"$work/existing.err" || status=$?
if [ $status = 1 ] && grep -q 'already exists' "$work/existing.err" && [ "$(cat "$dst/three.bin")" = precious ]; then
    "$bin" copy "$src/three.bin" "$dst" --headless --overwrite >/dev/null 2>&1 && same "$src/three.bin" "$dst/three.bin" &&
        pass "existing destination: kept without --overwrite, replaced with it" ||
        fail "existing destination: --overwrite did not replace it"
else
    fail "existing destination: status $status, content '$(head -c 20 "$dst/three.bin")', stderr: $(cat "$work/existing.err")"
fi

# 11. SIGINT, SIGTERM and SIGHUP (a closed terminal) stop cleanly: partial and journal kept, exit 130/143/129,
#     the same command continues. Before, SIGHUP killed the copy outright.
for signal in INT TERM HUP; do
    new_destination "signal-$signal"
    copy_slowly "$signal" "$src/one.bin" "$dst"
    wait_for_size "$(partial_of "$dst" one.bin)" $((2 << 20)) || fail "SIG$signal: the copy never got going"
    kill -s "$signal" "$background"
    wait_copy
    expected=$(case $signal in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac)
    kept=$(size_of "$(partial_of "$dst" one.bin)")
    if [ $status = "$expected" ] && [ "$kept" -ge $((2 << 20)) ] && grep -q 'interrupted' "$work/$signal.err"; then
        "$bin" copy "$src/one.bin" "$dst" --headless >"$work/$signal-again.out" 2>&1 && same "$src/one.bin" "$dst/one.bin" &&
            pass "SIG$signal: exit $expected, partial of $kept bytes kept, the same command completes it" ||
            fail "SIG$signal: the second run did not complete the copy"
    else
        fail "SIG$signal: status $status (want $expected), partial $kept, stderr: $(cat "$work/$signal.err")"
    fi
done

# 11b. Output nobody reads does not stop SIGTERM: a copy whose standard output is a pipe that is never read (a
#      pager nobody scrolls) fills the pipe and waits, and SIGTERM still ends it cleanly (exit 143, the journal
#      kept); the same command then completes the copy. Before: it waited in write(2) forever, deaf to signals.
stalled_src="$work/stalled-src"
mkdir -p "$stalled_src"
for n in $(seq 1 1500); do printf '%s' "$n" >"$stalled_src/file-with-a-long-name-to-fill-the-pipe-$n"; done
new_destination stalled
mkfifo "$work/stalled.pipe"
sleep 120 <"$work/stalled.pipe" &
reader=$!
"$bin" copy --headless "$stalled_src" "$dst" >"$work/stalled.pipe" 2>&1 &
copier=$!
# Its output (two lines a file) is far beyond what a pipe holds: it waits on the pipe, not on the disk.
for _ in $(seq 1 100); do grep -q '^State:.*S' "/proc/$copier/status" 2>/dev/null && [ -n "$(ls -A "$dst" 2>/dev/null)" ] && break; sleep 0.1; done
sleep 1
kill -TERM $copier
status=0
for _ in $(seq 1 100); do kill -0 $copier 2>/dev/null || break; sleep 0.1; done
if kill -0 $copier 2>/dev/null; then
    kill -9 $copier
    fail "unread output: SIGTERM did not stop a copy waiting on its output"
else
    wait $copier || status=$?
    rerun=0
    "$bin" copy --headless "$stalled_src" "$dst" >/dev/null 2>&1 || rerun=$?
    [ $status = 143 ] && [ $rerun = 0 ] && same "$stalled_src/file-with-a-long-name-to-fill-the-pipe-1500" \
        "$dst/stalled-src/file-with-a-long-name-to-fill-the-pipe-1500" &&
        pass "unread output: SIGTERM stops the waiting copy cleanly (exit 143), the same command completes it" ||
        fail "unread output: exit $status (want 143), rerun exit $rerun"
fi
kill $reader 2>/dev/null || true
wait $reader 2>/dev/null || true

# 12. Sources that are not regular files (a FIFO, a character device) are made anew like cp -a makes them, never
#     opened (nothing blocks waiting for the FIFO's writer); the regular file beside them completes. A device
#     needs root: not as root, it fails alone with the system's reason (exit 1), as with cp -a.
mkfifo "$work/fifo"
new_destination special
status=0
# Every `timeout` here kills (`-k 10`) a copy still running 10 s after its TERM: a run that cannot stop fails its
# check instead of holding the whole suite (a digest that fed a 7 EiB hole a segment at a time once did).
timeout -k 10 30 "$bin" copy "$work/fifo" /dev/null "$src/three.bin" "$dst" --headless >"$work/special.out" 2>"$work/special.err" || status=$?
if [ "$(id -u)" = 0 ]; then
    device_ok() { [ $status = 0 ] && [ -c "$dst/null" ] && [ "$(stat -c %t:%T "$dst/null")" = "$(stat -c %t:%T /dev/null)" ] &&
        grep -qx 'null: made (character device 1:3)' "$work/special.out"; }
else
    device_ok() { [ $status = 1 ] && [ ! -e "$dst/null" ] &&
        grep -q "cannot create the character device 1:3 $dst/null: Operation not permitted" "$work/special.err"; }
fi
if device_ok && [ -p "$dst/fifo" ] && grep -qx 'fifo: made (FIFO)' "$work/special.out" && same "$src/three.bin" "$dst/three.bin"; then
    pass "a FIFO and a device as sources are made like cp -a makes them, never opened; the other file completes"
else
    fail "FIFO/device sources: status $status (124: it blocked), stdout: $(cat "$work/special.out"), stderr: $(cat "$work/special.err")"
fi

# 13. The destination is hostile ground: entries planted under the partial's, the journal's or the final
#     name are never followed, and replacing the destination's path mid-copy does not redirect the copy.
printf 'precious, not to be touched\n' >"$work/victim"
victim_hash=$(hash_of "$work/victim")
new_destination planted-partial
ln -s "$work/victim" "$(partial_of "$dst" three.bin)"
status=0
"$bin" copy "$src/three.bin" "$dst" --headless >/dev/null 2>"$work/planted.err" || status=$?
if [ $status = 0 ] && [ "$(hash_of "$work/victim")" = "$victim_hash" ] && [ -f "$dst/three.bin" ] && [ ! -L "$dst/three.bin" ] &&
    same "$src/three.bin" "$dst/three.bin"; then
    pass "planted partial symlink: replaced, never written through; the victim is intact, three.bin a regular file"
else
    fail "planted partial symlink: status $status, victim $(hash_of "$work/victim"), stderr: $(cat "$work/planted.err")"
fi
new_destination planted-journal
ln -s "$work/victim" "$dst/.statetui-journal"
status=0
"$bin" copy "$src/three.bin" "$dst" --headless >/dev/null 2>"$work/planted-journal.err" || status=$?
if [ $status = 2 ] && grep -q "refusing to use $dst/.statetui-journal: it is a symbolic link" "$work/planted-journal.err" &&
    [ "$(hash_of "$work/victim")" = "$victim_hash" ] && [ ! -e "$dst/three.bin" ]; then
    pass "planted journal symlink: refused with exit 2 and a clear message, nothing appended to its target"
else
    fail "planted journal symlink: status $status, victim $(hash_of "$work/victim"), stderr: $(cat "$work/planted-journal.err")"
fi
new_destination planted-final
ln -s "$work/victim" "$dst/three.bin"
status=0
"$bin" copy "$src/three.bin" "$dst" --headless >/dev/null 2>"$work/planted-final.err" || status=$?
if [ $status = 1 ] && grep -q 'already exists' "$work/planted-final.err" && [ "$(hash_of "$work/victim")" = "$victim_hash" ] &&
    "$bin" copy "$src/three.bin" "$dst" --headless --overwrite >/dev/null 2>&1 && [ ! -L "$dst/three.bin" ] &&
    same "$src/three.bin" "$dst/three.bin" && [ "$(hash_of "$work/victim")" = "$victim_hash" ]; then
    pass "symlink at the final name: kept without --overwrite, replaced (not followed) with it; the victim is intact"
else
    fail "symlink at the final name: status $status, victim $(hash_of "$work/victim"), stderr: $(cat "$work/planted-final.err")"
fi
new_destination replaced
mkdir "$work/elsewhere"
copy_slowly replaced "$src/one.bin" "$dst"
wait_for_size "$(partial_of "$dst" one.bin)" $((1 << 20)) || fail "replaced destination: the copy never started"
mv "$dst" "$work/replaced-moved"
ln -s "$work/elsewhere" "$dst"
wait_copy
if [ $status = 0 ] && same "$src/one.bin" "$work/replaced-moved/one.bin" && [ -z "$(ls -A "$work/elsewhere")" ]; then
    pass "destination path replaced mid-copy by a symlink: the copy finishes in the directory it started in"
else
    fail "replaced destination: status $status, elsewhere: $(ls -A "$work/elsewhere"), stderr: $(cat "$work/replaced.err")"
fi

# 14. A sparse source stays sparse: 1 GiB with no data copies in a few blocks, same size and SHA-256.
new_destination sparse
truncate -s 1G "$work/sparse.img"
printf 'data in the middle' | dd of="$work/sparse.img" bs=1 seek=$((300 << 20)) conv=notrunc status=none
status=0
"$bin" copy "$work/sparse.img" "$dst" --headless >/dev/null 2>"$work/sparse.err" || status=$?
allocated=$(($(stat -c '%b * %B' "$dst/sparse.img" 2>/dev/null || echo 0)))
if [ $status = 0 ] && [ "$(size_of "$dst/sparse.img")" = $((1 << 30)) ] && [ "$allocated" -lt $((16 << 20)) ] &&
    same "$work/sparse.img" "$dst/sparse.img"; then
    pass "sparse 1 GiB source: copy has the same size and SHA-256 and occupies $allocated bytes ($(du -h "$dst/sparse.img" | cut -f1))"
else
    fail "sparse source: status $status, $allocated bytes allocated, stderr: $(cat "$work/sparse.err")"
fi
rm -f "$work/sparse.img" "$dst/sparse.img"

# 15. Control characters in a file name are escaped in every output line (one line per change).
new_destination names
mkdir "$work/names-src"
newline_name=$'two\nlines'
escape_name=$'esc\e[31mred'
printf 'a' >"$work/names-src/$newline_name"
printf 'b' >"$work/names-src/$escape_name"
status=0
"$bin" copy "$work/names-src/$newline_name" "$work/names-src/$escape_name" "$dst" --headless >"$work/names.out" 2>&1 || status=$?
if [ $status = 0 ] && grep -qxF 'two\nlines: completed(file: "'"$dst"'/two\nlines")' "$work/names.out" &&
    grep -qF 'esc\u{1B}[31mred: completed(' "$work/names.out" && ! grep -q $'\e' "$work/names.out" &&
    [ "$(grep -c '' "$work/names.out")" = "$(grep -c -E '^(two|esc|total: |copied )' "$work/names.out")" ] &&
    same "$work/names-src/$newline_name" "$dst/$newline_name"; then
    pass "control characters in names are escaped: every output line is one line, no raw ESC"
else
    fail "names with control characters: status $status, output: $(cat -A "$work/names.out")"
fi

# 15b. A name that begins with a combining mark (U+0301 after the separator) is the file's own name, as the
# system reads it: the last component was found by splitting into characters, which kept the `/` with the mark,
# and the copy failed with "not a single file name inside the directory".
new_destination marks
mkdir "$work/marks-src"
mark_name=$'\xcc\x81x'
printf 'm' >"$work/marks-src/$mark_name"
status=0
"$bin" copy "$work/marks-src" "$dst" --headless >"$work/marks.out" 2>&1 || status=$?
status_alone=0
mkdir "$dst/alone"
"$bin" copy "$work/marks-src/$mark_name" "$dst/alone" --headless >>"$work/marks.out" 2>&1 || status_alone=$?
# A source directory so named (the tree's own directory in the destination), holding two hard links.
mkdir "$work/marks-root"
mark_dir="$work/marks-root/$mark_name"
mkdir "$mark_dir"
printf 'h' >"$mark_dir/one"
ln "$mark_dir/one" "$mark_dir/two"
status_root=0
"$bin" copy "$mark_dir" "$dst" --headless >>"$work/marks.out" 2>&1 || status_root=$?
if [ $status = 0 ] && [ $status_alone = 0 ] && [ $status_root = 0 ] &&
    same "$work/marks-src/$mark_name" "$dst/marks-src/$mark_name" &&
    same "$work/marks-src/$mark_name" "$dst/alone/$mark_name" && same "$mark_dir/one" "$dst/$mark_name/two" &&
    [ "$(stat -c %i "$dst/$mark_name/one")" = "$(stat -c %i "$dst/$mark_name/two")" ]; then
    pass "a name beginning with a combining mark is copied under its own name: a file in a tree and alone, a source directory and the hard links in it"
else
    fail "a name beginning with a combining mark: status $status / $status_alone / $status_root, output: $(cat "$work/marks.out")"
fi

# 16. Every file's final line is printed: 1,000 small files give 1,000 completed lines.
new_destination many
mkdir "$work/many-src"
for i in $(seq 1 1000); do printf 'file %s\n' "$i" >"$work/many-src/f$i"; done
status=0
"$bin" copy "$work"/many-src/f* "$dst" --headless >"$work/many.out" 2>"$work/many.err" || status=$?
completed=$(grep -c ': completed(' "$work/many.out" || true)
if [ $status = 0 ] && [ "$completed" = 1000 ]; then
    pass "1,000 small files: 1,000 completed lines"
else
    fail "1,000 small files: status $status, $completed completed lines, stderr: $(head -3 "$work/many.err")"
fi
# Copies the tree SOURCE into a new destination NAME with `ulimit ULIMIT_ARGS` applied first, and checks that
# COUNT files complete and that SAMPLE (a path inside the tree) matches its source; PASS_TEXT says what passed.
copy_under_limit() {
    local limits=$1 source=$2 name=$3 count=$4 sample=$5 pass_text=$6
    new_destination "$name"
    status=0
    # $limits is left unquoted: its words (e.g. -S -n 256) are the options of ulimit.
    (ulimit $limits && exec "$bin" copy "$source" "$dst" --headless) >"$work/$name.out" 2>"$work/$name.err" ||
        status=$?
    completed=$(grep -c ': completed(' "$work/$name.out" || true)
    if [ $status = 0 ] && [ "$completed" = "$count" ] && same "$source/$sample" "$dst/$(basename "$source")/$sample"; then
        pass "$pass_text"
    else
        fail "$name (ulimit $limits): status $status, $completed of $count completed, stderr: $(sort -u "$work/$name.err" | head -3)"
    fi
}
# The same 1,000 files as a tree, under a limit of 256 open files (Debian's default is 1024): every copy
# is started at once, but only as many run as the descriptors allow, and a directory's copies share one
# descriptor for it, so none fails with "Too many open files".
copy_under_limit "-n 256" "$work/many-src" many-limited 1000 f777 \
    "a tree of 1,000 files under 'ulimit -n 256': every file completes"
# A tree of 600 directories, a file in each (a descriptor per destination directory for the run), under a
# soft limit of 256 open files: the copy raises its soft limit toward the hard one first.
hard=$(ulimit -H -n)
if [ "$hard" = unlimited ] || [ "$hard" -ge 4096 ]; then
    for i in $(seq 1 600); do mkdir -p "$work/dirs-src/d$i" && printf '%s\n' "$i" >"$work/dirs-src/d$i/f"; done
    copy_under_limit "-S -n 256" "$work/dirs-src" dirs-limited 600 d599/f \
        "a tree of 600 directories under a soft 'ulimit -n 256': the copy raises its limit and completes"
else
    echo "skip copy e2e: 600 directories under a soft limit (the hard limit, $hard, leaves no room to raise)"
fi

# 17. A journal line of 10 MB is reported in one short line, and the copy goes on.
new_destination huge-journal
head -c $((10 << 20)) /dev/zero | tr '\0' 'x' >"$dst/.statetui-journal"
printf '\n' >>"$dst/.statetui-journal"
status=0
"$bin" copy "$src/three.bin" "$dst" --headless >/dev/null 2>"$work/huge.err" || status=$?
if [ $status = 0 ] && grep -q 'journal line 1: line of 10485760 bytes, longer than the limit of 65536' "$work/huge.err" &&
    [ "$(wc -c <"$work/huge.err")" -lt 1000 ] && same "$src/three.bin" "$dst/three.bin"; then
    pass "a 10 MB journal line: one short message naming the cause, the copy completes"
else
    fail "huge journal line: status $status, $(wc -c <"$work/huge.err") bytes on stderr: $(head -c 300 "$work/huge.err")"
fi

# 18a. A directory tree is copied like cp -r: DEST/photos/... with the same tree, one transfer per file shown by
#      its path; kill -9 in the middle and the same command continues every file from its directory's journal;
#      after success no journal and no partial remains; a symbolic link is copied as a link, a FIFO is made as
#      a FIFO; a symbolic link planted where a tree directory goes is refused.
tree="$work/tree-src/photos"
mkdir -p "$tree/2024/summer" "$tree/2023" "$tree/empty"
make_file "$tree/2024/summer/big.bin" $((8 << 20))
make_file "$tree/2024/a.bin" $((3 << 20))
make_file "$tree/2023/b.bin" 1000
make_file "$tree/top.bin" 10
ln -s "$work/victim" "$tree/2023/link"
mkfifo "$tree/fifo"
new_destination tree
copy_slowly tree-kill "$tree" "$dst"
kill_at_size "$(partial_of "$dst/photos/2024/summer" big.bin)" $((3 << 20)) "tree kill -9: big.bin never got 3 MiB" \
    big.bin
[ -f "$dst/photos/2024/summer/.statetui-journal" ] || fail "tree kill -9: no journal in photos/2024/summer"
status=0
# The rerun is throttled too, so its first running line is seen before it completes; that line shows where it began.
"${slow[@]}" copy "$tree" "$dst" --headless >"$work/tree.out" 2>"$work/tree.err" || status=$?
ok=1
[ $status = 0 ] || { ok=0; fail "tree: the rerun exited $status: $(cat "$work/tree.err")"; }
for file in 2024/summer/big.bin 2024/a.bin 2023/b.bin top.bin; do
    same "$tree/$file" "$dst/photos/$file" || { ok=0; fail "tree: photos/$file differs from its source"; }
done
grep -m1 '^photos/2024/summer/big.bin: running' "$work/tree.out" | grep -q 'running(request: 1, percent: [1-9]' ||
    { ok=0; fail "tree: the rerun did not continue photos/2024/summer/big.bin: $(head -3 "$work/tree.out")"; }
[ -d "$dst/photos/empty" ] || { ok=0; fail "tree: the empty directory was not created"; }
[ -z "$(find "$dst" -name '.statetui-*')" ] || { ok=0; fail "tree: journals or partials remain: $(find "$dst" -name '.statetui-*')"; }
[ -L "$dst/photos/2023/link" ] && [ "$(readlink "$dst/photos/2023/link")" = "$work/victim" ] ||
    { ok=0; fail "tree: the symbolic link was not copied as a link"; }
[ -p "$dst/photos/fifo" ] || { ok=0; fail "tree: the FIFO was not made as a FIFO"; }
[ ! -s "$work/tree.err" ] || { ok=0; fail "tree: the rerun complained: $(cat "$work/tree.err")"; }
[ $ok = 1 ] && pass "tree copy: kill -9 and rerun continues, every file matches, empty dir kept, link copied as a link, FIFO made, no journal left"
new_destination tree-planted
mkdir "$work/tree-victim"
ln -s "$work/tree-victim" "$dst/photos"
status=0
"$bin" copy "$tree" "$dst" --headless >/dev/null 2>"$work/tree-planted.err" || status=$?
if [ $status = 2 ] && grep -q "refusing to use $dst/photos: it is a symbolic link" "$work/tree-planted.err" &&
    [ -z "$(ls -A "$work/tree-victim")" ]; then
    pass "tree copy: a symbolic link planted at the tree's directory is refused (exit 2), nothing written through it"
else
    fail "tree planted link: status $status, victim: $(ls -A "$work/tree-victim"), stderr: $(cat "$work/tree-planted.err")"
fi

# 18b. No bound on a tree's size (issue 23, once refused past 32 levels or 10,000 entries): a tree 100
#      levels deep and a tree of 30,000 files in 30 directories copy whole (diff -r), every file its line.
deep="$work/deep-src/deep"
path="$deep"
for _ in $(seq 1 100); do path="$path/d"; done
mkdir -p "$path"
printf 'x' >"$path/leaf"
new_destination deep
status=0
"$bin" copy "$deep" "$dst" --headless >"$work/deep.out" 2>"$work/deep.err" || status=$?
if [ $status = 0 ] && diff -r "$deep" "$dst/deep" >/dev/null &&
    [ -z "$(find "$dst" -name '.statetui-*')" ]; then
    pass "tree copy: a tree 100 directories deep is copied whole, no journal left"
else
    fail "deep tree: status $status, stderr: $(head -c 600 "$work/deep.err")"
fi
# The same tree where the open-files limit is 64, soft and hard, so the copy cannot raise it: a copy keeps a
# descriptor for each directory level on each side, so it fails, exit 1, saying what to do about it, and leaves no
# partial file or journal behind.
new_destination deep-limited
status=0
(ulimit -n 64 && exec "$bin" copy "$deep" "$dst" --headless) >"$work/deep-limited.out" 2>"$work/deep-limited.err" ||
    status=$?
if [ $status = 1 ] && grep -q 'Too many open files (a copy keeps one open for each directory level on each side: raise the limit with ulimit -n)' "$work/deep-limited.err" &&
    [ -z "$(find "$dst" -name '.statetui-*')" ]; then
    pass "tree copy: a tree deeper than 'ulimit -n 64' allows fails, exit 1, saying to raise the limit, nothing left behind"
else
    fail "deep tree under ulimit -n 64: status $status, stderr: $(head -c 600 "$work/deep-limited.err")"
fi
# A tree deeper than one path may name (PATH_MAX, 4,096 bytes): 24 levels of 200-byte names, about 4,900 bytes to
# its file (long names rather than many levels, so the copy needs few descriptors whatever `ulimit -n` is). cp -a
# copies the file and the symbolic link at its bottom; the copy once failed both ("cannot read …: File name too
# long"). Made and read back a directory at a time, since no single call takes the whole path.
long_name=$(printf 'd%.0s' $(seq 1 198))
mkdir -p "$work/long-src"
(cd "$work/long-src" && mkdir top && cd top && for level in $(seq 10 33); do mkdir "$level$long_name" && cd "$level$long_name" || exit 1; done &&
    printf 'bottom' >leaf && ln -s leaf link) || fail "could not make the deep tree"
new_destination long-path
status=0
"$bin" copy "$work/long-src/top" "$dst" --headless >"$work/long.out" 2>"$work/long.err" || status=$?
if [ $status = 0 ] && (cd "$dst/top" && for level in $(seq 10 33); do cd "$level$long_name" || exit 1; done &&
    [ "$(cat leaf)" = bottom ] && [ "$(readlink link)" = leaf ]) && [ ! -s "$work/long.err" ]; then
    pass "tree copy: a file and a link below a path longer than PATH_MAX are copied, with no warning"
else
    fail "long path: status $status, stderr: $(head -c 600 "$work/long.err")"
fi
many="$work/many-src/many"
for directory in $(seq -w 0 29); do
    mkdir -p "$many/$directory"
    (cd "$many/$directory" && seq -w 0 999 | xargs touch && printf '%s' "$directory" >000)
done
new_destination many-tree
status=0
"$bin" copy "$many" "$dst" --headless >"$work/many.out" 2>"$work/many.err" || status=$?
completed=$(grep -c ': completed(file: ' "$work/many.out" || true)
if [ $status = 0 ] && [ "$completed" = 30000 ] && diff -r "$many" "$dst/many" >/dev/null &&
    grep -q '^copied 30,000 files' "$work/many.out" && [ -z "$(find "$dst" -name '.statetui-*')" ]; then
    pass "tree copy: 30,000 files copied, each with its completed line, the trees identical, no journal left"
else
    fail "30,000 files: status $status, $completed completed, $(tail -1 "$work/many.out"), stderr: $(head -c 600 "$work/many.err")"
fi

# 18c. Names are bytes (issue 23: `bad\xffname` was left out as "vanished", exit 0): files, a directory, a
#      symbolic link and its target, and a hard link whose names are not UTF-8 are copied byte for byte
#      (diff -r, readlink, one inode), shown escaped (`bad\xFFname`); a big one killed mid-copy continues
#      from its partial, found again through the journal.
bad="$work/bad-src/bad"
mkdir -p "$bad/dir"$'\xfe'
make_file "$bad/bad"$'\xff'"name" 1000
make_file "$bad/dir"$'\xfe'"/"$'\xe9t\xe9' 2000
make_file "$bad/big"$'\xff'".bin" $((8 << 20))
ln -s "target"$'\xfe' "$bad/link"$'\xff'
ln "$bad/bad"$'\xff'"name" "$bad/dir"$'\xfe'"/hard"$'\xff'
new_destination bad
copy_slowly bad-kill "$bad" "$dst"
kill_at_size "$(partial_of "$dst/bad" "big"$'\xff'".bin")" $((3 << 20)) "bad names: big\\xFF.bin never got 3 MiB" big
status=0
"${slow[@]}" copy "$bad" "$dst" --headless >"$work/bad.out" 2>"$work/bad.err" || status=$?
ok=1
[ $status = 0 ] || { ok=0; fail "bad names: exit $status: $(cat "$work/bad.err")"; }
diff -r --no-dereference "$bad" "$dst/bad" >/dev/null || { ok=0; fail "bad names: the trees differ: $(ls -R "$dst" | od -c | head)"; }
[ "$(readlink "$dst/bad/link"$'\xff')" = "target"$'\xfe' ] || { ok=0; fail "bad names: the link's target differs"; }
[ "$(stat -c %i "$dst/bad/bad"$'\xff'"name")" = "$(stat -c %i "$dst/bad/dir"$'\xfe'"/hard"$'\xff')" ] ||
    { ok=0; fail "bad names: the hard link was split"; }
grep -m1 '^bad/big\\xFF\.bin: running' "$work/bad.out" | grep -q 'running(request: 1, percent: [1-9]' ||
    { ok=0; fail "bad names: the rerun did not continue big\\xFF.bin: $(head -3 "$work/bad.out")"; }
grep -q '^bad/dir\\xFE/\\xE9t\\xE9: ' "$work/bad.out" ||
    { ok=0; fail "bad names: names not shown escaped: $(cat "$work/bad.out")"; }
! grep -q 'vanished' "$work/bad.err" || { ok=0; fail "bad names: an entry said to have vanished: $(cat "$work/bad.err")"; }
[ -z "$(find "$dst" -name '.statetui-*')" ] || { ok=0; fail "bad names: journals or partials remain"; }
[ $ok = 1 ] && pass "names that are not UTF-8: files, directory, link and target, hard link copied byte for byte, shown escaped, resumed after kill -9"
new_destination bad-argument
status=0
"$bin" copy "$bad/bad"$'\xff'"name" "$dst" --headless >"$work/bad-argument.out" 2>"$work/bad-argument.err" || status=$?
if [ $status = 0 ] && cmp -s "$bad/bad"$'\xff'"name" "$dst/bad"$'\xff'"name" &&
    grep -q '^bad\\xFFname: completed' "$work/bad-argument.out"; then
    pass "names that are not UTF-8: a source named on the command line is copied under its own bytes"
else
    fail "bad name argument: status $status: $(cat "$work/bad-argument.err") $(ls "$dst" | od -c | head -3)"
fi

# 19. One writer per destination directory (the issue's two copies into one directory): a second run waits,
# saying so, or with --no-wait refuses (exit 2) naming the first; killing the waiting run leaves the first
# run's copy intact, and a run that waited copies after the first without touching its files.
new_destination shared
copy_slowly first "$src/one.bin" "$dst"
first=$background
wait_for_size "$(partial_of "$dst" one.bin)" $((1 << 20)) || fail "one writer: the first copy never started"
status=0
"$bin" copy "$src/one.bin" "$dst" --headless --no-wait >"$work/nowait.out" 2>"$work/nowait.err" || status=$?
[ $status = 2 ] && grep -q "in use by another statetui copy (pid $first)" "$work/nowait.err" &&
    pass "one writer: --no-wait refuses with exit 2, naming the other run's pid" ||
    fail "one writer: --no-wait exited $status: $(cat "$work/nowait.err")"
"$bin" copy "$src/one.bin" "$dst" --headless >"$work/waiting.out" 2>"$work/waiting.err" &
second=$!
tries=0
until grep -qs "waiting for .*\.statetui-journal (pid $first)" "$work/waiting.err"; do
    tries=$((tries + 1))
    [ $tries -le 1000 ] || break
    sleep 0.01
done
kill -9 $second
wait $second 2>/dev/null || true
grep -q "waiting for .*(pid $first)" "$work/waiting.err" && pass "one writer: a second run waits, naming the first on stderr" ||
    fail "one writer: the second run did not say it waits: $(cat "$work/waiting.err")"
wait_copy
[ $status = 0 ] && cmp -s "$src/one.bin" "$dst/one.bin" &&
    pass "one writer: the first run completes intact after the waiting run was killed with -9" ||
    fail "one writer: the first run exited $status and one.bin $(cmp "$src/one.bin" "$dst/one.bin" 2>&1)"
new_destination shared-both
copy_slowly first "$src/two.bin" "$dst"
first=$background
wait_for_size "$(partial_of "$dst" two.bin)" $((1 << 20)) || fail "one writer: the first copy of two.bin never started"
status=0
"$bin" copy "$src/two.bin" "$src/three.bin" "$dst" --headless >"$work/after.out" 2>"$work/after.err" || status=$?
second_status=$status
wait_copy
[ $second_status = 0 ] && [ $status = 0 ] && same "$src/two.bin" "$dst/two.bin" && same "$src/three.bin" "$dst/three.bin" &&
    [ ! -e "$dst/.statetui-journal" ] && [ -z "$(find "$dst" -name '.statetui-partial.*')" ] &&
    pass "one writer: a run that waited copies after the first; both exit 0, files intact, no journal left" ||
    fail "one writer: exits $status and $second_status: $(cat "$work/after.err") $(ls -a "$dst")"

# 20. Permissions are never widened and times are kept, like cp -a: a 0700 directory, a 0600 key, a 0755
# script, a 0750 subdirectory, each with its own modification time, arrive with the same modes and times.
perms="$work/perms-src"
mkdir -p "$perms/private/sub"
make_file "$perms/private/key" 3000
make_file "$perms/private/sub/run.sh" 5000
chmod 600 "$perms/private/key"
chmod 755 "$perms/private/sub/run.sh"
chmod 750 "$perms/private/sub"
chmod 700 "$perms/private"
touch -d '2001-02-03 04:05:06' "$perms/private/key"
touch -d '2002-03-04 05:06:07' "$perms/private/sub/run.sh" "$perms/private/sub"
touch -d '2003-04-05 06:07:08' "$perms/private"
new_destination perms
status=0
"$bin" copy "$perms/private" "$dst" --headless >"$work/perms.out" 2>"$work/perms.err" || status=$?
listing() { (cd "$1" && find . -printf '%p %m %TY-%Tm-%Td.%TH:%TM:%TS\n' | sort); }
if [ $status = 0 ] && [ "$(listing "$perms/private")" = "$(listing "$dst/private")" ]; then
    pass "modes and times kept: 0700 directory, 0600 key, 0755 script, 0750 subdirectory"
else
    fail "modes and times: exit $status, source vs copy: $(diff <(listing "$perms/private") <(listing "$dst/private"))"
fi

# 21. A copy onto itself is refused, as cp refuses it: the file keeps its mode and inode; a directory is
# never copied into itself (refused before anything is created).
self="$work/self"
mkdir -p "$self/inner"
make_file "$self/f" 4000
chmod 600 "$self/f"
inode=$(stat -c %i "$self/f")
status=0
(cd "$self" && "$bin" copy --headless --overwrite f .) >"$work/self.out" 2>"$work/self.err" || status=$?
[ $status = 1 ] && grep -q "are the same file" "$work/self.err" && [ "$(stat -c '%a %i' "$self/f")" = "600 $inode" ] &&
    pass "copy onto itself: refused ('are the same file'), the source keeps mode 0600 and its inode" ||
    fail "copy onto itself: exit $status, $(stat -c '%a %i' "$self/f") (was 600 $inode): $(cat "$work/self.err")"
status=0
"$bin" copy --headless "$self" "$self/inner" >"$work/into.out" 2>"$work/into.err" || status=$?
[ $status = 2 ] && grep -q "into itself" "$work/into.err" && [ ! -e "$self/inner/self" ] &&
    pass "a directory copied into itself is refused with exit 2, nothing created" ||
    fail "directory into itself: exit $status: $(cat "$work/into.err") $(ls "$self/inner")"

# 21b. A destination bind-mounted inside the source tree, and a directory bound inside itself, are not read: before,
# the copy read its own output and made the source deeper without end (1,023 nested journals in 5 s); cp -a refuses
# the first ("cannot copy a directory, 'src', into itself"). The rest of the tree is copied, exit 1. Needs a bind
# mount (root, outside a container that forbids it).
bind="$work/bind"
mkdir -p "$bind/src/backup" "$bind/src/a" "$bind/mnt" "$bind/loop/sub"
make_file "$bind/src/f" 100
make_file "$bind/src/a/g" 100
make_file "$bind/loop/y" 100
if mount --bind "$bind/src/backup" "$bind/mnt" 2>/dev/null; then
    status=0
    timeout -k 10 60 "$bin" copy --headless "$bind/src" "$bind/mnt" >"$work/bind.out" 2>"$work/bind.err" || status=$?
    nested=$(find "$bind/src/backup" -mindepth 1 -type d | wc -l)
    umount "$bind/mnt"
    [ $status = 1 ] && grep -q "src/backup: it is the destination directory" "$work/bind.err" &&
        same "$bind/src/f" "$bind/src/backup/src/f" && same "$bind/src/a/g" "$bind/src/backup/src/a/g" &&
        [ "$nested" = 2 ] &&
        pass "a destination bind-mounted inside the tree is not copied into itself: the rest copied, exit 1" ||
        fail "destination bound inside the tree: exit $status, $nested directories below it: $(head -c 600 "$work/bind.err")"
    if mount --bind "$bind/loop" "$bind/loop/sub" 2>/dev/null; then
        new_destination bindloop
        status=0
        timeout -k 10 60 "$bin" copy --headless "$bind/loop" "$dst" >"$work/bindloop.out" 2>"$work/bindloop.err" || status=$?
        umount "$bind/loop/sub"
        [ $status = 1 ] && grep -q "loop/sub: it is .*loop again" "$work/bindloop.err" && same "$bind/loop/y" "$dst/loop/y" &&
            [ ! -e "$dst/loop/sub" ] &&
            pass "a directory bound inside itself is read once: the loop refused, the rest copied, exit 1" ||
            fail "directory bound inside itself: exit $status: $(head -c 600 "$work/bindloop.err")"
    fi
else
    echo "copy: skipped 21b (mount --bind is not allowed here)"
fi

# 22. The source is read until its end, not to its st_size: /proc/version says 0 bytes and holds a line
# (compared through a pipe: `cmp FILE FILE` trusts st_size too).
if [ -r /proc/version ]; then
    new_destination proc
    status=0
    "$bin" copy --headless /proc/version "$dst" >"$work/proc.out" 2>"$work/proc.err" || status=$?
    [ $status = 0 ] && [ -s "$dst/version" ] && cat /proc/version | cmp -s - "$dst/version" &&
        pass "a /proc file (st_size 0) is copied whole" ||
        fail "/proc/version: exit $status, $(stat -c %s "$dst/version" 2>&1) bytes: $(cat "$work/proc.err")"
fi

# 23. Links like cp -a: symbolic links are copied as links (never followed, dangling ones too, with their
# times), hard links within the tree stay one file; a rerun keeps them and exits 0.
linked="$work/linked-src"
mkdir -p "$linked/sub"
make_file "$linked/data" 5000
ln "$linked/data" "$linked/sub/same"
ln -s ../data "$linked/sub/rel-link"
ln -s /nonexistent/target "$linked/dangling"
touch -h -d '2004-05-06 07:08:09' "$linked/dangling"
new_destination linked
links_ok() {
    local d=$dst/linked-src
    [ -L "$d/sub/rel-link" ] && [ "$(readlink "$d/sub/rel-link")" = ../data ] &&
        [ -L "$d/dangling" ] && [ "$(readlink "$d/dangling")" = /nonexistent/target ] &&
        [ "$(stat -c %Y "$d/dangling")" = "$(stat -c %Y "$linked/dangling")" ] &&
        [ "$(stat -c %i "$d/data")" = "$(stat -c %i "$d/sub/same")" ] && same "$linked/data" "$d/data"
}
status=0
"$bin" copy --headless "$linked" "$dst" >"$work/links.out" 2>"$work/links.err" || status=$?
[ $status = 0 ] && links_ok && pass "symbolic links copied as links (dangling too, times kept), hard links kept" ||
    fail "links: exit $status: $(cat "$work/links.err"); $(ls -liR "$dst")"
status=0
"$bin" copy --headless "$linked" "$dst" >"$work/links2.out" 2>"$work/links2.err" || status=$?
[ $status = 0 ] && links_ok && pass "links: a rerun keeps the links and exits 0" ||
    fail "links rerun: exit $status: $(cat "$work/links2.err")"

# 23b. Links named on the command line are copied as links too, as cp -a makes them (a link to a directory and one
# to a file); with a slash, the directory the link leads to is copied.
ln -s linked-src "$work/to-tree"
ln -s linked-src/data "$work/to-file"
new_destination cli-links
mkdir "$dst/linked-src"
mkdir -p "$work/cli-links-cp"
cp -a "$work/to-tree" "$work/to-file" "$work/cli-links-cp/"
status=0
"$bin" copy --headless "$work/to-tree" "$work/to-file" "$dst" >"$work/cli-links.out" 2>"$work/cli-links.err" ||
    status=$?
"$bin" copy --headless "$work/to-tree/" "$dst/linked-src" >>"$work/cli-links.out" 2>>"$work/cli-links.err" ||
    status=$?
[ $status = 0 ] && [ "$(readlink "$dst/to-tree")" = "$(readlink "$work/cli-links-cp/to-tree")" ] &&
    [ "$(readlink "$dst/to-file")" = "$(readlink "$work/cli-links-cp/to-file")" ] &&
    same "$linked/data" "$dst/linked-src/to-tree/data" &&
    pass "links named on the command line are copied as links, like cp -a; LINK/ copies the directory" ||
    fail "command-line links: exit $status: $(cat "$work/cli-links.err"); $(ls -l "$dst")"

# 23c. Hard links between sources stay one file, as cp -a keeps them: a name in a second tree and one named on
# the command line of a file met first in the tree above; the copy's inodes group the names as cp -a's do.
across="$work/across-src"
mkdir -p "$across/second"
ln "$linked/data" "$across/second/again"
ln "$linked/data" "$across/loose"
new_destination across-dst
mkdir -p "$work/across-cp"
cp -a "$linked" "$across/second" "$across/loose" "$work/across-cp/"
status=0
"$bin" copy --headless "$linked" "$across/second" "$across/loose" "$dst" >"$work/across.out" 2>"$work/across.err" ||
    status=$?
inode_groups() { (cd "$1" && find . -type f -printf '%i %p\n' | sort -k2 | awk '{ if (!($1 in g)) g[$1] = $2; print $2, g[$1] }'); }
[ $status = 0 ] && [ "$(inode_groups "$dst")" = "$(inode_groups "$work/across-cp")" ] &&
    [ "$(stat -c %h "$dst/loose")" = 4 ] && same "$linked/data" "$dst/second/again" &&
    pass "hard links across sources stay one file, as cp -a keeps them" ||
    fail "links across sources: exit $status: $(cat "$work/across.err"); $(ls -liR "$dst")"
rm "$across/second/again" "$across/loose"

# 23d. FIFOs, sockets and devices are made as cp -a makes them: the same kind, device numbers, mode, times,
# extended attributes (as on a symbolic link), (as root) owner, and names of one FIFO or one symbolic link kept
# as hard links; never opened. A rerun skips them and exits 0.
nodes="$work/nodes-src/run"
mkdir -p "$nodes"
mkfifo -m 640 "$nodes/pipe"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$nodes/sock"
chmod 600 "$nodes/sock"
ln -s elsewhere "$nodes/link"
ln "$nodes/pipe" "$nodes/pipe2"
ln "$nodes/link" "$nodes/link2"
if [ "$(id -u)" = 0 ]; then
    mknod -m 620 "$nodes/tty0" c 4 0
    chown 1:2 "$nodes/pipe"
    # trusted.* attributes may be set on any kind of entry, by root only.
    python3 -c 'import os, sys
for path in sys.argv[1:]: os.setxattr(path, "trusted.statetui", path.encode()[-4:], follow_symlinks=False)' "$nodes/pipe" "$nodes/link"
fi
touch -h -d '2011-02-03 04:05:06.123456789' "$nodes"/*
new_destination nodes-dst
mkdir -p "$work/nodes-cp"
cp -a "$nodes" "$work/nodes-cp/"
status=0
"$bin" copy --headless "$nodes" "$dst" >"$work/nodes.out" 2>"$work/nodes.err" || status=$?
node_listing() {
    (cd "$1" && find . -mindepth 1 -printf '%p %M %n %t:%T %U:%G %T@\n' | sort &&
        find . -mindepth 1 ! -type d -printf '%i %p\n' | sort -k2 | awk '{ if (!($1 in g)) g[$1] = $2; print $2, g[$1] }' &&
        python3 -c 'import os
for name in sorted(os.listdir(".")):
    print(name, sorted((key, os.getxattr(name, key, follow_symlinks=False)) for key in os.listxattr(name, follow_symlinks=False)))')
}
rerun_status=0
"$bin" copy --headless "$nodes" "$dst" >"$work/nodes-rerun.out" 2>&1 || rerun_status=$?
if [ $status = 0 ] && [ "$(node_listing "$dst/run")" = "$(node_listing "$work/nodes-cp/run")" ] &&
    grep -qx 'run/pipe: made (FIFO)' "$work/nodes.out" && grep -qx 'run/sock: made (socket)' "$work/nodes.out" &&
    [ $rerun_status = 0 ] && grep -qx 'run/pipe: skipped (same FIFO)' "$work/nodes-rerun.out"; then
    pass "FIFOs, sockets and devices are made as cp -a makes them (kind, numbers, mode, owner, times, attributes, hard links); a rerun skips them"
else
    fail "special files: exit $status/$rerun_status: $(cat "$work/nodes.err"); ours: $(node_listing "$dst/run"); cp -a: $(node_listing "$work/nodes-cp/run")"
fi

# 23e. A sparse file of 7 EiB (tmpfs allows one) is copied as a hole, its size kept, and a rerun skips it: no size
# overflows (before: the percent of its progress trapped, exit 132).
shm=""
[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/statetui-e2e.XXXXXX) || true
if [ -n "$shm" ] && mkdir "$shm/src" "$shm/dst" && truncate -s $((7 << 60)) "$shm/src/huge"; then
    status=0
    timeout -k 10 60 "$bin" copy --headless "$shm/src/huge" "$shm/dst" >"$work/huge.out" 2>&1 || status=$?
    rerun_status=0
    timeout -k 10 60 "$bin" copy --headless "$shm/src/huge" "$shm/dst" >"$work/huge-rerun.out" 2>&1 || rerun_status=$?
    [ $status = 0 ] && [ "$(stat -c %s "$shm/dst/huge")" = $((7 << 60)) ] && [ "$(stat -c %b "$shm/dst/huge")" = 0 ] &&
        [ $rerun_status = 0 ] && grep -qx 'huge: skipped (same size and time)' "$work/huge-rerun.out" &&
        pass "a 7 EiB sparse file is copied as a hole, its size kept; a rerun skips it" ||
        fail "7 EiB sparse file: exit $status/$rerun_status: $(cat "$work/huge.out" "$work/huge-rerun.out")"
else
    echo "skip copy e2e: 7 EiB sparse file (no tmpfs at /dev/shm)"
fi
[ -z "$shm" ] || rm -rf "$shm"

# 24. Reruns like rsync: change one file of a copied tree; a rerun refuses it (exit 1, naming --overwrite) and
# skips the others unread; with --overwrite only the changed file is rewritten (the others keep their inode).
# The files are looked for by their paths: a bare "f1" also matched the random name of the temporary directory
# every message quotes (a CI run failed on /tmp/statetui-copy.756f1Q).
rerun="$work/rerun-src"
mkdir -p "$rerun"
for n in 1 2 3; do make_file "$rerun/f$n" 20000; done
new_destination rerun
"$bin" copy --headless "$rerun" "$dst" >/dev/null 2>&1 || fail "rerun: the first copy failed"
make_file "$rerun/f2" 20000
touch -d '2010-01-01 00:00:00' "$rerun/f2"
inodes() { stat -c %i "$dst/rerun-src/f1" "$dst/rerun-src/f3"; }
kept=$(inodes)
status=0
"$bin" copy --headless "$rerun" "$dst" >"$work/rerun.out" 2>"$work/rerun.err" || status=$?
[ $status = 1 ] && grep -q "f2 already exists and was not written by this copy (use --overwrite to replace it)" "$work/rerun.err" &&
    ! grep -q "rerun-src/f[13]" "$work/rerun.err" &&
    grep -qx "rerun-src/f1: skipped (same size and time)" "$work/rerun.out" &&
    grep -qx "rerun-src/f3: skipped (same size and time)" "$work/rerun.out" &&
    grep -q "^copied 0 files (0 B), skipped 2, failed 1 in " "$work/rerun.out" &&
    pass "rerun: a changed file is refused naming --overwrite, the others are skipped and said so" ||
    fail "rerun: exit $status: $(cat "$work/rerun.out" "$work/rerun.err")"
status=0
"$bin" copy --headless --overwrite "$rerun" "$dst" >"$work/rerun2.out" 2>"$work/rerun2.err" || status=$?
[ $status = 0 ] && same "$rerun/f2" "$dst/rerun-src/f2" && [ "$(inodes)" = "$kept" ] &&
    grep -q "^copied 1 file (20 KB), skipped 2, failed 0 in " "$work/rerun2.out" &&
    pass "rerun --overwrite: only the changed file is replaced, the others keep their inode" ||
    fail "rerun --overwrite: exit $status, inodes $(inodes | tr '\n' ' ') (were $(echo $kept)): $(cat "$work/rerun2.err")"

# 24b. A rerun gives a skipped copy its source's new mode, as rsync -a does: a file made private since its copy
# is private in the copy too (before: it stayed as wide as it was copied).
chmod 600 "$rerun/f1"
status=0
"$bin" copy --headless "$rerun" "$dst" >"$work/rerun3.out" 2>"$work/rerun3.err" || status=$?
[ $status = 0 ] && [ "$(stat -c %a "$dst/rerun-src/f1")" = 600 ] && [ "$(inodes)" = "$kept" ] &&
    grep -qx "rerun-src/f1: skipped (same size and time)" "$work/rerun3.out" &&
    pass "rerun: a skipped copy gets its source's new mode (made private since), not rewritten" ||
    fail "rerun after chmod 600: exit $status, mode $(stat -c %a "$dst/rerun-src/f1"): $(cat "$work/rerun3.err")"

# 25. Extended attributes are copied (where python3 can set one to check it).
if command -v python3 >/dev/null 2>&1 && python3 -c "import os; os.setxattr('$src/three.bin', 'user.statetui', b'kept')" 2>/dev/null; then
    new_destination xattr
    status=0
    "$bin" copy --headless "$src/three.bin" "$dst" >/dev/null 2>"$work/xattr.err" || status=$?
    [ $status = 0 ] && [ "$(python3 -c "import os; print(os.getxattr('$dst/three.bin', 'user.statetui').decode())")" = kept ] &&
        pass "extended attributes are copied" || fail "xattr: exit $status: $(cat "$work/xattr.err")"
else
    echo "skip copy e2e: extended attributes (no python3 or no user xattrs here)"
fi

# 25c. A directory's extended attributes are copied too, and a copy never keeps an ACL its source lacks: a file
# copied into a directory with a default ACL (which every new file inherits) has none, as with cp -a (where python3
# can set them to check).
acl_tree="$work/acl-src"
mkdir -p "$acl_tree/sub"
make_file "$acl_tree/sub/private" 100
chmod 640 "$acl_tree/sub/private"
new_destination acl-dst
# A default ACL giving user 1234 rwx: version 2, then (tag, permissions, id) for the owner, user 1234, the group,
# the mask and others.
if command -v python3 >/dev/null 2>&1 && python3 - "$acl_tree/sub" "$dst" <<'PY' 2>/dev/null; then
import os, struct, sys
os.setxattr(sys.argv[1], 'user.statetui', b'directory')
entries = [(1, 7, 0xFFFFFFFF), (2, 7, 1234), (4, 5, 0xFFFFFFFF), (0x10, 7, 0xFFFFFFFF), (0x20, 5, 0xFFFFFFFF)]
os.setxattr(sys.argv[2], 'system.posix_acl_default', struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e) for e in entries))
PY
    status=0
    "$bin" copy --headless "$acl_tree" "$dst" >/dev/null 2>"$work/acl.err" || status=$?
    attributes=$(python3 - "$dst/acl-src" <<'PY' 2>&1 || true
import os, sys
for path in [sys.argv[1] + '/sub', sys.argv[1] + '/sub/private']:
    names = sorted(os.listxattr(path))
    print(path[len(sys.argv[1]):], names, os.getxattr(path, 'user.statetui') if 'user.statetui' in names else '')
PY
)
    expected="/sub ['user.statetui'] b'directory'
/sub/private [] "
    [ $status = 0 ] && [ "$attributes" = "$expected" ] && [ "$(stat -c %a "$dst/acl-src/sub/private")" = 640 ] &&
        pass "a directory's extended attributes are copied; no ACL inherited from the destination is kept" ||
        fail "directory attributes and ACLs: exit $status: $(cat "$work/acl.err"); $attributes"
else
    echo "skip copy e2e: directory attributes and ACLs (no python3, or no user xattrs or ACLs here)"
fi

# 25d. A file capability stays on a root copy, as with cp -a: a change of owner clears it, so the copy's
# extended attributes are set after its owner (where setcap can give one).
if [ "$(id -u)" = 0 ] && command -v setcap >/dev/null 2>&1 && command -v getcap >/dev/null 2>&1; then
    capable="$work/capable-src"
    mkdir -p "$capable"
    cp /bin/true "$capable/ping-like"
    chown 1234:1234 "$capable/ping-like"
    if setcap cap_net_raw+ep "$capable/ping-like" 2>/dev/null; then
        new_destination capable-dst
        status=0
        "$bin" copy --headless "$capable/ping-like" "$dst" >/dev/null 2>"$work/capable.err" || status=$?
        [ $status = 0 ] && [ "$(getcap "$dst/ping-like" | sed 's/.* //')" = "$(getcap "$capable/ping-like" | sed 's/.* //')" ] &&
            [ "$(stat -c %u:%g "$dst/ping-like")" = 1234:1234 ] &&
            pass "a file capability (security.capability) stays on a root copy, owner kept" ||
            fail "capability: exit $status: $(getcap "$dst/ping-like"): $(cat "$work/capable.err")"
    else
        echo "skip copy e2e: file capabilities (setcap cannot set one here)"
    fi
else
    echo "skip copy e2e: file capabilities (not root, or no setcap/getcap)"
fi

# 25b. Not as root, a copy belongs to its copier: setuid stays only with the owner it was given for, setgid only
# with its group (run as nobody when this runs as root; like cp -a, which drops both here).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    as_nobody=$(mktemp -d)
    chmod 755 "$as_nobody"
    cp "$bin" "$as_nobody/statetui"
    mkdir -m 777 "$as_nobody/out"
    make_file "$as_nobody/root-setuid" 100
    chmod 4755 "$as_nobody/root-setuid"
    make_file "$as_nobody/nogroup-setgid" 100
    chgrp 65534 "$as_nobody/nogroup-setgid"
    chmod 2755 "$as_nobody/nogroup-setgid"
    status=0
    HOME="$as_nobody" setpriv --reuid=65534 --regid=65534 --clear-groups "$as_nobody/statetui" copy --headless \
        "$as_nobody/root-setuid" "$as_nobody/nogroup-setgid" "$as_nobody/out" >/dev/null 2>"$work/nobody.err" ||
        status=$?
    modes=$(stat -c '%a %u:%g' "$as_nobody/out/root-setuid" "$as_nobody/out/nogroup-setgid" 2>&1 | tr '\n' ' ')
    [ $status = 0 ] && [ "$modes" = "755 65534:65534 2755 65534:65534 " ] &&
        pass "not as root: setuid is dropped from a copy of another user's file, setgid kept with its group" ||
        fail "as nobody: exit $status, modes $modes: $(cat "$work/nobody.err")"
    # A directory the user may not read fails alone: every file beside and after it is copied, as cp -a does
    # (before: the walk ended at it, and the rest of the tree was neither copied nor named).
    mkdir -p "$as_nobody/tree/b-private" "$as_nobody/out2"
    chmod 777 "$as_nobody/out2"
    for n in a c d; do mkdir "$as_nobody/tree/$n-dir" && make_file "$as_nobody/tree/$n-dir/f" 100; done
    make_file "$as_nobody/tree/b-private/f" 100
    make_file "$as_nobody/tree/z" 100
    chmod -R a+rX "$as_nobody/tree"
    chmod 700 "$as_nobody/tree/b-private"
    status=0
    HOME="$as_nobody" setpriv --reuid=65534 --regid=65534 --clear-groups "$as_nobody/statetui" copy --headless \
        "$as_nobody/tree" "$as_nobody/out2" >"$work/nobody2.out" 2>"$work/nobody2.err" || status=$?
    copied=$(cd "$as_nobody/out2" && find . -type f | sort | tr '\n' ' ')
    [ $status = 1 ] && [ "$copied" = "./tree/a-dir/f ./tree/c-dir/f ./tree/d-dir/f ./tree/z " ] &&
        grep -qx "statetui: cannot read $as_nobody/tree/b-private: Permission denied" "$work/nobody2.err" &&
        grep -q "^copied 4 files (400 B), skipped 0, failed 1 in " "$work/nobody2.out" &&
        pass "not as root: a directory it may not read fails alone, the rest of the tree is copied" ||
        fail "unreadable directory: exit $status, copied $copied: $(cat "$work/nobody2.out" "$work/nobody2.err")"
    # A read-only directory (0555, as a Go module cache holds) is filled again by a rerun, as rsync -a fills it:
    # its copy is given 0555 at the end of the first run, and the rerun adds a new file (before: 'cannot create
    # …/.statetui-journal: Permission denied', and even the unchanged file failed); it ends 0555 again.
    mkdir -p "$as_nobody/cache/mod" "$as_nobody/out3"
    make_file "$as_nobody/cache/mod/one" 100
    chmod 555 "$as_nobody/cache/mod"
    chmod -R a+rX "$as_nobody/cache"
    chmod 777 "$as_nobody/out3"
    as_nobody_copy() {
        HOME="$as_nobody" setpriv --reuid=65534 --regid=65534 --clear-groups "$as_nobody/statetui" copy --headless \
            "$as_nobody/cache" "$as_nobody/out3" >"$work/nobody3.out" 2>"$work/nobody3.err"
    }
    first=0
    as_nobody_copy || first=$?
    chmod 755 "$as_nobody/cache/mod" && make_file "$as_nobody/cache/mod/two" 200 && chmod 555 "$as_nobody/cache/mod"
    status=0
    as_nobody_copy || status=$?
    [ $first = 0 ] && [ $status = 0 ] && same "$as_nobody/cache/mod/two" "$as_nobody/out3/cache/mod/two" &&
        [ "$(stat -c %a "$as_nobody/out3/cache/mod")" = 555 ] &&
        grep -qx 'cache/mod/one: skipped (same size and time)' "$work/nobody3.out" &&
        pass "not as root: a rerun fills a read-only directory a first run made, as rsync -a does, and leaves it 555" ||
        fail "read-only directory rerun: exit $first/$status, mode $(stat -c %a "$as_nobody/out3/cache/mod"): $(cat "$work/nobody3.out" "$work/nobody3.err")"
    chmod -R u+w "$as_nobody/out3" "$as_nobody/cache"
    rm -rf "$as_nobody"
else
    echo "skip copy e2e: setuid as another user (not root, or no setpriv)"
fi

# 26. --dry-run writes nothing: no directory, no journal; it names what would be copied and skipped.
new_destination dry
status=0
"$bin" copy --headless --dry-run "$rerun" "$src/three.bin" "$dst" >"$work/dry.out" 2>"$work/dry.err" || status=$?
[ $status = 0 ] && [ -z "$(ls -A "$dst")" ] && grep -qx "would create directory rerun-src" "$work/dry.out" &&
    grep -qx "would copy rerun-src/f1" "$work/dry.out" && grep -qx "would copy three.bin" "$work/dry.out" &&
    pass "--dry-run names what would be copied and writes nothing" ||
    fail "--dry-run: exit $status, $(ls -A "$dst"): $(cat "$work/dry.out" "$work/dry.err")"
"$bin" copy --headless --dry-run "$rerun" "$dst/../rerun" >"$work/dry2.out" 2>&1 || true
grep -qx "would skip rerun-src/f1 (same size and time)" "$work/dry2.out" &&
    pass "--dry-run over a copied tree: unchanged files would be skipped" || fail "--dry-run rerun: $(cat "$work/dry2.out")"

# 26b. --dry-run over a run in progress and over one killed mid-copy: it says the real run would wait for the
# other process, then that it would resume the partial the killed run left (at its journal's checkpoint) and
# copy the untouched file; the destination stays byte for byte as it was (no lock file, no journal change).
new_destination dry-interrupted
copy_slowly dry-first "$src/one.bin" "$dst"
wait_for_size "$(partial_of "$dst" one.bin)" $((3 << 20)) || fail "--dry-run interrupted: the copy never got 3 MiB in"
"$bin" copy --headless --dry-run "$src/one.bin" "$dst" >"$work/dry-busy.out" 2>&1 || true
grep -qx "would wait for .statetui-journal: another statetui copy (pid $background) writes into that directory" \
    "$work/dry-busy.out" && pass "--dry-run while another run writes: the real run would wait for it, named" ||
    fail "--dry-run busy: $(cat "$work/dry-busy.out")"
wait_for_checkpoint "$dst" one.bin || fail "--dry-run interrupted: no checkpoint of one.bin was journaled"
kill -9 "$background"
wait "$background" 2>/dev/null || true
background=""
listing() { (cd "$dst" && find . -printf '%p %s %T@ %m\n' | sort && sha256sum .statetui-journal); }
before=$(listing)
status=0
"$bin" copy --headless --dry-run "$src/one.bin" "$src/three.bin" "$dst" >"$work/dry-resume.out" 2>&1 || status=$?
[ $status = 0 ] && [ "$(listing)" = "$before" ] &&
    grep -qx "would resume one.bin at byte [1-9][0-9]* of $((12 << 20)) (the partial an interrupted run left)" \
        "$work/dry-resume.out" && grep -qx "would copy three.bin" "$work/dry-resume.out" &&
    pass "--dry-run over a run killed mid-copy: would resume its partial, writes nothing" ||
    fail "--dry-run resume: exit $status, $(cat "$work/dry-resume.out"); changed: $(diff <(echo "$before") <(listing))"
# The run resumes that partial: its first line is where the partial ends, and the file it commits is the
# partial itself (its inode and birth time), not one made anew.
offset=$(sed -n 's/^would resume one.bin at byte \([0-9]*\) .*/\1/p' "$work/dry-resume.out")
kept=$(stat -c '%i %w' "$(partial_of "$dst" one.bin)")
"$bin" copy --headless "$src/one.bin" "$src/three.bin" "$dst" >"$work/dry-real.out" 2>&1 &&
    same "$src/one.bin" "$dst/one.bin" && [ "$(stat -c '%i %w' "$dst/one.bin")" = "$kept" ] &&
    [ "$(sed -n 's/^one.bin: running(request: 1, percent: \([0-9]*\)).*/\1/p' "$work/dry-real.out" | head -n 1)" -ge \
        $((offset * 100 / (12 << 20) / 10 * 10)) ] &&
    pass "--dry-run's resume is what the real run then does" ||
    fail "real run after --dry-run (the partial was $kept, one.bin is $(stat -c '%i %w' "$dst/one.bin")): $(cat "$work/dry-real.out")"

# 27. --exclude leaves out what matches below each source (repeatable; a trailing / for directories only).
new_destination exclude
status=0
"$bin" copy --headless --exclude 'f1' --exclude '*3' "$rerun" "$dst" >/dev/null 2>"$work/exclude.err" || status=$?
[ $status = 0 ] && [ "$(ls "$dst/rerun-src")" = f2 ] && pass "--exclude leaves out matching entries" ||
    fail "--exclude: exit $status, copied $(ls "$dst/rerun-src"): $(cat "$work/exclude.err")"

# 27b. A file where a tree's own directory goes is refused before anything is written, by the run and by --dry-run
# alike (exit 2): before, the run left an empty .statetui-journal behind and --dry-run said "would copy" (exit 0).
# A file where a directory inside the tree goes fails that directory alone, in both (exit 1).
new_destination inway
mkdir -p "$work/inway-src/tree/sub"
make_file "$work/inway-src/tree/sub/a" 100
make_file "$work/inway-src/tree/b" 100
make_file "$dst/tree" 10
dry=0 real=0
"$bin" copy --headless --dry-run "$work/inway-src/tree" "$dst" >/dev/null 2>"$work/inway-dry.err" || dry=$?
"$bin" copy --headless "$work/inway-src/tree" "$dst" >/dev/null 2>"$work/inway.err" || real=$?
[ $dry = 2 ] && [ $real = 2 ] && grep -q "refusing to use .*/tree: it is not a directory" "$work/inway-dry.err" &&
    [ "$(ls -A "$dst")" = tree ] &&
    pass "a file where a tree's directory goes: refused by the run and --dry-run alike (exit 2), nothing written" ||
    fail "tree's directory taken: dry-run exit $dry, run exit $real, left $(ls -A "$dst" | tr '\n' ' '): $(cat "$work/inway.err")"
rm "$dst/tree"
mkdir "$dst/tree"
make_file "$dst/tree/sub" 10
dry=0 real=0
"$bin" copy --headless --dry-run "$work/inway-src/tree" "$dst" >"$work/inway-dry.out" 2>&1 || dry=$?
"$bin" copy --headless "$work/inway-src/tree" "$dst" >/dev/null 2>"$work/inway.err" || real=$?
[ $dry = 1 ] && [ $real = 1 ] && grep -q "would fail tree/sub: it is not a directory" "$work/inway-dry.out" &&
    ! grep -q "would copy tree/sub/a" "$work/inway-dry.out" && same "$work/inway-src/tree/b" "$dst/tree/b" &&
    pass "a file where a directory inside the tree goes: that directory fails alone, in the run and --dry-run (exit 1)" ||
    fail "directory inside the tree taken: dry-run exit $dry, run exit $real: $(cat "$work/inway-dry.out" "$work/inway.err")"

# 18. The interactive mode in tmux: the Transfers screen with one row per source; `s` starts the selected
#     transfer, `p` pauses it (the row says paused and the partial stops growing), `p` resumes, and the
#     file completes; `--start` starts every row at once. `q` leaves with the session's outcome: exit 0 only
#     when every transfer completed, 1 when any failed or did not complete (said on standard error).
if command -v tmux >/dev/null 2>&1; then
    screen() { screen_of copy; }
    # Waits up to 20 s for the screen to match an extended regular expression.
    wait_screen() { poll_screen copy 20 "$1"; }
    # Waits for the screen to match RE, else fails the check in progress (ok=0) with MESSAGE and the screen.
    expect_screen() { wait_screen "$1" || { ok=0; fail "$2: $(screen)"; }; }
    # Sends KEY to the session, then expects the screen to match RE (else fails with MESSAGE).
    press() {
        tm send-keys -t copy "$1"
        expect_screen "$2" "$3"
    }
    # Runs `env TERM=screen ENV statetui copy ARGS` in the tmux session `copy` (ARGS quoted for the shell there),
    # which prints exit=STATUS when statetui ends.
    open_copy() {
        tm new-session -d -s copy -x 110 -y 24 "env TERM=screen $1 '$bin' copy $2; echo exit=\$?; sleep 60"
    }
    new_destination interactive
    open_copy "STATETUI_COPY_CHUNK_DELAY_MS=15" "'$src/one.bin' '$src/three.bin' '$dst'"
    ok=1
    expect_screen 'one\.bin .*idle' "interactive: no idle row for one.bin"
    tm send-keys -t copy s
    wait_for_size "$(partial_of "$dst" one.bin)" $((2 << 20)) || { ok=0; fail "interactive: s did not start one.bin"; }
    press p 'one\.bin .*paused · [0-9]+% · request #1' "interactive: p did not pause"
    screen | grep -E -q 'three\.bin .*idle' || { ok=0; fail "interactive: three.bin started without s: $(screen)"; }
    press p 'one\.bin .*completed' "interactive: one.bin did not complete"
    tm send-keys -t copy q
    wait_screen '^exit=1$' && screen | grep -q '1 of 2 transfers did not complete' ||
        { ok=0; fail "interactive: q with three.bin never started did not exit 1 saying so: $(screen)"; }
    same "$src/one.bin" "$dst/one.bin" || { ok=0; fail "interactive: one.bin differs from its source"; }
    tm_stop
    [ $ok = 1 ] && pass "interactive: s starts, p pauses and resumes, the copy completes and matches; q with a row never started exits 1 naming it"

    new_destination interactive-start
    open_copy "" "'$src/two.bin' '$src/three.bin' '$linked' '$dst' --start"
    if wait_screen 'two\.bin .*completed' && wait_screen 'three\.bin .*completed'; then
        tm send-keys -t copy q
        # The links the session made are said on standard output, as headless says them.
        wait_screen '^exit=0$' && same "$src/two.bin" "$dst/two.bin" && same "$src/three.bin" "$dst/three.bin" &&
            screen | grep -q '^linked-src/dangling: linked -> /nonexistent/target$' &&
            screen | grep -q '^linked-src/sub/same: hard link to linked-src/data$' &&
            pass "interactive --start: every row starts at once and completes, links are said; q exits 0" ||
            fail "interactive --start: exit or content wrong: $(screen)"
    else
        fail "interactive --start: the rows did not all complete: $(screen)"
    fi
    tm_stop

    # A FIFO is made by the session before the dashboard opens, as the headless copy makes it (never opened, so
    # nothing waits for a writer): it gets a line on standard output, not a row; the file beside it gets the row.
    new_destination special-interactive
    open_copy "" "'$work/fifo' '$src/one.bin' '$dst' --start"
    ok=1
    expect_screen 'one\.bin .*completed' "interactive FIFO: the file's row did not complete"
    screen | grep -q 'fifo .*idle' && { ok=0; fail "interactive FIFO: the FIFO got a row: $(screen)"; }
    tm send-keys -t copy q
    wait_screen '^exit=0$' && screen | grep -q '^fifo: made (FIFO)$' && [ -p "$dst/fifo" ] ||
        { ok=0; fail "interactive FIFO: q did not exit 0 with the FIFO made and said: $(screen)"; }
    tm_stop
    [ $ok = 1 ] && pass "interactive: a FIFO is made before the dashboard and said on standard output, the file's row completes"

    # `q` while a copy runs asks first: `n` stays, `y` leaves (exit 1: not complete) with the partial kept for
    # the next run; with --no-confirm `q` leaves at once.
    throttle="STATETUI_COPY_CHUNK_BYTES=65536 STATETUI_COPY_CHUNK_DELAY_MS=100"
    new_destination confirm
    open_copy "$throttle" "'$src/one.bin' '$dst' --start"
    ok=1
    expect_screen 'one\.bin .*running' "confirm: one.bin did not start"
    press q 'Copies are still running' "confirm: q did not ask"
    press n 'q quit$' "confirm: n did not close the question"
    press q 'y quit' "confirm: q did not ask again"
    tm send-keys -t copy y
    wait_screen '^exit=1$' && screen | grep -q '1 of 1 transfers did not complete' ||
        { ok=0; fail "confirm: y did not exit 1 saying the copy did not complete: $(screen)"; }
    [ -f "$(partial_of "$dst" one.bin)" ] || { ok=0; fail "confirm: the partial was not kept"; }
    tm_stop
    [ $ok = 1 ] && pass "interactive: q while copying asks, n stays, y exits 1 keeping the partial"

    open_copy "$throttle" "'$src/one.bin' '$dst' --start --no-confirm"
    ok=1
    expect_screen 'one\.bin .*running' "--no-confirm: one.bin did not continue"
    press q '^exit=1$' "--no-confirm: q did not exit (1) at once"
    tm_stop
    [ $ok = 1 ] && pass "interactive --no-confirm: q while copying exits at once (1: not complete)"
else
    echo "skip copy e2e: interactive mode (no tmux)"
fi

finish
