#!/bin/sh
# The GPU failing mid-stream while the CPU frame workers run (a real GPU:
# VMAF_HIP_GPU_FAIL_AT, a test hook of vmaf/test_hooks.h): backend=auto with VMAF on the GPU and
# cambi and float_ssim on the CPU's frame workers, failing at frame 7 of
# 60, must log what backend=cpu logs, for 1 and 16 threads.
#
# Usage: tests/gpu/gpu-fallback-frames.sh <ffmpeg>
#
# Logs go to $OUT (or build/gpu-fallback).
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
ffmpeg=$1
need_ffmpeg "$ffmpeg"
out=${OUT:-build/gpu-fallback}
mkdir -p "$out"
src="testsrc2=size=1280x720:rate=25:duration=2.4"
status=0
run() { # name options
    "$ffmpeg" -hide_banner -nostdin -loglevel warning -f lavfi -i "$src" -f lavfi -i "$src" \
        -lavfi "[0:v]noise=alls=8:allf=t:all_seed=5[d];[d][1:v]vmaf_hip=$2:feature=name=cambi|name=float_ssim:log_fmt=json:log_path=$out/$1.json" \
        -f null - > "$out/$1.log" 2>&1
    echo $? > "$out/$1.rc"
    grep -v '"fps"\|"backends"' "$out/$1.json" > "$out/$1.cmp" 2>/dev/null
}
run cpu backend=cpu:n_threads=4
for t in 1 16; do
    export VMAF_HIP_GPU_FAIL_AT=7
    run "fail-$t" "backend=auto:n_threads=$t"
    unset VMAF_HIP_GPU_FAIL_AT
    if [ "$(cat "$out/fail-$t.rc")" = 0 ] && grep -q "finishing the stream on the CPU" "$out/fail-$t.log" &&
       grep -q '"frameNum": 59' "$out/cpu.cmp" && cmp -s "$out/cpu.cmp" "$out/fail-$t.cmp"; then
        echo "PASS GPU failing at frame 7, $t threads: the log equals backend=cpu's (60 frames)"
    else
        echo "FAIL GPU failing at frame 7, $t threads (exit $(cat "$out/fail-$t.rc"))"
        grep -i "gpu\|error" "$out/fail-$t.log" | head -5
        status=1
    fi
done
run "gpu-16" "backend=gpu:n_threads=16"
if cmp -s "$out/cpu.cmp" "$out/gpu-16.cmp"; then
    echo "PASS backend=gpu with the extras on 16 CPU frame workers: the log equals backend=cpu's"
else
    echo "FAIL backend=gpu with the extras on 16 CPU frame workers differs from backend=cpu"
    status=1
fi
exit $status
