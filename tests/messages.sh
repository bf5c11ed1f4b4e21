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
