#!/bin/sh
# Frames per second of vmaf_hip (VMAF, model vmaf_v0.6.1) on the CPU at
# 576x324, 1080p and 4K, with 1 and 2 threads, and on the GPU when asked.
#
#   tools/bench.sh [ffmpeg] [extra filter options, e.g. backend=hip]
#
# Inputs are generated once into build/bench as raw yuv420p (testsrc2 and a
# blurred, noisy copy), so decoding costs nothing. Two numbers per run:
# "engine fps" is what the log reports (first frame in to last score out),
# "wall fps" includes reading the files. Results go to stdout as a table.
set -eu

ffmpeg=${1:-build/ffmpeg}
extra=${2:-}
# BENCH_SCALE multiplies the frame counts (GPU runs need more frames).
scale=${BENCH_SCALE:-1}
dir=build/bench
mkdir -p "$dir"

gen() { # name size frames
    [ -f "$dir/$1_ref.yuv" ] && [ "$(stat -c %s "$dir/$1_ref.yuv")" -ge "$(($3 * $(echo $2 | tr x '*') * 3 / 2))" ] && return 0
    "$ffmpeg" -nostdin -loglevel error -f lavfi -i "testsrc2=size=$2:rate=25" -frames:v "$3" \
        -pix_fmt yuv420p -f rawvideo "$dir/$1_ref.yuv"
    "$ffmpeg" -nostdin -loglevel error -f rawvideo -pix_fmt yuv420p -s "$2" -i "$dir/$1_ref.yuv" \
        -vf "avgblur=2,noise=alls=8:allf=t" -pix_fmt yuv420p -f rawvideo "$dir/$1_dis.yuv"
}

run() { # name size frames threads [features]
    opts="n_threads=$4:log_fmt=json:log_path=$dir/log.json"
    [ -n "$extra" ] && opts="$opts:$extra"
    [ -n "${5:-}" ] && opts="$opts:feature=$5"
    start=$(date +%s.%N)
    "$ffmpeg" -nostdin -loglevel error \
        -f rawvideo -pix_fmt yuv420p -s "$2" -i "$dir/$1_dis.yuv" \
        -f rawvideo -pix_fmt yuv420p -s "$2" -i "$dir/$1_ref.yuv" \
        -lavfi "[0:v][1:v]vmaf_hip=$opts" -frames:v "$3" -f null -
    end=$(date +%s.%N)
    engine=$(sed -n 's/^  "fps": \([0-9.]*\),/\1/p' "$dir/log.json")
    score=$(sed -n '/"vmaf": {/,/}/s/^ *"mean": \([0-9.]*\),*/\1/p' "$dir/log.json")
    wall=$(awk -v n="$3" -v a="$start" -v b="$end" 'BEGIN { print n / (b - a) }')
    printf '| %-9s | %6s | %7s | %10.2f | %8.2f | %s |\n' "$2" "$3" "$4" "$engine" "$wall" "$score"
}

n_sd=$((60 * scale)) n_hd=$((30 * scale)) n_4k=$((10 * scale))
gen 576x324 576x324 $n_sd
gen 1080p 1920x1080 $n_hd
gen 4k 3840x2160 $n_4k

echo "ffmpeg: $ffmpeg; options: ${extra:-backend=auto}; $(nproc) CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
echo
echo "| size      | frames | threads | engine fps | wall fps | VMAF mean |"
echo "|-----------|--------|---------|------------|----------|-----------|"
for t in ${BENCH_THREADS:-1 2}; do
    run 576x324 576x324 $n_sd $t
    run 1080p 1920x1080 $n_hd $t
    run 4k 3840x2160 $n_4k $t
done

# The features scripts ask for beside VMAF (libvmaf's own timing table runs
# the same set: model + psnr + float_ssim + float_ms_ssim + cambi).
all='name=psnr\\|name=float_ssim\\|name=float_ms_ssim\\|name=cambi'
echo
echo "VMAF + psnr + float_ssim + float_ms_ssim + cambi:"
echo
echo "| size      | frames | threads | engine fps | wall fps | VMAF mean |"
echo "|-----------|--------|---------|------------|----------|-----------|"
for t in ${BENCH_THREADS:-1 2}; do
    run 1080p 1920x1080 $n_hd $t "$all"
done
