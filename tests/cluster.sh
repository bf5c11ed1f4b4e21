# Sourced by tests/run.sh (uses $ffmpeg, $build, $top, pass, fail).
# tools/vmaf-cluster on a Dask cluster of this machine: a manifest of six
# pairs on a LocalCluster of two CPU worker processes, each pair's log equal
# to a plain ffmpeg run's, one table row per pair and model; a rerun that
# skips them; rows that fail (a missing file, a pair ffmpeg refuses, an
# unknown option) with their error in the table while the others finish;
# and a worker killed in the middle of a run, whose task is rerun on the
# other worker with the same result; one long pair scored in chunks on the
# cluster and merged into the whole run's log, byte for byte but its fps;
# the same beside a newer pynvml; which workers decode with NVDEC; a
# title split between NVDEC and CPU decoding; a chunk whose ffmpeg is
# killed, run again.
# Skipped without Debian's python3-distributed.

cluster=$build/cluster
rm -rf "$cluster"
mkdir -p "$cluster"
py=/usr/bin/python3
vmaf_cluster() { "$py" "$top/tools/vmaf-cluster" --ffmpeg "$ffmpeg" -q "$@"; }

if ! "$py" -c 'import distributed' 2> /dev/null; then
    fail "cluster: no dask.distributed for $py (Debian's python3-distributed; make installs it)"
else
    # Six pairs: x264 encodes at three CRFs against a lossless source, one
    # of them with two models, one with n_subsample, one 10-bit.
    c_make() { "$ffmpeg" -hide_banner -nostdin -loglevel error -y "$@" > "$cluster/make.log" 2>&1; }
    c_make -f lavfi -i testsrc2=s=320x180:r=25:d=2 -c:v ffv1 "$cluster/ref.mkv"
    c_make -f lavfi -i testsrc2=s=320x180:r=25:d=2 -pix_fmt yuv420p10le -c:v ffv1 "$cluster/ref10.mkv"
    for crf in 24 32 40; do
        c_make -i "$cluster/ref.mkv" -c:v libx264 -crf $crf "$cluster/d$crf.mp4"
    done
    c_make -i "$cluster/ref10.mkv" -c:v libx265 -x265-params log-level=error -crf 30 "$cluster/d10.mkv"
    c_make -f lavfi -i testsrc2=s=160x90:r=25:d=2 -c:v libx264 "$cluster/small.mp4"
    cat > "$cluster/six.csv" <<EOF
distorted,reference,model,options,name
$cluster/d24.mp4,$cluster/ref.mkv,,,crf24
$cluster/d32.mp4,$cluster/ref.mkv,version=vmaf_v0.6.1:name=a|version=vmaf_v0.6.1neg:name=b,,crf32-two
$cluster/d40.mp4,$cluster/ref.mkv,,n_subsample=3,crf40-sub3
$cluster/d40.mp4,$cluster/ref.mkv,,feature=name=psnr,crf40-psnr
$cluster/d10.mkv,$cluster/ref10.mkv,,,hevc10
$cluster/d24.mp4,$cluster/ref.mkv,version=vmaf_v0.6.1neg,,crf24-neg
EOF
    # The truth: each pair scored by one plain ffmpeg run, its log in
    # the format its name ends with.
    c_single() { # log dist ref model [options]
        "$ffmpeg" -hide_banner -nostdin -loglevel error -y -i "$2" -i "$3" \
            -lavfi "vmaf_hip=model=$(printf '%s' "$4" | sed 's/:/\\\\:/g')${5:+:$5}:backend=cpu:log_fmt=${1##*.}:log_path=$1" \
            -f null - > "$1.log" 2>&1
    }
    c_truth() { c_single "$cluster/truth-$1.json" "$2" "$3" "$4" "$5"; }   # name dist ref model options
    tail -n +2 "$cluster/six.csv" | while IFS=, read -r d r m o n; do
        c_truth "$n" "$d" "$r" "${m:-version=vmaf_v0.6.1}" "$o"
    done
    c_same_logs() { # out-dir: every pair's log has the truth's frames and pooled values
        "$py" - "$1" "$cluster" <<'EOF_PY'
import json, os, sqlite3, sys
out, d = sys.argv[1:3]
db = sqlite3.connect(os.path.join(out, "results.sqlite"))
rows = {(p, m): (s, mean, frames) for p, m, s, mean, frames in
        db.execute("SELECT pair, model, status, mean, frames FROM results")}
bad = []
for name in ("crf24", "crf32-two", "crf40-sub3", "crf40-psnr", "hevc10", "crf24-neg"):
    t = json.load(open(os.path.join(d, "truth-%s.json" % name)))
    g = json.load(open(os.path.join(out, "logs", name + ".json")))
    if g["frames"] != t["frames"] or g["pooled_metrics"] != t["pooled_metrics"]:
        bad.append(name + ": log differs")
    models = ("a", "b") if name == "crf32-two" else ("vmaf",)
    for m in models:
        s, mean, frames = rows.get((name, m), (None, None, None))
        if s != "ok" or mean != t["pooled_metrics"][m]["mean"] or frames != len(t["frames"]):
            bad.append("%s/%s: table row %s" % (name, m, (s, mean, frames)))
if len(rows) != 7:
    bad.append("%d rows, not 7" % len(rows))
print("; ".join(bad) or "ok")
sys.exit(1 if bad else 0)
EOF_PY
    }
    vmaf_cluster "$cluster/six.csv" -o "$cluster/out" --gpus none --cpu-workers 2 --processes \
        > "$cluster/six.log" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -q "6 pair(s) scored, 0 failed" "$cluster/six.log" &&
       same=$(c_same_logs "$cluster/out"); then
        pass "cluster: six pairs on a LocalCluster of two worker processes, each log a plain run's, one row per pair and model"
    else
        fail "cluster: six pairs on a LocalCluster (exit $rc; ${same:-}): $(tail -2 "$cluster/six.log")"
    fi

    # A rerun skips the pairs done, and leaves their logs and rows.
    before=$(cksum "$cluster"/out/logs/*.json | sort)
    vmaf_cluster "$cluster/six.csv" -o "$cluster/out" --gpus none --cpu-workers 2 \
        > "$cluster/again.log" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -q "0 pair(s) scored, 0 failed, 0 refused, 6 skipped" "$cluster/again.log" &&
       [ "$(cksum "$cluster"/out/logs/*.json | sort)" = "$before" ] && c_same_logs "$cluster/out" > /dev/null; then
        pass "cluster: a rerun skips the six pairs done"
    else
        fail "cluster: a rerun (exit $rc): $(tail -2 "$cluster/again.log")"
    fi

    # Rows that cannot be scored: each has its error; the others finish.
    cat > "$cluster/bad.csv" <<EOF
distorted,reference,model,options,name
$cluster/d24.mp4,$cluster/ref.mkv,,,good
$cluster/nosuch.mp4,$cluster/ref.mkv,,,missing
$cluster/small.mp4,$cluster/ref.mkv,,,sizes
$cluster/d24.mp4,$cluster/ref.mkv,,nosuch_option=1,option
EOF
    vmaf_cluster "$cluster/bad.csv" -o "$cluster/bad" --gpus none --cpu-workers 2 \
        > "$cluster/bad.log" 2>&1
    rc=$?
    table=$("$py" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute("SELECT pair, status, error FROM results ORDER BY pair"):
    print("%s|%s|%s" % (r[0], r[1], (r[2] or "").splitlines()[0] if r[2] else ""))' \
        "$cluster/bad/results.sqlite" 2>&1)
    if [ $rc = 1 ] && printf '%s\n' "$table" | grep -q "^good|ok|$" &&
       printf '%s\n' "$table" | grep -q "^missing|error|no such file: .*nosuch.mp4" &&
       printf '%s\n' "$table" | grep -q "^sizes|error|ffmpeg exited with" &&
       printf '%s\n' "$table" | grep -q "^option|error|options: unknown option 'nosuch_option'" &&
       grep -q "3 pair(s) of the manifest have no score" "$cluster/bad.log"; then
        pass "cluster: a missing file, a pair ffmpeg refuses and an unknown option fail their rows, with their errors; the others finish; exit 1"
    else
        fail "cluster: rows that fail (exit $rc): $(printf '%s' "$table" | tr '\n' ';')"
    fi

    # A worker killed mid-run: a scheduler and two workers of their own,
    # one killed (SIGKILL) while it scores; its task runs again on the other.
    c_make -f lavfi -i testsrc2=s=320x180:r=25:d=12 -c:v ffv1 "$cluster/lref.mkv"
    for crf in 24 32 40; do
        c_make -i "$cluster/lref.mkv" -c:v libx264 -crf $crf "$cluster/l$crf.mp4"
    done
    cat > "$cluster/long.csv" <<EOF
distorted,reference,model,options,name
$cluster/l24.mp4,$cluster/lref.mkv,,feature=name=cambi|name=float_ms_ssim,crf24
$cluster/l32.mp4,$cluster/lref.mkv,,feature=name=cambi|name=float_ms_ssim,crf32
$cluster/l40.mp4,$cluster/lref.mkv,,feature=name=cambi|name=float_ms_ssim,crf40
EOF
    port=$((20000 + $$ % 20000))
    (cd "$cluster" && exec dask-scheduler --host 127.0.0.1 --port $port --dashboard-address :0 \
        > "$cluster/scheduler.log" 2>&1) &
    sched=$!
    wpids=""
    for w in 1 2; do
        (cd "$cluster" && PYTHONPATH="$top/tools" exec dask-worker tcp://127.0.0.1:$port \
            --nthreads 1 --no-nanny --no-dashboard --name w$w > "$cluster/worker$w.log" 2>&1) &
        wpids="$wpids $!"
    done
    sleep 3
    vmaf_cluster "$cluster/long.csv" -o "$cluster/killed" --scheduler tcp://127.0.0.1:$port \
        > "$cluster/killed.log" 2>&1 &
    run=$!
    killed=""
    for i in $(seq 300); do
        # The first task under way: kill the worker whose ffmpeg scores it.
        for w in $wpids; do
            if pgrep -P "$w" ffmpeg > /dev/null; then kill -9 "$w"; killed=$w; break; fi
        done
        [ -n "$killed" ] && break
        sleep 0.1
    done
    { wait $run; } 2> /dev/null
    rc=$?
    kill $wpids $sched 2> /dev/null
    { wait; } 2> /dev/null
    for n in crf24 crf32 crf40; do
        c_truth "k$n" "$cluster/l${n#crf}.mp4" "$cluster/lref.mkv" version=vmaf_v0.6.1 \
            "feature=name=cambi|name=float_ms_ssim"
    done
    if [ -n "$killed" ] && [ $rc = 0 ] && grep -q "3 pair(s) scored, 0 failed" "$cluster/killed.log" &&
       "$py" - "$cluster" <<'EOF_PY'
import json, sys
d = sys.argv[1]
for n in ("crf24", "crf32", "crf40"):
    t = json.load(open("%s/truth-k%s.json" % (d, n)))
    g = json.load(open("%s/killed/logs/%s.json" % (d, n)))
    assert g["frames"] == t["frames"] and g["pooled_metrics"] == t["pooled_metrics"], n
EOF_PY
    then
        pass "cluster: a worker killed mid-run, its task rerun on the other, every log a plain run's"
    else
        fail "cluster: a worker killed mid-run (killed: ${killed:-none}; exit $rc): $(tail -2 "$cluster/killed.log")"
    fi

    # One pair in chunks on the cluster: the merged log is the whole run's,
    # byte for byte but the fps (x264 with B-frames in chunks of 7, JSON;
    # HEVC 10-bit in chunks of 2 with two models, XML).
    c_make -f lavfi -i testsrc2=s=320x180:r=25:d=3 -c:v libx264 -crf 8 -bf 3 -g 24 "$cluster/cref.mp4"
    c_make -i "$cluster/cref.mp4" -c:v libx264 -crf 34 -bf 3 -g 24 "$cluster/cdis.mp4"
    c_nofps() { sed 's/"fps": [0-9.e+-]*,//; s/ fps="[0-9.e+-]*"//' "$1"; }
    c_chunked() { # name dist ref fmt model chunk-frames
        c_single "$cluster/whole-$1.$4" "$2" "$3" "$5" &&
        vmaf_cluster --gpus none --cpu-workers 2 -o "$cluster/chunked" --name "$1" \
            --model "$5" --log-fmt "$4" --pair "$2" "$3" --chunk-frames "$6" \
            > "$cluster/chunked-$1.log" 2>&1 &&
        c_nofps "$cluster/whole-$1.$4" > "$cluster/whole-$1.cmp" &&
        c_nofps "$cluster/chunked/logs/$1.$4" > "$cluster/chunked-$1.cmp" &&
        cmp -s "$cluster/whole-$1.cmp" "$cluster/chunked-$1.cmp"
    }
    if c_chunked x264 "$cluster/cdis.mp4" "$cluster/cref.mp4" json version=vmaf_v0.6.1 7 &&
       c_chunked hevc10 "$cluster/d10.mkv" "$cluster/ref10.mkv" xml \
           "version=vmaf_v0.6.1:name=a|version=vmaf_v0.6.1neg:name=b" 2; then
        pass "cluster: one pair in chunks (x264 B-frames by 7, JSON; HEVC 10-bit by 2, two models, XML), merged: the whole run's log byte for byte but its fps"
    else
        fail "cluster: one pair in chunks: $(tail -2 "$cluster"/chunked-*.log | tr '\n' ' ')"
    fi

    # A title split between NVDEC workers and one beside them that decodes
    # on the CPU: an ffmpeg that notes each chunk's decoding and drops the
    # NVDEC options (no GPU here; device=0 falls back to the CPU). The last
    # fifth (--sw-share 0.2), a third, or by default a half (the frames of
    # two NVDEC workers) is one chunk decoded on the CPU, the rest the NVDEC
    # workers'; the merged log is the whole run's.
    split=$cluster/split
    mkdir -p "$split"
    cat > "$split/ffmpeg" <<EOF_SH
#!/bin/bash
args=(); dec=cpu; start=; hw=; ins=
while [ \$# -gt 0 ]; do
    case \$1 in
    -init_hw_device|-hwaccel_device|-hwaccel_output_format) dec=nvdec; shift 2; continue ;;
    -hwaccel) dec=nvdec; hw=1; shift 2; continue ;;
    -i) if [ -n "\$hw" ]; then ins=\${ins}nvdec,; else ins=\${ins}cpu,; fi; hw= ;;
    *chunk_start=*) start=\${1#*chunk_start=}; start=\${start%%:*} ;;
    esac
    args+=("\$1"); shift
done
[ -n "\$start" ] && echo "\$start \$dec" >> "\$SPLIT_NOTES" &&
    echo "\$start \$ins" >> "\$SPLIT_NOTES.inputs"
exec "$ffmpeg" "\${args[@]}"
EOF_SH
    chmod +x "$split/ffmpeg"
    ln -sf "$(dirname "$ffmpeg")/ffprobe" "$split/ffprobe"
    c_split() { # name [--sw-share F]: the chunks' starts and decoding, in order
        sn=$1
        shift
        rm -f "$split/$sn.notes"
        SPLIT_NOTES=$split/$sn.notes "$py" "$top/tools/vmaf-cluster" -q --ffmpeg "$split/ffmpeg" \
            --vmaf-merge "$build/vmaf-merge" --gpus 0 --per-gpu 2 --sw-per-gpu 1 --nvdec \
            -o "$split/$sn" --pair "$cluster/cdis.mp4" "$cluster/cref.mp4" --chunk-frames 20 \
            "$@" > "$split/$sn.log" 2>&1 &&
        c_nofps "$split/$sn/logs/pair.json" | cmp -s "$cluster/whole-x264.cmp" - &&
        sort -n "$split/$sn.notes" | tr '\n' ' '
    }
    # 75 frames, key frames every 24: the CPU's chunk of a third moves from
    # 50 to 52, 4 frames (the frames read before a chunk) after the key frame 48.
    if sp=$(c_split fifth --sw-share 0.2) && [ "$sp" = "0 nvdec 20 nvdec 40 nvdec 60 cpu " ] &&
       sp=$(c_split third --sw-share 0.3333) && [ "$sp" = "0 nvdec 20 nvdec 40 nvdec 52 cpu " ] &&
       sp=$(c_split half) && [ "$sp" = "0 nvdec 20 nvdec 37 cpu " ]; then
        pass "cluster: a title split between NVDEC workers and a worker decoding on the CPU (two NVDEC workers' share, or --sw-share), merged: the whole run's"
    else
        fail "cluster: a title split between NVDEC and CPU decoding: ${sp:-} $(tail -n 2 "$split"/*.log | tr '\n' ' ')"
    fi
    # --sw-input distorted: in every chunk NVDEC decodes the reference
    # alone, the distorted input is decoded on the cores; the merged log is
    # the whole run's. Without --nvdec, refused.
    rm -f "$split/swin.notes.inputs"
    if SPLIT_NOTES=$split/swin.notes "$py" "$top/tools/vmaf-cluster" -q --ffmpeg "$split/ffmpeg" \
           --vmaf-merge "$build/vmaf-merge" --gpus 0 --per-gpu 2 --nvdec --sw-input distorted \
           -o "$split/swin" --pair "$cluster/cdis.mp4" "$cluster/cref.mp4" --chunk-frames 20 \
           > "$split/swin.log" 2>&1 &&
       c_nofps "$split/swin/logs/pair.json" | cmp -s "$cluster/whole-x264.cmp" - &&
       [ "$(sort -n "$split/swin.notes.inputs" | tr '\n' ' ')" = "0 cpu,nvdec, 20 cpu,nvdec, 40 cpu,nvdec, 60 cpu,nvdec, " ] &&
       ! vmaf_cluster --gpus none --cpu-workers 2 -o "$split/swnonv" --pair "$cluster/cdis.mp4" \
           "$cluster/cref.mp4" --chunk-frames 20 --sw-input distorted > "$split/swnonv.log" 2>&1 &&
       grep -q "sw-input .*it needs --nvdec" "$split/swnonv.log"; then
        pass "cluster: --nvdec --sw-input distorted: NVDEC decodes each chunk's reference, the cores its distorted input; merged: the whole run's; without --nvdec, refused"
    else
        fail "cluster: --nvdec --sw-input distorted: $(sort -n "$split/swin.notes.inputs" 2>/dev/null | tr '\n' ' ') $(tail -n 2 "$split/swin.log" "$split/swnonv.log" | tr '\n' ' ')"
    fi
    # --sw-share where nothing decodes on the CPU: refused, with what it needs.
    if vmaf_cluster --gpus none --cpu-workers 2 -o "$split/noshare" --pair "$cluster/cdis.mp4" \
           "$cluster/cref.mp4" --chunk-frames 20 --sw-share 0.2 > "$split/noshare.log" 2>&1; then
        fail "cluster: --sw-share without --nvdec and CPU-decoding workers ran"
    elif grep -q "it needs --nvdec and workers that decode on the CPU" "$split/noshare.log" &&
         ! grep -q "worker(s)" "$split/noshare.log"; then
        pass "cluster: --sw-share without --nvdec and CPU-decoding workers: refused, saying what it needs"
    else
        fail "cluster: --sw-share without --nvdec and CPU-decoding workers: $(tail -n 2 "$split/noshare.log" | tr '\n' ' ')"
    fi

    # A chunk's ffmpeg killed (SIGKILL) on the cluster of this machine,
    # whose workers are threads of the tool: the task fails, runs again, and
    # the merged log is still the whole run's.
    kopts="feature=name=cambi|name=float_ms_ssim"
    c_single "$cluster/kwhole.json" "$cluster/l24.mp4" "$cluster/lref.mkv" version=vmaf_v0.6.1 "$kopts"
    rm -rf "$cluster/kchunks"
    vmaf_cluster --gpus none --cpu-workers 2 -o "$cluster/kchunks" --options "$kopts" \
        --pair "$cluster/l24.mp4" "$cluster/lref.mkv" --chunk-frames 150 > "$cluster/kchunks.log" 2>&1 &
    run=$!
    killed=""
    for i in $(seq 300); do
        p=$(pgrep -f "chunk_start=" | head -n 1)
        if [ -n "$p" ] && kill -9 "$p" 2> /dev/null; then killed=$p; break; fi
        sleep 0.05
    done
    { wait $run; } 2> /dev/null
    rc=$?
    if [ -n "$killed" ] && [ $rc = 0 ] &&
       c_nofps "$cluster/kchunks/logs/pair.json" > "$cluster/kchunks.cmp" &&
       c_nofps "$cluster/kwhole.json" | cmp -s - "$cluster/kchunks.cmp"; then
        pass "cluster: a chunk's ffmpeg killed on worker threads: the chunk runs again, the merged log is the whole run's"
    else
        fail "cluster: a chunk's ffmpeg killed (killed: ${killed:-none}; exit $rc): $(tail -n 2 "$cluster/kchunks.log" | tr '\n' ' ')"
    fi

    # A pair of which a file is missing: the error names it, exit 1, and
    # no cluster is started for it (the plan would fail once it was up).
    vmaf_cluster --gpus none --cpu-workers 2 -o "$cluster/nopair" --pair \
        "$cluster/cdis.mp4" "$cluster/nosuch.mp4" --chunk-frames 7 > "$cluster/nopair.log" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -q "no such file: .*nosuch.mp4" "$cluster/nopair.log" &&
       ! grep -q "worker(s)" "$cluster/nopair.log"; then
        pass "cluster: --pair with a missing file: named, exit 1, before any worker starts"
    else
        fail "cluster: --pair with a missing file (exit $rc): $(tail -2 "$cluster/nopair.log" | tr '\n' ' ')"
    fi

    # A newer pynvml (nvidia-ml-py: names as str) where the workers run:
    # Debian 12's distributed called .decode() on them and its workers did
    # not start. The cluster's GPU monitoring is off; the pair is scored.
    mkdir -p "$cluster/nvml"
    cat > "$cluster/nvml/pynvml.py" <<'EOF_PY'
class NVMLError(Exception): pass
class NVMLError_LibraryNotFound(NVMLError): pass
class NVMLError_DriverNotLoaded(NVMLError): pass
class NVMLError_Unknown(NVMLError): pass
class NVMLError_NotSupported(NVMLError): pass
class _Memory: total, used, free = 80 << 30, 1 << 30, 79 << 30
class _Rates: gpu, memory = 0, 0
def nvmlInit(): pass
def nvmlSystemGetDriverVersion(): return "580.0"
def nvmlDeviceGetCount(): return 1
def nvmlDeviceGetHandleByIndex(i): return i
def nvmlDeviceGetName(h): return "Test GPU"
def nvmlDeviceGetMemoryInfo(h): return _Memory()
def nvmlDeviceGetUtilizationRates(h): return _Rates()
EOF_PY
    if PYTHONPATH="$cluster/nvml" vmaf_cluster --gpus none --cpu-workers 2 -o "$cluster/nvml/out" \
           --pair "$cluster/cdis.mp4" "$cluster/cref.mp4" --chunk-frames 30 > "$cluster/nvml.log" 2>&1 &&
       c_nofps "$cluster/nvml/out/logs/pair.json" | cmp -s "$cluster/whole-x264.cmp" -; then
        pass "cluster: a newer pynvml beside Debian's distributed: the workers start, the merged log is the whole run's"
    else
        fail "cluster: a newer pynvml beside Debian's distributed: $(tail -2 "$cluster/nvml.log" | tr '\n' ' ')"
    fi

    # The workers of a machine with two GPUs, two workers on each, one more
    # that decodes on the CPU (--sw-per-gpu 1), and a CPU worker: what each
    # has in its environment, and the options a task of each gives ffmpeg
    # with --nvdec; then such a cluster started (its workers need no GPU to
    # start), as threads and as processes, each worker with its own
    # settings. A file, not stdin: worker processes load the main module
    # from its path.
    cat > "$cluster/specs.py" <<'EOF_PY'
import os
import vmaf_chunks
import vmaf_cluster as vc
specs = vc.worker_specs(["0", "1"], per_gpu=2, sw_per_gpu=1, cpu_workers=1, env={"X": "1"})
assert sorted(specs) == ["cpu-0", "gpu0-0", "gpu0-1", "gpu0-sw0", "gpu1-0", "gpu1-1",
                         "gpu1-sw0"], sorted(specs)
for name, env in sorted(specs.items()):
    assert env["X"] == "1", (name, env)
    for k in (vc.DEVICE_ENV, vc.DECODE_ENV):
        os.environ.pop(k, None)
    os.environ.update({k: v for k, v in env.items() if k != "X"})
    gpu = None if name.startswith("cpu") else name[3]
    # NVDEC on the worker's GPU: one CUDA device made before the inputs,
    # named, and both inputs decoded on it (not a device per input).
    hw = ["-hwaccel", "cuda", "-hwaccel_device", "vmaf", "-hwaccel_output_format", "cuda"]
    nv = ["-init_hw_device", "cuda=vmaf:%s" % gpu]
    want = ([], [], []) if gpu is None or "-sw" in name else (nv, hw, hw)
    got = vc.hw_options(True)
    assert got == want and vc.hw_options("both") == want, (name, got, want)
    # NVDEC for one input, the other on the cores (--sw-input).
    for one, d_in, r_in in (("reference", [], hw), ("distorted", hw, [])):
        assert vc.hw_options(one) == ((nv, d_in, r_in) if want[0] else want), (name, one)
    assert vc.hw_options(False) == vc.hw_options(None) == ([], [], []), name
    assert vmaf_chunks.nvdec_choice(True, "distorted") == "reference"
    assert vmaf_chunks.nvdec_choice(True, "reference") == "distorted"
    assert vmaf_chunks.nvdec_choice(True) == "both" and vmaf_chunks.nvdec_choice(False) is None
    assert vc.backend_option() == ("backend=cpu" if gpu is None else "device=" + gpu), \
        (name, vc.backend_option())
    # A chunk's command: the device once, before the inputs.
    spec = dict(start=10, first=8, first_time=0.3, end=20, seek_dist=0.2, seek_ref=None)
    cmd = vmaf_chunks.chunk_command("ffmpeg", "d.mp4", "r.mp4", spec, "", "c.json", got[1],
                                    got[0], got[2])
    assert cmd.count("-init_hw_device") == len(got[0]) // 2, cmd
    assert cmd.count("-hwaccel_device") == 2 * (len(got[1]) > 0), cmd
    if got[0]:
        assert cmd.index("-init_hw_device") < cmd.index("-i"), cmd
    # The reference alone on NVDEC: its options between the two -i.
    before, d_in, r_in = vc.hw_options("reference")
    cmd = vmaf_chunks.chunk_command("ffmpeg", "d.mp4", "r.mp4", spec, "", "c.json", d_in,
                                    before, r_in)
    i1 = cmd.index("-i")
    assert "-hwaccel" not in cmd[:i1], cmd
    assert ("-hwaccel" in cmd[i1:]) == bool(before), cmd
# A GPU worker's variables left in this process's environment: the cluster's
# CPU workers inherit them, and must not be pinned by them.
os.environ.update({vc.DEVICE_ENV: "1", vc.DECODE_ENV: "cpu"})


def seen():
    from distributed import get_worker
    import vmaf_tune as vt
    return (get_worker().name, vt.worker_setting(vc.DEVICE_ENV), vt.worker_setting(vc.DECODE_ENV),
            vc.backend_option(), vc.hw_options(True)[0])


# Started for real (the workers need no GPU to start), as threads of this
# process and as processes of their own: each worker has its own settings.
if __name__ == "__main__":
    from distributed import Client
    for processes in (False, True):
        cluster, _ = vc.start_cluster(gpu_list="0,1", per_gpu=1, sw_per_gpu=1, cpu_workers=1,
                                      processes=processes)
        with Client(cluster) as client:
            got = sorted(tuple(client.submit(seen, workers=[a], pure=False).result())
                         for a in client.scheduler_info()["workers"])
            # Outside a task, while worker threads run here: the environment's.
            import vmaf_tune as vt
            outside = (vt.worker_setting(vc.DEVICE_ENV), vt.worker_setting(vc.DECODE_ENV))
            assert outside == ("1", "cpu"), (processes, outside)
        cluster.close()
        nv = lambda d: ["-init_hw_device", "cuda=vmaf:" + d]
        assert got == [("cpu-0", "", "", "backend=cpu", []),
                       ("gpu0-0", "0", "", "device=0", nv("0")),
                       ("gpu0-sw0", "0", "cpu", "device=0", []),
                       ("gpu1-0", "1", "", "device=1", nv("1")),
                       ("gpu1-sw0", "1", "cpu", "device=1", [])], (processes, got)
    print("ok")
EOF_PY
    if PYTHONPATH="$top/tools" "$py" "$cluster/specs.py" > "$cluster/specs.log" 2>&1; then
        pass "cluster: workers per GPU with NVDEC, workers that decode on the CPU beside them, CPU workers"
    else
        fail "cluster: the workers' decoding: $(tail -3 "$cluster/specs.log" | tr '\n' ' ')"
    fi
fi
