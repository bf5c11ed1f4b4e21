#!/bin/sh
# Build the libFuzzer targets of tests/fuzz/ with clang, ASan and UBSan.
#
# Usage: sh tests/fuzz/build.sh [BUILD_DIR]   (BUILD_DIR: build unless given)
#
# Run from the repository root after `make` (it needs BUILD_DIR/obj/config.h,
# libavutil.a and the generated sources). The engine's sources are compiled
# again with the sanitizers into BUILD_DIR/fuzz/obj (only those older than
# their source or a header); the targets land in BUILD_DIR/fuzz/.
# Exits 77 when there is no clang with libFuzzer.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
for arg; do
    case $arg in -h|--help) show_help; exit 0 ;; -?*) usage "unknown option '$arg'" ;; esac
done
[ $# -le 1 ] || usage "too many arguments"
top=$(pwd)
[ -d "${1:-$top/build}" ] || usage "no directory '${1:-$top/build}'"
build=$(cd "${1:-$top/build}" && pwd)
obj=$build/obj
out=$build/fuzz
CLANG=${CLANG:-}
if [ -z "$CLANG" ]; then
    for c in clang-14 clang; do
        command -v $c >/dev/null 2>&1 && CLANG=$c && break
    done
fi
if [ -z "$CLANG" ] ||
   ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' |
     $CLANG -x c -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1; then
    echo "fuzz: skipped: no clang"
    exit 77
fi

mkdir -p "$out/obj"
# The engine as FFmpeg compiles it; the targets as the unit tests are.
CPPFLAGS="-D_ISOC11_SOURCE -D_FILE_OFFSET_BITS=64 -D_LARGEFILE_SOURCE -D_POSIX_C_SOURCE=200112 \
-D_XOPEN_SOURCE=600 -I$top -I$obj -I$build/src -I$build/src/compat/stdbit"
# The engine's own flag (libavfilter/vmaf/Makefile): no FMA contraction.
CFLAGS="-std=c11 -g -O1 -fno-omit-frame-pointer -ffp-contract=off -fno-sanitize-recover=all"
SAN="address,undefined"

dirs="vmaf vmaf/x86 vmaf/gpu vmaf/features vmaf/features/x86 vmaf/features/gpu"
srcs="$(for d in $dirs; do ls "$top/libavfilter/$d"/*.c 2>/dev/null; done) $build/src/libavfilter/vmaf/models_data.c"
headers="$(for d in $dirs; do ls "$top/libavfilter/$d"/*.h 2>/dev/null; done) $obj/config.h"
newest_header=$(ls -t $headers | head -n1)

# Compile the stale objects, two at a time.
objs=""
todo=""
for s in $srcs; do
    o=$out/obj/$(basename "$(dirname "$s")")_$(basename "$s" .c).o
    objs="$objs $o"
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
        todo="$todo $s:$o"
    fi
done
if [ -n "$todo" ]; then
    printf '%s\n' $todo | xargs -P 2 -n 1 sh -c '
        s=${0%%:*} o=${0#*:}
        '"$CLANG $CPPFLAGS -DHAVE_AV_CONFIG_H $CFLAGS"' -fsanitize=fuzzer-no-link,'"$SAN"' -c "$s" -o "$o.tmp" && mv "$o.tmp" "$o"'
fi

# The GPU code objects configure built (plain data, no code to instrument).
gpu_objs=$(for d in vmaf/gpu vmaf/features/gpu; do
    ls "$obj/libavfilter/$d"/*.fatbin.o "$obj/libavfilter/$d"/*.hsaco.o 2>/dev/null; done || true)

for t in model_fuzzer options_fuzzer engine_fuzzer; do
    bin=$out/$t
    if [ ! -f "$bin" ] || [ "$top/tests/fuzz/$t.c" -nt "$bin" ] || [ -n "$todo" ] ||
       [ "$obj/libavutil/libavutil.a" -nt "$bin" ]; then
        $CLANG $CPPFLAGS $CFLAGS -fsanitize=fuzzer,$SAN "$top/tests/fuzz/$t.c" $objs $gpu_objs \
            "$obj/libavutil/libavutil.a" -lm -pthread -ldl -o "$bin"
    fi
done
echo "fuzz: built in $out"
