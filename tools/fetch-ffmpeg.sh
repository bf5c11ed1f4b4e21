#!/bin/sh
# Fetch FFmpeg's pristine upstream tarball through Debian's archive, check its
# sha256 and leave it in the cache directory.
#
# Usage: tools/fetch-ffmpeg.sh <version> <cache-dir>
#
# Debian keeps the upstream release tarball unmodified as the package's
# orig tarball (signed by FFmpeg's release key), so `apt-get source --tar-only`
# is the one route that works on a machine whose only network is the Debian
# archive.  It needs a deb-src entry; when the machine has none for sid, one is
# derived from the machine's own Debian entry (same URIs), never hard-coded.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"

tools=$(cd "$(dirname "$0")" && pwd)
version=$1
cache=$2

case $version in
9.0.2) debver=7:9.0.2-4
       sha=8c3850283eb25fa026482078a04051e0be17347b09ef81a0849bec15a96e002e ;;
8.1.2) debver=7:8.1.2-2
       sha=464beb5e7bf0c311e68b45ae2f04e9cc2af88851abb4082231742a74d97b524c ;;
*)     echo "fetch-ffmpeg: unknown FFmpeg version '$version' (known: 9.0.2, 8.1.2)." >&2
       echo "Use FFMPEG_TARBALL=<file> or FFMPEG_SRC=<tree> for other versions." >&2
       exit 1 ;;
esac

tarball=ffmpeg_$version.orig.tar.xz
mkdir -p "$cache"
cd "$cache"

fail() {
    echo "fetch-ffmpeg: $*" >&2
    echo "Give the source another way: make FFMPEG_TARBALL=/path/to/ffmpeg-$version.tar.xz" >&2
    echo "                          or: make FFMPEG_SRC=/path/to/ffmpeg-tree (8.0 or newer)" >&2
    exit 1
}

if [ -f "$tarball" ] && echo "$sha  $tarball" | sha256sum -c --status; then
    exit 0
fi
rm -f "$tarball"

command -v apt-get >/dev/null || fail "apt-get not found; cannot fetch $tarball from Debian's archive."

# A deb-src entry for sid when the archive's ffmpeg $debver is not listed yet.
. "$tools/sid-src.sh"
apt-cache showsrc ffmpeg 2>/dev/null | grep -q "^Version: $debver\$" || sid_src_entry

apt-get source -qq --tar-only "ffmpeg=$debver" >/dev/null 2>&1 ||
    apt-get source -qq --tar-only ffmpeg/sid >/dev/null 2>&1 ||
    fail "Debian's archive no longer offers ffmpeg $debver."
[ -f "$tarball" ] || fail "apt-get source did not produce $tarball (the archive may have moved on from $debver)."
echo "$sha  $tarball" | sha256sum -c --status ||
    { rm -f "$tarball"; fail "$tarball does not match sha256 $sha."; }
rm -f ffmpeg_*.dsc ffmpeg_*.debian.tar.* ffmpeg_*.asc
