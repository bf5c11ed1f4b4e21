#!/bin/bash
# The CPU engine's evidence on a many-core machine (the H200 host), in one
# run: every SIMD kernel against C on this CPU (checkasm), identical logs
# for 1 to 16 threads (tests/threads.sh), tools/bench.sh with backend=cpu,
# and, when a GPU answers, the frames-in-parallel CPU work beside it.
#
#   tools/cpu-evidence.sh <dir> [cpu|gpu|all]
#
# <dir> holds ffmpeg (and the libraries it needs, on LD_LIBRARY_PATH) and
# checkasm, built on any x86-64 machine by `make` and tests/run.sh. Raw
# inputs go to $BENCH_DIR (default /dev/shm/vmaf-bench).
set -u
dir=$1
what=${2:-all}
ffmpeg=$dir/ffmpeg
export BENCH_DIR=${BENCH_DIR:-/dev/shm/vmaf-bench}
mkdir -p "$BENCH_DIR"

echo "== machine"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); $(nproc) CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
echo "SIMD: $(grep -o -w 'avx2\|avx512f\|avx512bw\|avx512vl' /proc/cpuinfo | sort -u | tr '\n' ' ')"
nvidia-smi -L 2>/dev/null

if [ "$what" != gpu ]; then
    echo "== checkasm: every SIMD kernel against C, bit for bit"
    "$dir/checkasm" > "$BENCH_DIR/checkasm.log" 2>&1
    grep -E '^(FAIL|skipped)' "$BENCH_DIR/checkasm.log"
    tail -n1 "$BENCH_DIR/checkasm.log"

    echo "== frames in parallel: logs of 1, 2, 3, 8 and 16 threads identical"
    (
        build=$BENCH_DIR passed=0 failed=0
        pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
        fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
        . tests/threads.sh
        echo "$passed passed, $failed failed"
    )

    echo "== tools/bench.sh, backend=cpu"
    BENCH_THREADS=${BENCH_THREADS:-"1 2 $(nproc)"} BENCH_SCALE=${BENCH_SCALE:-2} \
        BENCH_MT_FRAMES=${BENCH_MT_FRAMES:-4} CHECKASM=$dir/checkasm \
        tools/bench.sh "$ffmpeg" backend=cpu
fi

if [ "$what" != cpu ]; then
    echo "== the GPU with the CPU's features beside it: VMAF + psnr, float_ssim, float_ms_ssim, cambi"
    BENCH_THREADS=${BENCH_THREADS:-"1 $(nproc)"} BENCH_SCALE=${BENCH_SCALE:-2} BENCH_MT_FRAMES=${BENCH_MT_FRAMES:-4} \
        BENCH_SIZES=hd CHECKASM=none tools/bench.sh "$ffmpeg" backend=hip
fi
