#!/usr/bin/env bash
# Fails when a Swift file imports one of the package's own modules inside an `#if` block: on a platform where
# that branch is not taken the module's names are missing, so the file compiles on one platform only (the engine
# once imported Support under `#if canImport(Glibc)`, and macOS could not build it). Platform branches may import
# system modules (Glibc, Darwin, Testing); the project's modules are imported unconditionally.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(find Sources -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | paste -sd'|')
found=$(find Sources Tests -name '*.swift' -print0 | xargs -0 awk -v modules="^($modules)$" '
    FNR == 1 { depth = 0 }
    /^[[:space:]]*#if/ { depth++ }
    /^[[:space:]]*#endif/ { depth-- }
    depth > 0 && /^[[:space:]]*(@[A-Za-z_]+([(][^)]*[)])?[[:space:]]+)*import[[:space:]]/ {
        line = $0
        sub(/^.*import[[:space:]]+((class|struct|enum|protocol|func|var|let|typealias)[[:space:]]+)?/, "", line)
        sub(/[.[:space:]].*$/, "", line)
        if (line ~ modules) print FILENAME ":" FNR ": " $0
    }')
if [ -n "$found" ]; then
    echo "A project module is imported inside an #if: import it unconditionally, or other platforms lack it:" >&2
    echo "$found" >&2
    exit 1
fi
echo "conditional imports: none of the package's modules is imported inside an #if"
