#!/bin/bash
# The three device calls behind bench-chunks-h100-a84d89c.txt, as run from the
# repository's root (ARCHIVE: the commit's `make dist` archive, 030f2ac for
# call 6 and a84d89c for calls 7 and 9; PYDEPS: Debian 12's dask, distributed and
# their pure-Python needs, a tar.xz; $OUT: where the outputs go).
# usage: bench-chunks-h100-a84d89c.sh CALL (6, 7 or 9)
case ${1:-} in
6|7|9) ;;
-h|--help) echo "usage: bench-chunks-h100-a84d89c.sh CALL (6, 7 or 9)"; exit 0 ;;
*) echo "usage: bench-chunks-h100-a84d89c.sh CALL (6, 7 or 9)" >&2; exit 2 ;;
esac
set -o pipefail
t0=$(date +%s)
mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
b=$(echo /tmp/a/*/bin)
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 & dm=$!
secs() { awk -v a=$1 -v b=$(date +%s.%N) 'BEGIN{printf "%.2f s", b-a}'; }
same() { grep -v '^decode\|nvdec  whole\|^# [0-9]* frames, 1080p\|KEEP_WHOLE'; }
# bc DEADLINE ARGS...: the bench on the long pair, runs after DEADLINE skipped
bc() { local d=$1; shift; BENCH_DEADLINE=$d tools/bench-chunks.sh $b /tmp/long 12000 "$@" 2>&1; }
# jobs8 DEADLINE: 8 chunks as processes of vmaf_chunks.py run, no Dask
jobs8() {
    echo "== jobs 8, $(date +%T)"
    env -u PYTHONPATH BENCH_KEEP_WHOLE=1 BENCH_DEADLINE=$1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | same
}

call6() {
    # Dask on worker threads; NVDEC with CPU-decoding workers beside it; phases
    python3 --version
    for i in 1 2; do s=$(date +%s.%N); nvidia-smi -L > /dev/null; echo "nvidia-smi -L: $(secs $s)"; done
    s=$(date +%s.%N); python3 -c 'import distributed'; echo "import distributed: $(secs $s)"
    D=$((t0+520))
    echo "== whole, Dask 8 (threads), $(date +%T)"
    bc $D 8 nvdec
    jobs8 $D
    for v in "1 0.1" "1 0.2" "2 0.2" "1 0.15" "2 0.3"; do
        set -- $v
        echo "== Dask 8 + $1 CPU-decoding, share $2, $(date +%T)"
        BENCH_SW=$1 BENCH_SW_SHARE=$2 BENCH_KEEP_WHOLE=1 bc $D 8 nvdec | same
    done
    echo "== Dask 8 again, $(date +%T)"
    BENCH_KEEP_WHOLE=1 bc $D 8 nvdec | same
    echo "== Dask 8 worker processes, $(date +%T)"
    s=$(date +%s.%N)
    python3 $b/vmaf-cluster --pair /tmp/long/dis.mp4 /tmp/long/ref.mp4 --chunk-frames 1500 --per-gpu 8 \
        --cpu-workers 0 --processes --nvdec --ffmpeg $b/ffmpeg -o /tmp/long/procs -q 2>&1 | tail -n 1
    echo "wall $(secs $s)"
    grep -v '"fps"' /tmp/long/procs/logs/pair.json | cmp -s - /tmp/long/whole-nvdec.json.cmp && echo "cmp: the whole run's"
}

call7() {
    # one CPU-decoding worker by default (a fifth), shares around it; jobs; Dask 8; software decoding
    D=$((t0+450))
    echo "== whole; Dask 8 + 1 CPU-decoding (default share), $(date +%T)"
    BENCH_SW=1 bc $D 8 nvdec
    for v in "1 " "1 0.25" "1 0.22" "1 " "0 "; do
        set -- $v
        echo "== Dask 8 + $1 CPU-decoding, share ${2:-default}, $(date +%T)"
        BENCH_SW=$1 BENCH_SW_SHARE=${2:-} BENCH_KEEP_WHOLE=1 bc $D 8 nvdec | same
    done
    jobs8 $D
    echo "== software decoding: whole, Dask 8, $(date +%T)"
    bc $D 8 sw | grep -v '^decode'
}

call9() {
    # whole, Dask 8, Dask 8 + 1 CPU-decoding (a fifth), jobs 8, within the device time left
    D=$((t0+250))
    echo "== whole; Dask 8, $(date +%T)"
    bc $D 8 nvdec
    echo "== Dask 8 + 1 CPU-decoding (a fifth), $(date +%T)"
    BENCH_SW=1 BENCH_KEEP_WHOLE=1 bc $D 8 nvdec | same
    jobs8 $D
}

call$1
kill $dm
echo "elapsed $(( $(date +%s) - t0 )) s"
