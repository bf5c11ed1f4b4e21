#!/bin/bash
# What the CUDA driver's own start and end cost, and how they bound a short
# run and several processes on one GPU (doc/gpu-speed.md, "What bounds the
# goals still open"):
#   1. one process: cuInit and the primary context, then the process's exit
#      with the context live, after releasing it, and by _exit();
#   2. a process that returns from main() while the driver is starting;
#   3. N processes starting the driver at once;
#   4. ffmpeg: a one-frame run with and without vmaf_hip, and 8 processes of
#      1080p 8-bit VMAF, 600 and 3,000 frames each, with each process's
#      "GPU ready" time and wall time;
#   5. uploading a frame from its own memory (cuMemHostRegister) against the
#      staging copy, alone and 8 processes at once (tools/cuda-register-probe.c).
#
# Usage: tools/gpu-driver-bounds.sh <ffmpeg> [probe]
# probe: tools/cuda-driver-probe.c built (cc -O2 -pthread ... -ldl); built
# into the work directory when not given.
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <ffmpeg>"
[ $# -le 2 ] || usage "too many arguments"
F=$1
need_ffmpeg "$F"
dir=${BENCH_DIR:-/dev/shm/vmaf-driver}
mkdir -p "$dir" || exit 1
P=${2:-$dir/probe}
if [ ! -x "$P" ]; then
    cc -O2 -pthread -o "$P" "$(dirname "$0")/cuda-driver-probe.c" -ldl || exit 1
fi
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "== 1. one process at a time, 7 runs each: the process's wall time and the probe's own times"
for mode in wait release quick; do
    walls=""
    for i in 1 2 3 4 5 6 7; do
        s=$(date +%s%N)
        timeout 30 "$P" $mode 2> "$dir/e.txt" || echo "$mode: rc $?"
        walls="$walls $(ms_since "$s")"
        last=$(tr '\n' ' ' < "$dir/e.txt")
    done
    printf '%-8s wall median %4d ms (%s ms); last: %s\n' "$mode" "$(echo $walls | med)" "${walls# }" "$last"
done

echo
echo "== 2. returning from main() while the driver starts (the exit then waits for it, or crashes)"
crashes=0; runs=0
for ms in 0 10 40 80 120 160 180 200 220 260; do
    rcs=""; walls=""
    for i in 1 2 3 4 5 6 7 8 9 10; do
        s=$(date +%s%N)
        timeout 30 "$P" exit $ms 2> "$dir/e.txt"; rc=$?
        walls="$walls $(ms_since "$s")"; rcs="$rcs $rc"
        runs=$((runs + 1)); [ $rc = 0 ] || crashes=$((crashes + 1))
    done
    printf 'return at %3d ms: exit codes%s; wall median %d ms (%s)\n' "$ms" "$rcs" "$(echo $walls | med)" "${walls# }"
done
echo "$crashes of $runs such processes did not exit with 0"

for n in 8 16; do
    echo
    echo "== 3. $n processes starting the driver at once (wait mode): each one's times"
    pids=()
    s=$(date +%s%N)
    for i in $(seq $n); do
        timeout 60 "$P" wait 2> "$dir/c$i.txt" &
        pids+=($!)
    done
    wait "${pids[@]}"
    echo "all done in $(ms_since "$s") ms"
    for i in $(seq $n); do echo "  $(grep -o 'cuInit.*' "$dir/c$i.txt" | tr '\n' ' ')"; done
done

echo
echo "== 4. ffmpeg ($F)"
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 600 -pix_fmt yuv420p -f rawvideo -y "$dir/ref.yuv" || exit 1
"$F" -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i "$dir/ref.yuv" -frames:v 600 -vf boxblur=1 \
    -f rawvideo -y "$dir/dis.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
for run in "-map 0 -map 1" "-lavfi vmaf_hip=backend=gpu" "-lavfi vmaf_hip=backend=gpu:startup_buffer=0"; do
    walls=""
    for i in 1 2 3 4 5; do
        s=$(date +%s%N)
        timeout 60 "$F" -nostdin -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" $run -frames:v 1 -f null - ||
            echo "FAILED: $run"
        walls="$walls $(ms_since "$s")"
    done
    printf 'one frame, %-45s median %4d ms (%s ms)\n' "'$run'" "$(echo $walls | med)" "${walls# }"
done
procs() { # n loops options...
    local n=$1 loops=$2 s pids=() i
    shift 2
    s=$(date +%s%N)
    for i in $(seq $n); do
        ( a=$(date +%s%N)
          timeout 300 "$F" -nostdin -hide_banner -nostats -v verbose -stream_loop $loops $IN -i "$dir/dis.yuv" \
              -stream_loop $loops $IN -i "$dir/ref.yuv" "$@" -f null - > "$dir/p$i.log" 2>&1
          echo "rc $? wall $(ms_since "$a") ms" >> "$dir/p$i.log" ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local ms=$(ms_since "$s") frames=$((600 * (loops + 1)))
    echo "$n x $frames frames, '$*': $ms ms, $(( n * frames * 1000 / ms )) fps in all"
    for i in $(seq $n); do
        echo "  $(grep -o 'GPU ready in [0-9.]* ms\|[0-9]* frame pairs ([0-9.]* MiB) were held\|rc [0-9]* wall [0-9]* ms' \
                  "$dir/p$i.log" | tr '\n' ';')"
    done
    grep -h "GPU path, caller" "$dir/p1.log" | sed 's/^\[[^]]*\] /  process 1: /'
}
procs 1 0 -lavfi vmaf_hip=backend=gpu
for loops in 0 4; do
    procs 8 $loops -map 0 -map 1
    procs 8 $loops -lavfi vmaf_hip=backend=gpu
    procs 8 $loops -lavfi vmaf_hip=backend=gpu:startup_buffer=0
done

echo
echo "== 5. a frame uploaded from its own memory, against the staging copy"
R=$dir/register-probe
cc -O2 -o "$R" "$(dirname "$0")/cuda-register-probe.c" -ldl || exit 1
echo "alone:"; timeout 60 "$R" 300
echo "8 at once:"
pids=()
for i in $(seq 8); do timeout 120 "$R" 300 > "$dir/r$i.txt" 2>&1 & pids+=($!); done
wait "${pids[@]}"
cat "$dir"/r*.txt
rm -rf "$dir"
