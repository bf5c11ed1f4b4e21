# Sourced by tests/run.sh (uses $top, $build, $obj, $data, $ref, $ffmpeg,
# pass, fail, count_results).
#
# The engine under AddressSanitizer and UndefinedBehaviorSanitizer, and
# ffmpeg under valgrind: any invalid access, leak, signed overflow, invalid
# shift or misaligned load is a failure.
#
# 1. `make sanitized` (make check runs it first) compiles the engine's
#    sources again with FFmpeg's own flags (and the engine's
#    -ffp-contract=off) plus -fsanitize=address,undefined
#    -fno-sanitize-recover=all -g -O1 into $build/asan, and links the unit
#    tests below and ffmpeg (with the filter, vf_vmaf_hip.c, sanitized too)
#    against those objects. Here they run: range_test (extreme and
#    out-of-range pictures at every depth), log_format_test, and
#    vmaf_reference_test on the 8- and 10-bit 576x324 pairs, one thread and
#    three, whose values must still be libvmaf's to the bit; and ffmpeg
#    scores tests/range.sh's 10-bit clip with samples up to 65535: the log
#    must be the one the uninstrumented ffmpeg wrote.
# 2. valgrind runs ffmpeg on 3 frames of 160x90 (VMAF and PSNR), once on the
#    CPU and once with backend=auto, which loads the GPU runtimes; a leak
#    made by the HIP runtime's own initialisation is suppressed
#    (tests/valgrind.supp), nothing of ours.
#
# SANITIZERS=0 skips both.

san_dir=$build/asan
# Leaks are checked too; a leak check that cannot run (ptrace refused in
# some containers) is a failure, not a silent pass.
san_asan_options=${ASAN_OPTIONS:-detect_leaks=1}
san_ubsan_options=${UBSAN_OPTIONS:-print_stacktrace=1}
san_report='runtime error:\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|LeakSanitizer has encountered'

# sanitized_unit <label> <name> <arguments...>: run the sanitized
# tests/<name>.c, count its results; a report is shown.
sanitized_unit() {
    san_label=$1 san_t=$2
    shift 2
    if [ ! -x "$san_dir/$san_t" ]; then
        fail "sanitizers: $san_dir/$san_t was not built (make sanitized says why)"
        return
    fi
    san_log=$san_dir/$(printf %s "$san_label" | tr -c "A-Za-z0-9_.-" _).log
    ASAN_OPTIONS=$san_asan_options UBSAN_OPTIONS=$san_ubsan_options \
        "$san_dir/$san_t" "$@" > "$san_log" 2>&1
    san_rc=$?
    if grep -q "$san_report" "$san_log"; then
        fail "sanitizers: $san_label: a sanitizer report (see $san_log)"
        grep -m1 -A12 "$san_report" "$san_log"
    elif [ $san_rc -ne 0 ] && ! tail -n1 "$san_log" | grep -q '^[0-9]* passed, [1-9]'; then
        fail "sanitizers: $san_label: exit status $san_rc (see $san_log)"
        tail -5 "$san_log"
    else
        count_results "$san_log" "sanitizers: $san_label"
    fi
}

if [ "${SANITIZERS:-1}" = 0 ]; then
    echo "sanitizers: skipped: SANITIZERS=0"
else
    san_start=$(date +%s)
    sanitized_unit range_test range_test "$san_dir"
    sanitized_unit log_format_test log_format_test "$data" "$format_dir" "$san_dir"
    sanitized_unit "vmaf_reference_test (8-bit 576x324)" vmaf_reference_test \
        "$data" "$ref/fullprecision" src01_576x324_3f_8bit
    sanitized_unit "vmaf_reference_test (10-bit 576x324, 3 threads)" vmaf_reference_test \
        "$data" "$ref/fullprecision" src01_576x324_3f_10bit 3
    echo "sanitizers: unit tests ran in $(($(date +%s) - san_start)) s"

    # ---- ffmpeg with the sanitized filter and engine ----
    san_ff_start=$(date +%s)
    san_range=$build/range
    if [ ! -x "$san_dir/ffmpeg" ]; then
        fail "sanitizers: $san_dir/ffmpeg was not built (make sanitized says why)"
    elif [ ! -f "$san_range/over.cmp" ]; then
        fail "sanitizers: no out-of-range clip from tests/range.sh in $san_range"
    else
        ASAN_OPTIONS=$san_asan_options UBSAN_OPTIONS=$san_ubsan_options \
        "$san_dir/ffmpeg" -hide_banner -nostdin -nostats \
            -f rawvideo -pix_fmt yuv420p10le -s 224x176 -i "$san_range/dis-over.yuv" \
            -f rawvideo -pix_fmt yuv420p10le -s 224x176 -i "$san_range/ref-over.yuv" \
            -lavfi "[0:v][1:v]vmaf_hip=backend=cpu:n_threads=2:feature=name=psnr|name=psnr_hvs|name=float_ssim|name=float_ms_ssim|name=ciede|name=cambi:log_fmt=json:log_path=$san_dir/over.json" \
            -f null - > "$san_dir/ffmpeg.log" 2>&1
        san_rc=$?
        grep -v '"fps"\|"backends"' "$san_dir/over.json" > "$san_dir/over.cmp" 2>/dev/null
        if grep -q "$san_report" "$san_dir/ffmpeg.log"; then
            fail "sanitizers: ffmpeg on the out-of-range 10-bit clip: a sanitizer report (see $san_dir/ffmpeg.log)"
            grep -m1 -A12 "$san_report" "$san_dir/ffmpeg.log"
        elif [ $san_rc -ne 0 ] ||
             ! grep -v '"backends"' "$san_range/over.cmp" | cmp -s - "$san_dir/over.cmp"; then
            fail "sanitizers: ffmpeg on the out-of-range 10-bit clip: exit status $san_rc, or a log unlike tests/range.sh's"
            tail -5 "$san_dir/ffmpeg.log"
        else
            pass "sanitizers: ffmpeg on the out-of-range 10-bit clip (filter and engine sanitized," \
                 "$(($(date +%s) - san_ff_start)) s): clean, tests/range.sh's log"
        fi
    fi

    # ---- valgrind: ffmpeg, 3 frames, on the CPU and with backend=auto ----

    if ! command -v valgrind > /dev/null 2>&1; then
        fail "sanitizers: valgrind is not installed (.ci/run installs it)"
    else
        for san_backend in cpu auto; do
            san_vg_start=$(date +%s)
            valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
                --suppressions="$top/tests/valgrind.supp" \
                "$ffmpeg" -hide_banner -nostdin -nostats \
                -f lavfi -i testsrc2=size=160x90:rate=25 -f lavfi -i testsrc2=size=160x90:rate=25 \
                -lavfi "[0:v]avgblur=2[d];[d][1:v]vmaf_hip=backend=$san_backend:cpu_first=0:feature=name=psnr" \
                -frames:v 3 -f null - > "$san_dir/valgrind-$san_backend.log" 2>&1
            san_rc=$?
            if [ $san_rc -eq 0 ] && grep -q 'VMAF score: ' "$san_dir/valgrind-$san_backend.log"; then
                pass "valgrind: ffmpeg, 3 frames 160x90, VMAF and PSNR, backend=$san_backend" \
                     "($(($(date +%s) - san_vg_start)) s)"
            else
                fail "valgrind: ffmpeg, 3 frames 160x90, VMAF and PSNR, backend=$san_backend: exit status $san_rc"
                grep -m1 -B2 -A20 '^==[0-9]*== [A-Z]\|definitely lost' "$san_dir/valgrind-$san_backend.log" ||
                    tail -5 "$san_dir/valgrind-$san_backend.log"
            fi
        done
    fi
    echo "sanitizers: $(($(date +%s) - san_start)) s in all"
fi
