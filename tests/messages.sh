# Sourced by tests/run.sh (uses $ffmpeg, $build, $obj, pass, fail).
# Models that do not load and features that cannot be set up: a non-zero
# exit, our message that says why, and libvmaf's own words, once, which
# tools that run FFmpeg's libvmaf filter look for (easyVmaf: "could not
# load libvmaf model"; ffmpeg-quality-metrics: "could not initialize feature
# extractor"); under both of the filter's names. A feature's name written
# where name= was expected gets a hint that says what to write.

messages=$build/messages
mkdir -p "$messages"
src="testsrc2=size=160x90:rate=25:duration=0.2"
model_phrase="could not load libvmaf model"
feature_phrase="could not initialize feature extractor"
# Cut short: not a model, nor JSON.
printf '{"model_dict": {"feature_names": ["VMAF_feature_adm2_score",' > "$messages/malformed.json"

m_filters=vmaf_hip
if grep -q '^#define CONFIG_LIBVMAF_FILTER 1' "$obj/config_components.h" 2>/dev/null; then
    echo "messages: libvmaf alias: skipped: this FFmpeg is built with the real libvmaf filter"
else
    m_filters="vmaf_hip libvmaf"
fi

m_case() { # name "our message" "libvmaf's phrase" filter options
    name=$1 ours=$2 phrase=$3 opts=$4
    for f in $m_filters; do
        log=$messages/$name-$f.log
        if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
               -lavfi "[0:v][1:v]$f=$opts" -f null - > "$log" 2>&1; then
            fail "messages: $name ($f): exited with 0"
        elif ! grep -qF -- "$ours" "$log"; then
            fail "messages: $name ($f): no '$ours'"; grep -i error "$log" | head -3
        elif [ "$(grep -cF -- "$phrase" "$log")" != 1 ]; then
            fail "messages: $name ($f): '$phrase' $(grep -cF -- "$phrase" "$log") times, not once"
            grep -i error "$log" | head -3
        else
            pass "messages: $name ($f): our message and libvmaf's '$phrase'"
        fi
    done
}

m_case "unknown model version" "There is no built-in VMAF model 'nosuch'" \
    "$model_phrase with version: nosuch" "model=version=nosuch"
m_case "missing model file" "Cannot open VMAF model file '/nonexistent.json'" \
    "$model_phrase with path: /nonexistent.json" "model=path=/nonexistent.json"
m_case "malformed model file" "Invalid VMAF model file '$messages/malformed.json': malformed JSON" \
    "$model_phrase with path: $messages/malformed.json" "model=path=$messages/malformed.json"
m_case "unknown model option" "Unknown model option 'nosuch'" \
    "$model_phrase with version: vmaf_v0.6.1" "model=version=vmaf_v0.6.1\\\\:nosuch=1"
m_case "unknown feature" "Unknown feature 'nosuch'" \
    "$feature_phrase \"nosuch\"" "model=:feature=name=nosuch"
m_case "unknown feature option" "Feature 'psnr' has no option 'enable_luma'" \
    "$feature_phrase \"psnr\"" "model=:feature=name=psnr\\\\:enable_luma=true"
m_case "bad feature option value" "Invalid value 'maybe' for option 'enable_chroma' of feature 'psnr'" \
    "$feature_phrase \"psnr\"" "model=:feature=name=psnr\\\\:enable_chroma=maybe"
m_case "feature init failing" "Feature 'cambi': unknown eotf 'nope'" \
    "$feature_phrase \"cambi\"" "model=:feature=name=cambi\\\\:eotf=nope"
m_case "feature name without name=" "did you mean name=psnr?" \
    "$feature_phrase \"psnr\"" "model=:feature=psnr"

# ---- inputs that score wrongly without a word ----

m_run() { # name args...: ffmpeg -f null, output in $messages/name.log
    n=$1; shift
    "$ffmpeg" -hide_banner -nostdin -nostats "$@" -f null - > "$messages/$n.log" 2>&1
}
# A rotated phone video against its source: turn it, do not squash it.
if ! m_run rotated -f lavfi -i "testsrc2=size=160x90:duration=0.2" -f lavfi -i "testsrc2=size=90x160:duration=0.2" \
       -lavfi "[0:v][1:v]vmaf_hip" &&
   grep -q "each is the other turned on its side" "$messages/rotated.log" &&
   grep -q -- "-noautorotate" "$messages/rotated.log" && ! grep -q "scale=" "$messages/rotated.log"; then
    pass "messages: sizes turned on their side suggest -noautorotate or transpose, not scale"
else
    fail "messages: sizes turned on their side"; grep -i differ "$messages/rotated.log"
fi
# Full range against limited: ffmpeg converts one input to the other's
# range on the way in; the filter says which and which way.
if m_run range -f lavfi -i "testsrc2=size=160x90:duration=0.2" -f lavfi -i "testsrc2=size=160x90:duration=0.2" \
       -lavfi "[0:v]format=yuvj420p[d];[1:v]format=yuv420p[r];[d][r]vmaf_hip" &&
   grep -q "ffmpeg converted the distorted input from pc range to tv range before this filter" \
       "$messages/range.log"; then
    pass "messages: a colour-range conversion on the way in is said, with the input and the direction"
else
    fail "messages: colour-range conversion"; grep -i range "$messages/range.log"
fi
# Below 40 pixels a side libvmaf's own values are undefined.
if m_run small -f lavfi -i "testsrc2=size=32x32:duration=0.2" -f lavfi -i "testsrc2=size=32x32:duration=0.2" \
       -lavfi "[0:v][1:v]vmaf_hip" &&
   grep -q "At 32x32, below 40 pixels a side, libvmaf's own ADM and VMAF values are undefined" \
       "$messages/small.log" &&
   m_run large -f lavfi -i "testsrc2=size=40x40:duration=0.2" -f lavfi -i "testsrc2=size=40x40:duration=0.2" \
       -lavfi "[0:v][1:v]vmaf_hip" && ! grep -q "below 40 pixels" "$messages/large.log"; then
    pass "messages: below 40 pixels a side, a warning that libvmaf's values are undefined there"
else
    fail "messages: below 40 pixels a side"
fi

# ---- libvmaf_cuda: vmaf_hip under that name too, when FFmpeg has none ----

if grep -q '^#define CONFIG_VMAF_HIP_LIBVMAF_CUDA_FILTER 1' "$obj/config_components.h" 2>/dev/null; then
    for f in vmaf_hip libvmaf_cuda; do
        m_run alias-$f -f lavfi -i "testsrc2=size=160x90:duration=0.4,avgblur=2" \
            -f lavfi -i "testsrc2=size=160x90:duration=0.4" \
            -lavfi "[0:v][1:v]$f=log_fmt=json:log_path=$messages/alias-$f.json"
        echo "exit $?" >> "$messages/alias-$f.log"
        grep -v '"fps"' "$messages/alias-$f.json" > "$messages/alias-$f.cmp" 2>/dev/null
    done
    if grep -q "^exit 0" "$messages/alias-libvmaf_cuda.log" &&
       grep -q "libvmaf_cuda is provided by vmaf_hip" "$messages/alias-libvmaf_cuda.log" &&
       grep -q '"vmaf": {' "$messages/alias-libvmaf_cuda.cmp" &&
       cmp -s "$messages/alias-vmaf_hip.cmp" "$messages/alias-libvmaf_cuda.cmp" &&
       "$ffmpeg" -hide_banner -h filter=libvmaf_cuda 2>&1 | grep -q "log_fmt"; then
        pass "messages: libvmaf_cuda=log_fmt=json:log_path=... gives vmaf_hip's log, and takes libvmaf's options"
    else
        fail "messages: libvmaf_cuda alias"; tail -3 "$messages/alias-libvmaf_cuda.log"
    fi
elif grep -q '^#define CONFIG_CUDA 1' "$obj/config.h" 2>/dev/null &&
     ! grep -q '^#define CONFIG_LIBVMAF_CUDA_FILTER 1' "$obj/config_components.h" 2>/dev/null; then
    fail "messages: this FFmpeg has CUDA and no libvmaf_cuda, but vmaf_hip is not registered as libvmaf_cuda"
else
    echo "messages: libvmaf_cuda alias: skipped: no CUDA in this FFmpeg, or the real libvmaf_cuda"
fi

# ---- CAMBI's heatmaps as easyVmaf's -cambi_heatmap asks for them ----

heat=$messages/dist_cambi_heatmap
rm -rf "$heat"
m_filter=libvmaf
case " $m_filters " in *" libvmaf "*) ;; *) m_filter=vmaf_hip ;; esac
if m_run heat -f lavfi -i "testsrc2=size=320x240:duration=0.2,avgblur=2" -f lavfi -i "testsrc2=size=320x240:duration=0.2" \
       -lavfi "[0:v][1:v]$m_filter=log_fmt=json:log_path=$messages/heat.json:feature=name=cambi\\\\:heatmaps_path=$heat" &&
   [ "$(wc -c < "$heat/cambi_heatmap_scale_0_320x240_16b.gray")" = $((5 * 320 * 240 * 2)) ] &&
   [ "$(wc -c < "$heat/cambi_heatmap_scale_1_160x120_16b.gray")" = $((5 * 160 * 120 * 2)) ] &&
   [ "$(wc -c < "$heat/cambi_heatmap_scale_4_20x15_16b.gray")" = $((5 * 20 * 15 * 2)) ] &&
   [ "$(ls "$heat" | wc -l)" = 5 ]; then
    pass "messages: $m_filter=...:feature=name=cambi\\:heatmaps_path=DIR writes the five heatmap files"
else
    fail "messages: cambi heatmaps through ffmpeg"; ls -l "$heat" 2>&1 | head -6; grep -i "error\|heatmap" "$messages/heat.log" | head -3
fi
