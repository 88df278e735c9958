#!/usr/bin/env bash
# `make install` and `make uninstall` into a temporary prefix: the release binary, the man page and the
# bash, zsh and fish completion scripts land
# where they belong, the binary runs from there, a DESTDIR stages a package, and uninstall removes
# exactly what install put there. Skipped only while the package has no statetui executable target.
name=install
build=no
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
MAKE=${MAKE:-make}

if [ ! -d Sources/statetui ]; then
    echo "install test: skipped: there is no statetui executable target (Sources/statetui) yet"
    exit 0
fi

prefix="$work/prefix"
$MAKE --no-print-directory install PREFIX="$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "make install PREFIX=$prefix failed"; }
[ -x "$prefix/bin/statetui" ] || fail "no executable $prefix/bin/statetui after make install"
cmp -s Resources/statetui.1 "$prefix/share/man/man1/statetui.1" ||
    fail "$prefix/share/man/man1/statetui.1 is not Resources/statetui.1"
for shell_file in bash:share/bash-completion/completions/statetui zsh:share/zsh/site-functions/_statetui \
    fish:share/fish/vendor_completions.d/statetui.fish; do
    shell=${shell_file%%:*}
    file="$prefix/${shell_file#*:}"
    if [ ! -f "$file" ]; then
        fail "make install did not write the $shell completions to $file"
    elif ! "$prefix/bin/statetui" completions "$shell" | cmp -s - "$file"; then
        fail "$file is not what 'statetui completions $shell' prints"
    elif [ "$(stat -c %a "$file")" != 644 ]; then
        fail "$file has mode $(stat -c %a "$file"), not 644"
    fi
done
[ "$(find "$prefix" -type f | wc -l)" -eq 5 ] ||
    fail "make install wrote more than the binary, the man page and three completion scripts: $(find "$prefix" -type f)"

# The installed binary runs from its new place, from another directory.
version=$(cd "$work" && "$prefix/bin/statetui" --version) || fail "the installed statetui --version failed"
[ -n "$version" ] || fail "the installed statetui --version printed nothing"

# The dynamic loader maps neither libcrypto (the first hash opens it) nor libstdc++ (linked in) at exec.
if command -v ldd >/dev/null 2>&1; then
    libraries=$(ldd "$prefix/bin/statetui") || fail "ldd cannot read the installed statetui"
    loaded=$(printf '%s\n' "$libraries" | grep -E 'libcrypto|libstdc\+\+' || true)
    [ -z "$loaded" ] || fail "the installed statetui loads at exec what it should not: $loaded"
fi

# The installed man page renders without a single warning.
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -mandoc -ww -z "$prefix/share/man/man1/statetui.1" 2>&1)
    [ -z "$warnings" ] || fail "groff warns about the installed man page: $warnings"
fi

$MAKE --no-print-directory uninstall PREFIX="$prefix" >"$work/uninstall.log" 2>&1 ||
    { cat "$work/uninstall.log" >&2; fail "make uninstall PREFIX=$prefix failed"; }
[ ! -e "$prefix/bin/statetui" ] || fail "make uninstall left $prefix/bin/statetui"
[ ! -e "$prefix/share/man/man1/statetui.1" ] || fail "make uninstall left the man page"
[ -z "$(find "$prefix" -type f)" ] || fail "make uninstall left files: $(find "$prefix" -type f)"

# A package build stages under DESTDIR and keeps PREFIX out of the real file system.
stage="$work/stage"
$MAKE --no-print-directory install DESTDIR="$stage" PREFIX=/usr >"$work/stage.log" 2>&1 ||
    { cat "$work/stage.log" >&2; fail "make install DESTDIR=$stage PREFIX=/usr failed"; }
[ -x "$stage/usr/bin/statetui" ] || fail "DESTDIR install did not stage $stage/usr/bin/statetui"
[ -f "$stage/usr/share/man/man1/statetui.1" ] || fail "DESTDIR install did not stage the man page"
[ -f "$stage/usr/share/bash-completion/completions/statetui" ] || fail "DESTDIR install did not stage the bash completions"

finish "ok ($version)"
