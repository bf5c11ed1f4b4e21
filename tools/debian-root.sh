#!/bin/sh
# A minimal Debian root filesystem (debootstrap --variant=minbase) of a
# suite, made once and kept: the clean machine tests/dist.sh unpacks the
# archive and installs the package in (it works on copies).
#
# Usage: tools/debian-root.sh <suite> <dir>   e.g. tools/debian-root.sh trixie .cache/roots/trixie
#
# The packages come from the Debian archive this machine's apt uses (read
# from /etc/apt at run time). A root made earlier is reused; its package
# lists are refreshed (apt-get update inside it) when older than a day, so
# that apt in a copy finds what the archive holds now. Prints one line: the
# root, and how long making it took or that it was reused. Needs root and
# debootstrap (installed when missing), for a suite newer than this machine
# one that knows it (Debian 12's knows trixie).
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"

suite=$1
dir=$2
fail() { echo "debian-root: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and chroot)."

# apt-get update inside the root; its /etc/resolv.conf is the host's.
refresh() {
    cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
    chroot "$1" apt-get update -qq > "$1.update.log" 2>&1 ||
        { tail -5 "$1.update.log" >&2; fail "apt-get update failed in $1."; }
    rm -f "$1.update.log"
    touch "$1/.lists-updated"
}

if [ -f "$dir/.complete" ]; then
    if [ -z "$(find "$dir/.lists-updated" -mmin -1440 2>/dev/null)" ]; then
        refresh "$dir"
        echo "debian-root: $dir: reused, package lists refreshed"
    else
        echo "debian-root: $dir: reused"
    fi
    exit 0
fi

if ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || fail "debootstrap is missing, and apt-get to install it."
    echo "debian-root: installing debootstrap" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq debootstrap >/dev/null || fail "apt-get install debootstrap failed."
fi
. "$(dirname "$0")/sid-src.sh"
mirror=$(debian_uri) || fail "no Debian archive entry found in /etc/apt."

# Made beside its place and renamed when complete: an interrupted run
# leaves no root that looks finished.
tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$(dirname "$dir")"
start=$(date +%s)
if ! debootstrap --variant=minbase "$suite" "$tmp" "$mirror" > "$tmp.log" 2>&1; then
    tail -5 "$tmp.log" >&2
    fail "debootstrap of $suite from $mirror failed (whole log: $tmp.log)."
fi
# debootstrap leaves the suite's package lists; apt in the root uses them.
touch "$tmp/.lists-updated" "$tmp/.complete"
rm -f "$tmp.log"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "debian-root: $dir: $suite made in $(( $(date +%s) - start )) s from $mirror"
