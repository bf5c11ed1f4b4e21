#!/bin/bash
# What the filter costs a software decoder, by backend and thread count:
# 600 frames of 1080p H.264 (libx264 veryfast, encoded here), the two
# files decoded with no filter and with vmaf_hip in each variant, wall ms
# of the whole process, 3 runs each, with the filter thread's own account
# of its time per pair (-v verbose), the user and system CPU time of a
# run with and without the filter, and the timeline of one backend=gpu run
# (ms from its first log line: the decoders starting, the GPU ready, the
# summary), to tell the GPU's start from the per-pair work. Last, what slows
# the decoders while the GPU starts: the decoders alone (no filter), 5 runs
# each, beside the CUDA driver's start on a thread of their process
# (tools/cuda-driver-probe.c as an LD_PRELOAD library, nothing of ours),
# the same with 112 MiB of page-locked memory allocated after it, and the
# driver's start in another process at the same moment; then the filter
# with a simulated GPU that takes 220 ms to start (the pairs held, no
# driver) and with the real one: the pairs read by the time it was ready.
#
# Usage: tools/gpu-swdecode-probe.sh <ffmpeg>
set -u
# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
F=$1
need_ffmpeg "$F"
dir=${BENCH_DIR:-/dev/shm/vmaf-swdecode}
mkdir -p "$dir" || exit 1
trap 'rm -rf "$dir"' EXIT
probe=$(dirname "$0")/cuda-driver-probe.c
cc -O2 -pthread -o "$dir/driver" "$probe" -ldl &&
    cc -O2 -pthread -shared -fPIC -DDRIVER_PRELOAD -o "$dir/driver.so" "$probe" -ldl || exit 1
IN="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -framerate 25"
"$F" -v error -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 600 -pix_fmt yuv420p -f rawvideo -y "$dir/ref.yuv"
"$F" -v error $IN -i "$dir/ref.yuv" -vf avgblur=2,noise=alls=8:allf=t -f rawvideo -y "$dir/dis.yuv"
"$F" -v error $IN -i "$dir/ref.yuv" -c:v libx264 -preset veryfast -crf 18 -y "$dir/r.mp4"
"$F" -v error $IN -i "$dir/dis.yuv" -c:v libx264 -preset veryfast -crf 30 -y "$dir/d.mp4"
t() { local s=$(date +%s%N); "$@" > "$dir/o.log" 2>&1 || echo -n "FAILED "; echo -n "$(( ($(date +%s%N) - s) / 1000000 )) "; }
# dec [command...]: the two files decoded with no filter, under command (env, time...)
dec() { "$@" "$F" -v error -i "$dir/d.mp4" -i "$dir/r.mp4" -map 0 -map 1 -f null -; }
for v in none gpu gpu:n_threads=1 gpu:n_threads=2 gpu:n_threads=4 auto:cpu_first=0 auto auto:n_threads=2 cpu; do
    echo -n "$v: "
    for r in 1 2 3; do
        if [ $v = none ]; then
            t dec
        else
            t "$F" -v verbose -i "$dir/d.mp4" -i "$dir/r.mp4" -lavfi "vmaf_hip=backend=$v" -f null -
        fi
    done
    echo
    grep -E "caller's thread|From frame|held while" "$dir/o.log" | sed 's/^\[[^]]*\] /   /'
done
echo "== CPU time of a run: with backend=gpu, then without the filter"
/usr/bin/time -f "%e s %U user %S sys" "$F" -v error -i "$dir/d.mp4" -i "$dir/r.mp4" \
    -lavfi vmaf_hip=backend=gpu -f null - 2>&1 | tail -1
dec /usr/bin/time -f "%e s %U user %S sys" 2>&1 | tail -1
echo "== timeline of a backend=gpu run and of one without the filter (ms from the first log line)"
for v in gpu none; do
    if [ $v = none ]; then
        "$F" -loglevel time+verbose -i "$dir/d.mp4" -i "$dir/r.mp4" -map 0 -map 1 -f null - > "$dir/tl.log" 2>&1
    else
        "$F" -loglevel time+verbose -i "$dir/d.mp4" -i "$dir/r.mp4" -lavfi vmaf_hip=backend=gpu -f null - \
            > "$dir/tl.log" 2>&1
    fi
    echo "$v:"
    awk 'function ms(t) { split(t, a, ":"); return (a[1] * 3600 + a[2] * 60 + a[3]) * 1000 }
         $1 ~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+$/ {
             t = ms($1); if (t0 == "") t0 = t; last = t
             if ($0 ~ /Press \[q\]|held while the GPU started|From frame|VMAF score|caller.s thread/) {
                 $1 = ""; printf "   %6.0f %s\n", t - t0, substr($0, 2)
             }
         }
         END { printf "   %6.0f (the last log line)\n", last - t0 }' "$dir/tl.log"
done
echo "== the decoders alone beside a GPU start: wall ms, 5 runs each; the driver's times of the last"
for v in alone same-process same-process+pinned other-process; do
    echo -n "$v: "
    for r in 1 2 3 4 5; do
        case $v in
        alone)        t dec ;;
        same-process) t dec env LD_PRELOAD="$dir/driver.so" ;;
        same-process+pinned) t dec env LD_PRELOAD="$dir/driver.so" CUDA_PROBE_PINNED_MB=112 ;;
        other-process)
            "$dir/driver" wait 2> "$dir/other.log" &
            t dec
            wait
            cat "$dir/other.log" >> "$dir/o.log" ;;
        esac
    done
    echo
    grep -E "^pid" "$dir/o.log" | sed 's/^pid [0-9]*: /   /'
done
for v in simulated-220ms gpu; do
    echo -n "filter, $v GPU start: pairs held "
    for r in 1 2 3; do
        if [ $v = gpu ]; then
            "$F" -v verbose -i "$dir/d.mp4" -i "$dir/r.mp4" -lavfi vmaf_hip=backend=gpu -f null - > "$dir/o.log" 2>&1
        else
            VMAF_HIP_SIMULATE_GPU=1 VMAF_HIP_SIMULATE_START_MS=220 "$F" -v verbose -i "$dir/d.mp4" \
                -i "$dir/r.mp4" -lavfi vmaf_hip=backend=gpu -f null - > "$dir/o.log" 2>&1
        fi
        echo -n "$(sed -n 's/.* \([0-9]*\) frame pairs .* held while.*/\1/p' "$dir/o.log") "
    done
    echo
done
