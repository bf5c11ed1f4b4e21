#!/bin/sh
# Provide the ffnvcodec headers FFmpeg's CUDA/NVDEC support is built with
# (headers only: the NVIDIA driver is loaded at run time, nothing
# proprietary is linked). Prints the pkg-config directory to use, "system"
# when the installed headers will do, or nothing when none are available
# (the build then has no NVDEC).
#
# Usage: tools/fetch-ffnvcodec.sh <cache-dir> <install-dir>
#
# The system's libffmpeg-nvenc-dev is used when it is new enough for
# FFmpeg 9 (11.1.5.3, 12.0.16.1 or 12.1.14.0 and later); Debian 12 ships
# 11.1.5.2, so the headers are then built from Debian's nv-codec-headers
# source package (its Makefile only copies headers and a .pc file).
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"

tools=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" "$2"
cache=$(cd "$1" && pwd)
prefix=$(cd "$2" && pwd)

fail() { echo "fetch-ffnvcodec: $* (building without NVDEC/CUDA frames)" >&2; exit 0; }

ok_version() {
    pkg-config "$@" --exists 'ffnvcodec >= 12.1.14.0' ||
        pkg-config "$@" --exists 'ffnvcodec >= 12.0.16.1 ffnvcodec < 12.1' ||
        pkg-config "$@" --exists 'ffnvcodec >= 11.1.5.3 ffnvcodec < 12.0'
}

command -v pkg-config >/dev/null 2>&1 || fail "pkg-config not found"
ok_version && { echo system; exit 0; }
if [ -f "$prefix/lib/pkgconfig/ffnvcodec.pc" ] &&
   PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ok_version; then
    echo "$prefix/lib/pkgconfig"
    exit 0
fi

mkdir -p "$cache"
cd "$cache"
if ! ls nv-codec-headers_*.orig.tar.* >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || fail "apt-get not found"
    . "$tools/sid-src.sh"
    apt-cache showsrc nv-codec-headers 2>/dev/null | grep -q '^Version: 1[2-9]' || sid_src_entry
    apt-get source -qq --tar-only nv-codec-headers/sid >/dev/null 2>&1 ||
        apt-get source -qq --tar-only nv-codec-headers >/dev/null 2>&1 ||
        fail "Debian's archive offers no nv-codec-headers source"
    rm -f nv-codec-headers_*.dsc nv-codec-headers_*.debian.tar.*
fi
tarball=$(ls nv-codec-headers_*.orig.tar.* | sort -V | tail -n1)
rm -rf "$prefix.src"
mkdir -p "$prefix.src"
tar xf "$tarball" -C "$prefix.src" --strip-components=1
make -s -C "$prefix.src" PREFIX="$prefix" install >/dev/null || fail "cannot install the headers from $tarball"
rm -rf "$prefix.src"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ok_version || fail "$tarball is too old for this FFmpeg"
echo "$prefix/lib/pkgconfig"
