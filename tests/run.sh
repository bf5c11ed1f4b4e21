#!/bin/sh
# Every test of the project; the last line reads "N passed, N failed".
#
# Usage: sh tests/run.sh   (no arguments)
#
# Run from the repository root after `make tests` (make check does both);
# BUILD=<dir>: the build to test, build unless given (make check passes its
# own). The test programs are make's (BUILD/tests/<name>). Uses the
# full clip and reference set in ../shared when it is there, else the subset
# the repository carries in tests/data and tests/ref. SHARED=<dir> uses
# another set; SHARED= (empty) runs as a fresh clone does, without one.
# A suite with nothing to run says "skipped:" and why.
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../tools/script-args.sh"
no_options "$@"
[ $# -eq 0 ] || usage "no arguments expected"

top=$(pwd)
build=${BUILD:-$top/build}
case $build in /*) ;; *) build=$top/$build ;; esac
obj=$build/obj
ffmpeg=$build/ffmpeg
# pass, fail, count_results, run_unit, expect_error; passed=0, failed=0.
. "$top/tests/lib.sh"

shared=${SHARED-$top/../shared}
if [ -n "$shared" ] && [ -d "$shared/testdata" ] && [ -d "$shared/reference/fullprecision" ]; then
    data=$shared/testdata
    ref=$shared/reference
    no_shared=""
else
    data=$top/tests/data
    ref=$top/tests/ref
    case $shared in
    "")                no_shared="no ../shared (SHARED= given)" ;;
    "$top/../shared")  no_shared="no ../shared" ;;
    *)                 no_shared="no test set in $shared" ;;
    esac
fi
echo "Test data: $data"
echo "Reference: $ref"

# ---- unit tests: the engine against libvmaf's numbers ----

format_dir=$ref
[ -f "$format_dir/format_sample_src01_576x324_3f_8bit.xml" ] || format_dir=$ref/format
run_unit "" vmaf_reference_test "$data" "$ref/fullprecision"
# float_adm's reciprocal estimate is the CPU vendor's: say whose this is, and
# which cases met the oracle only to within the bound that allows for it.
grep -E "^RCPSS|this CPU's RCPSS" "$build/vmaf_reference_test.log" 2>/dev/null
# libvmaf's 6-decimal logs (runs that have no full-precision file): the
# same printed digits. Only the shared set has them.
if [ -d "$ref/fullprecision" ] && [ -x "$build/tests/vmaf_reference_test" ]; then
    "$build/tests/vmaf_reference_test" "$data" "$ref" > "$build/sixdec.log" 2>&1
    why=${no_shared:+"$no_shared, which has libvmaf's 6-decimal logs"}
    count_results "$build/sixdec.log" "vmaf_reference_test (6-decimal logs)" \
        "${why:-no 6-decimal libvmaf logs in $ref}"
fi
# The same numbers with the work split over threads.
if [ -x "$build/tests/vmaf_reference_test" ]; then
    "$build/tests/vmaf_reference_test" "$data" "$ref/fullprecision" vmaf_v0.6.1__fullprec 3 > "$build/threads.log" 2>&1
    count_results "$build/threads.log" "vmaf_reference_test (3 threads)"
fi
# CAMBI finished on the CPU after the GPU failed at frame 0 (the simulated
# GPU's kernels fail): still libvmaf's numbers, on any machine.
if [ -x "$build/tests/vmaf_reference_test" ]; then
    VMAF_HIP_SIMULATE_GPU=1 "$build/tests/vmaf_reference_test" "$data" "$ref/fullprecision" cambi \
        > "$build/cambi_gpu_fault.log" 2>&1
    count_results "$build/cambi_gpu_fault.log" "vmaf_reference_test (cambi after a GPU failure)"
fi
# The code objects configure promised (it found nvcc / the AMD compiler)
# must be there, with exactly its targets, every kernel in each; the choice
# of AMD code object for a device is checked on any build.
need=""
grep -q '^#define CONFIG_HIP_NV 1' "$obj/config.h" &&
    need="$need nv=sm_$(config_mak HIP_NV_ARCHS | sed 's/,/,sm_/g'),compute_$(config_mak HIP_NV_PTX)"
grep -q '^#define CONFIG_HIP_AMD 1' "$obj/config.h" && need="$need amd=$(config_mak HIP_TARGETS)"
echo "GPU code: $(config_mak VMAF_HIP_GPU_CODE)"
run_unit "" gpu_code_test $need
# The ring's host threads (the background work beside the staging), on the
# simulated GPU: runs everywhere.
run_unit "" gpu_ring_test
# Recorded work and graphs (gpu_graphs=1), on the simulated GPU: runs everywhere.
run_unit "" gpu_graph_test
# The backend scheduler (pairs held while the GPU starts, the CPU first,
# the move mid-stream) on the simulated GPU: runs everywhere.
run_unit "" scheduler_test
# The GPU's stand-in for powf(x, 7) in CIEDE2000 against this host's powf,
# at every argument of its range: runs everywhere.
run_unit "" ciede_pow7_test
# The pairing rule (which reference frame each distorted frame meets) on
# timelines as containers round them: runs everywhere.
run_unit "" pairing_test
# GPU against CPU, value by value, for every option set of every feature's
# twin: built always, run when a GPU answers (it exits 77 when none does).
if [ -x "$build/tests/gpu_parity_test" ]; then
    "$build/tests/gpu_parity_test" "$data" 3 > "$build/gpu_parity_test.log" 2>&1
    if [ $? -eq 77 ]; then
        pass "gpu_parity_test: builds; no GPU answers here, nothing to compare"
    else
        count_results "$build/gpu_parity_test.log" gpu_parity_test
    fi
else
    fail "gpu_parity_test (does not compile)"
fi
# The SSIM family's exact sums (checkasm-style): the host's model of them
# against its definition everywhere; the GPU's kernels against the host's
# sequential sum, on terms made to be hard, when a GPU answers.
run_unit "" gpu_ssim_sum_test
run_unit "" cambi_heatmaps_test
run_unit "" log_format_test "$data" "$format_dir" "$build"
run_unit "" log_file_test

# ---- dsp: every SIMD version against its C version, bit-exact (checkasm) ----

if [ -x "$build/tests/checkasm" ]; then
    "$build/tests/checkasm" > "$build/checkasm.log" 2>&1
    grep '^skipped:' "$build/checkasm.log"
    count_results "$build/checkasm.log" checkasm "this CPU runs no SIMD tier of the engine"
else
    fail "checkasm (does not compile)"
fi

# ---- the engine's capacity benchmark (tests/engine_bench.c): builds and runs ----
# Its speed is measured by tools/cpu-evidence.sh, not here; here it must
# score its frames, with the same pooled VMAF for one and two threads.

if [ ! -x "$build/tests/engine_bench" ]; then
    fail "engine_bench (does not compile)"
elif "$build/tests/engine_bench" -s 160x96 -n 4 -f 12 -t 1 -B cpu > "$build/engine_bench.log" 2>&1 &&
   "$build/tests/engine_bench" -s 160x96 -n 4 -f 12 -t 2 -B cpu >> "$build/engine_bench.log" 2>&1 &&
   [ "$(sed -n 's/.*mean score \([0-9.]*\)$/\1/p' "$build/engine_bench.log" | sort -u | wc -l)" = 1 ] &&
   grep -q 'engine: [0-9.]* fps' "$build/engine_bench.log"; then
    pass "engine_bench: 12 frames scored, the same mean score with 1 and 2 threads"
else
    fail "engine_bench: fails, or scores differently with 2 threads"
    cat "$build/engine_bench.log" 2>/dev/null | tail -3
fi

# ---- samples above the depth's maximum: scored as the clamped picture ----

. "$top/tests/range.sh"

# ---- FATE: metadata of testsrc2 against a blurred copy ----

fate_tests=$(make -s -C "$obj" fate-list SAMPLES= 2>/dev/null | grep '^fate-vmaf-hip-')
[ -n "$fate_tests" ] || fail "FATE: no fate-vmaf-hip-* test is registered"
for t in $fate_tests; do
    if make -s -C "$obj" "$t" SAMPLES= > "$build/$t.log" 2>&1; then
        pass "$t"
    else
        fail "$t"
        tail -20 "$build/$t.log"
    fi
done

# ---- bad input: non-zero exit and a message that names the problem ----

src="testsrc2=size=320x240:rate=25:duration=0.2"
expect_error "mismatched size" \
    "main (distorted) is 320x240 yuv420p, reference is 352x288 yuv420p" \
    -f lavfi -i "$src" -f lavfi -i "testsrc2=size=352x288:rate=25:duration=0.2" \
    -lavfi "[0:v]format=yuv420p[d];[1:v]format=yuv420p[r];[d][r]vmaf_hip=model="
expect_error "mismatched format" \
    "main (distorted) is 320x240 yuv420p, reference is 320x240 yuv444p10le" \
    -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v]format=yuv420p[d];[1:v]format=yuv444p10le[r];[d][r]vmaf_hip=model="
expect_error "unknown pool" "Invalid pool 'harmonic': accepted values are min, mean and harmonic_mean" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:pool=harmonic"
expect_error "unknown log_fmt" "Invalid log_fmt 'yaml': accepted values are xml, json, csv and sub" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=yaml"
expect_error "unknown backend" "backend" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=backend=nosuch"
expect_error "unknown feature" "Unknown feature 'nosuch'" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=nosuch"
expect_error "unknown feature option" "Feature 'psnr' has no option 'enable_luma'" \
    -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr\\\\:enable_luma=true"
expect_error "bad feature option value" "Invalid value 'maybe' for option 'enable_chroma' of feature 'psnr'" \
    -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr\\\\:enable_chroma=maybe"
expect_error "unwritable log_path" "Cannot open log_path '/nonexistent-dir/vmaf.json' for writing" \
    -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_path=/nonexistent-dir/vmaf.json"

# ---- the GPU backend on a machine without a GPU ----

expect_error "backend=gpu without a GPU" "backend=gpu: no usable GPU" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=backend=gpu"
# backend=hip, the first name of backend=gpu, is kept: -h lists it with
# gpu's value, and a run given it is backend=gpu's, value for value where a
# GPU answers, refused alike where none does.
alias_dir=$build/backend-alias
mkdir -p "$alias_dir"
for b in gpu hip; do
    rm -f "$alias_dir/$b.json" "$alias_dir/$b.cmp"
    ffmpeg_run "$alias_dir" "$b" -f lavfi -i "$src" -f lavfi -i "$src" \
        -lavfi "[0:v]avgblur=2[d];[d][1:v]vmaf_hip=backend=$b:feature=name=psnr:log_fmt=json:log_path=$alias_dir/$b.json"
    grep -v '"fps"' "$alias_dir/$b.json" > "$alias_dir/$b.cmp" 2>/dev/null
done
"$ffmpeg" -hide_banner -h filter=vmaf_hip > "$alias_dir/help.txt" 2>&1
alias_values=$(sed -n -E 's/^ *(gpu|hip) +([0-9]+) .*/\1 \2/p' "$alias_dir/help.txt" | tr '\n' ' ')
if [ "$alias_values" = "gpu 1 hip 1 " ] && grep -q "^ *hip .* same as gpu$" "$alias_dir/help.txt"; then
    pass "backend: -h lists hip as the same as gpu, with gpu's value"
else
    fail "backend: -h lists hip as the same as gpu (found '$alias_values')"
    grep -A5 "^ *backend " "$alias_dir/help.txt"
fi
if ran_ok "$alias_dir" gpu; then
    if ran_ok "$alias_dir" hip && grep -q '"frameNum"' "$alias_dir/gpu.cmp" &&
       cmp -s "$alias_dir/gpu.cmp" "$alias_dir/hip.cmp"; then
        pass "backend=hip: the log of backend=gpu, value for value (a GPU answered)"
    else
        fail "backend=hip: the log of backend=gpu (a GPU answered)"
        diff "$alias_dir/gpu.cmp" "$alias_dir/hip.cmp" | head -5
    fi
elif ! ran_ok "$alias_dir" hip && ran_says "$alias_dir" gpu "backend=gpu: no usable GPU" &&
     ran_says "$alias_dir" hip "backend=gpu: no usable GPU"; then
    pass "backend=hip: refused as backend=gpu is (no GPU answered)"
else
    fail "backend=hip: refused as backend=gpu is (no GPU answered)"
    tail -2 "$alias_dir/gpu.log" "$alias_dir/hip.log"
fi

if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
       -lavfi "[0:v][1:v]vmaf_hip=cpu_first=0" -f null - > "$build/auto.log" 2>&1 &&
   grep -q "backend=auto: adm, motion, vif on the CPU (no GPU answered)" "$build/auto.log" &&
   grep -q "VMAF score: " "$build/auto.log"; then
    pass "backend=auto falls back to the CPU and says so"
else
    fail "backend=auto falls back to the CPU and says so"
    tail -5 "$build/auto.log"
fi

# Every feature is named where it runs, those whose names are part of
# another's too (psnr of psnr_hvs, motion of float_motion).
if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
       -lavfi "[0:v][1:v]vmaf_hip=backend=cpu:model=:feature=name=float_motion|name=motion|name=psnr_hvs|name=psnr|name=psnr\\\\:enable_mse=true" \
       -f null - > "$build/names.log" 2>&1 &&
   grep -q "backend=cpu: float_motion, motion, psnr_hvs, psnr on the CPU" "$build/names.log"; then
    pass "the start-up line names every feature once, psnr beside psnr_hvs and motion beside float_motion"
else
    fail "the start-up line's features"; grep -i "on the CPU\|error" "$build/names.log" | head -3
fi

# A stream that runs past cpu_first looks for a GPU; none here, so it stays
# on the CPU, with the threads asked for again (4 at most before).
late_src="testsrc2=size=160x90:rate=25:duration=1"
if "$ffmpeg" -hide_banner -nostdin -nostats -v verbose -readrate 1 -f lavfi -i "$late_src" \
       -readrate 1 -f lavfi -i "$late_src" -lavfi "[0:v][1:v]vmaf_hip=cpu_first=50:n_threads=6" \
       -f null - > "$build/auto_late.log" 2>&1 &&
   grep -q "adm, motion, vif on the CPU, and on a GPU if the stream runs past cpu_first and one answers; 4 CPU threads" "$build/auto_late.log" &&
   grep -q "No GPU answered; the stream stays on the CPU; 6 CPU threads" "$build/auto_late.log" &&
   grep -q "VMAF score: " "$build/auto_late.log"; then
    pass "backend=auto past cpu_first without a GPU stays on the CPU, on the threads asked for"
else
    fail "backend=auto past cpu_first without a GPU"
    grep -i "thread\|gpu" "$build/auto_late.log" | tail -5
fi

# ---- frame pairing: a reference at another frame rate is scored, and counted ----

if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" \
       -f lavfi -i "testsrc2=size=320x240:rate=10:duration=0.2" \
       -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr" -f null - > "$build/sync.log" 2>&1 &&
   grep -q "The inputs' frame rates differ (distorted: 25.000 fps, reference: 10.000 fps)" "$build/sync.log" &&
   grep -q "Pairing (instant): 5 pairs scored (off by more than the tolerance: 0); reference frames not used: 0" "$build/sync.log"; then
    pass "a reference at a lower frame rate: each frame meets the reference frame on screen, said and counted"
else
    fail "a reference at a lower frame rate"
    tail -5 "$build/sync.log"
fi

# ---- logs: the schema of a run through ffmpeg ----

log=$build/check-log.json
if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
       -lavfi "[0:v]avgblur=2[d];[d][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json:log_path=$log" \
       -f null - > "$build/log-run.log" 2>&1 &&
   grep -q '"version": "3.2.0"' "$log" && grep -q '"frameNum": 4' "$log" &&
   grep -q '"psnr_y": {' "$log" && grep -q '"aggregate_metrics": {' "$log"; then
    pass "json log through ffmpeg"
else
    fail "json log through ffmpeg"
fi

# ---- log_fmt needs log_path; log_path alone writes XML ----

expect_error "log_fmt without log_path" "log_fmt=json needs log_path=FILE" \
    -f lavfi -i "$src" -f lavfi -i "$src" -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_fmt=json"
log=$build/check-log.xml
rm -f "$log"
if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
       -lavfi "[0:v][1:v]vmaf_hip=model=:feature=name=psnr:log_path=$log" \
       -f null - > "$build/log-run.log" 2>&1 &&
   head -n1 "$log" | grep -q '^<VMAF version='; then
    pass "log_path without log_fmt writes XML"
else
    fail "log_path without log_fmt writes XML"
fi

# ---- several models: the first line stays libvmaf's, the others name their model ----

two="model=version=vmaf_v0.6.1\\\\:name=vmaf|version=vmaf_v0.6.1neg\\\\:name=vmaf_neg"
if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$src" -f lavfi -i "$src" \
       -lavfi "[0:v]avgblur=2[d];[d][1:v]vmaf_hip=$two" -f null - > "$build/two-models.log" 2>&1 &&
   sed -n 's/^\[[^]]*\] //; /^VMAF score/p' "$build/two-models.log" > "$build/two-models.txt" &&
   sed -n 1p "$build/two-models.txt" | grep -Eq '^VMAF score: [0-9]+\.[0-9]{6}$' &&
   sed -n 2p "$build/two-models.txt" | grep -Eq '^VMAF score \(vmaf_neg\): [0-9]+\.[0-9]{6}$' &&
   [ "$(wc -l < "$build/two-models.txt")" -eq 2 ]; then
    pass "two models: 'VMAF score: N' then 'VMAF score (vmaf_neg): N'"
else
    fail "two models: 'VMAF score: N' then 'VMAF score (vmaf_neg): N'"
    cat "$build/two-models.txt" 2>/dev/null || tail -5 "$build/two-models.log"
fi

# ---- libvmaf: this filter under libvmaf's name when FFmpeg has no libvmaf ----

if grep -q '^#define CONFIG_LIBVMAF_FILTER 1' "$obj/config_components.h" 2>/dev/null; then
    echo "libvmaf alias: skipped: this FFmpeg is built with the real libvmaf filter"
else
    dist="testsrc2=size=320x240:rate=25:duration=0.2,avgblur=2"
    for f in vmaf_hip libvmaf; do
        rm -f "$build/alias-$f.json"
        "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$dist" -f lavfi -i "$src" \
            -lavfi $f=log_fmt=json:log_path="$build/alias-$f.json" -f null - > "$build/alias-$f.log" 2>&1
        echo "exit $?" >> "$build/alias-$f.log"
        # The fps differs from run to run.
        grep -v '"fps"' "$build/alias-$f.json" > "$build/alias-$f.cmp" 2>/dev/null
        sed -n 's/^\[[^]]*\] //; /^VMAF score/p; /^exit /p' "$build/alias-$f.log" >> "$build/alias-$f.cmp"
    done
    if grep -q "^exit 0" "$build/alias-libvmaf.cmp" &&
       grep -q '"vmaf": {' "$build/alias-libvmaf.cmp" && grep -q '^VMAF score: ' "$build/alias-libvmaf.cmp" &&
       cmp -s "$build/alias-vmaf_hip.cmp" "$build/alias-libvmaf.cmp"; then
        pass "libvmaf=log_fmt=json:log_path=... gives vmaf_hip's log and score"
    else
        fail "libvmaf=log_fmt=json:log_path=... gives vmaf_hip's log and score"
        tail -5 "$build/alias-libvmaf.log"
    fi
    if grep -q "libvmaf is provided by vmaf_hip (libvmaf 3.2.0 numbers" "$build/alias-libvmaf.log" &&
       ! grep -q "libvmaf is provided by" "$build/alias-vmaf_hip.log"; then
        pass "libvmaf says at start-up that vmaf_hip provides it"
    else
        fail "libvmaf says at start-up that vmaf_hip provides it"
    fi
fi

# ---- the README's and doc/filters.texi's examples, run as written ----
#
# Every build/ffmpeg and build/ffprobe command of README.md's sh blocks and
# every ffmpeg and ffprobe command of doc/filters.texi's @example blocks runs
# literally in a directory holding distorted.mkv and reference.mkv (and .y4m
# copies), once for each codec (H.264, HEVC 10-bit, AV1, VP9), then for H.264
# and AV1 in .mp4 with the .mkv names read as .mp4. The texi's bare "ffmpeg"
# is build/ffmpeg through PATH. An example passes when it exits with 0 and,
# when it runs the filter, prints a "VMAF score:" line (or, without a model,
# the summary) and writes the log_path it names.

examples=$build/examples
rm -rf "$examples"
mkdir -p "$examples/bin"
ln -s "$build/ffmpeg" "$examples/bin/ffmpeg"
ln -s "$build/ffprobe" "$examples/bin/ffprobe"

# Commands of a sh block (README) or @example block (texi), one a line, with
# continuation lines joined and texinfo's @{ @} @@ unescaped.
awk '
    /^```sh[[:space:]]*$/ { insh = 1; next }
    /^```/ { insh = 0; next }
    !insh || /^[[:space:]]*(#|$)/ { next }
    {
        l = $0
        if (cmd != "") { sub(/^[[:space:]]+/, "", l); l = cmd " " l }
        if (l ~ /\\$/) { sub(/[[:space:]]*\\$/, "", l); cmd = l; next }
        cmd = ""
        print l
    }' "$top/README.md" > "$examples/readme.all"
awk '
    /^@example/ { inex = 1; next }
    /^@end example/ { inex = 0; next }
    !inex { next }
    {
        l = $0
        if (cmd != "") { sub(/^[[:space:]]+/, "", l); l = cmd " " l }
        if (l ~ /\\$/) { sub(/[[:space:]]*\\$/, "", l); cmd = l; next }
        cmd = ""
        gsub(/@\{/, "{", l); gsub(/@\}/, "}", l); gsub(/@@/, "@", l)
        print l
    }' "$top/doc/filters.texi" > "$examples/texi.all"
grep -E '^build/ff(mpeg|probe) ' "$examples/readme.all" > "$examples/commands"
grep -E '^ff(mpeg|probe) ' "$examples/texi.all" >> "$examples/commands"
# README commands must say build/ffmpeg: a bare ffmpeg would be another one.
if grep -E '^(ffmpeg|ffprobe) ' "$examples/readme.all"; then
    fail "README examples call a bare ffmpeg/ffprobe instead of build/ffmpeg"
fi
if ! grep -q '^build/' "$examples/commands" || ! grep -q '^ff' "$examples/commands"; then
    fail "examples: none found in README.md or doc/filters.texi (extraction broken?)"
fi

# Fixtures: 10 frames at 160x90, a good encode as the reference and a poor
# one as the distorted video.
make_fixtures() {
    # $1: directory, $2: extension, $3: pixel format, $4...: encoder options;
    # two "-crf"-style quality values are in $q_ref and $q_dist.
    dir=$1 ext=$2 pixfmt=$3
    shift 3
    mkdir -p "$dir" && ln -s "$build" "$dir/build" || return 1
    for role in reference distorted; do
        if [ $role = reference ]; then q=$q_ref; else q=$q_dist; fi
        # SVT_LOG=1: SVT-AV1 prints its banner at any -loglevel otherwise.
        SVT_LOG=1 "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error \
            -f lavfi -i testsrc2=size=160x90:rate=25 -frames:v 10 -pix_fmt "$pixfmt" \
            "$@" $q "$dir/$role.$ext" > "$dir/make.log" 2>&1 &&
        "$ffmpeg" -hide_banner -nostdin -nostats -loglevel error -i "$dir/$role.$ext" \
            -f yuv4mpegpipe -strict -1 "$dir/$role.y4m" >> "$dir/make.log" 2>&1 || {
            tail -5 "$dir/make.log"
            return 1
        }
    done
}

has_encoder() {
    "$ffmpeg" -hide_banner -encoders < /dev/null 2>/dev/null | grep -q " $1 "
}

run_examples() {
    # $1: fixture directory, $2: extension the examples' .mkv names are read as
    dir=$1 ext=$2
    while IFS= read -r cmd; do
        case $cmd in
        *"-hwaccel cuda"*)
            # NVDEC examples need an NVIDIA GPU (tests/gpu/gpu-hwframes.sh runs them there).
            if ! "$ffmpeg" -hide_banner -v quiet -init_hw_device cuda -f lavfi -i nullsrc=d=0.04 \
                   -f null - < /dev/null > /dev/null 2>&1; then
                echo "example ($(basename "$dir"), .$ext): skipped: no CUDA device: $cmd"
                continue
            fi ;;
        esac
        [ "$ext" = mkv ] || cmd=$(printf '%s\n' "$cmd" | sed "s/\.mkv\b/.$ext/g")
        logs=$(printf '%s\n' "$cmd" | sed -n 's/.*log_path=\([^: "'\'']*\).*/\1/p')
        for l in $logs; do rm -f "$dir/$l"; done
        (cd "$dir" && PATH="$examples/bin:$PATH" sh -c "$cmd" < /dev/null > out.txt 2> err.txt)
        rc=$?
        why=""
        # Commands without the filter (making a source file, say) need only exit 0.
        scores=no
        printf '%s\n' "$cmd" | grep -Eq 'vmaf_hip|libvmaf' && scores=yes
        if [ $rc -ne 0 ]; then
            why="exit status $rc"
        elif [ $scores = yes ] && ! grep -Eq 'Scored [1-9][0-9]* of' "$dir/err.txt"; then
            why="no summary"
        elif [ $scores = yes ] && ! printf '%s\n' "$cmd" | grep -Eq 'model=(:|"|$| )' &&
             ! grep -q 'VMAF score: ' "$dir/err.txt"; then
            why="no 'VMAF score:' line"
        elif printf '%s\n' "$cmd" | grep -Eq '^(build/)?ffprobe ' &&
             ! grep -q '^frame,' "$dir/out.txt"; then
            why="no frame tags printed"
        fi
        for l in $logs; do
            [ -n "$why" ] || [ -s "$dir/$l" ] || why="no $l written"
        done
        if [ -z "$why" ]; then
            pass "example ($(basename "$dir"), .$ext): $cmd"
        else
            fail "example ($(basename "$dir"), .$ext): $cmd: $why"
            tail -3 "$dir/err.txt"
        fi
    done < "$examples/commands"
}

# name, extension, pixel format, encoder and its options
while read -r name ext pixfmt enc opts; do
    case $enc in
    libsvtav1) has_encoder libsvtav1 || enc=libaom-av1 opts="-cpu-used 8 -row-mt 1" ;;
    esac
    if ! has_encoder "$enc"; then
        echo "examples ($name): skipped: this ffmpeg has no $enc encoder (a SMALL=1 build?)"
        continue
    fi
    case $enc in
    libvpx-vp9|libaom-av1) q_ref="-crf 4 -b:v 0" q_dist="-crf 60 -b:v 0" ;;
    libsvtav1)             q_ref="-crf 4" q_dist="-crf 60" ;;
    *)                     q_ref="-crf 4" q_dist="-crf 45" ;;
    esac
    if ! make_fixtures "$examples/$name" "$ext" "$pixfmt" -c:v "$enc" $opts; then
        fail "examples ($name): cannot make the $ext fixtures with $enc"
        continue
    fi
    run_examples "$examples/$name" "$ext"
done <<EOF_CODECS
h264-8bit       mkv yuv420p     libx264     -preset ultrafast
hevc-10bit      mkv yuv420p10le libx265     -preset ultrafast -x265-params log-level=error
av1-8bit        mkv yuv420p     libsvtav1   -preset 12
vp9-8bit        mkv yuv420p     libvpx-vp9  -deadline realtime -cpu-used 8
h264-8bit-mp4   mp4 yuv420p     libx264     -preset ultrafast
av1-8bit-mp4    mp4 yuv420p     libsvtav1   -preset 12
EOF_CODECS

# ---- semi-planar and high-bit-packed inputs score as planar YUV ----

. "$top/tests/formats.sh"

# ---- frames in parallel: identical logs for any thread count ----

. "$top/tests/threads.sh"

# ---- stream timing: late, early, empty and resized inputs; an output that ends first ----

. "$top/tests/timing.sh"
. "$top/tests/messages.sh"

# ---- frame pairing on real timelines: encodes against their sources, other rates, gaps ----

. "$top/tests/pairing.sh"

# ---- a run scored in chunks, merged by vmaf-merge: the whole run's log ----

. "$top/tests/chunks.sh"

# ---- the GPU failing mid-stream (a simulated GPU on machines without one) ----

. "$top/tests/gpu_fault.sh"

# ---- catalogues on a Dask cluster: tools/vmaf-cluster ----

. "$top/tests/cluster.sh"

# ---- the GPU code embedded, and the code object a device of each kind runs ----

. "$top/tests/gpu_code.sh"

# ---- the encoder-tuning tools: CRF sweep, target search, plots ----

sh "$top/tests/workflows.sh" "$ffmpeg" > "$build/workflows.log" 2>&1
while IFS= read -r line; do
    case $line in
    "PASS "*) pass "workflows: ${line#PASS }" ;;
    "FAIL "*) fail "workflows: ${line#FAIL }" ;;
    "SKIP "*) echo "workflows: skipped: ${line#SKIP }" ;;
    esac
done < "$build/workflows.log"
grep -q '^PASS ' "$build/workflows.log" || { fail "workflows: no check ran"; tail -5 "$build/workflows.log"; }

# ---- the build: nothing to do when nothing changed; the remembered configuration ----

. "$top/tests/build.sh"

# ---- the patch series (make patches): applies to the release, gives this build's tree ----

sh "$top/tests/patches.sh" "$build" > "$build/patches.log" 2>&1
while IFS= read -r line; do
    case $line in
    "PASS "*) pass "patches: ${line#PASS }" ;;
    "FAIL "*) fail "patches: ${line#FAIL }" ;;
    "SKIP "*) echo "patches: skipped: ${line#SKIP }" ;;
    *" passed, "*" failed") ;;
    *) printf '    %s\n' "$line" ;;
    esac
done < "$build/patches.log"
grep -Eq '^(PASS|SKIP) ' "$build/patches.log" || { fail "patches: no check ran"; tail -5 "$build/patches.log"; }

. "$top/tests/robust_logs.sh"
. "$top/tests/log_cases.sh"
sh "$top/tests/fuzz/run.sh" "$build" > "$build/fuzz.log" 2>&1; while IFS= read -r line; do case $line in "PASS "*) pass "fuzz: ${line#PASS }" ;; "FAIL "*) fail "fuzz: ${line#FAIL }" ;; "fuzz: "*) echo "$line" ;; esac; done < "$build/fuzz.log"
. "$top/tests/scripts_help.sh"
. "$top/tests/lifecycle.sh"
. "$top/tests/sanitizers.sh"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
