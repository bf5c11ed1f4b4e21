#!/bin/bash
# Whether the default (no options) is ever the slow choice on a GPU machine:
# wall time of the whole process against the explicit backends and the floor
# (ffmpeg reading the same inputs with no filter), in one run:
#   1. 1080p 8-bit raw inputs in tmpfs that end after 1, 25, 100, 300, 1,200
#      and 3,000 frames (-stream_loop of one 600-frame pair, -t), and
#      -frames:v 1 on the 3,000-frame inputs; the median of 5 runs (3 past
#      300 frames);
#   2. 8 processes at once, 600 frames each: aggregate fps, the median of 3;
#   3. software decoding: H.264 8-bit and HEVC 10-bit 1080p files of 600
#      frames (libx264, libx265, encoded here): the decoders alone and with
#      the filter, fps, the median of 3.
# Each row gives the default's ratio to the faster explicit backend, and
# whether the default's log (JSON: every frame's values and the pooled
# ones) equals backend=cpu's and backend=gpu's.
#
# Usage: tools/bench-default.sh <ffmpeg>
# (SECTIONS="1 2 3" picks the parts, LENGTHS the runs of part 1, FRAMES
# the pair's length (600); BENCH_DIR: where the inputs go, /dev/shm/vmaf-default
# by default, removed at the end.)
set -u
export LC_ALL=C
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
F=$1
need_ffmpeg "$F"
SECTIONS=${SECTIONS:-1 2 3}
LENGTHS=${LENGTHS:-1 25 100 300 1200 3000 f1}
N=${FRAMES:-600}
dir=${BENCH_DIR:-/dev/shm/vmaf-default}
rm -rf "$dir"
mkdir -p "$dir" || exit 1
trap 'rm -rf "$dir"' EXIT
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
echo "CPU: $(nproc) CPUs; GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"

"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v "$N" -pix_fmt yuv420p \
    -f rawvideo -y "$dir/ref.yuv" || exit 1
"$F" -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25 -i "$dir/ref.yuv" \
    -vf avgblur=2,noise=alls=8:allf=t -f rawvideo -y "$dir/dis.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"

med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# same a.json b.json [prefix]: whether two logs have the same frames and
# pooled values (prefix: the frames both logged, where their numbers differ)
same() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
try:
    a, b = (json.load(open(f)) for f in sys.argv[1:3])
except Exception as e:
    print('unreadable (%s)' % e); sys.exit(1)
if len(a['frames']) != len(b['frames']) and len(sys.argv) > 3:
    # -frames:v ends the output while pairs are in flight: the logs keep
    # the frames that left the filter by then, a number that varies.
    n = min(len(a['frames']), len(b['frames']))
    ok = a['frames'][:n] == b['frames'][:n]
    print('%s (%d and %d frames logged, the first %d compared)' %
          ('same' if ok else 'DIFFERENT', len(a['frames']), len(b['frames']), n))
    sys.exit(0 if ok else 1)
ok = a['frames'] == b['frames'] and a['pooled_metrics'] == b['pooled_metrics']
print('same' if ok else 'DIFFERENT'); sys.exit(0 if ok else 1)
EOF
}
# timed n log command...: the median wall ms of n runs; each run's in $dir/ms
timed() {
    local n=$1 log=$2 s i ms=""
    shift 2
    for i in $(seq "$n"); do
        s=$(date +%s%N)
        timeout 300 "$@" > "$log" 2>&1 || { echo "FAILED (exit $?): $*" >&2; tail -3 "$log" >&2; }
        ms="$ms $(( ($(date +%s%N) - s) / 1000000 ))"
    done
    echo "${ms# }" > "$dir/ms"
    echo "$ms" | med
}
# verdict default gpu cpu: the default's ratio to the faster backend
verdict() {
    awk -v d="$1" -v h="$2" -v c="$3" -v lower="${4:-1}" 'BEGIN {
        best = h < c ? h : c; name = h < c ? "gpu" : "cpu"
        if (!lower) { best = h > c ? h : c; name = h > c ? "gpu" : "cpu"; r = best / d }
        else r = d / best
        printf "default/%s %.3f %s", name, r, r <= 1.05 ? "ok" : "SLOWER" }'
}

if want 1; then
    echo
    echo "== 1. inputs that end after n frames, 1080p 8-bit raw in tmpfs: wall ms of the process, median"
    printf '%-22s %7s %7s %7s %7s  %s\n' run floor default gpu cpu "verdict; values"
    for n in $LENGTHS; do
        if [ "$n" = f1 ]; then
            lim="-frames:v 1"; t=120; label="-frames:v 1 of 3000"; R=5
        else
            lim=""; t=$(awk "BEGIN { print $n / 25 }"); label="$n frames"
            R=$([ "$n" -le 300 ] && echo 5 || echo 3)
        fi
        src="$IN -stream_loop -1 -t $t"
        floor=$(timed "$R" "$dir/l.log" "$F" -v error $src -i "$dir/dis.yuv" $src -i "$dir/ref.yuv" \
                -map 0 -map 1 $lim -f null -); fm=$(cat "$dir/ms")
        for b in default gpu cpu; do
            o=$([ $b = default ] && echo "" || echo "backend=$b:")
            v=$(timed "$R" "$dir/l_$b.log" "$F" -v verbose $src -i "$dir/dis.yuv" $src -i "$dir/ref.yuv" \
                -lavfi "vmaf_hip=${o}log_fmt=json:log_path=$dir/l_$b.json" $lim -f null -)
            eval "t_$b=\$v; m_$b=\"\$(cat \$dir/ms)\""
        done
        printf '%-22s %7d %7d %7d %7d  %s; default against cpu: %s, against gpu: %s\n' "$label" \
            "$floor" "$t_default" "$t_gpu" "$t_cpu" "$(verdict "$t_default" "$t_gpu" "$t_cpu")" \
            "$(same "$dir/l_cpu.json" "$dir/l_default.json" $lim)" \
            "$(same "$dir/l_gpu.json" "$dir/l_default.json" $lim)"
        echo "    runs (ms): floor $fm; default $m_default; gpu $m_gpu; cpu $m_cpu"
        echo "    default's last run: $(grep -E 'From frame|GPU is not started|stays on the CPU|Backends:' \
            "$dir/l_default.log" | sed 's/^\[[^]]*\] //' | tr '\n' ' ')"
    done
fi

if want 2; then
    echo
    echo "== 2. 8 processes at once, $N frames of 1080p 8-bit each: fps in all, median of 3"
    procs() { # variant: the wall ms of 8 at once
        local s i o
        o=$([ "$1" = default ] && echo "" || echo "backend=$1:")
        s=$(date +%s%N)
        for i in 1 2 3 4 5 6 7 8; do
            if [ "$1" != floor ]; then
                "$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" \
                    -lavfi "vmaf_hip=${o}log_fmt=json:log_path=$dir/p_$1_$i.json" -f null - \
                    > "$dir/p_$i.log" 2>&1 &
            else
                "$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" -map 0 -map 1 \
                    -f null - > "$dir/p_$i.log" 2>&1 &
            fi
        done
        wait
        echo $(( ($(date +%s%N) - s) / 1000000 ))
    }
    for v in floor default gpu cpu; do
        ms=""
        for r in 1 2 3; do ms="$ms $(procs "$v")"; done
        eval "f_$v=\$(echo \$ms | med | awk '{ printf \"%d\", 8 * $N * 1000 / \$1 }')"
        eval "echo \"    $v runs (ms):\$ms\""
    done
    printf '%-22s %7s %7s %7s %7s\n' "" floor default gpu cpu
    printf '%-22s %7d %7d %7d %7d  %s; default against cpu: %s, against gpu: %s\n' "8 x $N frames" \
        "$f_floor" "$f_default" "$f_gpu" "$f_cpu" "$(verdict "$f_default" "$f_gpu" "$f_cpu" 0)" \
        "$(same "$dir/p_cpu_1.json" "$dir/p_default_8.json")" "$(same "$dir/p_gpu_8.json" "$dir/p_default_1.json")"
fi

if want 3; then
    echo
    echo "== 3. software decoding, $N frames of 1080p: fps of the whole process, median of 3"
    "$F" -v error $IN -i "$dir/ref.yuv" -c:v libx264 -preset veryfast -crf 18 -y "$dir/ref264.mp4" &&
    "$F" -v error $IN -i "$dir/dis.yuv" -c:v libx264 -preset veryfast -crf 30 -y "$dir/dis264.mp4" &&
    "$F" -v error $IN -i "$dir/ref.yuv" -pix_fmt yuv420p10le -c:v libx265 -preset ultrafast \
        -x265-params log-level=error:crf=18 -y "$dir/ref265.mkv" &&
    "$F" -v error $IN -i "$dir/dis.yuv" -pix_fmt yuv420p10le -c:v libx265 -preset ultrafast \
        -x265-params log-level=error:crf=30 -y "$dir/dis265.mkv" || exit 1
    printf '%-22s %7s %7s %7s %7s  %s\n' run decode default gpu cpu "default/decode; verdict"
    for c in 264:mp4:H.264 265:mkv:"HEVC 10-bit"; do
        e=${c%%:*}; x=${c#*:}; x=${x%%:*}; label=${c##*:}
        fps() { awk -v ms="$1" -v n="$N" 'BEGIN { printf "%d", n * 1000 / ms }'; }
        d=$(fps "$(timed 3 "$dir/d.log" "$F" -v error -i "$dir/dis$e.$x" -i "$dir/ref$e.$x" \
            -map 0 -map 1 -f null -)"); dm=$(cat "$dir/ms")
        for b in default gpu cpu; do
            o=$([ $b = default ] && echo "" || echo "backend=$b:")
            v=$(fps "$(timed 3 "$dir/d_$b.log" "$F" -v verbose -i "$dir/dis$e.$x" -i "$dir/ref$e.$x" \
                -lavfi "vmaf_hip=${o}log_fmt=json:log_path=$dir/d_$b.json" -f null -)")
            eval "t_$b=\$v; m_$b=\"\$(cat \$dir/ms)\""
        done
        printf '%-22s %7d %7d %7d %7d  %s; %s; default against cpu: %s\n' "$label" "$d" \
            "$t_default" "$t_gpu" "$t_cpu" \
            "$(awk -v a="$t_default" -v d="$d" 'BEGIN { r = a / d; printf "%.3f %s", r, (r >= 0.9 ? "ok" : "COSTS MORE THAN 10%") }')" \
            "$(verdict "$t_default" "$t_gpu" "$t_cpu" 0)" "$(same "$dir/d_cpu.json" "$dir/d_default.json")"
        echo "    runs (ms): decode $dm; default $m_default; gpu $m_gpu; cpu $m_cpu"
        echo "    default's last run: $(grep -E 'From frame|GPU is not started|stays on the CPU|Backends:' \
            "$dir/d_default.log" | sed 's/^\[[^]]*\] //' | tr '\n' ' ')"
    done
fi
