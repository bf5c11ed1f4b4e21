#!/bin/bash
# The device call behind bench-chunks-h200-1fc9db4.txt, as run from the
# repository's root (ARCHIVE: 1fc9db4's `make dist` archive; PYDEPS: Debian
# 12's dask, distributed and their pure-Python needs, a tar.xz; $OUT: where the
# outputs go): the long pair whole and on Dask by 8 workers, both files on
# NVDEC (nvdec) and the reference alone there, the distorted file on the CPU
# (nvdec-ref: --nvdec --sw-input distorted); then the same as 8 jobs, no Dask.
# usage: bench-chunks-h200-1fc9db4.sh (no arguments)
t0=$(date +%s); set -o pipefail
. "$(dirname "$0")/archive-env.sh"
D=$((t0+400))
echo "== whole and Dask 8: nvdec, then nvdec-ref, $(date +%T)"
BENCH_DEADLINE=$D tools/bench-chunks.sh $b /tmp/long 12000 8 "nvdec nvdec-ref" 2>&1 | tee $OUT/dask.txt
echo "== jobs 8: nvdec, nvdec-ref, $(date +%T)"
env -u PYTHONPATH BENCH_DEADLINE=$D BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 "nvdec nvdec-ref" 2>&1 | tee $OUT/jobs.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
