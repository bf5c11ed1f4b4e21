#!/bin/bash
# The device call behind bench-chunks-h100-b4dfca8.txt, as run from the
# repository's root (ARCHIVE: b4dfca8's `make dist` archive; PYDEPS: Debian
# 12's dask, distributed and their pure-Python needs, a tar.xz; $OUT: where the
# outputs go): the long pair whole, on Dask by 8, 4, 2 and 1 workers with
# NVDEC, 8 jobs without Dask, Dask 8 + 1 CPU-decoding worker, then the same
# worker counts with software decoding.
# usage: bench-chunks-h100-b4dfca8.sh (no arguments)
t0=$(date +%s); set -o pipefail
. "$(dirname "$0")/archive-env.sh"
D=$((t0+560))
bc() { BENCH_DEADLINE=$D tools/bench-chunks.sh $b /tmp/long 12000 "$@" 2>&1; }
echo "== whole; Dask 8 4 2 1, NVDEC, $(date +%T)"
bc "8 4 2 1" nvdec | tee $OUT/nvdec.txt
echo "== jobs 8, $(date +%T)"
env -u PYTHONPATH BENCH_DEADLINE=$D BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee $OUT/var.txt
echo "== Dask 8 + 1 CPU-decoding (a fifth), $(date +%T)" | tee -a $OUT/var.txt
BENCH_SW=1 BENCH_KEEP_WHOLE=1 bc 8 nvdec | grep -v '^decode\|nvdec  whole' | tee -a $OUT/var.txt
echo "== whole; Dask 8 4 2 1, software decoding, $(date +%T)"
bc "8 4 2 1" sw | tee $OUT/sw.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
