#!/bin/sh
# Install the Debian packages the build and the tools need, once: the
# compilers, nasm, and the libraries of the complete ffmpeg (AV1 decoding,
# the encoders of the tuning workflows, and zlib, bzip2, xz and xcb, which
# FFmpeg's configure uses whenever it finds them: listed, so that every
# machine builds the same ffmpeg), plus matplotlib for the plots, and
# the AMD device compiler of the GPU kernels (clang 19, its linker and
# offload bundler, the ROCm device libraries and HIP headers).
# As root this runs apt-get; otherwise it names the command to run. The
# AMD packages are optional: without them (not root, or not in this
# distribution's archive) the build leaves the AMD code objects out.
#
# Usage: tools/deps.sh <stamp-file> [lgpl] [small]
#
# The stamp file lists the packages once they are all installed (its folder
# is made). A non-empty lgpl leaves out libx264 and libx265, a non-empty
# small every library and matplotlib. The Makefile runs it.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <stamp-file>"
[ $# -le 3 ] || usage "too many arguments"

stamp=$1
lgpl=${2:-}
small=${3:-}
# Keep in step with .ci/run and configure.patch's hipcc default. ROCm's
# device libraries are rocm-device-libs on Debian 12, rocm-device-libs-17
# on Debian 13 (LLVM 17's bitcode, which clang 19 reads).
devlibs=rocm-device-libs
if ! dpkg-query -W -f='${Status}' rocm-device-libs 2>/dev/null | grep -q 'install ok installed' &&
   command -v apt-cache >/dev/null 2>&1 && ! apt-cache show rocm-device-libs >/dev/null 2>&1 &&
   apt-cache show rocm-device-libs-17 >/dev/null 2>&1; then
    devlibs=rocm-device-libs-17
fi
gpu_pkgs="clang-19 lld-19 clang-tools-19 $devlibs libamdhip64-dev"

pkgs="build-essential xz-utils patch gawk diffutils nasm dpkg-dev pkg-config"
if [ -z "$small" ]; then
    pkgs="$pkgs libdav1d-dev libvpx-dev libaom-dev libsvtav1enc-dev"
    pkgs="$pkgs zlib1g-dev libbz2-dev liblzma-dev libxcb1-dev"
    pkgs="$pkgs python3-matplotlib python3-distributed"
    [ -n "$lgpl" ] || pkgs="$pkgs libx264-dev libx265-dev"
fi

[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs $gpu_pkgs" ] && exit 0

missing_of() {
    for p; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || printf ' %s' "$p"
    done
}
missing=$(missing_of $pkgs)
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
missing=$(missing_of $gpu_pkgs)
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    # clang-19 recommends llvm-19-dev, which the build does not need.
    apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null; apt-get install -y -qq --no-install-recommends $missing >/dev/null; } ||
        echo "deps: apt-get install$missing failed; the build leaves the AMD GPU code out." >&2
    missing=$(missing_of $gpu_pkgs)
fi
if [ -n "$missing" ]; then
    # No stamp: asked again at the next make.
    echo "deps: without$missing the build leaves the AMD GPU code out; to have it:" >&2
    echo "    sudo apt-get install$missing" >&2
    exit 0
fi
mkdir -p "$(dirname "$stamp")"
echo "$pkgs $gpu_pkgs" > "$stamp"
