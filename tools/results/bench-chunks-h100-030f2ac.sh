#!/bin/bash
# Dask on worker threads; NVDEC + CPU-decoding split; phases
t0=$(date +%s); set -o pipefail
mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf carry/vmaf-hip-*.tar.xz && tar -C /tmp/site -xJf carry/pydeps.tar.xz || exit 1
python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
b=$(echo /tmp/a/*/bin)
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
python3 --version
for i in 1 2; do s=$(date +%s.%N); nvidia-smi -L > /dev/null; echo "nvidia-smi -L: $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.2f s", b-a}')"; done
s=$(date +%s.%N); python3 -c 'import distributed'; echo "import distributed: $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.2f s", b-a}')"
nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 & dm=$!
vmstat -t 1 > $OUT/vmstat.txt 2>&1 & vm=$!
D=$((t0+520))
bc() { BENCH_DEADLINE=$D tools/bench-chunks.sh $b /tmp/long 12000 "$@" 2>&1; }
echo "== whole, Dask 8 (threads), $(date +%T)"
bc 8 nvdec | tee $OUT/bc-nvdec.txt
echo "== jobs 8, $(date +%T)"
env -u PYTHONPATH BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
for v in "1 0.1" "1 0.2" "2 0.2" "1 0.15" "2 0.3"; do
  set -- $v
  echo "== Dask 8 + $1 CPU-decoding, share $2, $(date +%T)" | tee -a $OUT/bc-var.txt
  BENCH_SW=$1 BENCH_SW_SHARE=$2 BENCH_KEEP_WHOLE=1 bc 8 nvdec | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
done
echo "== Dask 8 again, $(date +%T)" | tee -a $OUT/bc-var.txt
BENCH_KEEP_WHOLE=1 bc 8 nvdec | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
if [ $(date +%s) -lt $((t0+500)) ]; then
  echo "== Dask 8 worker processes, $(date +%T)" | tee -a $OUT/bc-var.txt
  s=$(date +%s.%N)
  python3 $b/vmaf-cluster --pair /tmp/long/dis.mp4 /tmp/long/ref.mp4 --chunk-frames 1500 --per-gpu 8 --cpu-workers 0 --processes --nvdec --ffmpeg $b/ffmpeg -o /tmp/long/procs -q 2>&1 | tail -n 1 | tee -a $OUT/bc-var.txt
  echo "wall $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.1f s", b-a}')" | tee -a $OUT/bc-var.txt
  grep -v '"fps"' /tmp/long/procs/logs/pair.json | cmp -s - /tmp/long/whole-nvdec.json.cmp && echo "cmp: the whole run's" | tee -a $OUT/bc-var.txt
fi
kill $dm $vm
echo "elapsed $(( $(date +%s) - t0 )) s"
