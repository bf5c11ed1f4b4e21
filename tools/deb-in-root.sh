#!/bin/sh
# The Debian package of another Debian release, made on this machine: in a
# copy of that release's minimal root (tools/debian-root.sh), the build's
# packages are installed, this repository's HEAD is cloned and `make deb`
# runs there, against that release's libraries.
#
# Usage: tools/deb-in-root.sh <suite> <out-dir>   e.g. tools/deb-in-root.sh trixie build/dist
#
# The package is copied to <out-dir>; the root that built it stays in
# <out-dir>/root-<suite> (about 3 GB), so a second run builds only what
# changed. The machine's /usr/local/cuda, when there is one, is mounted
# read-only into it for the NVIDIA code; clang 19 and ROCm's device
# libraries, for the AMD code, come from the release.
# A complete build: about 25 minutes on two cores. Uncommitted changes are
# not in the clone. Needs root, debootstrap and the Debian archive;
# DIST_ROOTS as for tests/dist.sh.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"

suite=$1
top=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "deb-in-root: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (chroot)."
mkdir -p "$2"
out=$(cd "$2" && pwd)
roots=${DIST_ROOTS:-$top/.cache/roots}
root=$out/root-$suite
start=$(date +%s)

sh "$top/tools/debian-root.sh" "$suite" "$roots/$suite"
if [ ! -f "$root/.complete" ]; then
    rm -rf "$root"
    cp -a "$roots/$suite" "$root"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"

mounted=
unmount_all() { for m in $mounted; do umount "$m" 2>/dev/null || true; done; mounted=; }
trap unmount_all EXIT
trap 'unmount_all; exit 1' INT TERM HUP
mount -t proc proc "$root/proc" && mounted="$root/proc"
if [ -d /usr/local/cuda ]; then
    mkdir -p "$root/usr/local/cuda"
    mount --bind /usr/local/cuda "$root/usr/local/cuda" && mounted="$root/usr/local/cuda $mounted"
    mount -o remount,bind,ro "$root/usr/local/cuda"
fi
in_root() {
    chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"
}

# git and patchelf for the clone and the package; tools/deps.sh installs
# the rest below, under this release's names.
in_root apt-get update -qq > "$out/root-$suite.log" 2>&1 &&
in_root apt-get install -y -qq patchelf git >> "$out/root-$suite.log" 2>&1 ||
    { tail -5 "$out/root-$suite.log" >&2; fail "installing git and patchelf in $root failed."; }

# HEAD, cloned; FFmpeg's tarball and the ffnvcodec headers from .cache.
git -C "$top" diff --quiet HEAD -- ||
    echo "deb-in-root: uncommitted changes are not in the package (it builds HEAD)" >&2
src=$root/root/vmaf-hip
[ -d "$src/.git" ] || git clone -q "$top" "$src"
git -C "$src" fetch -q "$top" HEAD
git -C "$src" checkout -q -f --detach FETCH_HEAD
mkdir -p "$src/.cache"
for f in "$top"/.cache/*.tar.*; do [ -f "$f" ] && cp -p "$f" "$src/.cache/"; done
in_root git config --global --add safe.directory /root/vmaf-hip
# The build's packages, as make installs them (into its stamp, so make
# does not ask again); deps.sh writes the stamp only once the AMD
# compiler's packages are in too, which a package for this release needs.
in_root sh -c 'cd /root/vmaf-hip && mkdir -p build && sh tools/deps.sh build/deps-ok' >> "$out/root-$suite.log" 2>&1 &&
    [ -f "$src/build/deps-ok" ] ||
    { tail -5 "$out/root-$suite.log" >&2; fail "tools/deps.sh did not install the build's packages, the AMD compiler's included, in $root."; }
in_root sh -c 'cd /root/vmaf-hip && make deb' > "$out/root-$suite.make.log" 2>&1 ||
    { tail -20 "$out/root-$suite.make.log" >&2; fail "make deb failed in $root (log: $out/root-$suite.make.log)."; }
name=$(in_root sh -c 'cd /root/vmaf-hip && sh tools/dist.sh name deb')
cp "$src/build/dist/$name" "$out/$name"
echo "deb-in-root: $out/$name ($suite, $(( $(date +%s) - start )) s)"
