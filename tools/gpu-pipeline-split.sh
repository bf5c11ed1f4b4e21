#!/bin/bash
# Where a filtered ffmpeg run's time goes at 1080p 8-bit, on a GPU machine:
# the same two raw inputs in tmpfs through filters of rising cost, from no
# filter to ffmpeg's own two-input psnr filter, vmaf_hip with PSNR alone
# (little GPU work, the filter's host path) and VMAF; three runs each, the
# median. The gaps between rows split ffmpeg's pipeline, the framesync of
# two inputs, and the filter's own per-frame cost.
#
#   tools/gpu-pipeline-split.sh <ffmpeg> [frames]
set -u
F=${1:?usage: tools/gpu-pipeline-split.sh <ffmpeg> [frames]}
n=${2:-1200}
dir=${BENCH_DIR:-/dev/shm/vmaf-pipeline-split}
mkdir -p "$dir" || exit 1
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v "$n" -pix_fmt yuv420p -f rawvideo -y "$dir/ref.yuv" || exit 1
"$F" -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i "$dir/ref.yuv" -vf noise=alls=8:allf=t \
    -f rawvideo -y "$dir/dis.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
run() {
    local label=$1 ms="" m
    shift
    for i in 1 2 3; do
        s=$(date +%s%N)
        "$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" "$@" -f null - || echo "$label: FAILED"
        ms="$ms $(( ($(date +%s%N) - s) / 1000000 ))"
    done
    m=$(echo $ms | tr ' ' '\n' | sort -n | sed -n 2p)
    printf '%-58s median %5d ms (%s ms) %6d fps\n' "$label" "$m" "${ms# }" $(( n * 1000 / m ))
}
run "no filter (-map 0 -map 1)" -map 0 -map 1
run "ffmpeg's psnr filter (two inputs, framesync)" -lavfi "[0:v][1:v]psnr"
run "vmaf_hip=backend=hip, PSNR alone" -lavfi "vmaf_hip=backend=hip:model=:feature=name=psnr"
run "vmaf_hip=backend=hip, VMAF" -lavfi "vmaf_hip=backend=hip"
run "vmaf_hip=backend=hip, VMAF, n_threads=4" -lavfi "vmaf_hip=backend=hip:n_threads=4"
run "vmaf_hip=backend=cpu, PSNR alone, 1 thread" -lavfi "vmaf_hip=backend=cpu:model=:feature=name=psnr:n_threads=1"
rm -rf "$dir"
