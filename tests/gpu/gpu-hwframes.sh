#!/bin/sh
# NVIDIA hardware frames on a GPU machine: real H.264, HEVC (10-bit) and
# VP9 pairs decoded by NVDEC and scored with -hwaccel cuda
# -hwaccel_output_format cuda (the planes read in place on the device)
# against software decoding: identical logs, the copy counters, and frames
# per second of each, of NVDEC decoding alone and of software decoding
# alone. Also: mixed inputs (one hardware, one software), backend=cpu on
# hardware frames, the semi-planar formats on the GPU, compute-sanitizer.
#
# Usage: tests/gpu/gpu-hwframes.sh <dir>
#
# <dir> holds ffmpeg (built by `make`) and lib/ (the shared libraries it
# links that the GPU machine may lack). Pairs are encoded there with the
# ffmpeg's own encoders. Logs go to $OUT (or build/gpu-hwframes).
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
[ -d "$1" ] || usage "no directory '$1'"
dir=$(cd "$1" && pwd)
out=${OUT:-build/gpu-hwframes}
mkdir -p "$out"
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ffmpeg="$dir/ffmpeg -hide_banner -nostdin -nostats"
work=${TMPDIR:-/tmp}/hwframes
mkdir -p "$work"
status=0
N=${HWFRAMES_N:-600}

now() { date +%s.%N; }
fps() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / (b - a) }'; }

echo "== machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not found"
nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null
echo "cores: $(nproc); date: $(date -u +%Y-%m-%dT%H:%MZ)"
$ffmpeg -hwaccels 2>&1 | tr '\n' ' '; echo

echo "== pairs: 1920x1080, $N frames, a noisy moving pattern encoded twice (reference: high quality; distorted: low)"
src="testsrc2=size=1920x1080:rate=30,noise=alls=3:allf=t+u"
enc() { # name pixfmt codec q_ref q_dis extra...
    name=$1 pixfmt=$2 codec=$3 qr=$4 qd=$5
    shift 5
    t0=$(now)
    $ffmpeg -loglevel error -f lavfi -i "$src" -frames:v "$N" -pix_fmt "$pixfmt" \
        -c:v "$codec" $qr "$@" "$work/$name.ref.mkv" &&
    $ffmpeg -loglevel error -f lavfi -i "$src" -frames:v "$N" -pix_fmt "$pixfmt" \
        -c:v "$codec" $qd "$@" "$work/$name.dis.mkv" ||
        { echo "FAIL encoding $name"; status=1; return 1; }
    echo "$name: $codec $pixfmt, reference $(du -k "$work/$name.ref.mkv" | cut -f1) kB, distorted $(du -k "$work/$name.dis.mkv" | cut -f1) kB (encoded in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s)"
}
enc h264 yuv420p libx264 "-crf 18" "-crf 32" -preset veryfast
enc hevc10 yuv420p10le libx265 "-crf 18" "-crf 32" -preset ultrafast -x265-params log-level=error
enc vp9 yuv420p libvpx-vp9 "-crf 20 -b:v 0" "-crf 45 -b:v 0" -deadline realtime -cpu-used 8 -row-mt 1 -threads 16

hw="-hwaccel cuda -hwaccel_output_format cuda"
run() { # label log frames input-options... (two inputs and the filter options come from the caller)
    label=$1 log=$2 frames=$3
    shift 3
    t0=$(now)
    $ffmpeg "$@" > "$out/$log.err" 2>&1 || { echo "FAIL $label: ffmpeg failed"; tail -5 "$out/$log.err"; status=1; return 1; }
    t1=$(now)
    echo "$label: $(fps "$frames" "$t0" "$t1") fps"
}
compare() { # a b what
    grep -v '"fps"\|"backends"' "$out/$1.json" > "$out/$1.cmp"
    grep -v '"fps"\|"backends"' "$out/$2.json" > "$out/$2.cmp"
    if cmp -s "$out/$1.cmp" "$out/$2.cmp" && grep -q '"vmaf"' "$out/$1.cmp"; then
        echo "PASS $3: identical logs ($(grep -c '"frameNum"' "$out/$1.cmp") frames)"
    else
        echo "FAIL $3: logs differ"; diff "$out/$1.cmp" "$out/$2.cmp" | head -6; status=1
    fi
}

for name in h264 hevc10 vp9; do
    d=$work/$name.dis.mkv r=$work/$name.ref.mkv
    [ -f "$d" ] || continue
    echo "== $name"
    opt="log_fmt=json:log_path=$out/$name"
    run "decode only, software" "$name.swdec" "$N" -i "$d" -i "$r" -map 0 -map 1 -f null -
    run "decode only, NVDEC (CUDA frames)" "$name.hwdec" "$N" $hw -i "$d" $hw -i "$r" -map 0 -map 1 -f null -
    run "VMAF, software decoding" "$name.sw" "$N" -i "$d" -i "$r" -lavfi "vmaf_hip=$opt.sw.json" -f null -
    run "VMAF, NVDEC, CUDA frames in place" "$name.hw" "$N" $hw -i "$d" $hw -i "$r" -lavfi "vmaf_hip=$opt.hw.json" -f null -
    grep -h "Hardware frames:\|backend=" "$out/$name.hw.err" | sed 's/^\[[^]]*\] /    /'
    compare "$name.sw" "$name.hw" "$name: NVDEC CUDA frames = software decoding"
    run "VMAF, distorted NVDEC + reference software" "$name.mixed" "$N" $hw -i "$d" -i "$r" -lavfi "vmaf_hip=$opt.mixed.json" -f null -
    compare "$name.sw" "$name.mixed" "$name: mixed inputs = software decoding"
    grep -h "Hardware frames:" "$out/$name.mixed.err" | sed 's/^\[[^]]*\] /    /'
    run "VMAF + psnr + float_ssim (a CPU feature: downloads; 120 frames)" "$name.extra" 120 $hw -t 4 -i "$d" $hw -t 4 -i "$r" \
        -lavfi "vmaf_hip=feature=name=psnr|name=float_ssim:$opt.extra.json" -f null -
    grep -h "Hardware frames:" "$out/$name.extra.err" | sed 's/^\[[^]]*\] /    /'
    run "VMAF + psnr + float_ssim, software decoding (120 frames)" "$name.extra_sw" 120 -t 4 -i "$d" -t 4 -i "$r" \
        -lavfi "vmaf_hip=feature=name=psnr|name=float_ssim:$opt.extra_sw.json" -f null -
    compare "$name.extra_sw" "$name.extra" "$name: with a CPU feature, NVDEC = software"
    run "backend=cpu on CUDA frames (60 frames)" "$name.cpu" 60 $hw -t 2 -i "$d" $hw -t 2 -i "$r" \
        -lavfi "vmaf_hip=backend=cpu:$opt.cpu.json" -f null -
    grep -h "Hardware frames:" "$out/$name.cpu.err" | sed 's/^\[[^]]*\] /    /'
    run "backend=gpu, software decoding (60 frames)" "$name.gpu60" 60 -t 2 -i "$d" -t 2 -i "$r" \
        -lavfi "vmaf_hip=backend=gpu:$opt.gpu60.json" -f null -
    compare "$name.gpu60" "$name.cpu" "$name: backend=cpu on CUDA frames = GPU on software frames"
done

echo "== the GPU failing at frame 7 (VMAF_HIP_GPU_FAIL_AT), 30 frames of the h264 pair"
opt="feature=name=psnr:log_fmt=json:log_path=$out/fault"
run "backend=cpu" fault.cpu 30 -t 1 -i "$work/h264.dis.mkv" -t 1 -i "$work/h264.ref.mkv" \
    -lavfi "vmaf_hip=backend=cpu:$opt.cpu.json" -f null -
export VMAF_HIP_GPU_FAIL_AT=7
run "backend=auto, GPU failing at frame 7" fault.auto 30 -t 1 -i "$work/h264.dis.mkv" -t 1 -i "$work/h264.ref.mkv" \
    -lavfi "vmaf_hip=backend=auto:$opt.auto.json" -f null -
unset VMAF_HIP_GPU_FAIL_AT
grep -h "GPU failed" "$out/fault.auto.err" | sed 's/^\[[^]]*\] /    /'
compare fault.cpu fault.auto "GPU failure at frame 7: every frame scored, the CPU's numbers"
if VMAF_HIP_GPU_FAIL_AT=7 $ffmpeg $hw -t 1 -i "$work/h264.dis.mkv" $hw -t 1 -i "$work/h264.ref.mkv" \
       -lavfi "vmaf_hip=backend=auto" -f null - > "$out/fault.hw.err" 2>&1; then
    echo "FAIL GPU failure with CUDA frames: exited 0"; status=1
else
    echo "PASS GPU failure with CUDA frames is an error: $(grep -h "hardware frames" "$out/fault.hw.err" | sed 's/^\[[^]]*\] //' | head -1)"
fi

echo "== semi-planar and high-bit-packed software frames, backend=gpu"
(
    ffmpeg=$dir/ffmpeg build=$out
    . "$(dirname "$0")/../lib.sh"
    FORMATS_BACKEND=gpu
    . "$dir/formats.sh"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
) || status=1

if command -v compute-sanitizer >/dev/null 2>&1; then
    echo "== compute-sanitizer memcheck: CUDA frames (hevc10, 8 frames) and nv12 software frames"
    compute-sanitizer --tool memcheck --error-exitcode 9 $dir/ffmpeg -nostdin -loglevel error \
        $hw -t 0.3 -i "$work/hevc10.dis.mkv" $hw -t 0.3 -i "$work/hevc10.ref.mkv" \
        -lavfi "vmaf_hip=backend=gpu:feature=name=psnr" -f null - > "$out/sanitizer.log" 2>&1
    rc=$?; tail -n 2 "$out/sanitizer.log"; [ $rc -eq 0 ] || { echo "FAIL memcheck (CUDA frames): rc=$rc"; status=1; }
    compute-sanitizer --tool memcheck --error-exitcode 9 $dir/ffmpeg -nostdin -loglevel error \
        -f lavfi -i "testsrc2=size=321x181:rate=25:duration=0.3" \
        -lavfi "format=nv12,split[a][b];[a][b]vmaf_hip=backend=gpu:feature=name=psnr" -f null - > "$out/sanitizer2.log" 2>&1
    rc=$?; tail -n 2 "$out/sanitizer2.log"; [ $rc -eq 0 ] || { echo "FAIL memcheck (nv12): rc=$rc"; status=1; }
fi
echo "status: $status"
exit $status
