# Sourced by tests/run.sh (uses $top, $build, $ffmpeg, run_unit, pass, fail).
# Samples above the depth's maximum: the engine scores them as the clamped
# picture (tests/range_test.c, every feature and model at 10 and 12 bits),
# and so does the filter on a 10-bit raw clip holding values up to 65535,
# with a warning and no value that is not a number. A score that is not a
# number is never printed without a warning that names its model.

run_unit "" range_test "$build"

range_dir=$build/range
mkdir -p "$range_dir"
if [ -x "$build/tests/range_clip" ]; then
    # 224x176: the smallest size every feature below accepts (cambi, float_ms_ssim).
    range_size=224x176
    for v in over clamped; do
        "$build/tests/range_clip" 224 176 3 1 $v > "$range_dir/ref-$v.yuv" &&
        "$build/tests/range_clip" 224 176 3 2 $v > "$range_dir/dis-$v.yuv" &&
        "$ffmpeg" -hide_banner -nostdin -nostats \
            -f rawvideo -pix_fmt yuv420p10le -s $range_size -i "$range_dir/dis-$v.yuv" \
            -f rawvideo -pix_fmt yuv420p10le -s $range_size -i "$range_dir/ref-$v.yuv" \
            -lavfi "[0:v][1:v]vmaf_hip=feature=name=psnr|name=psnr_hvs|name=float_ssim|name=float_ms_ssim|name=ciede|name=cambi:log_fmt=json:log_path=$range_dir/$v.json" \
            -f null - > "$range_dir/$v.log" 2>&1
        echo "exit $?" >> "$range_dir/$v.log"
        grep -v '"fps"' "$range_dir/$v.json" > "$range_dir/$v.cmp" 2>/dev/null
    done
    if ! grep -q '^exit 0' "$range_dir/over.log" || ! grep -q '^exit 0' "$range_dir/clamped.log"; then
        fail "out-of-range 10-bit clip: ffmpeg failed"
        tail -5 "$range_dir/over.log"
    elif ! grep -q '"vmaf": ' "$range_dir/over.cmp" || ! cmp -s "$range_dir/over.cmp" "$range_dir/clamped.cmp"; then
        fail "out-of-range 10-bit clip scores as the clamped clip"
        diff "$range_dir/over.cmp" "$range_dir/clamped.cmp" | head -6
    else
        pass "out-of-range 10-bit clip scores as the clamped clip"
    fi
    if grep -qi 'nan\|null\|inf' "$range_dir/over.cmp" || grep -qi '=-\?nan\|: -\?nan' "$range_dir/over.log"; then
        fail "out-of-range 10-bit clip: a value is not a number"
    else
        pass "out-of-range 10-bit clip: every value and score a number"
    fi
    if grep -q 'holds samples above 1023, the largest 10-bit value: they are clamped to 1023' \
           "$range_dir/over.log" && ! grep -q 'clamped to' "$range_dir/clamped.log"; then
        pass "out-of-range 10-bit clip: a warning says the samples are clamped"
    else
        fail "out-of-range 10-bit clip: a warning says the samples are clamped"
    fi
else
    fail "tests/range_clip.c does not compile"
fi

# The model range_test wrote, whose scores are NaN.
if [ -f "$build/range_test_nan_model.json" ] &&
   "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.2" \
       -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.2" \
       -lavfi "[0:v]avgblur=2[d];[d][1:v]vmaf_hip=model=path=$build/range_test_nan_model.json\\\\:enable_transform=true" \
       -f null - > "$range_dir/nan-model.log" 2>&1 &&
   sed -n "/Model 'vmaf': vmaf of frame 0 is NaN, not a finite number/,\$p" "$range_dir/nan-model.log" |
       grep -q 'VMAF score: '; then
    pass "a model scoring NaN: a warning naming it comes before the score line"
else
    fail "a model scoring NaN: a warning naming it comes before the score line"
    tail -3 "$range_dir/nan-model.log"
fi
