#!/bin/bash
# The five device calls behind bench-chunks-h100-8b1720d.txt, as run from the
# repository's root (ARCHIVE: the commit's `make dist` archive; PYDEPS: Debian
# 12's dask, distributed and their pure-Python needs, a tar.xz; $OUT: where the
# outputs go). Each call ran by itself; calls 1 and 2 on one host.
# usage: bench-chunks-h100-8b1720d.sh CALL (1 to 5)
case ${1:-} in
1|2|3|4|5) ;;
-h|--help) echo "usage: bench-chunks-h100-8b1720d.sh CALL (1 to 5)"; exit 0 ;;
*) echo "usage: bench-chunks-h100-8b1720d.sh CALL (1 to 5)" >&2; exit 2 ;;
esac

call1() {
    # device call 1: chunks on Dask (5b6967a+), NVDEC 1/2/4/8, hybrids, jobs, sw
    t0=$(date +%s); set -o pipefail
    mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
    s=$(date +%s.%N); python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
    echo "compileall of the carried Dask: $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.1f", b-a}') s"
    b=$(echo /tmp/a/*/bin)
    export PYTHONPATH=/tmp/site
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    vmstat -t 1 > $OUT/vmstat.txt 2>&1 & vm=$!
    nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 & dm=$!
    BENCH_DEADLINE=$((t0+330)) tools/bench-chunks.sh $b /tmp/long 12000 "1 2 4 8" nvdec 2>&1 | tee $OUT/bc-nvdec.txt
    for v in "750 0" "750 4" "500 4" "750 2"; do
      set -- $v
      [ $(date +%s) -lt $((t0+400)) ] || break
      echo "== BENCH_CHUNK=$1 BENCH_SW=$2, 8 workers, $(date +%T)" | tee -a $OUT/bc-var.txt
      BENCH_KEEP_WHOLE=1 BENCH_CHUNK=$1 BENCH_SW=$2 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^#\|^decode\|whole' | tee -a $OUT/bc-var.txt
    done
    if [ $(date +%s) -lt $((t0+420)) ]; then
      echo "== vmaf_chunks.py run --jobs 8, $(date +%T)" | tee -a $OUT/bc-var.txt
      env -u PYTHONPATH BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|whole' | tee -a $OUT/bc-var.txt
    fi
    grep -h "scored and merged" /tmp/long/chunks-*.log > $OUT/summaries.txt 2>/dev/null
    BENCH_DEADLINE=$((t0+545)) tools/bench-chunks.sh $b /tmp/long 12000 "8 4 2 1" sw 2>&1 | tee $OUT/bc-sw.txt
    kill $vm $dm
    echo "elapsed $(( $(date +%s) - t0 )) s"
}

call2() {
    t0=$(date +%s); set -o pipefail
    ls /tmp/long/whole-nvdec.json.wall || exit 1
    b=$(echo /tmp/a/*/bin); export PYTHONPATH=/tmp/site
    for v in "1500 0" "750 0" "750 4" "500 4" "1500 2"; do
      set -- $v
      [ $(date +%s) -lt $((t0+200)) ] || break
      echo "== BENCH_CHUNK=$1 BENCH_SW=$2, 8 workers, $(date +%T)" | tee -a $OUT/bc-var.txt
      BENCH_KEEP_WHOLE=1 BENCH_CHUNK=$1 BENCH_SW=$2 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
      grep -h "scored and merged" /tmp/long/chunks-nvdec-8.log | tee -a $OUT/bc-var.txt
    done
    echo "== vmaf_chunks.py run --jobs 8, $(date +%T)" | tee -a $OUT/bc-var.txt
    env -u PYTHONPATH BENCH_KEEP_WHOLE=1 BENCH_CHUNK=1500 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
    echo "elapsed $(( $(date +%s) - t0 )) s"
}

call3() {
    # device call 3: 0d22bc9 (one CUDA device per NVDEC task): Dask 1/2/4/8, variants, jobs
    t0=$(date +%s); set -o pipefail
    mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
    python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
    b=$(echo /tmp/a/*/bin)
    export PYTHONPATH=/tmp/site
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 & dm=$!
    BENCH_DEADLINE=$((t0+300)) tools/bench-chunks.sh $b /tmp/long 12000 "1 2 4 8" nvdec 2>&1 | tee $OUT/bc-nvdec.txt
    grep -h "scored and merged" /tmp/long/chunks-nvdec-*.log | tee $OUT/summaries.txt
    for v in "1500 2" "750 0" "750 4" "1500 4"; do
      set -- $v
      [ $(date +%s) -lt $((t0+400)) ] || break
      echo "== BENCH_CHUNK=$1 BENCH_SW=$2, 8 workers, $(date +%T)" | tee -a $OUT/bc-var.txt
      BENCH_KEEP_WHOLE=1 BENCH_CHUNK=$1 BENCH_SW=$2 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
      grep -h "scored and merged" /tmp/long/chunks-nvdec-8.log | tee -a $OUT/bc-var.txt
    done
    if [ $(date +%s) -lt $((t0+420)) ]; then
    echo "== vmaf_chunks.py run --jobs 8, $(date +%T)" | tee -a $OUT/bc-var.txt
    env -u PYTHONPATH BENCH_KEEP_WHOLE=1 BENCH_CHUNK=1500 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
    fi
    if [ $(date +%s) -lt $((t0+440)) ]; then
      s=$(date +%s.%N)
      $b/ffmpeg -hide_banner -nostdin -v error -hwaccel cuda -hwaccel_output_format cuda -hwaccel_device 0 -i /tmp/long/dis.mp4 \
        -hwaccel cuda -hwaccel_output_format cuda -hwaccel_device 0 -i /tmp/long/ref.mp4 -lavfi vmaf_hip=device=0:log_fmt=json:log_path=/tmp/w0.json -f null -
      echo "whole, -hwaccel_device 0 before each input, device=0: rc $? $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.1f s, %.1f fps", b-a, 12000/(b-a)}')" | tee -a $OUT/bc-var.txt
      s=$(date +%s.%N)
      $b/ffmpeg -hide_banner -nostdin -v error -init_hw_device cuda=g:0 -hwaccel cuda -hwaccel_output_format cuda -hwaccel_device g -i /tmp/long/dis.mp4 \
        -hwaccel cuda -hwaccel_output_format cuda -hwaccel_device g -i /tmp/long/ref.mp4 -lavfi vmaf_hip=device=0:log_fmt=json:log_path=/tmp/w1.json -f null -
      echo "whole, one named device for both inputs, device=0: rc $? $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.1f s, %.1f fps", b-a, 12000/(b-a)}')" | tee -a $OUT/bc-var.txt
      grep -v '"fps"' /tmp/long/whole-nvdec.json > /tmp/wc; for f in /tmp/w0.json /tmp/w1.json; do grep -v '"fps"' $f | cmp -s - /tmp/wc && echo "$f: the whole run's log" || echo "$f: DIFFERS"; done | tee -a $OUT/bc-var.txt
    fi
    kill $dm
    echo "elapsed $(( $(date +%s) - t0 )) s"
}

call4() {
    # device call 4: why Dask's 8 workers are slower than 8 jobs (6000-frame pair)
    t0=$(date +%s); set -o pipefail
    mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
    python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
    b=$(echo /tmp/a/*/bin)
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    L=/tmp/l6; mkdir -p $L
    if [ ! -s $L/dis.mp4 ]; then
    $b/ffmpeg -hide_banner -nostdin -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=24,noise=alls=4:allf=t+u,format=yuv420p" \
      -filter_complex "[0:v]split[a][b]" -map "[a]" -frames:v 6000 -c:v libx264 -preset veryfast -crf 16 $L/ref.mp4 \
      -map "[b]" -frames:v 6000 -c:v libx264 -preset veryfast -crf 32 -bf 3 $L/dis.mp4 || exit 1
    fi
    echo "pair ready at $(( $(date +%s) - t0 )) s"
    tm() { local a=$(date +%s.%N); "$@"; local r=$?; awk -v a=$a -v b=$(date +%s.%N) -v r=$r 'BEGIN{printf "%.2f s, rc %d\n", b-a, r}'; }
    jobs8() { rm -rf $L/j; mkdir -p $L/j; python3 $b/vmaf_chunks.py run --chunk-frames 750 --jobs 8 --nvdec --ffmpeg $b/ffmpeg --log-fmt json --log-path $L/j/p.json $L/dis.mp4 $L/ref.mp4 > $L/j.log 2>&1; }
    echo "jobs 8 (750-frame chunks): $(tm jobs8)" | tee -a $OUT/x.txt
    echo "jobs 8 with Dask's pre-spawn environment: $(MALLOC_TRIM_THRESHOLD_=65536 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 tm jobs8)" | tee -a $OUT/x.txt
    echo "jobs 8 with MALLOC_TRIM_THRESHOLD_=65536 only: $(MALLOC_TRIM_THRESHOLD_=65536 tm jobs8)" | tee -a $OUT/x.txt
    echo "jobs 8 (again): $(tm jobs8)" | tee -a $OUT/x.txt
    PYTHONPATH=/tmp/site timeout 150 python3 tools/results/dask-tasks.py $b $L/dis.mp4 $L/ref.mp4 $L/dt 8 1 750 2>&1 | tail -6 | tee -a $OUT/x.txt
    echo "elapsed $(( $(date +%s) - t0 )) s"
}

call5() {
    # device call 5: 8b1720d: whole, Dask 1/2/4/8 (NVDEC), jobs 8, Dask 8 again; phases of one Dask run
    t0=$(date +%s); set -o pipefail
    mkdir -p /tmp/a /tmp/site && tar -C /tmp/a -xJf "${ARCHIVE:?}" && tar -C /tmp/site -xJf "${PYDEPS:?}" || exit 1
    python3 -m compileall -q -j 16 /tmp/site > /dev/null 2>&1
    b=$(echo /tmp/a/*/bin)
    export PYTHONPATH=/tmp/site
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 & dm=$!
    vmstat -t 1 > $OUT/vmstat.txt 2>&1 & vm=$!
    BENCH_DEADLINE=$((t0+330)) tools/bench-chunks.sh $b /tmp/long 12000 "1 2 4 8" nvdec 2>&1 | tee $OUT/bc-nvdec.txt
    grep -h "scored and merged" /tmp/long/chunks-nvdec-*.log | tee $OUT/summaries.txt
    if [ $(date +%s) -lt $((t0+420)) ]; then
      echo "== vmaf_chunks.py run --jobs 8, $(date +%T)" | tee -a $OUT/bc-var.txt
      env -u PYTHONPATH BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
    fi
    if [ $(date +%s) -lt $((t0+430)) ]; then
      echo "== Dask 8 again, $(date +%T)" | tee -a $OUT/bc-var.txt
      BENCH_KEEP_WHOLE=1 tools/bench-chunks.sh $b /tmp/long 12000 8 nvdec 2>&1 | grep -v '^decode\|nvdec  whole' | tee -a $OUT/bc-var.txt
      grep -h "scored and merged" /tmp/long/chunks-nvdec-8.log | tee -a $OUT/bc-var.txt
    fi
    if [ $(date +%s) -lt $((t0+445)) ]; then
      # The decoders alone: the two files decoded by NVDEC in 8 processes of 1,500 frames each (no filter)
      s=$(date +%s.%N)
      for k in 0 1 2 3 4 5 6 7; do
        ss=$(awk -v k=$k 'BEGIN{print k*1500/24}')
        $b/ffmpeg -nostdin -v error -init_hw_device cuda=g:0 -hwaccel cuda -hwaccel_device g -hwaccel_output_format cuda -ss $ss -i /tmp/long/dis.mp4 \
          -hwaccel cuda -hwaccel_device g -hwaccel_output_format cuda -ss $ss -i /tmp/long/ref.mp4 -map 0:v -frames:v 1500 -f null - -map 1:v -frames:v 1500 -f null - &
      done; wait
      echo "NVDEC alone, 8 processes of 1,500 frames of both files: $(awk -v a=$s -v b=$(date +%s.%N) 'BEGIN{printf "%.1f s, %.1f pairs/s", b-a, 12000/(b-a)}')" | tee -a $OUT/bc-var.txt
    fi
    kill $dm $vm
    echo "elapsed $(( $(date +%s) - t0 )) s"
}

call$1
