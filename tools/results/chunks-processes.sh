#!/bin/bash
# The call behind chunks-processes-h100-a1d969e.txt (D: its deadline in s), then tools/bench-default.sh
# usage: ARCHIVE=<make dist's archive> PYDEPS=<Debian's Dask, a tar.xz> chunks-processes.sh
case ${1:-} in
-h|--help) echo "usage: ARCHIVE=<make dist's archive> PYDEPS=<Debian's Dask, a tar.xz> chunks-processes.sh"; exit 0 ;;
?*) echo "usage: ARCHIVE=<make dist's archive> PYDEPS=<Debian's Dask, a tar.xz> chunks-processes.sh" >&2; exit 2 ;;
esac
t0=$(date +%s); set -o pipefail
mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?the archive of make dist}" &&
  tar -C /tmp/site -xJf "${PYDEPS:?Debian 12 dask, distributed and their pure-Python needs, a tar.xz}" || exit 1
b=$(echo /tmp/a/*/bin)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
left() { echo $(( t0 + ${D:-555} - $(date +%s) )); }
export PYTHONPATH=/tmp/site
L=/tmp/l6; mkdir -p $L
s=$(date +%s)
$b/ffmpeg -hide_banner -nostdin -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=24,noise=alls=4:allf=t+u,format=yuv420p" \
  -filter_complex "[0:v]split[a][b]" -map "[a]" -frames:v 6000 -c:v libx264 -preset veryfast -crf 16 $L/ref.mp4 \
  -map "[b]" -frames:v 6000 -c:v libx264 -preset veryfast -crf 32 -bf 3 $L/dis.mp4 || exit 1
echo "== pair of 6000 frames made in $(( $(date +%s) - s )) s" | tee $OUT/extra.txt
HW="-hwaccel cuda -hwaccel_output_format cuda"
tm() { local a=$(date +%s.%N); "$@"; local r=$?; local e=$(date +%s.%N); awk -v a=$a -v b=$e -v r=$r 'BEGIN{printf "%.2f s, %.1f fps, rc %d", b-a, 6000/(b-a), r}'; }
cmpw() { grep -v '"fps"' "$1" | cmp -s - $L/whole.cmp && echo "cmp: the whole run's" || echo "cmp: DIFFERS"; }
echo "whole (NVDEC, one process): $(tm $b/ffmpeg -hide_banner -nostdin -v error $HW -i $L/dis.mp4 $HW -i $L/ref.mp4 -lavfi vmaf_hip=log_fmt=json:log_path=$L/whole.json -f null -)" | tee -a $OUT/extra.txt
grep -v '"fps"' $L/whole.json > $L/whole.cmp
jobs8() { python3 $b/vmaf_chunks.py run --chunk-frames 750 --jobs 8 --nvdec --ffmpeg $b/ffmpeg --log-fmt json --log-path $L/j.json $L/dis.mp4 $L/ref.mp4 > $L/j.log 2>&1; }
echo "8 chunks, 8 processes (vmaf_chunks.py --jobs 8): $(tm jobs8) $(cmpw $L/j.json)" | tee -a $OUT/extra.txt
for p in 1 2 4; do [ $(left) -gt 40 ] || break
  echo "8 chunks in $p process(es): $(tm python3 tools/results/chunks-processes.py $b $L/dis.mp4 $L/ref.mp4 750 $p 1 $L/m$p.json) $(cmpw $L/m$p.json)" | tee -a $OUT/extra.txt
done
if [ $(left) -gt 40 ]; then
  dask8() { python3 $b/vmaf-cluster --pair $L/dis.mp4 $L/ref.mp4 --chunk-frames 750 --per-gpu 8 --cpu-workers 0 --nvdec --ffmpeg $b/ffmpeg -o $L/dask -q > $L/dask.log 2>&1; }
  echo "8 chunks on Dask, 8 workers on the GPU (vmaf-cluster --per-gpu 8 --nvdec): $(tm dask8) $(cmpw $L/dask/logs/pair.json)" | tee -a $OUT/extra.txt
  tail -n 3 $L/dask.log
fi
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
if [ $(left) -gt 30 ] && nvidia-cuda-mps-control -d; then
  echo "under MPS, 8 chunks, 8 processes: $(tm jobs8) $(cmpw $L/j.json)" | tee -a $OUT/extra.txt
  echo quit | nvidia-cuda-mps-control
fi
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
rm -rf $L
r=$(left); [ $r -gt 40 ] && SECTIONS="${SECTIONS:-1 2 3}" LENGTHS="${LENGTHS:-1 25 100 300 1200 3000 f1}" BENCH_COMMIT=a1d969e timeout $r tools/bench-default.sh $b/ffmpeg 2>&1 | tee $OUT/bench-default.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
