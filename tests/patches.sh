#!/bin/sh
# The patch series of `make patches`, checked against the build: written
# into a folder of its own, it applies with git am to a fresh pristine copy
# of the FFmpeg source the build uses, each commit's subject reads
# "area: what" in at most 72 characters, and the tree it gives is byte for
# byte the tree the build compiles (<build-dir>/src, less the build's
# .patched and .source-id stamps).
#
# Usage: tests/patches.sh [<build-dir>]
#
# <build-dir>: the build to compare with, build unless given (tests/run.sh
# passes its own); its source-id names the FFmpeg source. Prints PASS, FAIL
# and SKIP lines, then "N passed, N failed"; exits 1 when a check failed.
# Writes only in a temporary folder. Takes about a minute on two cores.
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../tools/script-args.sh"
no_options "$@"
[ $# -le 1 ] || usage "at most one argument expected"

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
# pass, fail; passed=0, failed=0.
. "$top/tests/lib.sh"

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

if ! command -v git > /dev/null 2>&1; then
    echo "SKIP git is not installed: make patches needs it"
    finish
fi

# The build's source, as it recorded it (the Makefile's source-id).
sid=$(cat "$build/source-id" 2>/dev/null)
case $sid in
debian:?*)  pristine=$top/.cache/ffmpeg_${sid#debian:}.orig.tar.xz ;;
tarball:?*) pristine=${sid#tarball:} ;;
tree:?*)    pristine=${sid#tree:} ;;
*)          fail "patches: no build in $build to compare with (run make first)"; finish ;;
esac
if [ ! -f "$build/src/.patched" ] || ! cmp -s "$build/source-id" "$build/src/.source-id"; then
    fail "patches: $build/src is not the overlay of $sid (run make first)"
    finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patches.XXXXXX" 2>/dev/null || mktemp -d /tmp/patches.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# git as on any machine: no user settings, a fixed identity.
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
GIT_AUTHOR_NAME=patches.sh GIT_AUTHOR_EMAIL=patches.sh@localhost
GIT_COMMITTER_NAME=patches.sh GIT_COMMITTER_EMAIL=patches.sh@localhost
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL

# ---- make patches, into a folder of its own ----

series=$tmp/series
make -s --no-print-directory -C "$top" BUILD="$build" PATCHES="$series" patches > "$tmp/make.log" 2>&1
rc=$?
set -- "$series"/*.patch
if [ $rc -ne 0 ] || [ ! -f "$1" ]; then
    fail "make patches (exit status $rc)"
    tail -5 "$tmp/make.log"
    finish
fi
n=$#
pass "make patches: $n patches written"

# ---- git am onto a fresh pristine tree of the same source ----

tree=$tmp/ffmpeg
mkdir -p "$tree"
if [ -d "$pristine" ]; then
    (cd "$pristine" && tar cf - --exclude=.git .) | (cd "$tree" && tar xf -)
else
    tar xf "$pristine" -C "$tree" --strip-components=1
fi
release=$(cat "$tree/RELEASE" 2>/dev/null || echo "($sid)")
(
    cd "$tree" &&
    git init -q -b main &&
    git config gc.auto 0 &&
    echo '* -text' > .git/info/attributes &&
    git add -A -f . &&
    git commit -q -m "FFmpeg $release" &&
    git tag pristine
) > "$tmp/init.log" 2>&1 || { fail "patches: cannot make a git repository of $pristine"; tail -5 "$tmp/init.log"; finish; }

if (cd "$tree" && git am "$@") > "$tmp/am.log" 2>&1; then
    pass "git am: the $n patches apply in order to a pristine FFmpeg $release"
else
    fail "git am: the series does not apply to a pristine FFmpeg $release"
    grep -v '^Applying' "$tmp/am.log" | head -10
    finish
fi

# ---- the subjects: "area: what", at most 72 characters ----

(cd "$tree" && git log --reverse --format=%s pristine..HEAD) > "$tmp/subjects"
[ "$(wc -l < "$tmp/subjects")" -eq "$n" ] || fail "git am made $(wc -l < "$tmp/subjects") commits of $n patches"
i=0
while IFS= read -r s; do
    i=$((i + 1))
    if [ ${#s} -gt 72 ]; then
        fail "subject $i is ${#s} characters (72 at most): $s"
    elif ! printf '%s\n' "$s" | grep -Eq '^[A-Za-z0-9_./+-]+(, ?[A-Za-z0-9_./+-]+)*: [^ ]'; then
        fail "subject $i does not read 'area: what': $s"
    else
        pass "subject $i (${#s} characters): $s"
    fi
done < "$tmp/subjects"

# ---- the result is the tree the build compiles ----

if diff -r -q -x .git -x .patched -x .source-id "$tree" "$build/src" > "$tmp/diff" 2>&1; then
    pass "the series applied is byte for byte the tree the build compiles ($build/src)"
else
    fail "the series applied differs from $build/src ($(wc -l < "$tmp/diff") files; run make if the project changed since the last build)"
    sed "s|$tmp/||" "$tmp/diff" | head -10
fi
finish
