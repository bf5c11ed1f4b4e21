# Sourced by tests/run.sh (uses $ffmpeg, $build, $top, pass, fail, expect_error).
# The log file and the names in it: a log is replaced only by a complete one,
# a failed write fails the run, logs are byte-identical for any thread count
# and n_subsample, names that collide or cannot be written are refused
# before the first frame, and the messages for a model's unknown feature and
# an oversized CAMBI window name what to change.

rl=$build/robust-logs
rm -rf "$rl"
mkdir -p "$rl"
rl_src="testsrc2=size=320x240:rate=25:duration=0.2"

# rl_run <stderr file> <ffmpeg args...>: the filter's run; its status is in $rl_rc.
rl_run() {
    out=$1
    shift
    "$ffmpeg" -hide_banner -nostdin -nostats "$@" -f null - > "$out" 2>&1
    rl_rc=$?
}

# rl_no_temp <log_path>: no temporary file of the log is left beside it.
rl_no_temp() {
    ! ls "$1".tmp-* > /dev/null 2>&1
}

# ---- 1. the log is replaced only by a complete one ----

# A run that fails before its first frame (inputs of different sizes)
# keeps the log of the previous run.
log=$rl/setup-fail.json
echo previous > "$log"
rl_run "$rl/setup-fail.err" -f lavfi -i "$rl_src" -f lavfi -i "testsrc2=size=352x288:rate=25:duration=0.2" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json:log_path=$log"
if [ $rl_rc -ne 0 ] && [ "$(cat "$log")" = previous ] && rl_no_temp "$log"; then
    pass "log: a run that fails set-up keeps the previous log"
else
    fail "log: a run that fails set-up keeps the previous log (exit $rl_rc, log: $(head -c 40 "$log"))"
fi

# kill -9 in the middle of a run leaves the previous log as it was.
log=$rl/killed.json
: > "$rl/killed.err"
echo previous > "$log"
"$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "testsrc2=size=320x240:rate=25:duration=600" \
    -f lavfi -i "testsrc2=size=320x240:rate=25:duration=600" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json:log_path=$log" \
    -f null - > "$rl/killed.err" 2>&1 &
pid=$!
i=0
# Until it scores (its summary line of the inputs is printed at configure).
while [ $i -lt 100 ] && ! grep -q "main (input 0) = distorted" "$rl/killed.err"; do
    sleep 0.1
    i=$((i + 1))
done
sleep 0.5
kill -9 $pid 2> /dev/null
wait $pid 2> /dev/null
if [ $i -lt 100 ] && [ "$(cat "$log")" = previous ]; then
    pass "log: kill -9 in the middle of a run keeps the previous log"
else
    fail "log: kill -9 in the middle of a run keeps the previous log (log: $(head -c 40 "$log"))"
fi
# kill -9 cannot clean up: its temporary file stays.
rm -f "$log".tmp-*

# A run that completes replaces the log and leaves no temporary file.
log=$rl/complete.json
echo previous > "$log"
rl_run "$rl/complete.err" -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json:log_path=$log"
if [ $rl_rc -eq 0 ] && grep -q '"frameNum": 4' "$log" && rl_no_temp "$log"; then
    pass "log: a complete run replaces the log and leaves no temporary file"
else
    fail "log: a complete run replaces the log and leaves no temporary file"
fi

# log_path naming one of the inputs: refused before the input is touched.
ref_y4m=$rl/reference.y4m
"$ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "$rl_src" -pix_fmt yuv420p "$ref_y4m"
sum=$(cksum < "$ref_y4m")
rl_run "$rl/input.err" -i "$ref_y4m" -i "$ref_y4m" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json:log_path=$ref_y4m"
if [ $rl_rc -ne 0 ] && [ "$(cksum < "$ref_y4m")" = "$sum" ] &&
   grep -q "log_path '$ref_y4m' is a file this process has open" "$rl/input.err" &&
   rl_no_temp "$ref_y4m"; then
    pass "log: log_path naming an input is refused and the input kept"
else
    fail "log: log_path naming an input is refused and the input kept (exit $rl_rc)"
    tail -3 "$rl/input.err"
fi

# A resolution change in the middle of the stream makes ffmpeg re-create the
# filter: the second instance's log goes beside the first's, which is kept.
# (The frames still inside the first graph when it is re-created are lost
# to it: ffmpeg drains its output, not its filters.)
if "$ffmpeg" -hide_banner -encoders < /dev/null 2> /dev/null | grep -q " pgm "; then
    mkdir -p "$rl/sizes"
    "$ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=320x240:rate=25" \
        -frames:v 4 "$rl/sizes/a%02d.pgm" &&
    "$ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=352x288:rate=25" \
        -frames:v 6 -start_number 4 "$rl/sizes/a%02d.pgm"
    log=$rl/sizes.xml
    rm -f "$log" "$rl/sizes.part2.xml"
    rl_run "$rl/sizes.err" -framerate 25 -i "$rl/sizes/a%02d.pgm" \
        -lavfi "[0:v]split[a][b];[a]avgblur=2[d];[d][b]vmaf_hip=model=:feature=name=psnr:log_path=$log"
    if [ $rl_rc -eq 0 ] && grep -q 'qualityWidth="320"' "$log" &&
       [ "$(grep -c '<frame ' "$log")" -ge 1 ] &&
       grep -q 'qualityWidth="352"' "$rl/sizes.part2.xml" &&
       [ "$(grep -c '<frame ' "$rl/sizes.part2.xml")" -eq 6 ] &&
       grep -q "writing this part's log to '$rl/sizes.part2.xml'" "$rl/sizes.err"; then
        pass "log: after a resolution change the second filter instance keeps the first's log"
    else
        fail "log: after a resolution change the second filter instance keeps the first's log (exit $rl_rc)"
        grep -h 'qualityWidth' "$log" "$rl/sizes.part2.xml" 2> /dev/null
    fi
else
    echo "log after a resolution change: skipped: this ffmpeg has no pgm encoder (a SMALL=1 build?)"
fi

# ---- 2. a log that cannot be written fails the run ----

# A device that refuses the write: written directly, at the end of the stream.
expect_error "log: a failed write to log_path=/dev/full fails the run" \
    "Error writing the log to '/dev/full'" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_path=/dev/full"

# A regular file whose write fails half-way (a full disk): a file-size limit
# makes write() fail with EFBIG (SIGXFSZ ignored), with no root and no
# small filesystem to mount. The temporary file is removed, the previous
# log kept. stderr stays far below the limit at -loglevel error.
log=$rl/fsize.json
echo previous > "$log"
(
    trap '' XFSZ
    ulimit -f 8 &&
    exec "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error \
        -f lavfi -i "testsrc2=size=320x240:rate=25:duration=2" -f lavfi -i "testsrc2=size=320x240:rate=25:duration=2" \
        -lavfi "[0:v][1:v]vmaf_hip=feature=name=psnr:log_fmt=json:log_path=$log" -f null -
) > "$rl/fsize.err" 2>&1
rl_rc=$?
if [ $rl_rc -ne 0 ] && grep -q "Error writing the log to '$log.tmp-" "$rl/fsize.err" &&
   [ "$(cat "$log")" = previous ] && rl_no_temp "$log"; then
    pass "log: a write that fails half-way fails the run and keeps the previous log"
else
    fail "log: a write that fails half-way fails the run and keeps the previous log (exit $rl_rc, log: $(head -c 40 "$log"))"
    tail -3 "$rl/fsize.err"
fi

# ---- 3. logs are the same for any thread count and n_subsample ----

# rl_orders <id> <label> <size> <model> <features> <thread counts...>: for json
# and xml, n_subsample=1 and 3, the log of each thread count (minus its fps)
# must be the single-threaded one, and both n_subsample name their values in
# the same order.
rl_orders() {
    id=$1 label=$2 size=$3 model=$4 feat=$5
    shift 5
    for fmt in json xml; do
        for sub in 1 3; do
            base=$rl/order-$id-$fmt-s$sub
            same=yes
            for t in 1 "$@"; do
                "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error \
                    -f lavfi -i "testsrc2=size=$size:rate=25:duration=0.2,avgblur=2" \
                    -f lavfi -i "testsrc2=size=$size:rate=25:duration=0.2" \
                    -lavfi "[0:v][1:v]vmaf_hip=model=$model:feature=$feat:n_threads=$t:n_subsample=$sub:log_fmt=$fmt:log_path=$base.$fmt" \
                    -f null - 2> "$base.err" || same=no
                grep -v 'fps' "$base.$fmt" > "$base-t$t.cmp"
                [ $t = 1 ] || cmp -s "$base-t1.cmp" "$base-t$t.cmp" || same=no
            done
            if [ $same = yes ]; then
                pass "log order ($label): $fmt logs with n_subsample=$sub are identical for n_threads=1 $*"
            else
                fail "log order ($label): $fmt logs with n_subsample=$sub are identical for n_threads=1 $*"
            fi
            # Names in order of first appearance: per-frame keys, then pooled ones.
            grep -o -E '"[A-Za-z0-9_]+":| [A-Za-z0-9_]+="|name="[A-Za-z0-9_]+"' "$base-t1.cmp" |
                awk '!seen[$0]++' > "$base.keys"
        done
        if cmp -s "$rl/order-$id-$fmt-s1.keys" "$rl/order-$id-$fmt-s3.keys"; then
            pass "log order ($label): $fmt logs with n_subsample=1 and 3 name their values in the same order"
        else
            fail "log order ($label): $fmt logs with n_subsample=1 and 3 name their values in the same order"
        fi
    done
}

rl_orders default "vmaf, psnr, float_ssim" 320x240 "version=vmaf_v0.6.1" "name=psnr|name=float_ssim" 2 3
# float_motion (the float model's) and integer motion both create their
# motion2/motion3 keys one frame late, in the same push; threads finish them
# in any order (integer motion, registered later, usually first).
rl_orders float "float model, motion" 640x480 "version=vmaf_float_v0.6.1" "name=motion" 2 3 4 8 2 3 4 8

# ---- 4. names: collisions refused before the first frame, escaped in each format ----

rl_model="version=vmaf_v0.6.1\\\\:name"
expect_error "names: two models with one name are refused at configure" \
    "Model 2 ('vmaf') writes 'vmaf', which model 1 ('vmaf') writes too" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=$rl_model=vmaf|version=vmaf_v0.6.1neg"
expect_error "names: a model named like a feature's value is refused at configure" \
    "Model 1 ('integer_adm2') writes 'integer_adm2', which feature 'adm' writes too" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" -lavfi "[0:v][1:v]vmaf_hip=model=$rl_model=integer_adm2"
# XML writes names as attribute names.
expect_error "names: a name the XML log cannot hold is refused at configure" \
    "Model 1's name 'a\"b' cannot be written in the XML log" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=$rl_model=a\"b:log_path=$rl/bad-name.xml"

# JSON escapes what XML refuses; CSV quotes a name with a comma.
if command -v python3 > /dev/null 2>&1; then
    log=$rl/escape.json
    rl_run "$rl/escape.err" -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
        -lavfi "[0:v][1:v]vmaf_hip=model=$rl_model=a\"b\\\\\\\\c:log_fmt=json:log_path=$log"
    if [ $rl_rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "a\"b\\c" in d["frames"][0]["metrics"] and "a\"b\\c" in d["pooled_metrics"]
' "$log" 2> "$rl/escape.py"; then
        pass "names: JSON log escapes a model name with a quote and a backslash"
    else
        fail "names: JSON log escapes a model name with a quote and a backslash (exit $rl_rc)"
        tail -2 "$rl/escape.py"
    fi
    log=$rl/escape.csv
    rl_run "$rl/escape-csv.err" -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
        -lavfi "[0:v][1:v]vmaf_hip=model=$rl_model=a\\\\\\,\"b\":log_fmt=csv:log_path=$log"
    if [ $rl_rc -eq 0 ] && python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert "a,\"b\"" in rows[0] and all(len(r) == len(rows[0]) for r in rows)
' "$log" 2> "$rl/escape-csv.py"; then
        pass "names: CSV log quotes a model name with a comma and quotes"
    else
        fail "names: CSV log quotes a model name with a comma and quotes (exit $rl_rc)"
        tail -2 "$rl/escape-csv.py"
    fi
else
    echo "names: JSON and CSV escaping: skipped: no python3 to parse the logs"
fi

# ---- 5. messages that name what to change ----

# A model whose feature only matches an extractor's prefix ("integer_adm*"),
# which no extractor computes: refused when the model loads, naming both.
rl_svm='svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:0.5\n'
for name in VMAF_integer_feature_adm2_score integer_adm_foo; do
    printf '{"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none", "feature_names": ["%s"], "model": "%s"}}\n' \
        "$name" "$rl_svm" > "$rl/model-$name.json"
done
rl_run "$rl/model-ok.err" -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=path=$rl/model-VMAF_integer_feature_adm2_score.json"
if [ $rl_rc -eq 0 ] && grep -q "VMAF score: " "$rl/model-ok.err"; then
    pass "messages: a one-feature model file scores (the fixture of the next test)"
else
    fail "messages: a one-feature model file scores (the fixture of the next test)"
    tail -3 "$rl/model-ok.err"
fi
expect_error "messages: a model's feature that no extractor computes is refused at load, by name" \
    "Model 'vmaf' (path=$rl/model-integer_adm_foo.json) needs feature 'integer_adm_foo', which no extractor computes" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=path=$rl/model-integer_adm_foo.json"

# CAMBI's window grows with the frame: too large, the message names the
# option and the largest value that works at this size.
expect_error "messages: CAMBI's oversized window names window_size and its largest value here" \
    "window_size=1000 .* set window_size to 707 or less" \
    -f lavfi -i "$rl_src" -f lavfi -i "$rl_src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=cambi\\\\:window_size=1000"
