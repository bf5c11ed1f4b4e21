#!/bin/bash
# What a one-frame run costs on a GPU machine, the median of 5 runs each:
# ffmpeg with no filter, with vmaf_hip as it is (the first pairs held while
# the GPU starts) and with startup_buffer=0 (waiting for the GPU before the
# first frame), beside the CUDA driver's own start (cuInit and the primary
# context, from python3 through ctypes, less python3 alone).
#
# Usage: tools/gpu-startup.sh <ffmpeg>
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
F=$1
need_ffmpeg "$F"
dir=${BENCH_DIR:-/dev/shm/vmaf-startup}
mkdir -p "$dir" || exit 1
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 200 -pix_fmt yuv420p -f rawvideo -y "$dir/ref.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
med() { tr ' ' '\n' | grep . | sort -n | sed -n 3p; }
five() { # label command...
    local label=$1 ms="" s
    shift
    for i in 1 2 3 4 5; do
        s=$(date +%s%N)
        "$@" > "$dir/last.log" 2>&1 || echo "$label: FAILED"
        ms="$ms $(( ($(date +%s%N) - s) / 1000000 ))"
    done
    printf '%-46s median %4d ms (%s ms)\n' "$label" "$(echo $ms | med)" "${ms# }"
}
five "python3 alone" python3 -c "pass"
five "python3 + cuInit + primary context" python3 -c "
import ctypes
cu = ctypes.CDLL('libcuda.so.1'); d = ctypes.c_int(); c = ctypes.c_void_p()
assert cu.cuInit(0) == 0 and cu.cuDeviceGet(ctypes.byref(d), 0) == 0
assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(c), d) == 0"
five "ffmpeg, no filter" "$F" -v error $IN -i "$dir/ref.yuv" $IN -i "$dir/ref.yuv" -map 0 -map 1 -frames:v 1 -f null -
five "ffmpeg, vmaf_hip=backend=gpu" "$F" -v verbose $IN -i "$dir/ref.yuv" $IN -i "$dir/ref.yuv" \
    -lavfi vmaf_hip=backend=gpu -frames:v 1 -f null -
grep -E "held|GPU ready|GPU released" "$dir/last.log" | sed 's/^\[[^]]*\] /   last run: /'
five "ffmpeg, vmaf_hip=backend=gpu:startup_buffer=0" "$F" -v verbose $IN -i "$dir/ref.yuv" $IN -i "$dir/ref.yuv" \
    -lavfi vmaf_hip=backend=gpu:startup_buffer=0 -frames:v 1 -f null -
grep -E "held|GPU ready|GPU released" "$dir/last.log" | sed 's/^\[[^]]*\] /   last run: /'
rm -rf "$dir"
