#!/bin/bash
# Scoring across every GPU of a machine, in one run, with NVDEC:
#   1. a long 1080p H.264 pair (FRAMES frames, default 12,000, encoded here
#      with B-frames) scored as a whole by one ffmpeg on GPU 0;
#   2. the same pair in chunks by tools/vmaf-cluster, one Dask worker per
#      GPU, then two per GPU; each merged log against the whole run's with
#      cmp (the fps line aside);
#   3. a manifest of PAIRS pairs (default 16, 600 frames each) on GPU 0
#      alone, then across every GPU;
# with the wall time, fps, the speed-up against one GPU, and each GPU's busy
# share (nvidia-smi's utilization.gpu sampled every 200 ms: the share of
# samples above 0).
#
# Usage: tools/gpu-multi.sh <ffmpeg>
# (ffprobe and vmaf-merge beside <ffmpeg>, or on PATH; FRAMES, PAIRS,
# CHUNK (frames per chunk, default FRAMES / 48), BENCH_DIR (default
# /dev/shm/vmaf-multi, removed at the end).)
set -u
export LC_ALL=C
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
F=$1
need_ffmpeg "$F"
command -v nvidia-smi > /dev/null || usage "no nvidia-smi: this runs on a machine with NVIDIA GPUs"
tools=$(cd "$(dirname "$0")" && pwd)
FRAMES=${FRAMES:-12000}
PAIRS=${PAIRS:-16}
CHUNK=${CHUNK:-$((FRAMES / 48))}
N=$(nvidia-smi -L | grep -c '^GPU ')
dir=${BENCH_DIR:-/dev/shm/vmaf-multi}
rm -rf "$dir"
mkdir -p "$dir" || exit 1
trap 'rm -rf "$dir"' EXIT
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${BENCH_COMMIT:-$(git -C "$tools" rev-parse --short HEAD 2>/dev/null)}"
echo "CPU: $(nproc) CPUs; $N GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | tr '\n' ';')"

# The inputs: a long pair, and PAIRS short ones (x264 at several CRFs).
"$F" -v error -f lavfi -i "testsrc2=s=1920x1080:r=25" -frames:v "$FRAMES" -c:v libx264 -preset ultrafast \
    -crf 8 -bf 3 -g 250 -y "$dir/ref.mp4" || exit 1
"$F" -v error -i "$dir/ref.mp4" -vf noise=alls=6:allf=t -c:v libx264 -preset veryfast -crf 30 \
    -bf 3 -g 250 -y "$dir/dis.mp4" || exit 1
"$F" -v error -i "$dir/ref.mp4" -frames:v 600 -c copy -y "$dir/sref.mp4" || exit 1
echo "distorted,reference,model,options,name" > "$dir/pairs.csv"
for i in $(seq "$PAIRS"); do
    "$F" -v error -i "$dir/sref.mp4" -c:v libx264 -preset ultrafast -crf $((18 + i)) -bf 3 \
        -y "$dir/s$i.mp4" || exit 1
    echo "$dir/s$i.mp4,$dir/sref.mp4,,,s$i" >> "$dir/pairs.csv"
done

# timed label command...: runs it with the GPUs sampled; prints wall s and
# each GPU's busy share.
timed() {
    local label=$1 s e smi
    shift
    nvidia-smi --query-gpu=index,utilization.gpu --format=csv,noheader,nounits -lms 200 \
        > "$dir/util-$label.txt" 2> /dev/null &
    smi=$!
    s=$(date +%s%N)
    "$@" > "$dir/$label.log" 2>&1 || { echo "$label: FAILED (exit $?)"; tail -5 "$dir/$label.log"; }
    e=$(date +%s%N)
    kill $smi 2> /dev/null
    wait $smi 2> /dev/null
    wall=$(awk -v ns=$((e - s)) 'BEGIN { printf "%.2f", ns / 1e9 }')
    busy=$(awk -F', *' '{ n[$1]++; if ($2 > 0) b[$1]++ }
        END { for (g in n) printf "gpu%s %d%% ", g, 100 * b[g] / n[g] }' "$dir/util-$label.txt")
}
nodrop() { sed 's/"fps": [0-9.e+-]*,//' "$1"; }
NVDEC="-hwaccel cuda -hwaccel_output_format cuda"

echo
echo "== 1. the long pair, $FRAMES frames of 1080p H.264, as a whole on GPU 0 (NVDEC)"
# One CUDA device for both inputs: -hwaccel_device 0 before each would make
# one per input, two contexts taking turns on the GPU.
timed whole "$F" -hide_banner -nostats -init_hw_device cuda=g:0 \
    $NVDEC -hwaccel_device g -i "$dir/dis.mp4" $NVDEC -hwaccel_device g -i "$dir/ref.mp4" \
    -lavfi "vmaf_hip=device=0:log_fmt=json:log_path=$dir/whole.json" -f null -
w1=$wall
printf '%-44s %8s s %8.1f fps  %s\n' "whole, one GPU" "$w1" "$(awk -v w="$w1" -v n="$FRAMES" 'BEGIN { print n / w }')" "$busy"

echo
echo "== 2. the same in chunks of $CHUNK frames, tools/vmaf-cluster (NVDEC)"
for per in 1 2; do
    timed chunks$per /usr/bin/python3 "$tools/vmaf-cluster" --ffmpeg "$F" -q --nvdec \
        --per-gpu $per -o "$dir/c$per" --log-fmt json \
        --pair "$dir/dis.mp4" "$dir/ref.mp4" --chunk-frames "$CHUNK"
    same=$(cmp -s <(nodrop "$dir/whole.json") <(nodrop "$dir/c$per/logs/pair.json") &&
           echo "cmp: identical but fps" || echo "cmp: DIFFERENT")
    printf '%-44s %8s s %8.1f fps  x%.2f  %s %s\n' "$N GPU(s) x $per worker(s)" "$wall" \
        "$(awk -v w="$wall" -v n="$FRAMES" 'BEGIN { print n / w }')" \
        "$(awk -v a="$w1" -v b="$wall" 'BEGIN { print a / b }')" "$same;" "$busy"
done

echo
echo "== 3. $PAIRS pairs of 600 frames, tools/vmaf-cluster (NVDEC)"
timed one /usr/bin/python3 "$tools/vmaf-cluster" --ffmpeg "$F" -q --nvdec --gpus 0 \
    -o "$dir/m1" "$dir/pairs.csv"
m1=$wall
printf '%-44s %8s s %8.1f fps  %s\n' "GPU 0 alone" "$m1" \
    "$(awk -v w="$m1" -v n=$((PAIRS * 600)) 'BEGIN { print n / w }')" "$busy"
timed all /usr/bin/python3 "$tools/vmaf-cluster" --ffmpeg "$F" -q --nvdec -o "$dir/mN" "$dir/pairs.csv"
same=ok
for i in $(seq "$PAIRS"); do
    cmp -s <(nodrop "$dir/m1/logs/s$i.json") <(nodrop "$dir/mN/logs/s$i.json") || same="s$i DIFFERS"
done
printf '%-44s %8s s %8.1f fps  x%.2f  logs against GPU 0 alone: %s; %s\n' "$N GPU(s)" "$wall" \
    "$(awk -v w="$wall" -v n=$((PAIRS * 600)) 'BEGIN { print n / w }')" \
    "$(awk -v a="$m1" -v b="$wall" 'BEGIN { print a / b }')" "$same" "$busy"
