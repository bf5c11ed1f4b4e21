# Sourced by tests/run.sh (uses $ffmpeg, $build, $obj, pass, fail, config_mak).
# The GPU code the build embedded, as the compiler's own tool lists it and as
# -h tells it, and the code object an AMD device runs, on simulated devices:
# VMAF_HIP_SIMULATE_GPU_ARCH gives the simulated GPU an architecture, and it
# picks from the embedded bundles as a real one does (its kernels then fail
# at the first frame, and the CPU finishes with its own numbers).

code=$build/gpu_code
mkdir -p "$code"
gpu_code=$(config_mak VMAF_HIP_GPU_CODE)
hipcc=$(config_mak HIPCC)
amd_built=
grep -q '^#define CONFIG_HIP_AMD 1' "$obj/config.h" && amd_built=1

# A machine with the AMD compiler builds the AMD code (gpu_code_test: the
# bundles are there when configure found it).
if [ -z "$amd_built" ] && [ -n "$hipcc" ] && command -v "$hipcc" >/dev/null 2>&1; then
    fail "GPU code: $hipcc is installed, but the build has no AMD code: $gpu_code"
fi

# Each bundle holds the targets configure was given, by clang-offload-bundler.
if [ -n "$amd_built" ]; then
    bundler=$(command -v clang-offload-bundler-19 || command -v clang-offload-bundler ||
              echo "$(dirname "$(readlink -f "$(command -v "$hipcc")")")/clang-offload-bundler")
    config_mak HIP_TARGETS | tr , '\n' | sed 's/^/hipv4-amdgcn-amd-amdhsa--/' | sort > "$code/targets.expected"
    kernels=$(ls "$build"/src/libavfilter/vmaf/gpu/*.hip "$build"/src/libavfilter/vmaf/features/gpu/*.hip | wc -l)
    n=0 bad=""
    for f in "$obj"/libavfilter/vmaf/gpu/*.hsaco "$obj"/libavfilter/vmaf/features/gpu/*.hsaco; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        "$bundler" --list --type=o --input="$f" 2>"$code/bundler.err" | grep -v '^host-' | sort > "$code/targets.listed"
        cmp -s "$code/targets.expected" "$code/targets.listed" || bad="$bad $(basename "$f")"
    done
    if [ "$n" = "$kernels" ] && [ "$n" -gt 0 ] && [ -z "$bad" ]; then
        pass "GPU code: clang-offload-bundler lists $(wc -l < "$code/targets.expected") AMD targets in each of the $n bundles"
    else
        fail "GPU code: $n of $kernels AMD bundles; targets other than configure's in:${bad:- none}"
        diff "$code/targets.expected" "$code/targets.listed" | head -5; head -3 "$code/bundler.err"
    fi
fi

# -h says what the build embedded, as the build's last line did.
"$ffmpeg" -hide_banner -h filter=vmaf_hip > "$code/help.txt" 2>&1
if [ -n "$gpu_code" ] && grep -qF "this build's GPU code: $gpu_code)" "$code/help.txt"; then
    pass "GPU code: -h filter=vmaf_hip tells it: $gpu_code"
else
    fail "GPU code: -h filter=vmaf_hip does not tell '$gpu_code'"; grep -i "device" "$code/help.txt"
fi

# A device of each kind: the code object it runs, or none and the CPU.
code_run() { # name arch
    env ${2:+VMAF_HIP_SIMULATE_GPU=1 VMAF_HIP_SIMULATE_GPU_ARCH=$2} \
        "$ffmpeg" -hide_banner -nostdin -nostats -v verbose \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.4" \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.4" \
        -lavfi "[0:v]noise=alls=8:allf=t:all_seed=3[d];[d][1:v]vmaf_hip=${2:+backend=auto:cpu_first=0:}feature=name=psnr:log_fmt=json:log_path=$code/$1.json" \
        -f null - > "$code/$1.log" 2>&1
    echo $? > "$code/$1.rc"
    grep -v '"fps"\|"backends"' "$code/$1.json" > "$code/$1.cmp" 2>/dev/null
}
code_ok() { # name: exited with 0, every frame, the CPU's numbers
    [ "$(cat "$code/$1.rc")" = 0 ] && grep -q '"frameNum": 9' "$code/$1.cmp" && cmp -s "$code/cpu.cmp" "$code/$1.cmp"
}
# code_says <name> <arch> <text> <what>: a device of arch scores with the
# CPU's numbers and its log says text.
code_says() {
    code_run "$1" "$2"
    if code_ok "$1" && grep -qF "$3" "$code/$1.log"; then
        pass "GPU code: $4"
    else
        fail "GPU code: $4: not so (exit $(cat "$code/$1.rc")), no '$3'"
        grep -i "code object\|error" "$code/$1.log" | head -3
    fi
}
code_run cpu ""
if [ -n "$amd_built" ]; then
    for arch in gfx1201 gfx1100 gfx942:sramecc+:xnack- gfx90a:sramecc-:xnack+ gfx906; do
        code_says "$(echo "$arch" | tr ':+' '_p')" "$arch" \
            "$arch (simulated GPU) runs the AMD code objects for ${arch%%:*}." \
            "a $arch device runs the ${arch%%:*} code objects"
    done
    # RDNA2 beyond gfx1030 (and RDNA3.5 APUs other than those built): no
    # code of its own, and no generic code in this build: the CPU scores.
    code_says gfx1036 gfx1036 \
        "This build has no AMD code object for gfx1036 (simulated GPU) nor its family's generic target" \
        "a gfx1036 device finds no code object, says so, and the CPU scores"
else
    code_says gfx1201 gfx1201 "This build has no AMD code object for" \
        "without AMD code, a gfx1201 device says so and the CPU scores"
fi
