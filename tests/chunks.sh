# Sourced by tests/run.sh (uses $top, $build, $ffmpeg, pass, fail).
# A run scored in chunks (vmaf_hip's chunk_start/chunk_end, log_fmt=chunk,
# one ffmpeg per chunk by tools/vmaf_chunks.py) and merged by vmaf-merge
# gives the whole run's log byte for byte, its fps aside, in xml, json, csv
# and sub: on encodes in .mp4 (H.264 with B-frames), .mkv (HEVC), .webm
# (VP9 at 23.976 fps) and .ts (10-bit H.264, a start time of its own), a
# distorted input with a frame dropped (the pairing's counts), with
# chunks of 1, 2, 7... frames that start on frames that are not key frames;
# with n_subsample, two models, a bootstrap model, the extra features,
# psnr's aggregates and the temporal features' options. Without the frames around each chunk
# that the temporal features need (a test hook takes them away), the merge
# differs: the comparison catches a chunk that is not exact. Then the
# errors: inputs that end before the chunk's end, a first frame that is not
# the one asked for, inputs that start too late, and chunks that do not
# merge (a gap, an overlap, other options, no last chunk).

ck=$build/chunks
ck_merge=$build/vmaf-merge
ck_runner=$top/tools/vmaf_chunks.py
rm -rf "$ck"
mkdir -p "$ck"

# ck_pair NAME EXT RATE SIZE FRAMES PIXFMT ENCODER-OPTIONS...: NAME.ref.EXT, a
# good encode of testsrc2, and NAME.dis.EXT, a poor encode of it, blurred and
# noisy.
ck_pair() {
    n=$1 ext=$2 rate=$3 size=$4 frames=$5 pixfmt=$6
    shift 6
    for role in ref dis; do
        if [ $role = ref ]; then vf=null q="-crf 8"; else vf="avgblur=1,noise=alls=12:allf=t"; q="-crf 40"; fi
        case $1 in libvpx-vp9) q="$q -b:v 0" ;; esac
        "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error -y \
            -f lavfi -i "testsrc2=size=$size:rate=$rate" -frames:v "$frames" -vf "$vf" \
            -pix_fmt "$pixfmt" -c:v "$@" $q "$ck/$n.$role.$ext" > "$ck/$n.make.log" 2>&1 ||
            { tail -3 "$ck/$n.make.log"; return 1; }
    done
}

# The log without its speed.
ck_strip() {
    grep -v -e '^  <fyi fps=' -e '^  "fps": ' "$1" > "$1.cmp"
}

# ck_whole ID NAME EXT OPTIONS: the whole run's log in the four formats,
# ID.whole.{xml,json,csv,sub}.
ck_whole() {
    for fmt in xml json csv sub; do
        "$ffmpeg" -hide_banner -nostdin -nostats -i "$ck/$2.dis.$3" -i "$ck/$2.ref.$3" \
            -lavfi "[0:v][1:v]vmaf_hip=${4:+$4:}log_fmt=$fmt:log_path=$ck/$1.whole.$fmt" \
            -f null - > "$ck/$1.whole.log" 2>&1 || return 1
        ck_strip "$ck/$1.whole.$fmt"
    done
}

# ck_chunks NAME EXT OPTIONS LENGTH DIR [RUNNER-OPTION]: the run in chunks of
# (about) LENGTH frames, merged into DIR/merged.{xml,json,csv,sub}.
ck_chunks() {
    rm -rf "$5"
    python3 "$ck_runner" run "$ck/$1.dis.$2" "$ck/$1.ref.$2" --options "$3" --chunk-frames "$4" ${6:-} \
        --ffmpeg "$ffmpeg" --ffprobe "$build/ffprobe" --vmaf-merge "$ck_merge" --jobs 2 \
        --workdir "$5" --log-fmt xml --log-path "$5/merged.xml" > "$5.log" 2>&1 || return 1
    for fmt in json csv sub; do
        "$ck_merge" -f $fmt -o "$5/merged.$fmt" "$5"/chunk-*.json 2>> "$5.log" || return 1
    done
    for fmt in xml json csv sub; do
        ck_strip "$5/merged.$fmt"
    done
}

# ck_case ID NAME EXT LABEL OPTIONS LENGTHS...: the logs merged from chunks
# of each length against the whole run's.
ck_case() {
    id=$1 n=$2 ext=$3 label=$4 opts=$5
    shift 5
    if ! ck_whole "$id" "$n" "$ext" "$opts"; then
        fail "chunks ($label): the whole run fails"
        tail -3 "$ck/$id.whole.log"
        return
    fi
    for len; do
        dir=$ck/$id-$len
        if ! ck_chunks "$n" "$ext" "$opts" "$len" "$dir"; then
            fail "chunks ($label, $len-frame chunks): the chunks or their merge fail"
            tail -4 "$dir.log"
            continue
        fi
        why=""
        for fmt in xml json csv sub; do
            cmp -s "$ck/$id.whole.$fmt.cmp" "$dir/merged.$fmt.cmp" ||
                why="$why $fmt: $(diff "$ck/$id.whole.$fmt.cmp" "$dir/merged.$fmt.cmp" | sed -n 2p | cut -c1-160)"
        done
        if [ -z "$why" ] && [ "$(grep -c '<frame ' "$dir/merged.xml.cmp")" -ge 2 ]; then
            pass "chunks ($label, $len-frame chunks): the merged xml, json, csv and sub logs are the whole run's"
        else
            fail "chunks ($label, $len-frame chunks): the merged logs differ from the whole run's:$why"
        fi
    done
}

# ck_teeth ID NAME EXT LABEL OPTIONS LENGTH: chunks given no frame around
# them merge into another log than ck_case ID's whole run.
ck_teeth() {
    dir=$ck/$1-teeth
    export VMAF_HIP_CHUNK_CONTEXT=0,0
    ck_chunks "$2" "$3" "$5" "$6" "$dir"
    ck_rc=$?
    unset VMAF_HIP_CHUNK_CONTEXT
    if [ $ck_rc != 0 ]; then
        fail "chunks ($4): chunks without their context frames fail to run"
        tail -3 "$dir.log"
    elif cmp -s "$ck/$1.whole.xml.cmp" "$dir/merged.xml.cmp"; then
        fail "chunks ($4): chunks without the frames around them merge into the whole run's log: the comparison cannot see a chunk that is not exact"
    else
        pass "chunks ($4): without the frames around each chunk the merge differs from the whole run ($(diff "$ck/$1.whole.xml.cmp" "$dir/merged.xml.cmp" | grep -c '^<') frames)"
    fi
}

if ! [ -x "$ck_merge" ]; then
    fail "chunks: build/vmaf-merge was not built"
elif ! command -v python3 > /dev/null; then
    echo "chunks: skipped: no python3 for tools/vmaf_chunks.py"
elif ! has_encoder libx264 || ! has_encoder libx265 || ! has_encoder libvpx-vp9; then
    echo "chunks: skipped: this ffmpeg lacks libx264, libx265 or libvpx-vp9 (a SMALL=1 or LGPL=1 build?)"
elif ! ck_pair h264 mp4 25 320x240 24 yuv420p libx264 -preset ultrafast -g 10 -bf 3; then
    fail "chunks: cannot make the H.264 .mp4 pair"
else
    # Key frames every 10 frames and 3 B-frames: most chunks start inside a GOP.
    ck_case h264 h264 mp4 "H.264 .mp4 with B-frames" "" 1 2 7
    ck_teeth h264 h264 mp4 "H.264 .mp4" "" 5
    # Chunks of about 16 frames: the second starts 5 frames after the key
    # frame at 10 (its first frame read, 11, is one after it, and the
    # reference is read from the frame before), not at 16, from which both
    # inputs would decode two more frames for nothing.
    ck_starts() {
        python3 "$ck_runner" plan "$@" --ffprobe "$build/ffprobe" "$ck/h264.dis.mp4" "$ck/h264.ref.mp4" |
            python3 -c 'import json, sys; print(" ".join(str(c["start"]) for c in json.load(sys.stdin)))'
    }
    ck_snap=$(ck_starts --chunk-frames 16) ck_fixed=$(ck_starts --chunk-frames 16 --fixed-chunks)
    if [ "$ck_snap" = "0 15" ] && [ "$ck_fixed" = "0 16" ]; then
        pass "chunks: a chunk's start moves to just after a key frame (15, not 16); --fixed-chunks keeps 16"
    else
        fail "chunks: chunk starts near a key frame: '$ck_snap' (want 0 15), --fixed-chunks '$ck_fixed' (want 0 16)"
    fi
    ck_case snap h264 mp4 "H.264 .mp4, chunks of about 16 frames moved to a key frame" "" 16
    # Moved starts do not add up: a title of n frames is ceil(n / length)
    # chunks, whatever the GOP (a key frame every 250 frames, 10 frames
    # before each multiple of 750, once gave 6,000 frames in 9 chunks).
    if ck_count=$(PYTHONPATH="$top/tools" python3 - 2>&1 <<'EOF_PY'
import vmaf_chunks as vc
for n, gop, first_key in ((6000, 250, 240), (12000, 250, 0), (6000, 48, 0), (1000, 37, 5)):
    keys = [i == 0 or i % gop == first_key % gop for i in range(n)]
    f = vc.Frames([i / 24 for i in range(n)], keys, True)
    for length in (1500, 750, 333, 100, 16, 7, 1):
        starts = [c["start"] for c in vc.plan(f, f, length)]
        if len(starts) != -(-n // length) or starts != sorted(set(starts)):
            print("%d frames, GOP %d, chunks of %d: %d chunks, starts ...%s" %
                  (n, gop, length, len(starts), starts[-3:]))
EOF_PY
    ) && [ -z "$ck_count" ]; then
        pass "chunks: a title of n frames in chunks of about k is ceil(n / k) chunks, starts moved or not"
    else
        fail "chunks: the number of chunks: $ck_count"
    fi
    # A tail for slower workers (vmaf-cluster's CPU decoders beside NVDEC):
    # the last frames in count chunks of their own, marked, after the
    # others; the rest in chunks of about the length; starts in order.
    if ck_tail=$(PYTHONPATH="$top/tools" python3 - 2>&1 <<'EOF_PY'
import vmaf_chunks as vc
for n, gop, first_key in ((6000, 250, 240), (12000, 250, 0), (1000, 37, 5), (75, 24, 0)):
    keys = [i == 0 or i % gop == first_key % gop for i in range(n)]
    f = vc.Frames([i / 24 for i in range(n)], keys, True)
    for length in (1500, 333, 16, 7):
        for frames, count in ((n // 5, 1), (n // 3, 2), (n - 1, 3), (0, 1), (n, 1)):
            chunks = vc.plan(f, f, length, tail=(frames, count))
            starts = [c["start"] for c in chunks]
            tails = [c.get("tail") for c in chunks]
            use = 0 < frames < n
            head = n - frames if use else n
            bad = starts != sorted(set(starts)) or starts[0] != 0
            if not use:
                bad = bad or "tail" in chunks[0] or len(chunks) != -(-n // length)
            else:
                k = tails.count(True)
                bad = bad or tails != [False] * (len(chunks) - k) + [True] * k or \
                    not 1 <= k <= count or len(chunks) - k > -(-head // length) or \
                    abs(starts[len(chunks) - k] - head) > min(length, -(-frames // count)) // 8
            if bad:
                print("%d frames, GOP %d, length %d, tail %s: %s" %
                      (n, gop, length, (frames, count), list(zip(starts, tails))[-5:]))
EOF_PY
    ) && [ -z "$ck_tail" ]; then
        pass "chunks: the title's last frames in chunks of their own, after the others', starts in order"
    else
        fail "chunks: a tail of chunks: $ck_tail"
    fi
    # One input on the CPU beside NVDEC needs NVDEC: refused, no log written.
    if python3 "$ck_runner" run --chunk-frames 16 --sw-input distorted --ffmpeg "$ffmpeg" \
           --log-path "$ck/swin.json" "$ck/h264.dis.mp4" "$ck/h264.ref.mp4" > "$ck/swin.log" 2>&1; then
        fail "chunks: run --sw-input without --nvdec ran"
    elif grep -q "sw-input .*it needs --nvdec" "$ck/swin.log" && ! [ -e "$ck/swin.json" ]; then
        pass "chunks: run --sw-input without --nvdec: refused, saying what it needs"
    else
        fail "chunks: run --sw-input without --nvdec: $(tail -n 2 "$ck/swin.log" | tr '\n' ' ')"
    fi
    ck_case sub3 h264 mp4 "n_subsample=3, psnr's aggregates" \
        'n_subsample=3:feature=name=psnr\\:enable_apsnr=true' 2 7
    ck_case models h264 mp4 "two models, one vmaf_v1.0.16_3d0h" \
        'model=version=vmaf_v0.6.1|version=vmaf_v1.0.16_3d0h\\:name=vmaf_3d0h' 5
    ck_case bootstrap h264 mp4 "the bootstrap model vmaf_b_v0.6.3" 'model=version=vmaf_b_v0.6.3' 3
    # The GPU path in chunks: a simulated GPU that fails at each chunk's
    # first frame, the chunk finishing on the CPU (the real GPU twins are
    # compared with the CPU by tests/gpu_parity_test.c on a GPU).
    export VMAF_HIP_SIMULATE_GPU=1
    ck_case gpufault h264 mp4 "a GPU that fails at the first frame" \
        'backend=auto:cpu_first=0:feature=name=psnr' 5
    unset VMAF_HIP_SIMULATE_GPU
    ck_case extra h264 mp4 "psnr, float_ssim, float_ms_ssim, cambi" \
        'feature=name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi' 5
    ck_temporal='feature=name=motion\\:motion_five_frame_window=true\\:motion_moving_average=true|name=float_motion|name=speed_temporal'
    ck_case temporal h264 mp4 "motion_five_frame_window, motion_moving_average, float_motion, speed_temporal" \
        "$ck_temporal" 1 3
    ck_teeth temporal h264 mp4 "motion_five_frame_window" "$ck_temporal" 3

    # A distorted frame dropped and the last three cut (a reference frame
    # unused inside the run, two after its end): the pairing's counts are
    # split between the chunks and add up to the run's.
    if "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error -y -i "$ck/h264.dis.mp4" \
           -vf "select='not(eq(n\,9))*lt(n\,21)'" -fps_mode passthrough \
           -c:v libx264 -preset ultrafast -crf 20 -bf 2 "$ck/drop.dis.mkv" > "$ck/drop.make.log" 2>&1 &&
       "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error -y -i "$ck/h264.ref.mp4" -c copy \
           "$ck/drop.ref.mkv" >> "$ck/drop.make.log" 2>&1; then
        ck_case drop drop mkv "a distorted frame dropped, the distorted input shorter" "" 1 5
        grep -q 'pairs="20" pairs_off="0" reference_unused="2"' "$ck/drop.whole.xml" ||
            fail "chunks: the pair with a dropped frame does not leave reference frames unused: $(grep '<pairing' "$ck/drop.whole.xml")"
    else
        fail "chunks: cannot make the pair with a dropped frame"
    fi

    if ck_pair hevc mkv 30000/1001 160x90 18 yuv420p libx265 -preset ultrafast -x265-params log-level=error:keyint=8:min-keyint=8:open-gop=1; then
        ck_case hevc hevc mkv "HEVC .mkv at 29.97 fps, open GOPs of 8" "" 5
    else
        fail "chunks: cannot make the HEVC .mkv pair"
    fi
    if ck_pair vp9 webm 24000/1001 160x90 18 yuv420p libvpx-vp9 -deadline good -cpu-used 8 -auto-alt-ref 1 -lag-in-frames 8 -g 8; then
        ck_case vp9 vp9 webm "VP9 .webm at 23.976 fps, a key frame every 8" "" 4
    else
        fail "chunks: cannot make the VP9 .webm pair"
    fi
    if ck_pair h264_10 ts 25 160x90 18 yuv420p10le libx264 -preset ultrafast -g 8 -bf 2; then
        ck_case h264_10 h264_10 ts "10-bit H.264 .ts" "" 3
    else
        fail "chunks: cannot make the 10-bit .ts pair"
    fi
    . "$top/tests/chunks_errors.sh"
fi
