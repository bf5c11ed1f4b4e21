#!/bin/bash
# vmaf_hip on a GPU machine, in one run of about 5 minutes (an H200 host
# of 16 cores): speed of the filter against the no-filter floor, the CPU
# backend's identical values, start-up cost, GPU busy, the engine's own
# capacity and 8 processes on the one GPU. doc/gpu-speed.md says what each
# number means.
#
# Usage: tools/bench-gpu.sh <ffmpeg> [outdir]
#
# outdir (default build/bench-gpu) receives two files: bench-gpu.txt (what
# is printed) and bench-gpu-logs.tar.gz (every run's JSON log, stderr and
# GPU samples).
#
# Environment:
#   BENCH_FRAMES_SCALE  multiplies every frame count (default 1; 0.05 for a
#                       quick run); BENCH_CPU_FRAMES_SCALE multiplies the
#                       CPU backend's again (default 1)
#   BENCH_CASES         any of "1080p8 1080p10 4k8" (default all three)
#   BENCH_MODELS        folder holding vmaf_v1.0.16_3d0h.json (default
#                       ../shared/models, else ./models); none: those runs
#                       are skipped
#   ENGINE_BENCH        tests/engine_bench.c built (default engine_bench
#                       beside ffmpeg, else build/tests/engine_bench)
#   BENCH_DIR           raw inputs and logs (default /dev/shm/vmaf-gpu-bench;
#                       removed at the end unless BENCH_KEEP=1)
#   BENCH_PROCS         processes at once in the last part (default 8)
#   BENCH_COMMIT        the commit to print (default: git's HEAD here)
#   BENCH_REPEAT        runs of the floor and of each GPU run, the median
#                       wall time reported (default 3; the cpu runs: one)
#   BENCH_DEADLINE      seconds after which the remaining runs are skipped
#                       (default 480)
#   BENCH_NO_GPU=1      no GPU: every "gpu" run is made with backend=cpu
#                       (n_threads=1) instead and no GPU is sampled, so
#                       that every path of this script runs on any machine
set -u
export LC_ALL=C

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no <ffmpeg>"
[ $# -le 2 ] || usage "too many arguments"
ffmpeg=$1
out=${2:-build/bench-gpu}
case $ffmpeg in /*) ;; *) ffmpeg=$PWD/$ffmpeg ;; esac
need_ffmpeg "$ffmpeg"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
scale=${BENCH_FRAMES_SCALE:-1}
cpu_scale=${BENCH_CPU_FRAMES_SCALE:-1}
cases=${BENCH_CASES:-"1080p8 1080p10 4k8"}
procs=${BENCH_PROCS:-8}
deadline=${BENCH_DEADLINE:-480}
repeat=${BENCH_REPEAT:-3}
no_gpu=${BENCH_NO_GPU:-0}
dir=${BENCH_DIR:-/dev/shm/vmaf-gpu-bench}
if [ -n "${BENCH_MODELS:-}" ]; then models=$BENCH_MODELS
elif [ -d ../shared/models ]; then models=../shared/models
else models=./models; fi
model3d=$(cd "$models" 2>/dev/null && pwd)/vmaf_v1.0.16_3d0h.json
[ -f "$model3d" ] || model3d=
if [ -n "${ENGINE_BENCH:-}" ]; then engine_bench=$ENGINE_BENCH
elif [ -x "$(dirname "$ffmpeg")/engine_bench" ]; then engine_bench=$(dirname "$ffmpeg")/engine_bench
else engine_bench=build/tests/engine_bench; fi
# The GPU's role: backend=gpu, or (BENCH_NO_GPU=1) one CPU thread, "cpu1".
if [ "$no_gpu" = 1 ]; then gtag=cpu1 gbopt="backend=cpu:n_threads=1"
else gtag=gpu gbopt="backend=gpu"; fi
extras='name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi'
t_start=$(date +%s)
tmo=240                                 # no single run may hang the whole
dir_note=
# Room for two cases' inputs (about 15 GB at scale 1): tmpfs, else disk.
need_kb=$(awk -v s="$scale" 'BEGIN { printf "%d", 16e6 * s }')
if [ -z "${BENCH_DIR:-}" ] && [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -n1)" -lt "$need_kb" ] 2>/dev/null; then
    dir_note="/dev/shm has less than $((need_kb / 1000000)) GB free: inputs on disk, in /tmp (the page cache holds them)"
    dir=/tmp/vmaf-gpu-bench
fi
logs=$dir/logs
rm -rf "$dir"
mkdir -p "$logs" || exit 1
exec > >(tee "$out/bench-gpu.txt") 2>&1
tee_pid=$!

finish() {
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null
    tar -czf "$out/bench-gpu-logs.tar.gz" -C "$dir" logs 2>/dev/null
    [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$dir"
    # All of the output in bench-gpu.txt before this script returns.
    exec 1>&- 2>&-
    wait "$tee_pid" 2>/dev/null
}
trap finish EXIT

n_of() { awk -v n="$1" -v s="$2" 'BEGIN { v = int(n * s + 0.5); print v < 2 ? 2 : v }'; }
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }
late() { [ $(( $(date +%s) - t_start )) -ge "$deadline" ]; }

# The python helpers: log comparison, pooled score, mean of GPU samples.
cat > "$dir/logtool.py" <<'EOF'
import json, sys

def load(p):
    with open(p) as f:
        # values as written, so "identical" means the same text
        return json.load(f, parse_float=str, parse_int=str)

def frames(d):
    return {int(fr["frameNum"]): fr["metrics"] for fr in d.get("frames", [])}

cmd = sys.argv[1]
if cmd == "parity":
    a, b = frames(load(sys.argv[2])), frames(load(sys.argv[3]))
    common = sorted(set(a) & set(b))
    # A shorter run's last frame has no next frame: its motion2 (and so
    # its score) differs from a longer run's. It is left out.
    if len(a) != len(b) and common and common[-1] == min(max(a), max(b)):
        common.pop()
    if not common:
        print("FAIL: no frame in common (%d and %d frames)" % (len(a), len(b)))
        sys.exit(1)
    keys = set()
    for n in common:
        ka, kb = a[n], b[n]
        for k in list(ka) + [k for k in kb if k not in ka]:
            va, vb = ka.get(k, "(missing)"), kb.get(k, "(missing)")
            if va != vb:
                print("FAIL: frame %d, key %s: %s %s, %s %s (%d frames compared)"
                      % (n, k, sys.argv[4], va, sys.argv[5], vb, len(common)))
                sys.exit(1)
            keys.add(k)
    print("PASS: %d frames, %d keys, every value identical%s" % (len(common), len(keys),
          "" if len(a) == len(b) else " (the shorter run's last frame left out)"))
elif cmd == "mean":
    try:
        p = load(sys.argv[2]).get("pooled_metrics", {})
        k = "vmaf" if "vmaf" in p else next(k for k in p if k.startswith("vmaf"))
        print(p[k]["mean"])
    except Exception:
        print("-")
elif cmd == "busy":
    v = []
    for line in open(sys.argv[2]):
        try:
            v.append(float(line.strip()))
        except ValueError:
            pass
    print("%.0f%% (%d)" % (sum(v) / len(v), len(v)) if v else "-")
EOF
logtool() { python3 "$dir/logtool.py" "$@"; }
why() { # an ffmpeg stderr log: its first error lines
    { grep -v '^ *frame=' "$1" | grep -iE 'error|fail|cannot|no usable|invalid' || tail -n2 "$1"; } |
        head -n2 | tr '\n' ' '
}

# GPU utilization every 100 ms into $1, started before the run it samples
# (once it has written its first line) and stopped after it.
sampler=
busy_start() {
    sampler=
    [ "$no_gpu" = 1 ] && return 0
    nvidia-smi -i "${BENCH_GPU:-0}" --query-gpu=utilization.gpu --format=csv,noheader,nounits \
        -lms 100 > "$1" 2>/dev/null &
    sampler=$!
    for _ in $(seq 40); do [ -s "$1" ] && break; sleep 0.05; done
}
busy_stop() { # file: prints the mean
    if [ -n "$sampler" ]; then
        kill "$sampler" 2>/dev/null
        wait "$sampler" 2>/dev/null
        sampler=
        logtool busy "$1"
    else
        echo "-"
    fi
}

# Inputs of a case: raw yuv, testsrc2 against a blurred, noisy copy.
gen() { # case
    local c=$1 base
    # 10-bit: an 8-bit picture made 10-bit, then blurred in 10 bits, so
    # the low bits of the distorted copy are not all zero.
    case $c in
    1080p8)  base=yuv420p;  dchain="avgblur=2,noise=alls=8:allf=t" ;;
    1080p10) base=yuv420p;  dchain="noise=alls=8:allf=t,format=yuv420p10le,avgblur=2" ;;
    4k8)     base=yuv420p;  dchain="avgblur=2,noise=alls=8:allf=t" ;;
    esac
    timeout $tmo "$ffmpeg" -nostdin -hide_banner -loglevel error \
        -f lavfi -i "testsrc2=size=$size:rate=25,format=$base" -frames:v "$frames" \
        -filter_complex "[0:v]split[r][d];[r]format=$pix[ro];[d]$dchain,format=$pix[do]" \
        -map '[ro]' -f rawvideo -y "$dir/${c}_ref.yuv" \
        -map '[do]' -frames:v "$frames" -f rawvideo -y "$dir/${c}_dis.yuv"
}

case_params() { # case: sets size pix frames label
    case $1 in
    1080p8)  size=1920x1080 pix=yuv420p     frames=$(n_of 1200 "$scale") label="1080p 8-bit" ;;
    1080p10) size=1920x1080 pix=yuv420p10le frames=$(n_of 600 "$scale")  label="1080p 10-bit" ;;
    4k8)     size=3840x2160 pix=yuv420p     frames=$(n_of 300 "$scale")  label="4K 8-bit" ;;
    *) echo "unknown case $1 (1080p8 1080p10 4k8)" >&2; return 1 ;;
    esac
}

# One ffmpeg run of the current case: sets wall_ms, rc, busy.
#   ffrun name frames filter|"" [sample]
ffrun() {
    local name=$1 n=$2 filter=$3 sample=${4:-0} reps=${5:-1} dur t0 t1 walls= k
    local in
    dur=$(awk -v n="$n" 'BEGIN { printf "%.2f", n / 25 }')
    in=(-f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -t "$dur" -i "$dir/${case}_dis.yuv"
        -f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -t "$dur" -i "$dir/${case}_ref.yuv")
    if [ -n "$filter" ]; then
        set -- -lavfi "[0:v][1:v]$filter"
    else
        set -- -map 0 -map 1
    fi
    # reps runs, the median's wall time (the runs vary on a shared host);
    # the GPU sampled and the log kept of the last.
    for k in $(seq "$reps"); do
        [ "$sample" = 1 ] && [ "$k" = "$reps" ] && busy_start "$logs/$name.gpu"
        t0=$(date +%s%N)
        timeout $tmo "$ffmpeg" -nostdin -hide_banner -nostats "${in[@]}" "$@" -f null - \
            > "$logs/$name.err" 2>&1
        rc=$?
        t1=$(date +%s%N)
        walls="$walls $(( (t1 - t0) / 1000000 ))"
        [ $rc = 0 ] || break
    done
    wall_ms=$(echo $walls | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    busy=-
    [ "$sample" = 1 ] && busy=$(busy_stop "$logs/$name.gpu")
    [ $rc = 0 ] || echo "  ! $name failed (rc $rc): $(why "$logs/$name.err")"
    return 0
}

row() { # run backend frames floor_fps busy log
    local fps pct score
    fps=$(awk -v n="$3" -v ms="$wall_ms" 'BEGIN { printf "%.1f", n * 1000 / (ms > 0 ? ms : 1) }')
    pct=$(awk -v f="$fps" -v fl="$4" 'BEGIN { if (fl > 0) printf "%.0f%%", 100 * f / fl; else print "-" }')
    score=-
    [ -n "${6:-}" ] && [ -f "$6" ] && score=$(logtool mean "$6")
    [ $rc = 0 ] || { score="FAILED rc $rc"; fps=- pct=-; }
    printf '| %-12s | %-20s | %-4s | %6d | %7.2f | %7s | %7s | %-9s | %-11s |\n' \
        "$label" "$1" "$2" "$3" "$(awk -v ms="$wall_ms" 'BEGIN { print ms / 1000 }')" \
        "$fps" "$pct" "$5" "$score"
}

skipped() { printf '| %-12s | %-20s | %-4s | skipped: past BENCH_DEADLINE (%s s)\n' "$label" "$1" "$2" "$deadline"; }

# ---------------------------------------------------------------- machine
echo "== machine"
# BENCH_COMMIT: the build's commit, where the tree's git state is not the
# build's (a copy of the working tree on another machine).
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
echo "CPU: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1); memory: $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
if [ "$no_gpu" = 1 ]; then
    echo "GPU: none used (BENCH_NO_GPU=1: the 'gpu' runs are backend=cpu:n_threads=1)"
else
    nvidia-smi -L 2>&1
    nvidia-smi --query-gpu=driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null |
        sed 's/^/driver, max SM clock, power limit: /'
fi
echo "ffmpeg: $ffmpeg"
echo "frames scale: $scale (CPU runs: x$cpu_scale); cases: $cases; raw inputs in $dir ($(df -h --output=avail "$dir" | tail -n1 | tr -d ' ') free)"
[ -n "$dir_note" ] && echo "note: $dir_note"
echo "model file: ${model3d:-none found in $models: the v1.0.16 3d0h runs are skipped}"
echo "engine_bench: $engine_bench$([ -x "$engine_bench" ] || echo ' (missing: its part is skipped)')"

# ---------------------------------------------------------------- cases
echo
echo "== ffmpeg, raw frames in tmpfs: wall fps of the whole process (floor and $gtag runs:"
echo "   the median of $repeat runs' wall times; cpu runs: one)"
echo "   (% of floor: fps over the no-filter floor's fps; GPU busy: mean of nvidia-smi"
echo "   utilization.gpu every 100 ms over the run, and the number of samples)"
echo
echo "| case         | run                  | back | frames |  wall s |     fps | % floor | GPU busy  | VMAF mean   |"
echo "|--------------|----------------------|------|--------|---------|---------|---------|-----------|-------------|"
[ "$cpu_scale" = 1 ] || echo "| (the cpu runs score $cpu_scale of the frames: BENCH_CPU_FRAMES_SCALE; their % floor is against the same floor fps)"
parity_lines=()
first_case=
for case in $cases; do
    case_params "$case" || continue
    [ -n "$first_case" ] || first_case=$case
    cpu_frames=$(n_of "$frames" "$cpu_scale")
    if ! gen "$case"; then
        echo "| $label: making the inputs failed"
        continue
    fi
    if late; then skipped floor -; continue; fi
    ffrun "${case}_floor" "$frames" "" 0 "$repeat"
    floor_fps=$(awk -v n="$frames" -v ms="$wall_ms" 'BEGIN { printf "%.3f", n * 1000 / (ms > 0 ? ms : 1) }')
    row "floor (no filter)" - "$frames" 0 -

    runs="vmaf extras"
    [ -n "$model3d" ] && runs="$runs 3d0h"
    for r in $runs; do
        case $r in
        vmaf)   what="VMAF"               fopt="" ;;
        extras) what="VMAF + 4 extras"    fopt=":feature=$extras" ;;
        3d0h)   what="v1.0.16 3d0h model" fopt=":model=path=$model3d" ;;
        esac
        for b in $gtag cpu; do
            if [ "$b" = cpu ]; then n=$cpu_frames bopt="backend=cpu"; s=0 reps=1
            else n=$frames bopt=$gbopt; s=1 reps=$repeat; fi
            name=${case}_${r}_$b
            if late; then skipped "$what" "$b"; continue; fi
            ffrun "$name" "$n" "vmaf_hip=$bopt$fopt:log_fmt=json:log_path=$logs/$name.json" $s $reps
            row "$what" "$b" "$n" "$floor_fps" "$busy" "$logs/$name.json"
        done
        a=$logs/${case}_${r}_$gtag.json
        c=$logs/${case}_${r}_cpu.json
        if [ -f "$a" ] && [ -f "$c" ]; then
            p=$(logtool parity "$a" "$c" "$gtag" cpu)
        else
            p="FAIL: a log is missing (a run failed or was skipped)"
        fi
        parity_lines+=("$(printf '%-12s %-20s %s' "$label" "$what" "$p")")
    done
    # Free the tmpfs for the next case (the first one's files stay for
    # the start-up and the processes below).
    [ "$case" = "$first_case" ] || rm -f "$dir/${case}_ref.yuv" "$dir/${case}_dis.yuv"
done

echo
echo "== parity: the $gtag and cpu logs of each run, every per-frame value (common frames)"
[ ${#parity_lines[@]} -gt 0 ] && printf '%s\n' "${parity_lines[@]}"

# ---------------------------------------------------------------- start-up
echo
echo "== start-up: one frame of 1080p 8-bit (-frames:v 1), median of 5 runs"
if late; then
    echo "skipped: past BENCH_DEADLINE"
else
    case=1080p8; case_params $case
    if [ "$first_case" != 1080p8 ]; then frames=2; gen $case; fi
    med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    one() { # name filter
        local i t0 in
        in=(-f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -i "$dir/${case}_dis.yuv"
            -f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -i "$dir/${case}_ref.yuv")
        for i in 1 2 3 4 5; do
            t0=$(ms_now)
            if [ -n "$2" ]; then
                timeout 60 "$ffmpeg" -nostdin -hide_banner "${in[@]}" -lavfi "[0:v][1:v]$2" \
                    -frames:v 1 -f null - > "$logs/startup_$1_$i.err" 2>&1
            else
                timeout 60 "$ffmpeg" -nostdin -hide_banner "${in[@]}" -map 0 -map 1 \
                    -frames:v 1 -f null - > "$logs/startup_$1_$i.err" 2>&1
            fi || { echo "  ! start-up run $1 $i failed: $(why "$logs/startup_$1_$i.err")" >&2
                    touch "$logs/startup_failed"; }
            echo $(( $(ms_now) - t0 ))
        done | med
    }
    s0=$(one nofilter "")
    s1=$(one filter "vmaf_hip=$gbopt")
    echo "no filter: $s0 ms; vmaf_hip=$gbopt: $s1 ms; the filter's start-up: $((s1 - s0)) ms$([ -f "$logs/startup_failed" ] && echo ' (INVALID: runs failed)')"
fi

# ---------------------------------------------------------------- engine
echo
echo "== engine capacity (tests/engine_bench.c): 16 distinct frame pairs in memory, no reader"
echo "   (gpu: the engine's own GPU time per frame, its kernels and read-back; uploads run beside them)"
if [ ! -x "$engine_bench" ]; then
    echo "skipped: no engine_bench at $engine_bench (ENGINE_BENCH)"
else
    eb() { # label name options...
        local l=$1 name=$2 o
        shift 2
        if late; then printf '%-40s skipped: past BENCH_DEADLINE\n' "$l"; return; fi
        timeout $tmo "$engine_bench" "$@" > "$logs/engine_$name.txt" 2>&1
        o=$(sed -n 's/^engine: \([0-9.]*\) fps.*/\1 fps/p' "$logs/engine_$name.txt")
        printf '%-40s %-12s %s\n' "$l" "${o:-FAILED}" \
            "$(sed -n 's/^gpu: //p' "$logs/engine_$name.txt")"
        [ -n "$o" ] || tail -n3 "$logs/engine_$name.txt" | sed 's/^/  ! /'
    }
    if [ "$no_gpu" = 1 ]; then eo=(-B cpu -t 1); else eo=(-B gpu); fi
    for case in $cases; do
        case_params "$case" || continue
        case $case in
        1080p8)  so=(-s 1920x1080 -b 8)  nv=$(n_of 3000 "$scale") nx=$(n_of 600 "$scale") ;;
        1080p10) so=(-s 1920x1080 -b 10) nv=$(n_of 2000 "$scale") nx=$(n_of 400 "$scale") ;;
        4k8)     so=(-s 3840x2160 -b 8)  nv=$(n_of 800 "$scale")  nx=$(n_of 150 "$scale") ;;
        esac
        eb "$label VMAF, $nv frames" "${case}_vmaf" "${eo[@]}" "${so[@]}" -f "$nv"
        eb "$label VMAF + 4 extras, $nx frames" "${case}_extras" "${eo[@]}" "${so[@]}" -f "$nx" -F "$extras"
        if [ "$no_gpu" != 1 ]; then
            eb "$label VMAF, device frames" "${case}_device" "${eo[@]}" "${so[@]}" -f "$nv" -D 1
        fi
    done
fi

# ---------------------------------------------------------------- processes
echo
n=$(n_of 600 "$scale")
echo "== $procs ffmpeg processes at once, each 1080p 8-bit VMAF ($gbopt), $n frames each"
if late; then
    echo "skipped: past BENCH_DEADLINE"
else
    case=1080p8; case_params $case
    [ -f "$dir/${case}_dis.yuv" ] && [ "$(stat -c %s "$dir/${case}_dis.yuv")" -ge $((n * 3110400)) ] ||
        { frames=$n; gen $case; }
    dur=$(awk -v n="$n" 'BEGIN { printf "%.2f", n / 25 }')
    procs_run() { # filter|"": sets wall_ms and failed
        local i p pids=() t0 t1
        t0=$(date +%s%N)
        for i in $(seq "$procs"); do
            if [ -n "$1" ]; then set -- "$1" -lavfi "[0:v][1:v]$1:log_fmt=json:log_path=$logs/proc_$i.json"
            else set -- "" -map 0 -map 1; fi
            timeout $tmo "$ffmpeg" -nostdin -hide_banner -nostats \
                -f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -t "$dur" -i "$dir/${case}_dis.yuv" \
                -f rawvideo -pix_fmt "$pix" -video_size "$size" -framerate 25 -t "$dur" -i "$dir/${case}_ref.yuv" \
                "${@:2}" -f null - > "$logs/proc_$i.err" 2>&1 &
            pids+=($!)
            set -- "$1"
        done
        failed=0
        for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
        t1=$(date +%s%N)
        wall_ms=$(( (t1 - t0) / 1000000 ))
    }
    # Their floor: as many processes reading the same inputs, no filter.
    procs_run ""
    awk -v p="$procs" -v n="$n" -v ms="$wall_ms" -v f="$failed" 'BEGIN {
        printf "floor, no filter: %d x %d frames in %.2f s: %.1f fps in all; %d failed\n",
               p, n, ms / 1000, p * n * 1000 / ms, f }'
    busy_start "$logs/procs.gpu"
    procs_run "vmaf_hip=$gbopt"
    busy=$(busy_stop "$logs/procs.gpu")
    awk -v p="$procs" -v n="$n" -v ms="$wall_ms" -v b="$busy" -v f="$failed" 'BEGIN {
        printf "%d x %d frames in %.2f s (the slowest): %.1f fps in all, %.1f per process; GPU busy %s; %d failed\n",
               p, n, ms / 1000, p * n * 1000 / ms, n * 1000 / ms, b, f }'
    # Every process's values: those of one alone.
    ref=$logs/1080p8_vmaf_$gtag.json
    if [ -f "$ref" ]; then
        bad=0
        for i in $(seq "$procs"); do
            if [ -f "$logs/proc_$i.json" ]; then
                r=$(logtool parity "$logs/proc_$i.json" "$ref" proc single 2>&1) || { bad=1; echo "process $i: $r"; }
            else
                bad=1; echo "process $i: FAIL: no log ($(why "$logs/proc_$i.err"))"
            fi
        done
        [ $bad = 0 ] && echo "parity: every process's per-frame values are those of the single run: PASS"
    else
        echo "parity: no log of a single 1080p 8-bit VMAF run ($gtag) to compare with"
    fi
fi

echo
echo "total: $(( $(date +%s) - t_start )) s"
