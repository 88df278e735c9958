#!/usr/bin/env bash
# Fails when a source file imports the whole of Foundation where FoundationEssentials exists (issue 28): on Linux
# that links FoundationInternationalization and ICU's data into statetui (9 MB of resident memory and the start-up
# time to load them) for nothing the program needs. The one accepted form falls back to Foundation only where
# FoundationEssentials is missing (Apple's platforms, where Foundation is the system's own):
#     #if canImport(FoundationEssentials)
#     import FoundationEssentials
#     #else
#     import Foundation
#     #endif
# The macro plugin (run by the compiler, never linked into a program) and the benchmarks may import Foundation.
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(find Sources -name '*.swift' -not -path 'Sources/StateMachineMacrosPlugin/*' -not -path 'Sources/Benchmarks/*' \
    -print0 | xargs -0 awk '
    FNR == 1 { previous = ""; guarded = 0 }
    /^[[:space:]]*import[[:space:]]+Foundation[[:space:]]*$/ || /^[[:space:]]*@[A-Za-z_]+[[:space:]]+import[[:space:]]+Foundation[[:space:]]*$/ {
        if (!(previous ~ /^[[:space:]]*#else[[:space:]]*$/ && guarded)) print FILENAME ":" FNR ": " $0
    }
    /^[[:space:]]*#if[[:space:]]+canImport\(FoundationEssentials\)[[:space:]]*$/ { guarded = 1 }
    /^[[:space:]]*#endif/ { guarded = 0 }
    NF > 0 { previous = $0 }')
if [ -n "$found" ]; then
    echo "Foundation is imported where FoundationEssentials would do (or import it only in the #else of" >&2
    echo "'#if canImport(FoundationEssentials)', for Apple's platforms):" >&2
    echo "$found" >&2
    exit 1
fi
echo "foundation imports: every source imports FoundationEssentials at most (Foundation only where it is missing)"
