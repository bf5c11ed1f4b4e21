#!/bin/sh
# Build the engine (libavfilter/vmaf and its folders) of a source tree into
# its own folder, with kernels for one GPU architecture of each vendor only, and link test
# programs against it: a quick check of engine and kernel changes without
# a whole FFmpeg build. Needs a configured and built tree (make) for
# config.h and libavutil.
#
# Usage: tools/dev-engine.sh [-a sm_XX] <outdir> [test ...]   (AMD_ARCH=gfx90a)
#   tests are names in tests/ (vmaf_reference_test, gpu_parity_test, ...);
#   the programs land in <outdir>. Run from the tree to build.
set -eu
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
for arg; do
    case $arg in -h|--help) show_help; exit 0 ;; esac
done
arch=sm_90
if [ "${1:-}" = -a ]; then
    case ${2:-} in ''|-*) usage "-a needs an architecture, e.g. sm_90" ;; esac
    arch=$2; shift 2
fi
for arg; do
    case $arg in -?*) usage "unknown option '$arg'" ;; esac
done
[ $# -ge 1 ] || usage "no <outdir>"
out=$1
shift
top=$(pwd)
main=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$main/build}
obj=$build/obj
[ -f "$obj/config.h" ] || { echo "no $obj/config.h: run make in $main first" >&2; exit 1; }
for t in "$@"; do
    [ -f "$top/tests/$t.c" ] || usage "no test '$t' (no $top/tests/$t.c)"
done
mkdir -p "$out/o"
CC=${CC:-cc}
# The kernels' compilers and flags are those configure chose (config.mak).
config_mak() { sed -n "s/^$1=//p" "$obj/ffbuild/config.mak"; }
NVCC=${NVCC:-$(config_mak HIP_NVCC)}
HIPCC=${HIPCC:-$(config_mak HIPCC)}
devlibs=
[ -z "$(config_mak HIP_DEVICE_LIBS)" ] || devlibs=--rocm-device-lib-path=$obj/libavfilter/vmaf/gpu/amdgcn
cflags="-std=c17 -O2 -g -ffp-contract=off -D_GNU_SOURCE -I$top -I$obj -I$build/src -Wall -Wno-unused-function"
objs=
vmaf=$top/libavfilter/vmaf
for c in "$vmaf"/*.c "$vmaf"/x86/*.c "$vmaf"/gpu/*.c \
         "$vmaf"/features/*.c "$vmaf"/features/x86/*.c "$vmaf"/features/gpu/*.c; do
    o=$out/o/$(echo "${c#$top/}" | tr / _ | sed 's/\.c$/.o/')
    if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ -n "$(find "$top/libavfilter" -name '*.h' -newer "$o" | head -1)" ]; then
        $CC $cflags -c "$c" -o "$o"
    fi
    objs="$objs $o"
done
# The built-in models, generated as the overlay does.
if [ ! -f "$out/o/models_data.o" ] || [ -n "$(find "$top/models" -newer "$out/o/models_data.o" | head -1)" ]; then
    sh "$main/tools/embed-models.sh" "$top/models" "$out/o/models_data.c"
    $CC $cflags -I"$top/libavfilter/vmaf" -c "$out/o/models_data.c" -o "$out/o/models_data.o"
fi
objs="$objs $out/o/models_data.o"
# A code object is made again when its kernel or a header kernels include changed.
stale_kernel() { # kernel object
    [ ! -f "$2" ] || [ "$1" -nt "$2" ] ||
        [ -n "$(find "$vmaf/gpu" "$vmaf/features/gpu" "$vmaf/features/adm_filter.h" -name '*.h' -newer "$2" |
                head -1)" ]
}
if grep -q 'define CONFIG_HIP_NV 1' "$obj/config.h"; then
    for k in "$vmaf"/gpu/*.hip "$vmaf"/features/gpu/*.hip; do
        n=$(basename "$k" .hip)
        fb=$out/o/$n.fatbin
        if stale_kernel "$k" "$fb.o"; then
            "$NVCC" -x cu -fatbin $(config_mak HIP_NVCCFLAGS) -gencode arch=compute_${arch#sm_},code=$arch \
                -o "$fb" "$k"
            "$obj/ffbuild/bin2c" "$fb" "$fb.c" "${n}_fatbin"
            $CC -c "$fb.c" -o "$fb.o"
        fi
        objs="$objs $fb.o"
    done
fi
if grep -q 'define CONFIG_HIP_AMD 1' "$obj/config.h"; then
    for k in "$vmaf"/gpu/*.hip "$vmaf"/features/gpu/*.hip; do
        n=$(basename "$k" .hip)
        hs=$out/o/$n.hsaco
        if stale_kernel "$k" "$hs.o"; then
            "$HIPCC" $(config_mak HIPCCFLAGS) --offload-arch=${AMD_ARCH:-gfx90a} $devlibs -o "$hs" "$k"
            "$obj/ffbuild/bin2c" "$hs" "$hs.c" "${n}_hsaco"
            $CC -c "$hs.c" -o "$hs.o"
        fi
        objs="$objs $hs.o"
    done
fi
for t in "$@"; do
    $CC $cflags -I"$top" "$top/tests/$t.c" "$top/tests/clips.c" $objs \
        "$obj/libavutil/libavutil.a" -lm -pthread -ldl -o "$out/$t"
    echo "built $out/$t"
done
