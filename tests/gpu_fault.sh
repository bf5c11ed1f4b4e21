# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# The GPU failing mid-stream, on any machine: VMAF_HIP_SIMULATE_GPU=1 gives
# a simulated GPU whose kernels fail at the first frame. With backend=auto
# the stream finishes on the CPU with every frame scored and the CPU's
# numbers; with backend=gpu (or hip, its first name) the run fails. (On a
# real GPU, the test hook VMAF_HIP_GPU_FAIL_AT picks the frame:
# tests/gpu/gpu-hwframes.sh.)

fault=$build/gpu_fault
mkdir -p "$fault"
fault_run() { # name env options
    env $2 "$ffmpeg" -hide_banner -nostdin -nostats \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.4" \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.4" \
        -lavfi "[0:v]noise=alls=8:allf=t:all_seed=3[d];[d][1:v]vmaf_hip=$3:feature=name=psnr:log_fmt=json:log_path=$fault/$1.json" \
        -f null - > "$fault/$1.log" 2>&1
    echo $? > "$fault/$1.rc"
    grep -v '"fps"\|"backends"' "$fault/$1.json" > "$fault/$1.cmp" 2>/dev/null
}
fault_run cpu "" backend=cpu
fault_run auto VMAF_HIP_SIMULATE_GPU=1 backend=auto:cpu_first=0
fault_run gpu VMAF_HIP_SIMULATE_GPU=1 backend=gpu
fault_run hip VMAF_HIP_SIMULATE_GPU=1 backend=hip
if [ "$(cat "$fault/auto.rc")" = 0 ] &&
   grep -q "The GPU failed; finishing the stream on the CPU from frame 0" "$fault/auto.log" &&
   grep -q '"frameNum": 9' "$fault/cpu.cmp" && cmp -s "$fault/cpu.cmp" "$fault/auto.cmp"; then
    pass "GPU fault: backend=auto finishes on the CPU with every frame and the CPU's numbers"
else
    fail "GPU fault: backend=auto after a GPU failure"; grep -i "gpu\|error" "$fault/auto.log" | head -5
fi
if [ "$(cat "$fault/gpu.rc")" != 0 ] && grep -q "simulated GPU: kernels do not run" "$fault/gpu.log"; then
    pass "GPU fault: backend=gpu fails, naming the failed GPU call"
else
    fail "GPU fault: backend=gpu after a GPU failure (exit $(cat "$fault/gpu.rc"))"; tail -3 "$fault/gpu.log"
fi
if [ "$(cat "$fault/hip.rc")" = "$(cat "$fault/gpu.rc")" ] && grep -q "^\[.*\] backend=gpu: " "$fault/hip.log" &&
   grep -q "simulated GPU: kernels do not run" "$fault/hip.log"; then
    pass "GPU fault: backend=hip is backend=gpu (so named at start-up) and fails as it does"
else
    fail "GPU fault: backend=hip after a GPU failure (exit $(cat "$fault/hip.rc"))"; tail -3 "$fault/hip.log"
fi
# The test hooks are no options: a user sees none of them.
"$ffmpeg" -hide_banner -h filter=vmaf_hip > "$fault/help.txt" 2>&1
if ! grep -qi "fail_at\|simulat" "$fault/help.txt" && grep -q "backend" "$fault/help.txt" &&
   ! "$ffmpeg" -hide_banner -nostdin -f lavfi -i "testsrc2=size=160x90:duration=0.2" \
       -f lavfi -i "testsrc2=size=160x90:duration=0.2" -lavfi "vmaf_hip=gpu_fail_at=3" -f null - \
       > "$fault/option.log" 2>&1 && grep -q "Option not found" "$fault/option.log"; then
    pass "GPU fault: the test hooks are environment variables, not options -h shows"
else
    fail "GPU fault: a test hook shows among the options"; grep -i "fail_at\|simulat" "$fault/help.txt"
fi
