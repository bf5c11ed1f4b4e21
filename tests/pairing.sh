# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# Frame pairing on real timelines: an encode in mkv, webm, mp4 or ts at
# 29.97 and 23.976 fps against its source, other rates, dropped frames, a
# cut file, inputs that do not overlap. The truth is the decoded frames
# scored in presentation order, frame i against frame i: both inputs are
# decoded to raw video (no timestamps) and scored as such, and the run on
# the files themselves must give every per-frame value and pooled score of
# that, with exit status 0 and no warning.

pairing=$build/pairing
rm -rf "$pairing"
mkdir -p "$pairing"
p_ffmpeg() { ffmpeg_run "$pairing" "$@"; }   # name args...
p_ok()     { ran_ok "$pairing" "$1"; }
p_says()   { ran_says "$pairing" "$1" "$2"; }
p_make() { # output args...: makes a file, quietly
    out=$1; shift
    SVT_LOG=1 "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error -y "$@" "$pairing/$out" \
        > "$pairing/make.log" 2>&1 || { tail -3 "$pairing/make.log"; return 1; }
}
# Decoded frames in presentation order, as raw video with no timestamps.
p_raw() { # input output [filters]
    "$ffmpeg" -hide_banner -nostdin -loglevel error -y -i "$pairing/$1" ${3:+-vf "$3"} \
        -fps_mode passthrough -f rawvideo -pix_fmt yuv420p "$pairing/$2" > "$pairing/make.log" 2>&1
}
p_frames() { # raw file: frames of 160x90 yuv420p
    echo $(( $(wc -c < "$pairing/$1") / 21600 ))
}
# The same per-frame values and pooled scores; a count of frames.
p_same() { # frames truth.json run.json
    python3 - "$@" <<'EOF_PY'
import json, sys
n, a, b = int(sys.argv[1]), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert len(a['frames']) == n, ('truth', len(a['frames']), n)
assert a['frames'] == b['frames'], 'frames differ'
assert a['pooled_metrics'] == b['pooled_metrics'], 'pooled values differ'
EOF_PY
}
p_counts() { # run.json pairs off ref_unused dist_unpaired
    python3 - "$@" <<'EOF_PY'
import json, sys
p = json.load(open(sys.argv[1]))['pairing']
want = dict(zip(('pairs', 'pairs_off', 'reference_unused', 'distorted_unpaired'), map(int, sys.argv[2:])))
got = {k: p[k] for k in want}
assert got == want, (got, want)
EOF_PY
}
raw_in="-f rawvideo -pix_fmt yuv420p -s 160x90 -r 25"
features="feature=name=psnr|name=float_ssim:log_fmt=json"
has_enc() { "$ffmpeg" -hide_banner -encoders < /dev/null 2>/dev/null | grep -q " $1 "; }

# ---- encodes against their source: every value of frame i against frame i ----
for rate in 30000/1001 24000/1001; do
    tag=$(echo "$rate" | sed 's#30000/1001#29.97#; s#24000/1001#23.976#')
    src=src-$tag.y4m
    p_make "$src" -f lavfi -i "testsrc2=size=160x90:rate=$rate:duration=3" -pix_fmt yuv420p ||
        { fail "pairing: cannot make the $tag fps source"; continue; }
    p_raw "$src" "src-$tag.yuv"
    nb=$(p_frames "src-$tag.yuv")
    while read -r ext enc opts; do
        has_enc "$enc" || { echo "pairing ($tag fps .$ext): skipped: no $enc encoder"; continue; }
        name=$tag-$enc.$ext
        if ! p_make "$name" -i "$pairing/$src" -c:v "$enc" $opts; then
            fail "pairing: cannot encode $name"
            continue
        fi
        p_raw "$name" "$name.yuv"
        p_ffmpeg "truth-$name" $raw_in -i "$pairing/$name.yuv" $raw_in -i "$pairing/src-$tag.yuv" \
            -lavfi "vmaf_hip=$features:log_path=$pairing/truth-$name.json"
        p_ffmpeg "run-$name" -v level+info -i "$pairing/$name" -i "$pairing/$src" \
            -lavfi "vmaf_hip=$features:log_path=$pairing/run-$name.json"
        why=""
        p_ok "truth-$name" || why="the raw run failed"
        [ -n "$why" ] || p_ok "run-$name" || why="exit status $(cat "$pairing/run-$name.rc")"
        [ -n "$why" ] || [ "$(p_frames "$name.yuv")" = "$nb" ] || why="decoded $(p_frames "$name.yuv") frames of $nb"
        [ -n "$why" ] || p_same "$nb" "$pairing/truth-$name.json" "$pairing/run-$name.json" \
            > "$pairing/cmp-$name.txt" 2>&1 || why="$(tail -1 "$pairing/cmp-$name.txt")"
        [ -n "$why" ] || p_counts "$pairing/run-$name.json" "$nb" 0 0 0 || why="counts"
        # No warning of the filter's at all (the summary's pairing line
        # is a warning when something was off).
        [ -n "$why" ] || ! grep -q "^\[Parsed_vmaf_hip_0 [^]]*\] \[warning\]" "$pairing/run-$name.log" ||
            why="a warning: $(grep -m1 "\[warning\]" "$pairing/run-$name.log")"
        if [ -z "$why" ]; then
            pass "pairing: $tag fps $enc in .$ext against its y4m source: the $nb values of frame i against frame i"
        else
            fail "pairing: $tag fps $enc in .$ext against its y4m source: $why"
            grep -i "warn\|pair\|score" "$pairing/run-$name.log" | head -4
        fi
    done <<EOF_ENC
mkv  libx264    -preset ultrafast -crf 30
mp4  libx264    -preset ultrafast -crf 30
ts   libx264    -preset ultrafast -crf 30
webm libvpx-vp9 -deadline realtime -cpu-used 8 -crf 40 -b:v 0
mkv  libsvtav1  -preset 12 -crf 50
mp4  libx265    -preset ultrafast -crf 30 -x265-params log-level=error
EOF_ENC
done

# The same file under framesync's exact timestamps: the old pairing, still
# there for whoever relies on it, and told apart by its counts.
name=29.97-libx264.mkv
if [ -f "$pairing/$name" ]; then
    p_ffmpeg fs-$name -i "$pairing/$name" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=pairing=framesync:$features:log_path=$pairing/fs-$name.json"
    p_ffmpeg index-$name -i "$pairing/$name" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=pairing=index:$features:log_path=$pairing/index-$name.json"
    if p_ok fs-$name && ! p_same 90 "$pairing/truth-$name.json" "$pairing/fs-$name.json" 2>/dev/null &&
       p_says fs-$name "Pairing (framesync): 89 pairs scored (off by more than the tolerance: [1-9]" &&
       p_says fs-$name "is scored against the reference frame at 0.000000 s, 33.000 ms away" &&
       p_ok index-$name && p_same 90 "$pairing/truth-$name.json" "$pairing/index-$name.json"; then
        pass "pairing: pairing=framesync keeps framesync's pairs (and counts them off); pairing=index is frame i against frame i"
    else
        fail "pairing: pairing=framesync and pairing=index"
        grep -h "Pairing" "$pairing/fs-$name.log" "$pairing/index-$name.log"
    fi
fi

# ---- other rates: a 25 fps encode of a 50 fps source meets its even frames ----
if p_make src50.y4m -f lavfi -i "testsrc2=size=160x90:rate=50:duration=2" -pix_fmt yuv420p &&
   p_make half.mkv -i "$pairing/src50.y4m" -vf fps=25 -c:v libx264 -preset ultrafast -crf 30 &&
   p_raw half.mkv half.yuv && p_raw src50.y4m even.yuv "select=not(mod(n\\,2))"; then
    p_ffmpeg truth-half $raw_in -i "$pairing/half.yuv" $raw_in -i "$pairing/even.yuv" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/truth-half.json"
    p_ffmpeg half -i "$pairing/half.mkv" -i "$pairing/src50.y4m" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/half.json"
    if p_ok truth-half && p_ok half && p_same 50 "$pairing/truth-half.json" "$pairing/half.json" &&
       p_counts "$pairing/half.json" 50 0 50 0 &&
       p_says half "The inputs' frame rates differ (distorted: 25.000 fps, reference: 50.000 fps)" &&
       p_says half "reference frames not used: 50; distorted frames without a reference frame: 0"; then
        pass "pairing: 25 fps against a 50 fps reference: each frame meets the reference frame of its instant, 50 left out and counted"
    else
        fail "pairing: 25 fps against a 50 fps reference"
        grep -h "Pairing\|differ\|Error" "$pairing/half.log" | head -3
    fi
else
    fail "pairing: cannot make the 25/50 fps files"
fi

# ---- a frame dropped from the distorted input: its reference frame is left out, and said ----
if p_make drop.mkv -i "$pairing/src-29.97.y4m" -vf "select=not(eq(n\\,17))" -fps_mode passthrough \
       -c:v libx264 -preset ultrafast -crf 30 &&
   p_raw drop.mkv drop.yuv && p_raw src-29.97.y4m src-drop.yuv "select=not(eq(n\\,17))"; then
    p_ffmpeg truth-drop $raw_in -i "$pairing/drop.yuv" $raw_in -i "$pairing/src-drop.yuv" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/truth-drop.json"
    p_ffmpeg drop -i "$pairing/drop.mkv" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/drop.json"
    if p_ok truth-drop && p_ok drop && p_same 89 "$pairing/truth-drop.json" "$pairing/drop.json" &&
       p_counts "$pairing/drop.json" 89 0 1 0 &&
       p_says drop "The reference frame at 0.567233 s is not scored: the distorted input has no frame of its instant"; then
        pass "pairing: a frame dropped from the encode: its reference frame is left out, with a warning and a count"
    else
        fail "pairing: a frame dropped from the encode"
        grep -h "Pairing\|not scored\|Error" "$pairing/drop.log" | head -3
    fi
else
    fail "pairing: cannot make the encode with a dropped frame"
fi

# ---- an encode cut short (the first 2 s): 60 pairs, and the end said ----
if p_make cut.mkv -i "$pairing/src-29.97.y4m" -t 2 -c:v libx264 -preset ultrafast -crf 30 &&
   p_raw cut.mkv cut.yuv && p_raw src-29.97.y4m src-cut.yuv "trim=end_frame=60"; then
    p_ffmpeg truth-cut $raw_in -i "$pairing/cut.yuv" $raw_in -i "$pairing/src-cut.yuv" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/truth-cut.json"
    p_ffmpeg cut -i "$pairing/cut.mkv" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=$features:log_path=$pairing/cut.json"
    if p_ok truth-cut && p_ok cut && p_same 60 "$pairing/truth-cut.json" "$pairing/cut.json" &&
       p_says cut "The distorted input ended (its last frame at 1.96[0-9]* s) before the reference"; then
        pass "pairing: an encode cut short is scored to its end, which is said"
    else
        fail "pairing: an encode cut short"
        grep -h "Pairing\|ended\|Error" "$pairing/cut.log" | head -3
    fi
fi

# ---- no overlap: an error naming both inputs' times; an older log moved aside ----
if [ -f "$pairing/29.97-libx264.mkv" ]; then
    log=$pairing/apart.json
    echo '{"an": "older log"}' > "$log"
    rm -f "$log.old"
    p_ffmpeg apart -itsoffset 10 -i "$pairing/29.97-libx264.mkv" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=log_fmt=json:log_path=$log"
    if ! p_ok apart && p_says apart "No frame pair was scored: the inputs do not overlap in time" &&
       p_says apart "distorted frames read run from 10.000000 s" &&
       p_says apart "reference frames read from 0.000000 s to 2.969633 s (90 frames)" &&
       p_says apart "held an earlier run's log: it was moved to '$log.old'" &&
       [ ! -e "$log" ] && grep -q "older log" "$log.old" && ! p_says apart "VMAF score"; then
        pass "pairing: inputs that do not overlap are an error with both inputs' times, and no log is left that could be taken for the run's"
    else
        fail "pairing: inputs that do not overlap (exit $(cat "$pairing/apart.rc"))"
        grep -h "scored\|log\|Error" "$pairing/apart.log" | head -4
    fi
    # The same under framesync and index pairing: index pairs them (in order).
    p_ffmpeg apart-fs -itsoffset 10 -i "$pairing/29.97-libx264.mkv" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=pairing=framesync"
    p_ffmpeg apart-index -itsoffset 10 -i "$pairing/29.97-libx264.mkv" -i "$pairing/src-29.97.y4m" \
        -lavfi "vmaf_hip=pairing=index"
    if ! p_ok apart-fs && p_says apart-fs "No frame pair was scored" &&
       p_ok apart-index && p_says apart-index "Scored 90 of 90 frame pairs"; then
        pass "pairing: no overlap fails under pairing=framesync too; pairing=index pairs the frames in order"
    else
        fail "pairing: no overlap under framesync and index (exit $(cat "$pairing/apart-fs.rc"), $(cat "$pairing/apart-index.rc"))"
    fi
fi

# ---- the help says the defaults that hold ----
"$ffmpeg" -hide_banner -h filter=vmaf_hip > "$pairing/help.txt" 2>&1
if grep -q "eof_action .*(default endall)" "$pairing/help.txt" &&
   grep -q "pairing .*(default instant)" "$pairing/help.txt"; then
    pass "pairing: -h filter=vmaf_hip gives eof_action's and pairing's real defaults"
else
    fail "pairing: -h filter=vmaf_hip defaults"; grep "eof_action\|pairing" "$pairing/help.txt"
fi
