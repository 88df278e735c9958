#!/bin/sh
# Compile-fail checks for the StagedFile typestate: every Tests/CompileFail/*.swift snippet names the
# diagnostic it must produce on its first line (or "none" for the control that must compile).
#
# Ownership errors ("consumed more than once", "used after consume") come from the move checker, a
# SIL pass, so `swiftc -typecheck` accepts these snippets; the check runs up to SIL (-emit-sil).
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}

if ! "$SWIFT" build --target FileTransfer >/dev/null 2>&1; then
    echo "compile-fail: building FileTransfer failed" >&2
    exit 2
fi
BIN=$("$SWIFT" build --show-bin-path)
MODULEMAP="Sources/CLibCrypto/module.modulemap"
if [ ! -f "$BIN/Modules/FileTransfer.swiftmodule" ] || [ ! -f "$MODULEMAP" ]; then
    echo "compile-fail: FileTransfer module not found under $BIN" >&2
    exit 2
fi

failures=0
count=0
for snippet in Tests/CompileFail/*.swift; do
    count=$((count + 1))
    expected=$(sed -n '1s#^// expected-diagnostic: ##p' "$snippet")
    if [ -z "$expected" ]; then
        echo "FAIL $snippet: first line must be '// expected-diagnostic: ...'"
        failures=$((failures + 1))
        continue
    fi
    output=$("$SWIFTC" -emit-sil -o /dev/null -swift-version 6 -I "$BIN/Modules" \
        -Xcc -fmodule-map-file="$MODULEMAP" "$snippet" 2>&1)
    status=$?
    if [ "$expected" = "none" ]; then
        if [ $status -eq 0 ]; then
            echo "ok   $snippet compiles"
        else
            echo "FAIL $snippet should compile:"
            echo "$output" | sed 's/^/     /'
            failures=$((failures + 1))
        fi
    elif [ $status -ne 0 ] && printf '%s\n' "$output" | grep -qF -- "$expected"; then
        echo "ok   $snippet: $expected"
    else
        echo "FAIL $snippet: expected \"$expected\" (exit $status), got:"
        echo "$output" | sed 's/^/     /'
        failures=$((failures + 1))
    fi
done

if [ $failures -ne 0 ]; then
    echo "compile-fail: $failures of $count snippets failed" >&2
    exit 1
fi
echo "compile-fail: $count snippets behaved as expected"
