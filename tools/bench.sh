#!/bin/bash
# Frames per second of vmaf_hip on the CPU (backend=cpu unless told):
# 576x324, 1080p and 4K, 8- and 10-bit, with 1, 2 and all threads, VMAF
# alone (model vmaf_v0.6.1) and VMAF with psnr, float_ssim, float_ms_ssim
# and cambi (the set libvmaf's own timing tables use).
#
# Usage: tools/bench.sh [ffmpeg] [extra filter options, e.g. backend=gpu]
#
# Environment: BENCH_SCALE multiplies the frame counts (default 1: 120,
# 60 and 20 frames); BENCH_MT_FRAMES multiplies them again for runs of 4
# threads or more (default 1), so that many threads run long enough to be
# timed; BENCH_THREADS lists the thread counts (default "1 2 <all>");
# BENCH_DIR is where the raw inputs are made (build/bench; put it in tmpfs
# on a big machine); BENCH_SIZES picks sizes (sd hd 4k); CHECKASM is the
# checkasm program for the per-kernel table (build/tests/checkasm; none: skip).
#
# Inputs are raw files made once (testsrc2 against a blurred, noisy copy),
# so no decoder is timed. For each run: "wall fps" is frames over the
# whole process's wall time (reading the files included), "fps/CPU-s" is
# frames over the CPU time it used (user + system, all threads): the speed
# per core. The last column is the pooled VMAF, identical for every thread
# count. At the end, the per-kernel table of tests/checkasm --bench.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -le 2 ] || usage "too many arguments"

ffmpeg=${1:-build/ffmpeg}
extra=${2:-backend=cpu}
scale=${BENCH_SCALE:-1}
mt=${BENCH_MT_FRAMES:-1}
checkasm=${CHECKASM:-build/tests/checkasm}
dir=${BENCH_DIR:-build/bench}
all_threads=$(nproc)
threads=${BENCH_THREADS:-"1 2 $all_threads"}
threads=$(echo $threads | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
sizes=${BENCH_SIZES:-"sd hd 4k"}
need_ffmpeg "$ffmpeg"
mkdir -p "$dir"

gen() { # name size frames pix_fmt
    local bytes
    bytes=$(($3 * $(echo "$2" | tr x '*') * 3 / 2))
    [ "$4" = yuv420p10le ] && bytes=$((bytes * 2))
    if [ -f "$dir/$1_dis.yuv" ] && [ "$(stat -c %s "$dir/$1_dis.yuv")" -ge "$bytes" ]; then
        return 0
    fi
    "$ffmpeg" -nostdin -loglevel error -f lavfi -i "testsrc2=size=$2:rate=25" -frames:v "$3" \
        -pix_fmt "$4" -f rawvideo -y "$dir/$1_ref.yuv"
    "$ffmpeg" -nostdin -loglevel error -f rawvideo -pix_fmt "$4" -s "$2" -i "$dir/$1_ref.yuv" \
        -vf "avgblur=2,noise=alls=8:allf=t" -pix_fmt "$4" -f rawvideo -y "$dir/$1_dis.yuv"
}

run() { # name size frames pix_fmt threads label [features]
    local opts="n_threads=$5:log_fmt=json:log_path=$dir/log.json:$extra" t wall user sys score
    [ -n "${7:-}" ] && opts="$opts:feature=$7"
    # The inputs end after exactly $3 frames (25 fps raw input): every
    # frame is scored and pooled, whatever the threads (an output that ends
    # first pools only the frames that left the filter).
    dur=$(awk -v n="$3" 'BEGIN { printf "%.2f", n / 25 }')
    t=$( { TIMEFORMAT='%R %U %S'; time "$ffmpeg" -nostdin -loglevel error \
        -f rawvideo -pix_fmt "$4" -s "$2" -t "$dur" -i "$dir/$1_dis.yuv" \
        -f rawvideo -pix_fmt "$4" -s "$2" -t "$dur" -i "$dir/$1_ref.yuv" \
        -lavfi "[0:v][1:v]vmaf_hip=$opts" -f null - ; } 2>&1 )
    read -r wall user sys <<< "$(echo "$t" | tail -n1)"
    score=$(sed -n '/"vmaf": {/,/}/s/^ *"mean": \([0-9.]*\),*/\1/p' "$dir/log.json")
    awk -v n="$3" -v w="$wall" -v u="$user" -v s="$sys" -v size="$2" -v fmt="$4" -v th="$5" \
        -v what="$6" -v score="$score" 'BEGIN {
        printf "| %-9s | %-2s | %-13s | %7s | %6d | %8.1f | %9.2f | %-9s |\n",
               size, fmt == "yuv420p" ? 8 : 10, what, th, n, n / w, n / (u + s), score }'
}

echo "ffmpeg: $ffmpeg; options: $extra; $all_threads CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
echo "| size      | bit| features      | threads | frames | wall fps | fps/CPU-s | VMAF mean |"
echo "|-----------|----|---------------|---------|--------|----------|-----------|-----------|"
extras='name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi'
for s in $sizes; do
    case $s in
    sd) size=576x324   n=$((120 * scale)) ;;
    hd) size=1920x1080 n=$((60 * scale)) ;;
    4k) size=3840x2160 n=$((20 * scale)) ;;
    *)  echo "unknown size $s" >&2; exit 1 ;;
    esac
    frames() { if [ "$1" -ge 4 ]; then echo $((n * mt)); else echo $n; fi; }
    for fmt in yuv420p yuv420p10le; do
        gen "${s}_$fmt" $size $((n * mt)) $fmt
        for t in $threads; do
            run "${s}_$fmt" $size "$(frames $t)" $fmt $t "VMAF"
        done
    done
    # The extras, at 1080p (where libvmaf's figures are).
    if [ "$s" = hd ]; then
        for t in $threads; do
            run "${s}_yuv420p" $size "$(frames $t)" yuv420p $t "VMAF+4 extras" "$extras"
        done
    fi
done

if [ -x "$checkasm" ]; then
    echo
    echo "Per kernel (tests/checkasm --bench): time per call of C and of each SIMD tier."
    echo
    echo '```'
    "$checkasm" --bench | grep '^BENCH'
    echo '```'
fi
