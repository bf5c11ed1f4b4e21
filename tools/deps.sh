#!/bin/sh
# Install the Debian packages the build and the tools need, once: the
# compilers, nasm, and the libraries of the complete ffmpeg (AV1 decoding,
# the encoders of the tuning workflows), plus matplotlib for the plots.
# As root this runs apt-get; otherwise it names the command to run.
#
# Usage: tools/deps.sh <stamp-file> [lgpl] [small]
#
# The stamp file lists the packages once they are all installed (its folder
# is made). A non-empty lgpl leaves out libx264 and libx265, a non-empty
# small every library and matplotlib. The Makefile runs it.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
for arg; do
    case $arg in -h|--help) show_help; exit 0 ;; -?*) usage "unknown option '$arg'" ;; esac
done
[ $# -ge 1 ] || usage "no <stamp-file>"
[ $# -le 3 ] || usage "too many arguments"

stamp=$1
lgpl=${2:-}
small=${3:-}

pkgs="build-essential xz-utils patch gawk diffutils nasm dpkg-dev pkg-config"
if [ -z "$small" ]; then
    pkgs="$pkgs libdav1d-dev libvpx-dev libaom-dev libsvtav1enc-dev python3-matplotlib python3-distributed"
    [ -n "$lgpl" ] || pkgs="$pkgs libx264-dev libx265-dev"
fi

[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs" ] && exit 0

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "deps: missing packages:$missing (and no apt-get to install them)." >&2
        exit 1
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "deps: missing packages; install them first:" >&2
        echo "    sudo apt-get install$missing" >&2
        exit 1
    fi
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq $missing >/dev/null ||
        { echo "deps: apt-get install$missing failed." >&2; exit 1; }
fi
mkdir -p "$(dirname "$stamp")"
echo "$pkgs" > "$stamp"
