#!/bin/bash
# Two checks of the default, made on an H100 host (device call 11; the
# archive of a84d89c, whose filter is that of cdd1e90):
#   1. -frames:v 1 on 3,000-frame 1080p raw inputs, 12 runs, backend=cpu in
#      runs 1, 5 and 9: every frame a run logged against run 1's log (a
#      run logs the frames that left the filter, a number that varies);
#   2. what the filter costs software decoders at two lengths: 600 and
#      3,000 frames of 1080p H.264 (libx264 veryfast, made there), wall ms
#      of the whole process, 3 runs each, decoders alone, backend=gpu and
#      the default; the difference of the two lengths is the steady rate.
#
# Usage: bash tools/results/swdecode-lengths-h100-a84d89c.sh <ffmpeg>
# Output: tools/results/swdecode-lengths-h100-a84d89c.txt
t0=$(date +%s); set -o pipefail
F=${1:?usage: swdecode-lengths-h100-a84d89c.sh <ffmpeg>}; OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
d=/dev/shm/w; mkdir -p $d
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
$F -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 3000 -pix_fmt yuv420p -f rawvideo -y $d/ref.yuv
$F -v error $IN -i $d/ref.yuv -vf avgblur=2,noise=alls=8:allf=t -f rawvideo -y $d/dis.yuv
echo "inputs $(( $(date +%s) - t0 )) s"
cmpj() { python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
fa, fb = a['frames'], b['frames']
n = min(len(fa), len(fb))
bad = [(i, k, fa[i]['metrics'][k], fb[i]['metrics'].get(k)) for i in range(n) for k in fa[i]['metrics'] if fa[i]['metrics'][k] != fb[i]['metrics'].get(k)]
pm = a['pooled_metrics'] == b['pooled_metrics'] if len(fa) == len(fb) else None
print('frames %d %d; differing values %d %s; pooled same %s' % (len(fa), len(fb), len(bad), bad[:6], pm))
sys.exit(1 if bad or pm is False else 0)
PY
}
echo "== -frames:v 1 of 3000: default runs against cpu runs"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  b=auto; [ $((i % 4)) = 1 ] && b=cpu
  s=$(date +%s%N)
  $F -v error $IN -i $d/dis.yuv $IN -i $d/ref.yuv -lavfi "vmaf_hip=log_fmt=json:log_path=$d/l$i.json:backend=$b" -frames:v 1 -f null - 2> $d/e$i.txt
  echo -n "run $i $b rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms: "
  cmpj $d/l$i.json $d/l1.json || { [ $(ls $OUT | wc -l) -lt 6 ] && cp $d/l$i.json $d/e$i.txt $OUT/; }
  [ $i = 1 ] && cp $d/l1.json $OUT/cpu_l1.json
done

rm -f $d/*.yuv
echo "== software decoding: 600 and 3000 frames of 1080p H.264, wall ms, 3 runs each $(date +%T)"
for n in 600 3000; do
$F -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v $n -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf 18 -y $d/r$n.mp4
$F -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v $n -vf avgblur=2,noise=alls=8:allf=t -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf 30 -y $d/d$n.mp4
done
echo "encoded $(( $(date +%s) - t0 )) s"
for n in 600 3000; do
  for v in none gpu auto; do
    echo -n "$n frames, $v: "
    for r in 1 2 3; do
      s=$(date +%s%N)
      if [ $v = none ]; then $F -v error -i $d/d$n.mp4 -i $d/r$n.mp4 -map 0 -map 1 -f null - 2> $d/o.txt
      else $F -v verbose -i $d/d$n.mp4 -i $d/r$n.mp4 -lavfi "vmaf_hip=backend=$v" -f null - > $d/o.txt 2>&1; fi
      echo -n "$(( ($(date +%s%N) - s) / 1000000 )) "
    done
    echo; grep -E "held while|caller's thread|From frame" $d/o.txt | sed 's/^\[[^]]*\] /   /'
  done
done
echo "elapsed $(( $(date +%s) - t0 )) s"
