# Sourced by tests/chunks.sh (uses its $ck, $ck_merge, $ck_runner, ck_chunks
# and the h264 pair; $ffmpeg, expect_error, pass, fail): a chunk that cannot
# be exact fails, and writes no chunk file; chunks that do not make one run
# do not merge, and vmaf-merge says why.

ck_dis=$ck/h264.dis.mp4
ck_ref=$ck/h264.ref.mp4

# The inputs (24 frames) end before the chunk's last frame.
rm -f "$ck/early.json"
expect_error "chunks: inputs that end before the chunk's end" \
    "The inputs ended after frame 23 of the run, before the chunk's last frame, 29" \
    -i "$ck_dis" -i "$ck_ref" \
    -lavfi "[0:v][1:v]vmaf_hip=chunk_start=20:chunk_end=30:log_fmt=chunk:log_path=$ck/early.json"
if [ -e "$ck/early.json" ]; then
    fail "chunks: a chunk whose inputs end early leaves a chunk file"
else
    pass "chunks: a chunk whose inputs end early writes no chunk file"
fi

# Seeked past the frame asked for: frame 8 is at 0.32 s, the inputs start at 0.52 s.
expect_error "chunks: a first frame that is not the one asked for" \
    "asked for frame 8 of the run at t=0.320000 s, got t=0.520000 s" \
    -copyts -start_at_zero -ss 0.5 -i "$ck_dis" -ss 0.5 -i "$ck_ref" \
    -lavfi "[0:v][1:v]vmaf_hip=chunk_start=12:chunk_end=16:chunk_first=8:chunk_first_time=0.32:log_fmt=chunk:log_path=$ck/late.json"
# A time between two frames is no frame's.
expect_error "chunks: a first frame time that is no frame's" \
    "asked for frame 8 of the run at t=0.330000 s, got t=0.360000 s" \
    -copyts -start_at_zero -i "$ck_dis" -i "$ck_ref" \
    -lavfi "[0:v][1:v]vmaf_hip=chunk_start=12:chunk_end=16:chunk_first=8:chunk_first_time=0.33:log_fmt=chunk:log_path=$ck/late.json"
# motion needs the frame before the chunk.
expect_error "chunks: inputs that start after the context the features need" \
    "chunk_start=12 needs the inputs from frame 11 of the run on" \
    -copyts -start_at_zero -ss 0.46 -i "$ck_dis" -ss 0.46 -i "$ck_ref" \
    -lavfi "[0:v][1:v]vmaf_hip=chunk_start=12:chunk_end=16:chunk_first=12:chunk_first_time=0.48:log_fmt=chunk:log_path=$ck/late.json"
expect_error "chunks: a chunk's log is in the chunk format" \
    "A chunk writes its log with log_fmt=chunk" \
    -i "$ck_dis" -i "$ck_ref" -lavfi "[0:v][1:v]vmaf_hip=chunk_start=4:log_fmt=json:log_path=$ck/c.json"
expect_error "chunks: seeked inputs paired by index" "With pairing=index, a chunk's inputs start at the run's first frame" \
    -i "$ck_dis" -i "$ck_ref" -lavfi "[0:v][1:v]vmaf_hip=pairing=index:chunk_start=8:chunk_first=4"
expect_error "chunks: framesync's pairing" "A chunk pairs its frames by instant or by index" \
    -i "$ck_dis" -i "$ck_ref" -lavfi "[0:v][1:v]vmaf_hip=pairing=framesync:chunk_start=8"
expect_error "chunks: chunk_end before chunk_start" "chunk_end=4 must come after chunk_start=8" \
    -i "$ck_dis" -i "$ck_ref" -lavfi "[0:v][1:v]vmaf_hip=chunk_start=8:chunk_end=4"

# ck_merge_error NAME PATTERN ARGS...: vmaf-merge must fail (status 1) and say so.
ck_merge_error() {
    name=$1 pattern=$2
    shift 2
    rm -f "$ck/bad-merge.xml"
    "$ck_merge" -o "$ck/bad-merge.xml" "$@" > "$ck/merge-error.log" 2>&1
    rc=$?
    if [ $rc != 1 ]; then
        fail "vmaf-merge: $name: exit status $rc, not 1"
    elif ! grep -q -- "$pattern" "$ck/merge-error.log"; then
        fail "vmaf-merge: $name: no message matching '$pattern'"
        tail -2 "$ck/merge-error.log"
    elif [ -e "$ck/bad-merge.xml" ]; then
        fail "vmaf-merge: $name: a log was written"
    else
        pass "vmaf-merge: $name: refused, and said why"
    fi
}

if ck_chunks h264 mp4 "" 8 "$ck/m8" --fixed-chunks && ck_chunks h264 mp4 "" 5 "$ck/m5" --fixed-chunks &&
   ck_chunks h264 mp4 "feature=name=psnr" 8 "$ck/m8psnr" --fixed-chunks &&
   ck_chunks h264 mp4 "n_subsample=2" 8 "$ck/m8sub" --fixed-chunks; then
    ck_merge_error "a gap" "no chunk holds frames 8 to 15" \
        "$ck/m8/chunk-000000.json" "$ck/m8/chunk-000016.json"
    ck_merge_error "an overlap" "both hold frames 5 to 7" \
        "$ck/m8/chunk-000000.json" "$ck/m5/chunk-000005.json" "$ck/m5/chunk-000010.json" \
        "$ck/m5/chunk-000015.json" "$ck/m5/chunk-000020.json"
    ck_merge_error "the same chunk twice" "both hold frames 8 to 15" \
        "$ck/m8/chunk-000000.json" "$ck/m8/chunk-000008.json" "$ck/m8/chunk-000008.json" \
        "$ck/m8/chunk-000016.json"
    ck_merge_error "another feature option" "differ in their feature option" \
        "$ck/m8/chunk-000000.json" "$ck/m8psnr/chunk-000008.json" "$ck/m8/chunk-000016.json"
    ck_merge_error "another n_subsample" "differ in their n_subsample" \
        "$ck/m8/chunk-000000.json" "$ck/m8sub/chunk-000008.json" "$ck/m8/chunk-000016.json"
    ck_merge_error "no last chunk" "did not see the run end" \
        "$ck/m8/chunk-000000.json" "$ck/m8/chunk-000008.json"
    ck_merge_error "no first chunk" "no chunk holds frames 0 to 7" \
        "$ck/m8/chunk-000008.json" "$ck/m8/chunk-000016.json"
    ck_merge_error "another length" "make a run of 24 frames, not 30" -n 30 "$ck/m8"/chunk-*.json
    ck_merge_error "a file that is no chunk" "not a chunk file" "$ck/h264.whole.json"
    # The chunks in any order; the merged log is the same.
    if "$ck_merge" -o "$ck/any-order.xml" "$ck/m8/chunk-000016.json" "$ck/m8/chunk-000000.json" \
           "$ck/m8/chunk-000008.json" 2> "$ck/merge-error.log" &&
       ck_strip "$ck/any-order.xml" && cmp -s "$ck/any-order.xml.cmp" "$ck/h264.whole.xml.cmp"; then
        pass "vmaf-merge: chunks given in any order merge into the whole run's log"
    else
        fail "vmaf-merge: chunks given in any order merge into the whole run's log"
    fi
else
    fail "chunks: the chunks for vmaf-merge's errors cannot be made"
    tail -3 "$ck/m8.log" "$ck/m5.log" "$ck/m8psnr.log" "$ck/m8sub.log" 2>/dev/null
fi

if "$ck_merge" --help > "$ck/help.txt" 2>&1 && grep -q '^usage: vmaf-merge' "$ck/help.txt" &&
   ! "$ck_merge" --no-such-option > "$ck/help.txt" 2>&1 && grep -q '^usage: vmaf-merge' "$ck/help.txt"; then
    "$ck_merge" --no-such-option > /dev/null 2>&1
    if [ $? = 2 ]; then
        pass "vmaf-merge: --help prints its usage; a wrong option exits 2 with it"
    else
        fail "vmaf-merge: a wrong option exits 2"
    fi
else
    fail "vmaf-merge: --help prints its usage; a wrong option fails with it"
fi

# A program given by a relative path is found from the chunks' own
# directories too; one that is not there is named, before any chunk.
mkdir -p "$ck/rel"
if (cd "$ck" && python3 "$ck_runner" run h264.dis.mp4 h264.ref.mp4 --chunk-frames 7 \
        --ffmpeg "$(realpath --relative-to="$ck" "$ffmpeg")" --log-fmt json \
        --log-path rel/pair.json > rel.log 2>&1) &&
   grep -v '"fps"' "$ck/rel/pair.json" | cmp -s - "$ck/h264.whole.json.cmp" &&
   ! python3 "$ck_runner" run "$ck_dis" "$ck_ref" --chunk-frames 7 --ffmpeg no/such/ffmpeg \
        --log-path "$ck/rel/none.json" > "$ck/rel-none.log" 2>&1 &&
   grep -q "no/such/ffmpeg: no such program" "$ck/rel-none.log"; then
    pass "chunks: --ffmpeg by a relative path runs; a missing one is named"
else
    fail "chunks: --ffmpeg by a relative path, or a missing one"
    tail -2 "$ck/rel.log" "$ck/rel-none.log"
fi
