#!/bin/sh
# Pairing and the libvmaf_cuda name on a GPU machine: a 29.97 fps encode in
# Matroska (timestamps rounded to 1 ms) scored against its y4m source on
# the GPU, from software frames and from NVDEC's CUDA frames, and under
# libvmaf_cuda as its scripts call it (NVDEC and scale_cuda on both
# inputs, or hwupload_cuda); every log must equal the CPU's on the frames
# decoded to raw video and scored frame i against frame i.
#
# Usage: tests/gpu/gpu-pairing.sh <dir>
#
# <dir> holds ffmpeg (built by `make`) and lib/ (the shared libraries it
# links that the GPU machine may lack). Logs go to $OUT (or build/gpu-pairing).
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
[ -d "$1" ] || usage "no directory '$1'"
dir=$(cd "$1" && pwd)
out=${OUT:-build/gpu-pairing}
mkdir -p "$out"
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ff="$dir/ffmpeg -hide_banner -nostdin -nostats"
work=${TMPDIR:-/tmp}/gpu-pairing
rm -rf "$work"
mkdir -p "$work"
status=0
hw="-hwaccel cuda -hwaccel_output_format cuda"

echo "== machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not found"
echo "cores: $(nproc); date: $(date -u +%Y-%m-%dT%H:%MZ)"

echo "== files: 640x360 at 30000/1001 fps, 300 frames"
$ff -loglevel error -f lavfi -i "testsrc2=size=640x360:rate=30000/1001:duration=10,noise=alls=4:allf=t+u" \
    -pix_fmt yuv420p "$work/src.y4m"
$ff -loglevel error -i "$work/src.y4m" -c:v libx264 -preset veryfast -crf 30 "$work/enc.mkv"
$ff -loglevel error -i "$work/src.y4m" -c:v libx264 -preset veryfast -crf 12 "$work/ref.mkv"
for f in enc src ref; do
    in=$work/$f.mkv
    [ $f = src ] && in=$work/src.y4m
    $ff -loglevel error -i "$in" -fps_mode passthrough -f rawvideo -pix_fmt yuv420p "$work/$f.yuv"
    echo "$f: $(( $(wc -c < "$work/$f.yuv") / 345600 )) frames decoded"
done

raw="-f rawvideo -pix_fmt yuv420p -s 640x360 -r 30000/1001"
feat="feature=name=psnr|name=float_ssim:log_fmt=json"
run() { # name args...
    n=$1; shift
    $ff "$@" -f null - > "$out/$n.txt" 2>&1
    echo "$n: exit $?; $(grep -h 'VMAF score:\|Pairing (\|Hardware frames\|backend=' "$out/$n.txt" | sed 's/^\[[^]]*\] //' | tr '\n' ' ')"
}
same() { # truth run
    python3 - "$work/$1.json" "$work/$2.json" <<'EOF_PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert len(a['frames']) == 300, len(a['frames'])
assert a['frames'] == b['frames'], 'frames differ'
assert a['pooled_metrics'] == b['pooled_metrics'], 'pooled differ'
EOF_PY
}
check() { # truth run what
    if same "$1" "$2" 2> "$work/cmp.txt"; then
        echo "PASS $3"
    else
        echo "FAIL $3: $(tail -1 "$work/cmp.txt")"
        status=1
    fi
}

echo "== the encode against its source (frame i against frame i is the truth)"
run truth $raw -i "$work/enc.yuv" $raw -i "$work/src.yuv" \
    -lavfi "vmaf_hip=backend=cpu:$feat:log_path=$work/truth.json"
run cpu -i "$work/enc.mkv" -i "$work/src.y4m" -lavfi "vmaf_hip=backend=cpu:$feat:log_path=$work/cpu.json"
run gpu -i "$work/enc.mkv" -i "$work/src.y4m" -lavfi "vmaf_hip=backend=gpu:$feat:log_path=$work/gpu.json"
run nvdec $hw -i "$work/enc.mkv" -i "$work/src.y4m" \
    -lavfi "vmaf_hip=backend=gpu:$feat:log_path=$work/nvdec.json"
run framesync -i "$work/enc.mkv" -i "$work/src.y4m" \
    -lavfi "vmaf_hip=pairing=framesync:backend=gpu:$feat:log_path=$work/framesync.json"
check truth cpu "CPU, files: every value of frame i against frame i"
check truth gpu "GPU, software frames: every value of frame i against frame i"
check truth nvdec "GPU, NVDEC frames of the encode: every value of frame i against frame i"
if same truth framesync 2> /dev/null; then
    echo "FAIL pairing=framesync gives the truth here: the case does not test the pairing"
    status=1
else
    echo "PASS pairing=framesync (exact timestamps) differs from the truth, as it should here"
fi

echo "== libvmaf_cuda as its scripts call it"
run truth2 $raw -i "$work/enc.yuv" $raw -i "$work/ref.yuv" \
    -lavfi "vmaf_hip=backend=cpu:$feat:log_path=$work/truth2.json"
run cuda_scale $hw -i "$work/enc.mkv" $hw -i "$work/ref.mkv" \
    -filter_complex "[0:v]scale_cuda=format=yuv420p[dis];[1:v]scale_cuda=format=yuv420p[ref];[dis][ref]libvmaf_cuda=$feat:log_path=$work/cuda_scale.json"
check truth2 cuda_scale "libvmaf_cuda, NVDEC and scale_cuda on both inputs: every value of frame i against frame i"
# The decoder and the upload named to one device: ffmpeg still gives each
# a CUDA context of its own, so the upload's frames are copied through the
# host.
run cuda_upload -init_hw_device cuda=gpu -hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda \
    -i "$work/enc.mkv" -filter_hw_device gpu -i "$work/src.y4m" \
    -filter_complex "[1:v]hwupload_cuda[ref];[0:v][ref]libvmaf_cuda=$feat:log_path=$work/cuda_upload.json"
check truth cuda_upload "libvmaf_cuda, NVDEC encode against the source through hwupload_cuda, one device named: every value"
# Without -hwaccel_device the decoder gets a CUDA context of its own: the
# upload's frames are copied through the host, with a warning.
run cuda_upload2 $hw -i "$work/enc.mkv" -init_hw_device cuda=gpu -filter_hw_device gpu -i "$work/src.y4m" \
    -filter_complex "[1:v]hwupload_cuda[ref];[0:v][ref]libvmaf_cuda=$feat:log_path=$work/cuda_upload2.json"
check truth cuda_upload2 "libvmaf_cuda, NVDEC and hwupload_cuda in two CUDA contexts: every value"
grep -h "different CUDA contexts" "$out/cuda_upload2.txt" | sed 's/^\[[^]]*\] //'
# easyVmaf -gpu's graph: each input uploaded by an hwupload_cuda of its own
# (two CUDA contexts), three models in one pass, shortest=0; against the
# same graph on the CPU under libvmaf.
models='version=vmaf_v0.6.1\\:name=vmaf_hd|version=vmaf_v0.6.1neg\\:name=vmaf_hd_neg|version=vmaf_v0.6.1\\:name=vmaf_hd_phone\\:enable_transform=true'
up="format=yuv420p,setparams=colorspace=unknown:range=unknown"
run easy_cpu -i "$work/enc.mkv" -i "$work/src.y4m" \
    -lavfi "[0:v]$up[d];[1:v]$up[r];[d][r]libvmaf=log_fmt=json:model=$models:n_subsample=1:log_path=$work/easy_cpu.json:n_threads=16:shortest=0"
run easy_gpu -i "$work/enc.mkv" -i "$work/src.y4m" \
    -lavfi "[0:v]$up,hwupload_cuda[d];[1:v]$up,hwupload_cuda[r];[d][r]libvmaf_cuda=log_fmt=json:model=$models:n_subsample=1:log_path=$work/easy_gpu.json:n_threads=16:shortest=0"
check easy_cpu easy_gpu "easyVmaf -gpu's graph (libvmaf_cuda, three models, two hwupload_cuda) = its CPU graph under libvmaf"
grep -h "is provided by\|Hardware frames\|different CUDA" "$out/cuda_scale.txt" "$out/cuda_upload.txt" "$out/easy_gpu.txt" | sed 's/^\[[^]]*\] //'
exit $status
