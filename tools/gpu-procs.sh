#!/bin/bash
# Several ffmpeg processes scoring 1080p 8-bit VMAF on one GPU at once, in
# one run: what their aggregate rate is made of and what moves it.
#
# Usage: tools/gpu-procs.sh <ffmpeg>
#
# For PROCS processes (default 8) of N frames each (default 600), the median
# of REPEAT rounds (default 3), wall time of the slowest process:
#   1. the floor (no filter), backend=gpu, backend=gpu:n_threads=2 (the
#      staging copies on 2 threads a process), the default (backend=auto:
#      the CPU first while the driver starts) and the default with
#      n_threads=2;
#   2. the same with the C library told to keep freed memory
#      (GLIBC_TUNABLES, for every process: the raw reader's page faults);
#   3. long runs, each process reading its inputs LOOPS + 1 times
#      (-stream_loop, default 4: 3,000 frames), where the driver's start
#      weighs less;
#   4. one process alone, as long, for its time and CPU time a pair;
#   5. where nvidia-cuda-mps-control is found, backend=gpu and the default
#      over N frames, backend=gpu (also with n_threads=2, and with the
#      tunables) over the long runs, with the processes as clients of an
#      MPS server started for the run (its pipe and log in the run's
#      folder; stopped at the end): one GPU context for all of them instead
#      of one each, which the GPU time-slices; it runs before part 4, which
#      leaves one process;
# per variant, the CPU time the processes took (user and system, of all
# rounds), the processes' own accounts (-v verbose): the GPU's start,
# and per pair on the filter's thread the staging, queueing and waiting;
# and the parity of every process's log against one backend=cpu run.
# SECTIONS (default "1 2 3 4 5") picks the parts to run.
set -u
export LC_ALL=C
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
F=$1
need_ffmpeg "$F"
P=${PROCS:-8}
N=${FRAMES:-600}
R=${REPEAT:-3}
LOOPS=${LOOPS:-4}
SECTIONS=${SECTIONS:-1 2 3 4 5}
dir=${BENCH_DIR:-/dev/shm/vmaf-procs}
TUNE='glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=8589934592'
rm -rf "$dir"
mkdir -p "$dir/logs" || exit 1
mps_stop() {
    [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] && echo quit | nvidia-cuda-mps-control >/dev/null 2>&1
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
trap 'mps_stop; rm -rf "$dir"' EXIT
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"
echo "CPU: $(nproc) CPUs; GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v "$N" -pix_fmt yuv420p \
    -f rawvideo -y "$dir/ref.yuv" || exit 1
"$F" -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25 -i "$dir/ref.yuv" \
    -vf avgblur=2,noise=alls=8:allf=t -f rawvideo -y "$dir/dis.yuv" || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
# CPU seconds (user + system) of this shell's children so far, into $1
# (times must run in this shell, not in a subshell of its own).
cpu_s() {
    times > "$dir/times"
    printf -v "$1" '%s' "$(tail -n1 "$dir/times" | tr 'ms' '  ' | awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }')"
}
med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The single run every process's values are compared with.
"$F" -v error $IN -i "$dir/dis.yuv" $IN -i "$dir/ref.yuv" \
    -lavfi "vmaf_hip=backend=cpu:log_fmt=json:log_path=$dir/cpu.json" -f null - || exit 1

cat > "$dir/tool.py" <<'EOF'
import json, re, sys
def frames(p):
    with open(p) as f:
        d = json.load(f, parse_float=str, parse_int=str)
    return [fr["metrics"] for fr in d["frames"]], d.get("pooled_metrics")
if sys.argv[1] == "parity":     # parity ref loops logs...
    ref, pooled = frames(sys.argv[2])
    loops = int(sys.argv[3])
    for p in sys.argv[4:]:
        try:
            got, gp = frames(p)
        except Exception as e:
            print("FAIL: %s: %s" % (p, e)); sys.exit(1)
        # A looped input repeats the frames; motion2 of a loop's first
        # frame sees the previous loop's last: compare the first pass.
        n = len(ref)
        if len(got) != n * (loops + 1) or got[:n - 1] != ref[:n - 1] or \
           (loops == 0 and (got != ref or gp != pooled)):
            print("FAIL: %s differs from the cpu run" % p); sys.exit(1)
    print("PASS: %d logs, every value of the cpu run's frames identical" % (len(sys.argv) - 4))
elif sys.argv[1] == "account":  # account logs...: means over the processes
    keys = ("ready", "staging", "queueing", "waiting", "reading")
    v = {k: [] for k in keys}
    for p in sys.argv[2:]:
        t = open(p, errors="replace").read()
        m = re.search(r"GPU ready in ([0-9.]+) ms", t)
        if m: v["ready"].append(float(m.group(1)))
        m = re.search(r"GPU path, caller's thread, per frame over \d+ frames: ([0-9.]+) us staging"
                      r"[^,]*, ([0-9.]+) us queueing[^,]*, ([0-9.]+) us waiting[^,]*, ([0-9.]+) us reading", t)
        if m:
            for k, x in zip(keys[1:], m.groups()):
                v[k].append(float(x))
    out = []
    if v["ready"]:
        out.append("GPU ready %.0f-%.0f ms" % (min(v["ready"]), max(v["ready"])))
    if v["staging"]:
        out.append("per pair: staging %.0f, queueing %.0f, waiting %.0f, reading back %.0f us (means)"
                   % tuple(sum(v[k]) / len(v[k]) for k in keys[1:]))
    print("; ".join(out) if out else "no account in the logs")
EOF

# run label env loops options|-: PROCS processes at once, REPEAT rounds, with
# vmaf_hip given those options ("": none), or with no filter (-).
run() {
    local label=$1 env=$2 loops=$3 opts=$4 walls="" t0 fail=0 pids i r lp="" c0 c1 cpu_ms=0
    [ "$loops" -gt 0 ] && lp="-stream_loop $loops"
    for r in $(seq "$R"); do
        pids=()
        rm -f "$dir"/logs/p*.json "$dir"/logs/p*.err
        cpu_s c0
        t0=$(date +%s%N)
        for i in $(seq "$P"); do
            if [ "$opts" != - ]; then
                set -- -lavfi "vmaf_hip=${opts:+$opts:}log_fmt=json:log_path=$dir/logs/p$i.json"
            else
                set -- -map 0 -map 1
            fi
            env $env timeout 300 "$F" -nostdin -hide_banner -nostats -v verbose \
                $lp $IN -i "$dir/dis.yuv" $lp $IN -i "$dir/ref.yuv" "$@" -f null - \
                > "$dir/logs/p$i.err" 2>&1 &
            pids+=($!)
        done
        for i in "${pids[@]}"; do wait "$i" || fail=$((fail + 1)); done
        walls="$walls $(( ($(date +%s%N) - t0) / 1000000 ))"
        cpu_s c1
        cpu_ms=$(awk -v a="$c0" -v b="$c1" -v t="$cpu_ms" 'BEGIN { print t + (b - a) * 1000 }')
    done
    ms=$(echo $walls | med)
    printf '%-44s %6d ms (%s): %6.0f fps in all%s\n' "$label" "$ms" "${walls# }" \
        "$(awk -v p="$P" -v n="$N" -v l="$loops" -v ms="$ms" 'BEGIN { print p * n * (l + 1) * 1000 / ms }')" \
        "$([ $fail = 0 ] || echo "; $fail processes FAILED")"
    # The cores' time, all rounds: of the wall time times the cores, and a pair.
    awk -v c="$cpu_ms" -v w="$(echo $walls | awk '{ for (i = 1; i <= NF; i++) t += $i; print t }')" -v n="$(nproc)" \
        -v pairs="$((P * N * (loops + 1) * R))" \
        'BEGIN { printf "   CPU: %.0f %% of %d cores busy, %.2f ms of CPU time a pair\n", 100 * c / (w * n), n, c / pairs }'
    if [ "$opts" != - ]; then
        echo "   last round: $(python3 "$dir/tool.py" account "$dir"/logs/p*.err)"
        echo "   $(python3 "$dir/tool.py" parity "$dir/cpu.json" "$loops" "$dir"/logs/p*.json)"
    fi
}

if want 1; then
echo "== 1. $P processes x $N frames of 1080p 8-bit VMAF, median of $R rounds"
run "floor (no filter)" "" 0 -
run "backend=gpu" "" 0 "backend=gpu"
run "backend=gpu:n_threads=2" "" 0 "backend=gpu:n_threads=2"
run "default (backend=auto)" "" 0 ""
run "default, n_threads=2" "" 0 "n_threads=2"
fi
if want 2; then
echo "== 2. the same, GLIBC_TUNABLES=$TUNE"
run "floor (no filter)" "GLIBC_TUNABLES=$TUNE" 0 -
run "backend=gpu" "GLIBC_TUNABLES=$TUNE" 0 "backend=gpu"
run "backend=gpu:n_threads=2" "GLIBC_TUNABLES=$TUNE" 0 "backend=gpu:n_threads=2"
run "default, n_threads=2" "GLIBC_TUNABLES=$TUNE" 0 "n_threads=2"
fi
if want 3; then
echo "== 3. $P processes x $((N * (LOOPS + 1))) frames (-stream_loop $LOOPS), median of $R rounds"
run "floor (no filter)" "" "$LOOPS" -
run "backend=gpu" "" "$LOOPS" "backend=gpu"
run "backend=gpu:n_threads=2" "" "$LOOPS" "backend=gpu:n_threads=2"
run "floor, tunables" "GLIBC_TUNABLES=$TUNE" "$LOOPS" -
run "backend=gpu:n_threads=2, tunables" "GLIBC_TUNABLES=$TUNE" "$LOOPS" "backend=gpu:n_threads=2"
fi
if want 5; then
echo "== 5. under MPS: the processes as clients of one MPS server"
if ! command -v nvidia-cuda-mps-control >/dev/null 2>&1; then
    echo "skipped: no nvidia-cuda-mps-control"
else
    export CUDA_MPS_PIPE_DIRECTORY=$dir/mps-pipe CUDA_MPS_LOG_DIRECTORY=$dir/mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    if ! nvidia-cuda-mps-control -d; then
        echo "skipped: the MPS server did not start"
        unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    else
        run "MPS: $N frames, backend=gpu" "" 0 "backend=gpu"
        run "MPS: $N frames, default (backend=auto)" "" 0 ""
        run "MPS: $((N * (LOOPS + 1))) frames, backend=gpu" "" "$LOOPS" "backend=gpu"
        run "MPS: $((N * (LOOPS + 1))) frames, backend=gpu:n_threads=2" "" "$LOOPS" "backend=gpu:n_threads=2"
        run "MPS: $((N * (LOOPS + 1))) frames, n_threads=2, tunables" "GLIBC_TUNABLES=$TUNE" "$LOOPS" "backend=gpu:n_threads=2"
        grep -h -i "error\|fail" "$CUDA_MPS_LOG_DIRECTORY"/*.log 2>/dev/null | head -5
        mps_stop
    fi
fi
fi
# Last: it sets P to one process.
if want 4; then
echo "== 4. one process alone, $((N * (LOOPS + 1))) frames, median of $R rounds"
P=1
run "floor (no filter)" "" "$LOOPS" -
run "backend=gpu" "" "$LOOPS" "backend=gpu"
fi
