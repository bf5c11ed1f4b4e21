#!/bin/bash
# backend=auto (the default) scores a stream on the CPU first and starts the
# GPU only once the stream has run cpu_first ms (100 by default), moving the
# features to it mid-stream. What that costs and saves on a GPU machine, in
# one run, from raw 1080p 8-bit frames in tmpfs:
#   1. short runs (-frames:v 1, 5, 25, 100), the median of 7 (5 past one
#      frame): ffmpeg with no filter, vmaf_hip as it is, with cpu_first=0
#      (the GPU started with the filter, as before), backend=gpu and
#      backend=cpu;
#   1b. inputs of 5, 25, 50 and 100 frames (-t), the median of 5: no filter,
#      as it is (when the inputs end first, it finishes on the CPU or starts
#      the GPU at once, whichever it expects to be sooner), cpu_first=0 and
#      backend=cpu;
#   2. whole runs of 1,200 frames, the median of 3: no filter, as it is,
#      cpu_first=0, and where the stream moved to the GPU;
#   3. parity: the logs of runs that moved mid-stream against backend=cpu,
#      every key of every frame and the pooled values, as text: VMAF alone
#      (1,200 frames), VMAF with psnr, float_ssim, float_ms_ssim and cambi,
#      and the v1.0.16 3d0h model (SpEED) (600 frames each).
#
# Usage: tools/gpu-cpu-first.sh <ffmpeg> [models-dir]
# (CPU_FIRST_FRAMES=60: fewer frames everywhere, for a check of the script;
# EXTRA_OPTS="cpu_first=300 ...": more filter options to compare.)
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <ffmpeg>"
[ $# -le 2 ] || usage "too many arguments"
F=$1
models=${2:-}
need_ffmpeg "$F"
[ -z "$models" ] || [ -d "$models" ] || usage "no directory '$models'"
N=${CPU_FIRST_FRAMES:-1200}
H=$((N / 2))
dir=${BENCH_DIR:-/dev/shm/vmaf-cpu-first}
mkdir -p "$dir" || exit 1
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v "$N" -pix_fmt yuv420p \
    -f rawvideo -y "$dir/ref.yuv" || exit 1
"$F" -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25 -i "$dir/ref.yuv" \
    -vf avgblur=2,noise=alls=8:allf=t -f rawvideo -y "$dir/dis.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # n label log command...: the median wall ms of n runs
    local n=$1 label=$2 log=$3 ms="" s
    shift 3
    for i in $(seq "$n"); do
        s=$(date +%s%N)
        timeout 120 "$@" > "$log" 2>&1 || echo "$label: FAILED (exit $?)"
        ms="$ms $(( ($(date +%s%N) - s) / 1000000 ))"
    done
    printf '%-44s median %5d ms (%s ms)\n' "$label" "$(echo $ms | med)" "${ms# }"
}
moved() { sed -n 's/.*From frame \([0-9]*\) on: .*/\1/p' "$1" | head -1; }

echo "== 1. short runs: 1080p 8-bit, wall ms of the whole process"
for n in 1 5 25 100; do
    runs=$([ "$n" = 1 ] && echo 7 || echo 5)
    timed "$runs" "$n frame(s), no filter" "$dir/s.log" \
        "$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" -map 0 -map 1 -frames:v "$n" -f null -
    for opt in "" ${EXTRA_OPTS:-} cpu_first=0 backend=gpu backend=cpu; do
        timed "$runs" "$n frame(s), vmaf_hip${opt:+=$opt}" "$dir/s.log" \
            "$F" -v verbose $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" \
            -lavfi "vmaf_hip${opt:+=$opt}" -frames:v "$n" -f null -
        m=$(moved "$dir/s.log")
        echo "   last run: $(grep -c 'starting the GPU' "$dir/s.log") GPU start(s)${m:+, moved to it at frame $m}"
    done
done

echo "== 1b. inputs of n frames (-t: the inputs end, not the output), wall ms of the whole process"
for n in 5 25 50 100; do
    t=$(awk "BEGIN { print $n / 25 }")
    timed 5 "$n frame(s), no filter" "$dir/s.log" \
        "$F" -v error $IN -t "$t" -i "$dir/dis.yuv" $IN -t "$t" -i "$dir/ref.yuv" -map 0 -map 1 -f null -
    for opt in "" ${EXTRA_OPTS:-} cpu_first=0 backend=cpu; do
        timed 5 "$n frame(s), vmaf_hip${opt:+=$opt}" "$dir/s.log" \
            "$F" -v verbose $IN -t "$t" -i "$dir/dis.yuv" $IN -t "$t" -i "$dir/ref.yuv" \
            -lavfi "vmaf_hip${opt:+=$opt}" -f null -
        m=$(moved "$dir/s.log")
        echo "   last run: $(grep -c 'starting the GPU' "$dir/s.log") GPU start(s)${m:+, moved to it at frame $m}"
        grep -E "inputs ended" "$dir/s.log" | sed 's/^\[[^]]*\] /   last run: /'
    done
done

echo "== 2. whole runs: $N frames of 1080p 8-bit"
timed 3 "no filter" "$dir/w.log" "$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" \
    -map 0 -map 1 -f null -
for opt in "" ${EXTRA_OPTS:-} cpu_first=0; do
    timed 3 "vmaf_hip${opt:+=$opt}" "$dir/w.log" "$F" -v verbose $IN -i "$dir/dis.yuv" \
        $IN -i "$dir/ref.yuv" -lavfi "vmaf_hip${opt:+=$opt}" -f null -
    grep -E "From frame|held while|GPU ready" "$dir/w.log" | sed 's/^\[[^]]*\] /   last run: /'
done

echo "== 3. parity: moved mid-stream against backend=cpu"
parity() { # label frames filter-options
    local label=$1 n=$2 opts=$3 b
    for b in cpu auto; do
        # Inputs of n frames (-t), not -frames:v: an output that ends first
        # logs the frames that left the filter, a few more with pairs held.
        timeout 300 "$F" -v verbose $IN -t "$(awk "BEGIN { print $n / 25 }")" -i "$dir/dis.yuv" \
            $IN -t "$(awk "BEGIN { print $n / 25 }")" -i "$dir/ref.yuv" \
            -lavfi "vmaf_hip=backend=$b:$opts:log_fmt=json:log_path=$dir/p_$b.json" \
            -f null - > "$dir/p_$b.log" 2>&1 || echo "$label, $b: FAILED (exit $?)"
    done
    echo "$label: moved at frame $(moved "$dir/p_auto.log"); $(python3 - "$dir/p_cpu.json" "$dir/p_auto.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
keys = sum(len(f['metrics']) for f in a['frames'])
if a['frames'] == b['frames'] and a['pooled_metrics'] == b['pooled_metrics']:
    print('PASS: %d frames, %d values identical' % (len(a['frames']), keys))
else:
    for fa, fb in zip(a['frames'], b['frames']):
        if fa != fb:
            k = [k for k in fa['metrics'] if fa['metrics'][k] != fb['metrics'].get(k)]
            print('FAIL: frame %d, %s: %s against %s' % (fa['frameNum'], k[:1],
                  fa['metrics'].get(k[0]) if k else '', fb['metrics'].get(k[0]) if k else ''))
            break
    else:
        print('FAIL: frame count or pooled values differ')
EOF
)"
    grep -E "From frame" "$dir/p_auto.log" | sed 's/^\[[^]]*\] /   /'
}
parity "VMAF" "$N" "model=version=vmaf_v0.6.1"
parity "VMAF + psnr, float_ssim, float_ms_ssim, cambi" "$H" \
    "feature=name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi"
if [ -n "$models" ] && [ -f "$models/vmaf_v1.0.16_3d0h.json" ]; then
    parity "v1.0.16 3d0h" "$H" "model=path=$models/vmaf_v1.0.16_3d0h.json"
else
    echo "v1.0.16 3d0h: SKIPPED (no models-dir with vmaf_v1.0.16_3d0h.json)"
fi
rm -rf "$dir"
