#!/bin/bash
# Eight chunk-like processes at once on the long pair (12,000 frames of 1080p
# H.264 made here as tools/bench-chunks.sh makes it: a 24 Mbit/s reference
# and a distorted file of 90 MB), 1,500 frames each from its own start:
# decoding alone and with vmaf_hip, both files on NVDEC against the reference
# on NVDEC and the distorted file on the CPU, and each file alone; wall ms of
# the eight together, two rounds.
# Usage: bash tools/results/nvdec-inputs-h100-b4dfca8.sh <ffmpeg>
# Output: tools/results/nvdec-inputs-h100-b4dfca8.txt
F=${1:?usage: nvdec-inputs-h100-b4dfca8.sh <ffmpeg>}
t0=$(date +%s); set -o pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
w=/dev/shm/long; mkdir -p $w
$F -hide_banner -nostdin -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=24,noise=alls=4:allf=t+u,format=yuv420p" \
  -filter_complex "[0:v]split[a][b]" -map "[a]" -frames:v 12000 -c:v libx264 -preset veryfast -crf 16 $w/ref.mp4 \
  -map "[b]" -frames:v 12000 -c:v libx264 -preset veryfast -crf 32 -bf 3 $w/dis.mp4 || exit 1
echo "pair $(( $(date +%s) - t0 )) s"
HW="-hwaccel cuda -hwaccel_output_format cuda"
# eight k: 8 processes at once, segment k*1500.., 1500 frames; $1 dist opts, $2 ref opts, $3 filter or none
eight() {
  local s=$(date +%s%N)
  for k in 0 1 2 3 4 5 6 7; do
    ss=$(awk -v k=$k 'BEGIN{print k*62.5}')
    if [ "$3" = none ]; then
      $F -v error -nostdin $1 -ss $ss -i $w/dis.mp4 $2 -ss $ss -i $w/ref.mp4 -map 0 -map 1 -frames:v 1500 -f null - 2> $w/e$k.txt &
    else
      $F -v error -nostdin $1 -ss $ss -i $w/dis.mp4 $2 -ss $ss -i $w/ref.mp4 -lavfi "vmaf_hip" -frames:v 1500 -f null - 2> $w/e$k.txt &
    fi
  done
  wait
  echo -n "$(( ($(date +%s%N) - s) / 1000000 )) ms "
  cat $w/e*.txt | head -3
}
one() { # $1 file, $2 opts: 8 processes decoding that file alone
  local s=$(date +%s%N)
  for k in 0 1 2 3 4 5 6 7; do
    ss=$(awk -v k=$k 'BEGIN{print k*62.5}')
    $F -v error -nostdin $2 -ss $ss -i $w/$1 -frames:v 1500 -f null - 2> $w/e$k.txt &
  done
  wait
  echo -n "$(( ($(date +%s%N) - s) / 1000000 )) ms "
  cat $w/e*.txt | head -3
}
for r in 1 2; do
echo "== round $r $(date +%T)"
echo -n "decode only, both NVDEC: "; eight "$HW" "$HW" none; echo
echo -n "decode only, ref NVDEC, dist CPU: "; eight "" "$HW" none; echo
echo -n "decode only, dist alone on CPU: "; one dis.mp4 ""; echo
echo -n "decode only, ref alone on NVDEC: "; one ref.mp4 "$HW"; echo
echo -n "decode only, ref alone on CPU: "; one ref.mp4 ""; echo
echo -n "vmaf_hip, both NVDEC: "; eight "$HW" "$HW" vmaf; echo
echo -n "vmaf_hip, ref NVDEC, dist CPU: "; eight "" "$HW" vmaf; echo
done
echo "elapsed $(( $(date +%s) - t0 )) s"
