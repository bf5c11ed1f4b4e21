#!/bin/bash
# Where a filtered ffmpeg run's time goes at 1080p 8-bit, on a GPU machine:
# the same two raw inputs in tmpfs through filters of rising cost, from no
# filter to ffmpeg's own two-input psnr filter, vmaf_hip with PSNR alone
# (little GPU work, the filter's host path) and VMAF; three runs each, the
# median. The gaps between rows split ffmpeg's pipeline, the framesync of
# two inputs, and the filter's own per-frame cost.
#
# Usage: tools/gpu-pipeline-split.sh <ffmpeg> [frames]   (frames: 1200 unless given)
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <ffmpeg>"
[ $# -le 2 ] || usage "too many arguments"
F=$1
n=${2:-1200}
need_ffmpeg "$F"
case $n in *[!0-9]*|0*) usage "frames: a number above 0, not '$n'" ;; esac
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
run "vmaf_hip=backend=gpu, PSNR alone" -lavfi "vmaf_hip=backend=gpu:model=:feature=name=psnr"
run "vmaf_hip=backend=gpu, VMAF" -lavfi "vmaf_hip=backend=gpu"
run "vmaf_hip=backend=gpu, VMAF, n_threads=4" -lavfi "vmaf_hip=backend=gpu:n_threads=4"
run "vmaf_hip=backend=cpu, PSNR alone, 1 thread" -lavfi "vmaf_hip=backend=cpu:model=:feature=name=psnr:n_threads=1"
run "one graph, two outputs, no filter (one filter thread)" -lavfi "[0:v]null[a];[1:v]null[b]" -map "[a]" -map "[b]"

# The filter's own account of its time (verbose log) for VMAF, PSNR alone,
# 3d0h (SPLIT_MODELS: the folder of its model) and the four extras: per pair on the
# filtergraph's thread, and the GPU path's parts.
for f in "model=:feature=name=psnr" "" "model=path=${SPLIT_MODELS:-models}/vmaf_v1.0.16_3d0h.json" \
         "feature=name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi"; do
    case $f in *3d0h*) [ -f "${f#model=path=}" ] || continue ;; esac
    echo "-- vmaf_hip=backend=gpu${f:+:$f}, its verbose account:"
    "$F" -v verbose $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" -lavfi "vmaf_hip=backend=gpu${f:+:$f}" \
        -f null - 2>&1 | grep -E "per frame|GPU ready|were held" | sed 's/^\[[^]]*\] /   /'
done

# Several processes on one GPU against the same processes with no filter,
# which bounds them (reading raw files is memory-bound on the host).
procs=${SPLIT_PROCS:-8}
mn=$(( n / 2 ))
many() {
    local label=$1 s ms ready
    shift
    s=$(date +%s%N)
    for i in $(seq "$procs"); do
        "$F" -v verbose $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" -frames:v "$mn" "$@" -f null - \
            2> "$dir/many.$i.log" &
    done
    wait
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    printf '%-58s %5d ms %6d fps in all\n' "$procs x $mn frames, $label" "$ms" $(( procs * mn * 1000 / ms ))
    # How long each process's GPU took to start, the others starting too.
    ready=$(sed -n 's/.*GPU ready in \([0-9.]*\) ms.*/\1/p' "$dir"/many.*.log | sort -n | tr '\n' ' ')
    [ -n "$ready" ] && echo "   GPU ready in (ms, each process): $ready"
    grep -h -E "Error|error:|[Ff]ailed" "$dir"/many.*.log | head -3
    rm -f "$dir"/many.*.log
}
# The same streams in one process: a filtergraph (and thread) each, one GPU
# context for all.
one_process() {
    local label=$1 s ms args=() i
    shift
    for i in $(seq 0 $((procs - 1))); do
        args+=($IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv")
    done
    for i in $(seq 0 $((procs - 1))); do
        args+=(-filter_complex "[$((2 * i)):v][$((2 * i + 1)):v]$1[o$i]" -map "[o$i]" -frames:v "$mn" -f null -)
    done
    s=$(date +%s%N)
    "$F" -v error "${args[@]}" || echo "$label: FAILED"
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    printf '%-58s %5d ms %6d fps in all\n' "1 process, $procs graphs x $mn frames, $label" "$ms" \
        $(( procs * mn * 1000 / ms ))
}
many "no filter" -map 0 -map 1
one_process "vmaf_hip=backend=gpu" "vmaf_hip=backend=gpu"
many "vmaf_hip=backend=gpu" -lavfi "vmaf_hip=backend=gpu"
many "vmaf_hip=backend=gpu, PSNR alone" -lavfi "vmaf_hip=backend=gpu:model=:feature=name=psnr"
rm -rf "$dir"
