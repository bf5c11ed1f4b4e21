#!/bin/bash
# One long 1080p H.264 pair on one GPU: scored whole by one ffmpeg process,
# then in chunks by vmaf-cluster with 1, 2, 4 and 8 workers on that GPU,
# decoded by NVDEC and in software; wall time, fps, the speed-up over the
# whole run of the same decoding, and whether the merged log is the whole
# run's (cmp, the fps line aside).
#
# Usage: tools/bench-chunks.sh <bin-dir> <work-dir> [frames] [workers] [decoders]
#   <bin-dir>   ffmpeg, ffprobe, vmaf-merge and vmaf-cluster together (an
#               unpacked archive's bin/, from make dist)
#   <work-dir>  the pair is made here once (reused when it is there) and
#               the runs' logs are kept here
#   frames      the pair's length (default 12000, 24 fps)
#   workers     the worker counts, e.g. "1 2 4 8" (the default)
#   decoders    "nvdec sw" (the default), or one of them; nvdec-ref: NVDEC
#               decodes the reference, the CPU the distorted file (--nvdec
#               --sw-input distorted)
# PYTHON=<python3 with dask.distributed> (default: python3 on the PATH).
# BENCH_CHUNK=<frames>: the chunk length (default: the pair split evenly
# among the most workers asked for, 1,500 frames for the defaults).
# BENCH_SW=<n>: with NVDEC on Dask, n more workers that decode on the CPU
# and score on the GPU (vmaf-cluster --sw-per-gpu n; default 0), each with
# one chunk at the title's end; BENCH_SW_SHARE=<f>: the fraction of the
# title theirs (--sw-share; default: vmaf-cluster's, each the frames of
# CPU_DECODE_WEIGHT NVDEC workers, read from the bin-dir's vmaf_cluster.py).
# The NVDEC workers then split the rest evenly, unless BENCH_CHUNK says.
# BENCH_KEEP_WHOLE=1: reuse the whole runs' logs and times kept in
# <work-dir> by an earlier run of the same binaries, not run them again.
# BENCH_DEADLINE=<unix time>: runs that would start after it are skipped
# (and said so), so that a run fits a time limit.
# Results: one line per run on stdout, as a table.
# -h/--help and wrong arguments: show_help, usage.
set -u

. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 2 ] && [ $# -le 5 ] || usage "two to five arguments expected"
bin=$(cd "$1" 2>/dev/null && pwd) || usage "no folder '$1'"
for t in ffmpeg ffprobe vmaf-merge vmaf-cluster; do
    [ -x "$bin/$t" ] || usage "no $t in '$bin' (give an unpacked archive's bin/)"
done
work=$2
frames=${3:-12000}
workers=${4:-1 2 4 8}
decoders=${5:-nvdec sw}
case $frames in ''|*[!0-9]*|0*) usage "frames: a number above 0, not '$frames'" ;; esac
mkdir -p "$work" || exit 2
# One chunk per worker at the most workers: each chunk costs a process's
# and a GPU's start (on an H100, 8 workers: 2.44 times one process with
# 1,500-frame chunks, 1.84 with 750; tools/results/bench-chunks-h100-3c963e9.txt).
most=1
for k in $workers; do
    case $k in ''|*[!0-9]*|0*) usage "workers: numbers above 0, not '$k'" ;; esac
    [ "$k" -gt "$most" ] && most=$k
done
chunk=${BENCH_CHUNK:-$(( (frames + most - 1) / most ))}
ff=$bin/ffmpeg
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
late() { [ -n "${BENCH_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$BENCH_DEADLINE" ]; }

# ---- the pair: one synthetic 1080p source (moving test pattern with
# temporal noise), as a high-quality reference (about 24 Mbit/s; noise of
# strength 10 gave 89, more than references have, and took 1.6 times as
# long to encode and 2.7 times as long to decode) and a distorted encode,
# both H.264 with B-frames and x264's default GOP of 250 ----
dis=$work/dis.mp4
ref=$work/ref.mp4
if [ ! -s "$dis" ] || [ ! -s "$ref" ]; then
    t=$(now)
    "$ff" -hide_banner -nostdin -v error -y \
        -f lavfi -i "testsrc2=size=1920x1080:rate=24,noise=alls=4:allf=t+u,format=yuv420p" \
        -filter_complex "[0:v]split[a][b]" \
        -map "[a]" -frames:v "$frames" -c:v libx264 -preset veryfast -crf 16 "$ref.tmp.mp4" \
        -map "[b]" -frames:v "$frames" -c:v libx264 -preset veryfast -crf 32 -bf 3 "$dis.tmp.mp4" || exit 1
    mv "$ref.tmp.mp4" "$ref" && mv "$dis.tmp.mp4" "$dis"
    echo "# pair made in $(secs "$t" "$(now)") s: $frames frames, reference $(du -m "$ref" | cut -f1) MB, distorted $(du -m "$dis" | cut -f1) MB"
fi
# Workers on the GPU when there is one; on a machine without, CPU workers
# (and no NVDEC), so that the script can be tried anywhere.
if nvidia-smi -L >/dev/null 2>&1; then on_gpu=1; else on_gpu=; echo "# no GPU: CPU workers, no NVDEC"; fi

n=$("$bin/ffprobe" -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$dis")
echo "# $n frames, 1080p H.264, $(nproc) cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)"
printf "%-9s %-10s %8s %8s %8s  %s\n" decode run wall_s fps speedup "log"

# The workers are Dask's (vmaf-cluster); where this python has no
# dask.distributed, processes of vmaf_chunks.py run --jobs, said so.
if "${PYTHON:-python3}" -c 'import distributed' 2>/dev/null; then dask=1; else
    dask=; echo "# no dask.distributed for ${PYTHON:-python3}: the workers are vmaf_chunks.py run --jobs"; fi

# A CPU-decoding worker's default share, in NVDEC workers, as vmaf-cluster
# takes it, so that the NVDEC workers' chunks split the rest evenly.
if [ "${BENCH_SW:-0}" != 0 ]; then
    sw_weight=$(PYTHONPATH=$bin "${PYTHON:-python3}" -B -c \
        'import vmaf_cluster; print(vmaf_cluster.CPU_DECODE_WEIGHT)') ||
        usage "no vmaf_cluster.py in '$bin' to read the CPU decoders' share from"
fi

declare -A whole_s
for dec in $decoders; do
    case $dec in
    nvdec) [ -n "$on_gpu" ] || continue
           inopt="-hwaccel cuda -hwaccel_output_format cuda"; refopt=$inopt; nvflag=--nvdec ;;
    nvdec-ref) [ -n "$on_gpu" ] || continue
           inopt=""; refopt="-hwaccel cuda -hwaccel_output_format cuda"
           nvflag="--nvdec --sw-input distorted" ;;
    sw)    inopt=""; refopt=""; nvflag="" ;;
    *) usage "decoders are nvdec, nvdec-ref and sw, not '$dec'" ;;
    esac
    # The whole run: one process, the filter's defaults.
    whole=$work/whole-$dec.json
    if late; then echo "$dec whole: skipped (deadline)"; continue; fi
    if [ -n "${BENCH_KEEP_WHOLE:-}" ] && [ -s "$whole" ] && [ -s "$whole.wall" ]; then
        w=$(cat "$whole.wall"); rc=0
        echo "# $dec whole: the run kept in $work (BENCH_KEEP_WHOLE)"
    else
        t=$(now)
        # shellcheck disable=SC2086
        "$ff" -hide_banner -nostdin -v error $inopt -i "$dis" $refopt -i "$ref" \
            -lavfi "vmaf_hip=log_fmt=json:log_path=$whole" -f null - 2> "$work/whole-$dec.err"
        rc=$?
        w=$(secs "$t" "$(now)")
        [ $rc = 0 ] && echo "$w" > "$whole.wall"
    fi
    whole_s[$dec]=$w
    grep -v '"fps"' "$whole" > "$whole.cmp" 2>/dev/null
    if [ $rc = 0 ]; then
        printf "%-9s %-10s %8s %8.1f %8s  %s\n" "$dec" whole "$w" "$(awk -v n="$n" -v w="$w" 'BEGIN { print n / w }')" 1.00 \
            "$(grep -c '"frameNum"' "$whole") frames"
    else
        echo "$dec whole: failed ($rc): $(tail -n 2 "$work/whole-$dec.err" | tr '\n' ' ')"
        continue
    fi
    for k in $workers; do
        if late; then echo "$dec $k workers: skipped (deadline)"; continue; fi
        o=$work/chunks-$dec-$k
        rm -rf "$o"
        t=$(now)
        where=
        # shellcheck disable=SC2086
        if [ -n "$dask" ]; then
            if [ -n "$on_gpu" ]; then where="--per-gpu $k --cpu-workers 0"; else where="--cpu-workers $k"; fi
            run_chunk=$chunk
            if [ -n "$nvflag" ] && [ "${BENCH_SW:-0}" != 0 ]; then
                where="$where --sw-per-gpu $BENCH_SW${BENCH_SW_SHARE:+ --sw-share $BENCH_SW_SHARE}"
                head=$(awk -v n="$n" -v k="$k" -v s="$BENCH_SW" -v w="$sw_weight" -v f="${BENCH_SW_SHARE:-}" \
                    'BEGIN { if (f == "") f = w * s / (k + w * s); printf "%d", n - int(n * f + 0.5) }')
                run_chunk=${BENCH_CHUNK:-$(( (head + k - 1) / k ))}
            fi
            "${PYTHON:-python3}" "$bin/vmaf-cluster" --pair "$dis" "$ref" --chunk-frames $run_chunk $where \
                $nvflag --ffmpeg "$ff" -o "$o" -q > "$o.log" 2>&1
        else
            mkdir -p "$o/logs"
            "${PYTHON:-python3}" "$bin/vmaf_chunks.py" run --chunk-frames $chunk --jobs "$k" $nvflag \
                --ffmpeg "$ff" --log-fmt json --log-path "$o/logs/pair.json" "$dis" "$ref" > "$o.log" 2>&1
        fi
        rc=$?
        w=$(secs "$t" "$(now)")
        if [ $rc != 0 ]; then
            echo "$dec $k workers: failed ($rc): $(tail -n 3 "$o.log" | tr '\n' ' ')"
            continue
        fi
        if grep -v '"fps"' "$o/logs/pair.json" | cmp -s - "$whole.cmp"; then same="cmp: the whole run's"; else same="cmp: DIFFERS"; fi
        label="$k workers"
        case $where in *--sw-per-gpu*) label="$k+${BENCH_SW}sw${BENCH_SW_SHARE:+@$BENCH_SW_SHARE}" ;; esac
        printf "%-9s %-10s %8s %8.1f %8.2f  %s\n" "$dec" "$label" "$w" \
            "$(awk -v n="$n" -v w="$w" 'BEGIN { print n / w }')" \
            "$(awk -v a="${whole_s[$dec]}" -v w="$w" 'BEGIN { print a / w }')" "$same"
        # Where NVDEC decodes one input, also against one process decoding both there.
        [ "$dec" = nvdec-ref ] && [ -n "${whole_s[nvdec]:-}" ] &&
            awk -v a="${whole_s[nvdec]}" -v w="$w" 'BEGIN { printf "#   %.2f times the nvdec whole run\n", a / w }'
        # vmaf-cluster's own account: its start, the chunks, its close, the merge.
        [ -n "$dask" ] && grep -h "scored and merged" "$o.log" | sed 's/: [^:]*$//; s/^/#   /'
    done
done
if [ -n "${whole_s[nvdec]:-}" ] && [ -n "${whole_s[sw]:-}" ]; then
    cmp -s "$work/whole-nvdec.json.cmp" "$work/whole-sw.json.cmp" &&
        echo "# the NVDEC and software-decoded whole runs' logs are the same" ||
        echo "# the NVDEC and software-decoded whole runs' logs DIFFER"
fi
