#!/bin/bash
# The CPU engine's evidence on a many-core machine (the H200 host), in one
# run: every SIMD kernel against C on this CPU (checkasm), identical logs
# for 1 to 16 threads (tests/threads.sh), tools/bench.sh with backend=cpu,
# and, when a GPU answers, the frames-in-parallel CPU work beside it.
#
# Usage: tools/cpu-evidence.sh <dir> [cpu|gpu|engine|all]
#
# engine: only the engine-capacity runs (CPU, and GPU when one answers).
#
# <dir> holds ffmpeg (and the libraries it needs, on LD_LIBRARY_PATH),
# checkasm and engine_bench, built on any x86-64 machine by `make tests`
# (build/tests). Raw inputs go to $BENCH_DIR (default /dev/shm/vmaf-bench).
# "engine capacity" is tests/engine_bench.c: frame pairs already in memory,
# pushed through the engine with no reader and no decoder.
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <dir>"
[ $# -le 2 ] || usage "too many arguments"
[ -d "$1" ] || usage "no directory '$1'"
case ${2:-all} in cpu|gpu|engine|all) ;; *) usage "unknown part '$2'" ;; esac
dir=$1
what=${2:-all}
ffmpeg=$dir/ffmpeg
export BENCH_DIR=${BENCH_DIR:-/dev/shm/vmaf-bench}
mkdir -p "$BENCH_DIR"

echo "== machine"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
echo "SIMD: $(grep -o -w 'avx2\|avx512f\|avx512bw\|avx512vl' /proc/cpuinfo | sort -u | tr '\n' ' ')"
nvidia-smi -L 2>/dev/null

if [ "$what" = cpu ] || [ "$what" = all ]; then
    echo "== checkasm: every SIMD kernel against C, bit for bit"
    "$dir/checkasm" > "$BENCH_DIR/checkasm.log" 2>&1
    grep -E '^(FAIL|skipped)' "$BENCH_DIR/checkasm.log"
    tail -n1 "$BENCH_DIR/checkasm.log"

    echo "== frames in parallel: logs of 1, 2, 3, 8 and 16 threads identical"
    (
        build=$BENCH_DIR
        . tests/lib.sh
        . tests/threads.sh
        echo "$passed passed, $failed failed"
    )

    echo "== tools/bench.sh, backend=cpu"
    BENCH_THREADS=${BENCH_THREADS:-"1 2 $(nproc)"} BENCH_SCALE=${BENCH_SCALE:-2} \
        BENCH_MT_FRAMES=${BENCH_MT_FRAMES:-4} CHECKASM=$dir/checkasm \
        tools/bench.sh "$ffmpeg" backend=cpu
fi

eb() { # label, engine_bench options
    l=$1; shift
    printf '%-34s %s\n' "$l" "$("$dir/engine_bench" "$@" 2>&1 | tail -n1)"
}
extras='name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi'
if [ "$what" != gpu ] && [ -x "$dir/engine_bench" ]; then  # cpu, engine, all
    echo "== engine capacity on the CPU (16 distinct pairs in memory)"
    for t in 1 $(nproc); do
        m=1; [ "$t" -ge 4 ] && m=5
        eb "1080p 8-bit VMAF, $t threads"  -B cpu -t $t -f $((120 * m))
        eb "1080p 10-bit VMAF, $t threads" -B cpu -t $t -b 10 -f $((120 * m))
        eb "4K 8-bit VMAF, $t threads"     -B cpu -t $t -s 3840x2160 -f $((40 * m))
        eb "1080p VMAF + 4 extras, $t threads" -B cpu -t $t -f $((60 * m)) -F "$extras"
    done
fi
if [ "$what" != cpu ] && [ -x "$dir/engine_bench" ]; then  # gpu, engine, all
    echo "== engine capacity with the GPU (host frames in memory, uploaded each push)"
    t=$(nproc)
    eb "1080p 8-bit VMAF"  -B gpu -t $t -f 3000
    eb "1080p 10-bit VMAF" -B gpu -t $t -b 10 -f 2000
    eb "4K 8-bit VMAF"     -B gpu -t $t -s 3840x2160 -f 800
    eb "1080p VMAF + 4 extras, $t threads" -B gpu -t $t -f 600 -F "$extras"
fi

if [ "$what" = gpu ] || [ "$what" = all ]; then
    echo "== the GPU with the CPU's features beside it: VMAF + psnr, float_ssim, float_ms_ssim, cambi"
    BENCH_THREADS=${BENCH_THREADS:-"1 $(nproc)"} BENCH_SCALE=${BENCH_SCALE:-2} BENCH_MT_FRAMES=${BENCH_MT_FRAMES:-4} \
        BENCH_SIZES=hd CHECKASM=none tools/bench.sh "$ffmpeg" backend=gpu
fi
