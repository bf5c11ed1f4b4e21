# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# Stream timing: inputs that start late or end early, a size change inside
# the graph, an input without frames, an output that ends first. Only
# complete pairs are scored, nothing silently, and no logged value depends
# on how far the inputs were read.

timing=$build/timing
mkdir -p "$timing"
src="testsrc2=size=160x90:rate=25:duration=1"
t_ffmpeg() { ffmpeg_run "$timing" "$@"; }   # name args...
t_ok()     { ran_ok "$timing" "$1"; }
t_says()   { ran_says "$timing" "$1" "$2"; }
t_same_logs() { # frames reference runs...: the reference's JSON log has that many frames, each run's the same frames and pooled values
    python3 - "$@" <<'EOF_PY'
import json, sys
n, ref = int(sys.argv[1]), json.load(open(sys.argv[2]))
assert len(ref['frames']) == n, (len(ref['frames']), n)
for f in sys.argv[3:]:
    run = json.load(open(f))
    assert run['frames'] == ref['frames'], f
    assert run['pooled_metrics'] == ref['pooled_metrics'], f
EOF_PY
}

# A reference that starts one frame late: scored from the first pair, with a warning.
t_ffmpeg late -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v]noise=alls=6:allf=t[d];[1:v]setpts=PTS+1[r];[d][r]vmaf_hip"
if t_ok late && t_says late "Scored 24 of 24 frame pairs" &&
   t_says late "first 1 distorted frame had no reference frame and was not scored" &&
   t_says late "VMAF score: "; then
    pass "timing: a reference that starts late is scored from the first pair, with a warning"
else
    fail "timing: a reference that starts late"; tail -3 "$timing/late.log"
fi

# A distorted input shorter than the reference is not padded with its last frame.
t_ffmpeg short_dis -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.2" -f lavfi -i "$src" \
    -lavfi "[0:v][1:v]vmaf_hip"
if t_ok short_dis && t_says short_dis "Scored 5 of 5 frame pairs" &&
   t_says short_dis "The distorted input ended (its last frame at 0.160000 s) before the reference" &&
   ! t_says short_dis "dropped frame"; then
    pass "timing: a short distorted input ends the scoring, with a warning"
else
    fail "timing: a short distorted input"; grep -i "scored\|warn" "$timing/short_dis.log" | head -3
fi

# A reference that ends early (as after 'q'): no distorted frame against a stale reference.
t_ffmpeg short_ref -f lavfi -i "$src" -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.2" \
    -lavfi "[0:v][1:v]vmaf_hip"
if t_ok short_ref && t_says short_ref "Scored 5 of 5 frame pairs" &&
   t_says short_ref "only complete pairs are scored"; then
    pass "timing: a reference that ends early ends the scoring (no stale reference)"
else
    fail "timing: a reference that ends early"; grep -i "scored\|warn" "$timing/short_ref.log" | head -3
fi
# ... unless asked for libvmaf's padding.
t_ffmpeg repeat -f lavfi -i "$src" -f lavfi -i "testsrc2=size=160x90:rate=25:duration=0.2" \
    -lavfi "[0:v][1:v]vmaf_hip=eof_action=repeat"
if t_ok repeat && t_says repeat "Scored 25 of 25 frame pairs"; then
    pass "timing: eof_action=repeat still repeats the reference's last frame"
else
    fail "timing: eof_action=repeat"; grep -i "scored" "$timing/repeat.log" | head -3
fi

# An input without a single frame is an error.
t_ffmpeg empty -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[1:v]trim=start_frame=100[r];[0:v][r]vmaf_hip"
if ! t_ok empty && t_says empty "The reference input (input 1) ended without a single frame"; then
    pass "timing: an input without frames is an error that says so"
else
    fail "timing: an input without frames (exit $(cat "$timing/empty.rc"))"; tail -3 "$timing/empty.log"
fi

# A size change inside the graph is an error, not an overflow or a wrong score.
t_ffmpeg resize -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0:v]scale=w='if(gt(n\,3)\,144\,160)':h=90:eval=frame[d];[d][1:v]vmaf_hip"
if ! t_ok resize && t_says resize "A distorted frame is 144x90 yuv420p, but the stream started as 160x90 yuv420p"; then
    pass "timing: a size change inside the graph is an error that says what to do"
else
    fail "timing: a size change inside the graph (exit $(cat "$timing/resize.rc"))"; tail -3 "$timing/resize.log"
fi

# The output ends first (a trim after the filter): the log holds exactly the
# frames that left the filter (as many as carry metadata), each with the
# values of the full run: none computed as if the stream ended there. The
# inputs are long (200 frames) so that the trim's end reaches the filter
# before they do: with 20, every frame had been read and went through the
# filter in about one run of six.
long="testsrc2=size=160x90:rate=25:duration=8"
t_ffmpeg full -f lavfi -i "$long" -f lavfi -i "$long" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=log_fmt=json:log_path=$timing/full.json"
t_ffmpeg cut -f lavfi -i "$long" -f lavfi -i "$long" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=log_fmt=json:log_path=$timing/cut.json,metadata=mode=print:file=$timing/cut.meta,trim=end_frame=8"
if t_ok full && t_ok cut && python3 - "$timing/full.json" "$timing/cut.json" "$timing/cut.meta" <<'EOF_PY'
import json, sys
full, cut = (json.load(open(f)) for f in sys.argv[1:3])
meta = sum(1 for l in open(sys.argv[3]) if l.startswith('frame:'))
frames = cut['frames']
assert len(frames) == meta and 8 <= meta < len(full['frames']), (len(frames), meta)
for f in frames:
    assert f == full['frames'][f['frameNum']], f['frameNum']
mean = sum(f['metrics']['vmaf'] for f in frames) / len(frames)
assert abs(cut['pooled_metrics']['vmaf']['mean'] - mean) < 1e-5  # of the 6-decimal values
EOF_PY
then
    pass "timing: an output that ends first logs exactly the frames that left, with their full-run values"
else
    fail "timing: an output that ends first"; tail -3 "$timing/cut.log"
fi

# A GPU that takes its time to start (simulated: 300 ms, then its kernels
# fail and the CPU takes over): the pairs read meanwhile are held, not
# stalled, and scored once it answers, in order, with the values of a CPU
# run; whether the input ends while the GPU starts (all scored at the end)
# or goes on (scored a few at a time beside the new ones); and an output
# that ends early stops that within a few frames of where it ended.
slow="testsrc2=size=160x90:rate=25:duration=6"
slow_gpu() { VMAF_HIP_SIMULATE_GPU=1 VMAF_HIP_SIMULATE_START_MS=${START_MS:-300} t_ffmpeg "$@"; }
t_ffmpeg slow_cpu -f lavfi -i "$slow" -f lavfi -i "$slow" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=backend=cpu:log_fmt=json:log_path=$timing/slow_cpu.json"
# The input must end while the GPU starts: 150 small frames take tens of
# ms to make, far more on a loaded machine, so this GPU takes 2 s.
START_MS=2000
slow_gpu slow_end -v verbose -f lavfi -i "$slow" -f lavfi -i "$slow" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=cpu_first=0:log_fmt=json:log_path=$timing/slow_end.json"
START_MS=
slow_gpu slow_on -v verbose -readrate 6 -f lavfi -i "$slow" -readrate 6 -f lavfi -i "$slow" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=cpu_first=0:log_fmt=json:log_path=$timing/slow_on.json"
slow_gpu slow_cut -v verbose -readrate 6 -f lavfi -i "$slow" -readrate 6 -f lavfi -i "$slow" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=cpu_first=0:log_fmt=json:log_path=$timing/slow_cut.json,metadata=mode=print:file=$timing/slow_cut.meta" \
    -frames:v 120
slow_gpu slow_wait -v verbose -f lavfi -i "$slow" -f lavfi -i "$slow" \
    -lavfi "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=cpu_first=0:startup_buffer=0:log_fmt=json:log_path=$timing/slow_wait.json"
held() { sed -n 's/.* \([0-9][0-9]*\) frame pairs .* were held while the GPU started.*/\1/p' "$timing/$1.log"; }
echo "slow GPU: held $(held slow_end) (input ended), $(held slow_on) (input went on), $(held slow_cut) (output cut)" \
    > "$timing/slow.txt"
if t_ok slow_cpu && t_ok slow_end && t_ok slow_on && t_ok slow_cut && t_ok slow_wait &&
   [ "$(held slow_end)" = 150 ] && [ "$(held slow_on)" -gt 0 ] && [ "$(held slow_on)" -lt 150 ] &&
   [ -z "$(held slow_wait)" ] &&
   t_same_logs 150 "$timing"/slow_cpu.json "$timing"/slow_end.json "$timing"/slow_on.json \
                   "$timing"/slow_wait.json &&
   python3 - "$timing"/slow_cpu.json "$timing"/slow_cut.json "$timing/slow_cut.meta" <<'EOF_PY'
import json, sys
cpu, cut = (json.load(open(f)) for f in sys.argv[1:3])
meta = sum(1 for l in open(sys.argv[3]) if l.startswith('frame:'))
frames = cut['frames']
assert len(frames) == meta and 120 <= meta <= 123, (len(frames), meta)
for f in frames:
    assert f == cpu['frames'][f['frameNum']], f['frameNum']
EOF_PY
then
    pass "timing: pairs read while the GPU starts are held and scored once it answers ($(cat "$timing/slow.txt"))"
else
    fail "timing: pairs read while the GPU starts ($(cat "$timing/slow.txt"))"
    grep -h -i "held\|error\|fail" "$timing"/slow_*.log | head -5
fi

# backend=auto scores on the CPU first and starts the GPU only once the
# stream has run cpu_first ms (simulated here: 300 ms to start, then its
# kernels fail and the CPU takes over again). A run shorter than that never
# opens it; a longer one holds the pairs read while it starts and moves to
# it mid-stream, the temporal features (motion's five-frame window, SpEED's
# previous frame, PSNR's sums) going on from the CPU's state. Every value is
# the CPU run's.
cf="testsrc2=size=320x180:rate=25:duration=4"
cf_graph() { # options name
    printf '%s\n' "[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=$1:feature=name=psnr|name=speed_temporal|name=motion\\\\:motion_five_frame_window=1:log_fmt=json:log_path=$timing/$2.json"
}
t_ffmpeg cf_cpu -f lavfi -i "$cf" -f lavfi -i "$cf" -lavfi "$(cf_graph backend=cpu cf_cpu)"
slow_gpu cf_one -v verbose -f lavfi -i "$cf" -f lavfi -i "$cf" \
    -lavfi "$(cf_graph cpu_first=5000 cf_one)" -frames:v 1
for t in 1 3; do
    slow_gpu cf_long$t -v verbose -readrate 5 -f lavfi -i "$cf" -readrate 5 -f lavfi -i "$cf" \
        -lavfi "$(cf_graph cpu_first=100:n_threads=$t cf_long$t)"
done
# Features that stay on the CPU when the others move (float_vif's prescale,
# motion's force_zero have no GPU twin): their frame threads come back.
cf_mixed="[0:v]noise=alls=8:allf=t:all_seed=7[d];[d][1:v]vmaf_hip=BACKEND:feature=name=psnr|name=float_vif\\\\:vif_prescale=2|name=motion\\\\:motion_force_zero=true:log_fmt=json:log_path=$timing/NAME.json"
t_ffmpeg cf_mixed_cpu -f lavfi -i "$cf" -f lavfi -i "$cf" \
    -lavfi "$(printf '%s' "$cf_mixed" | sed 's/BACKEND/backend=cpu/; s/NAME/cf_mixed_cpu/')"
slow_gpu cf_mixed -v level+verbose -readrate 5 -f lavfi -i "$cf" -readrate 5 -f lavfi -i "$cf" \
    -lavfi "$(printf '%s' "$cf_mixed" | sed 's/BACKEND/cpu_first=100:n_threads=3/; s/NAME/cf_mixed/')"
moved() { sed -n 's/.*From frame \([0-9][0-9]*\) on: .* on the GPU.*/\1/p' "$timing/$1.log"; }
cf_moved() { # name: moved mid-stream after holding pairs, and back after the simulated failure
    [ "$(moved $1)" -ge 1 ] 2>/dev/null && [ "$(held $1)" -ge 1 ] 2>/dev/null &&
    t_says $1 "The GPU failed; finishing the stream on the CPU from frame $(moved $1)\."
}
echo "one frame: $(grep -c 'simulated GPU' "$timing/cf_one.log") GPU opened; 1 thread: moved at frame" \
     "$(moved cf_long1), $(held cf_long1) pairs held; 3 threads: at $(moved cf_long3)," \
     "$(held cf_long3) held" > "$timing/cf.txt"
if t_ok cf_cpu && t_ok cf_one && t_ok cf_long1 && t_ok cf_long3 && t_ok cf_mixed_cpu && t_ok cf_mixed &&
   ! grep -q "simulated GPU\|starting the GPU" "$timing/cf_one.log" &&
   cf_moved cf_long1 && cf_moved cf_long3 && cf_moved cf_mixed &&
   t_says cf_mixed "float_vif, motion on the CPU; 3 CPU threads" &&
   t_says cf_mixed "\[verbose\] Feature 'float_vif' runs on the CPU: no GPU version for its options" &&
   t_says cf_mixed "\[verbose\] Feature 'motion' runs on the CPU: no GPU version for its options" &&
   ! t_says cf_mixed "GPU setup failed" &&
   t_same_logs 100 "$timing"/cf_mixed_cpu.json "$timing"/cf_mixed.json &&
   t_same_logs 100 "$timing"/cf_cpu.json "$timing"/cf_long1.json "$timing"/cf_long3.json &&
   python3 - "$timing"/cf_cpu.json "$timing"/cf_one.json <<'EOF_PY'
import json, sys
cpu, one = (json.load(open(f)) for f in sys.argv[1:3])
# The frames that left the filter before the output ended, as always.
assert 1 <= len(one['frames']) < 100 and one['frames'] == cpu['frames'][:len(one['frames'])]
EOF_PY
then
    pass "timing: backend=auto scores on the CPU first, never opens the GPU for a short run, and moves to it mid-stream with the CPU's values ($(cat "$timing/cf.txt"))"
else
    fail "timing: the CPU first, then the GPU mid-stream ($(cat "$timing/cf.txt"))"
    grep -h -i "from frame\|held\|error\|fail" "$timing"/cf_*.log | head -6
fi

# Inputs that end before cpu_first, with pairs still held (raw frames read
# far faster than the CPU scores them): the CPU finishes them, on the
# threads asked for, when it would take less than the GPU's start (here a
# simulated 20 s), else the GPU starts at once (a simulated 1 ms); either
# way with the CPU run's values.
cfe_src="testsrc2=size=320x180:rate=25:duration=8"
"$ffmpeg" -v error -y -f lavfi -i "$cfe_src" -f rawvideo "$timing/cfe_ref.yuv"
"$ffmpeg" -v error -y -f lavfi -i "$cfe_src" -vf noise=alls=8:allf=t:all_seed=7 \
    -f rawvideo "$timing/cfe_dis.yuv"
cfe_in="-f rawvideo -pix_fmt yuv420p -s 320x180 -r 25"
gpu_starting_in() { # ms name args...
    ms=$1; shift
    VMAF_HIP_SIMULATE_GPU=1 VMAF_HIP_SIMULATE_START_MS=$ms t_ffmpeg "$@"
}
cfe_graph() { # options name
    printf '%s\n' "[0:v][1:v]vmaf_hip=$1:feature=name=psnr|name=cambi|name=float_ms_ssim|name=speed_temporal|name=motion\\\\:motion_five_frame_window=1:log_fmt=json:log_path=$timing/$2.json"
}
t_ffmpeg cfe_cpu $cfe_in -i "$timing/cfe_dis.yuv" $cfe_in -i "$timing/cfe_ref.yuv" \
    -lavfi "$(cfe_graph backend=cpu cfe_cpu)"
gpu_starting_in 20000 cfe_stay -v verbose $cfe_in -i "$timing/cfe_dis.yuv" \
    $cfe_in -i "$timing/cfe_ref.yuv" -lavfi "$(cfe_graph cpu_first=60000:n_threads=6 cfe_stay)"
gpu_starting_in 1 cfe_move -v verbose $cfe_in -i "$timing/cfe_dis.yuv" \
    $cfe_in -i "$timing/cfe_ref.yuv" -lavfi "$(cfe_graph cpu_first=60000:n_threads=6 cfe_move)"
cfe_left() { sed -n 's/.*The inputs ended with \([0-9][0-9]*\) frame pairs left.*/\1/p' "$timing/$1.log"; }
echo "on the CPU: $(cfe_left cfe_stay) pairs left at the end of the inputs; on the GPU: moved at frame" \
     "$(moved cfe_move), $(held cfe_move) pairs held" > "$timing/cfe.txt"
if t_ok cfe_cpu && t_ok cfe_stay && t_ok cfe_move &&
   [ "$(cfe_left cfe_stay)" -ge 1 ] 2>/dev/null &&
   t_says cfe_stay "the GPU is not started; 6 CPU threads" &&
   ! grep -q "simulated GPU\|starting the GPU" "$timing/cfe_stay.log" &&
   t_says cfe_move "The inputs ended with more left to score than the GPU's start costs: starting the GPU" &&
   cf_moved cfe_move &&
   t_same_logs 200 "$timing"/cfe_cpu.json "$timing"/cfe_stay.json "$timing"/cfe_move.json
then
    pass "timing: inputs that end on the CPU first finish there when that is sooner than the GPU's start, else start it at once ($(cat "$timing/cfe.txt"))"
else
    fail "timing: inputs that end on the CPU first ($(cat "$timing/cfe.txt"))"
    grep -h -i "inputs ended\|from frame\|held\|error\|fail" "$timing"/cfe_*.log | head -6
fi
