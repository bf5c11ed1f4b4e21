#!/bin/sh
# GPU evidence on a machine with a GPU: GPU against CPU for every feature of
# every frame, the same through ffmpeg's logs, compute-sanitizer, and
# throughput. Prints a report; writes logs to $OUT (or build/gpu-validate).
#
# Usage: tests/gpu/gpu-validate.sh <dir> [quick]
#
# quick skips the throughput runs.
# <dir> holds ffmpeg, gpu_parity_test (built on any x86-64 machine by
# `make tests`: build/tests/gpu_parity_test) and testdata/ (the clip pairs).
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <dir>"
[ $# -le 2 ] || usage "too many arguments"
[ -d "$1" ] || usage "no directory '$1'"
[ -z "${2:-}" ] || [ "$2" = quick ] || usage "unknown part '$2' (quick or nothing)"
dir=$1
out=${OUT:-build/gpu-validate}
mkdir -p "$out"
ffmpeg=$dir/ffmpeg
status=0

echo "== machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not found"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"

echo "== engine: GPU against CPU, bit for bit (tests/gpu_parity_test.c)"
"$dir/gpu_parity_test" "$dir/testdata" > "$out/parity.log" 2>&1
rc=$?
grep -E '^(GPU|FAIL)' "$out/parity.log"
tail -n1 "$out/parity.log"
[ $rc -eq 0 ] || status=1

echo "== ffmpeg: backend=gpu and backend=cpu logs"
log_compare() { # name file w h pix_fmt ref dis options [backends]
    rm -f "$out/$1".*.cmp
    for b in ${9:-gpu cpu}; do
        "$ffmpeg" -nostdin -loglevel error \
            -f rawvideo -pix_fmt "$5" -s "$3x$4" -i "$dir/testdata/$7" \
            -f rawvideo -pix_fmt "$5" -s "$3x$4" -i "$dir/testdata/$6" \
            -lavfi "[0:v][1:v]vmaf_hip=backend=$b:log_fmt=json:log_path=$out/$1.$b.json$8" \
            -f null - 2> "$out/$1.$b.err" || { echo "FAIL $1 backend=$b"; cat "$out/$1.$b.err"; status=1; }
        grep -v '"fps"\|"backends"' "$out/$1.$b.json" > "$out/$1.$b.cmp"
    done
    if cmp -s "$out/$1.gpu.cmp" "$out/$1.cpu.cmp" && grep -q '"frameNum"' "$out/$1.cpu.cmp"; then
        echo "PASS $1: identical logs ($(grep -c '"frameNum"' "$out/$1.cpu.cmp") frames); $(grep '"backends"' "$out/$1.gpu.json" | tr -s ' ')"
    else
        echo "FAIL $1: logs differ or are empty"; diff "$out/$1.gpu.cmp" "$out/$1.cpu.cmp" | head -5; status=1
    fi
    if [ -f "$out/$1.hip.cmp" ]; then
        if cmp -s "$out/$1.hip.cmp" "$out/$1.gpu.cmp" && grep -q '"frameNum"' "$out/$1.hip.cmp"; then
            echo "PASS $1: backend=hip (the first name of gpu) gives backend=gpu's log"
        else
            echo "FAIL $1: backend=hip and backend=gpu logs differ"; status=1
        fi
    fi
}
log_compare src01_8bit src01_hrc00_576x324_3f.yuv 576 324 yuv420p src01_hrc00_576x324_3f.yuv src01_hrc01_576x324_3f.yuv ":feature=name=psnr" "gpu hip cpu"
log_compare src01_10bit x 576 324 yuv420p10le src01_hrc00_576x324.yuv420p10le.yuv src01_hrc01_576x324.yuv420p10le.yuv ":feature=name=psnr"
log_compare sparks_10bit x 480 270 yuv420p10le sparks_ref_480x270.yuv42010le.yuv sparks_dis_480x270.yuv42010le.yuv ":feature=name=psnr"
log_compare q160x90_48f x 160 90 yuv420p src01_hrc00_160x90_48f.yuv src01_hrc01_160x90_48f.yuv ":model=version=vmaf_v0.6.1neg"
log_compare archer_1080p x 1920 1080 yuv420p archer_ref_frm20.yuv archer_dis_frm20.yuv ":feature=name=psnr"
log_compare test_image_444 x 481 321 yuv444p test_image_100007_481x321_444.yuv test_image_100007_noisy_481x321_444.yuv ":feature=name=psnr"

if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
        extra=""
        [ $tool = memcheck ] && extra="--leak-check full"
        echo "== compute-sanitizer --tool $tool $extra"
        compute-sanitizer --tool $tool $extra --error-exitcode 9 "$ffmpeg" -nostdin -loglevel error \
            -f rawvideo -pix_fmt yuv420p -s 576x324 -i "$dir/testdata/src01_hrc01_576x324_3f.yuv" \
            -f rawvideo -pix_fmt yuv420p -s 576x324 -i "$dir/testdata/src01_hrc00_576x324_3f.yuv" \
            -lavfi "[0:v][1:v]vmaf_hip=backend=gpu:feature=name=psnr" -f null - > "$out/sanitizer-$tool.log" 2>&1
        rc=$?
        tail -n 3 "$out/sanitizer-$tool.log"
        [ $rc -eq 0 ] || { echo "compute-sanitizer $tool: exit $rc"; status=1; }
    done
else
    echo "compute-sanitizer: not found"
fi

if [ "${2:-}" != quick ]; then
    echo "== throughput"
    BENCH_SCALE=4 BENCH_THREADS="1 16" bash tools/bench.sh "$ffmpeg" "backend=gpu" 2>&1 | tee "$out/bench-gpu.txt"
    BENCH_SCALE=1 BENCH_THREADS="1 16" bash tools/bench.sh "$ffmpeg" "backend=cpu" 2>&1 | tee "$out/bench-cpu.txt"
fi

[ $status -eq 0 ] && echo "GPU-VALIDATE: ALL OK" || echo "GPU-VALIDATE: SOMETHING FAILED"
exit $status
