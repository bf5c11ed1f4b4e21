# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# Frames scored in parallel give what one thread gives: every value and the
# order of every key in the log, byte for byte, for 1, 2, 3, 8 and 16
# threads, every frame scored or one in three (n_subsample), 8- and 10-bit,
# with the temporal features (motion, float_motion, psnr's sums) among them.
# A key written in the wrong order, a frame scored with another frame's
# motion or a value lost on the way shows as a difference.

thr=$build/threads
mkdir -p "$thr"
thr_src="testsrc2=size=320x240:rate=25:duration=1.2"
thr_features='name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi|name=ciede|name=psnr_hvs|name=float_motion|name=float_vif|name=float_adm'
for thr_fmt in yuv420p yuv420p10le; do
    for thr_sub in 1 3; do
        thr_ok=1 thr_why=""
        for thr_n in 1 2 3 8 16; do
            thr_log=$thr/$thr_fmt-$thr_sub-$thr_n.xml
            if ! "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$thr_src" -f lavfi -i "$thr_src" \
                    -lavfi "[0:v]avgblur=2,noise=alls=8:allf=t,format=$thr_fmt[d];[1:v]format=$thr_fmt[r];[d][r]vmaf_hip=backend=cpu:n_threads=$thr_n:n_subsample=$thr_sub:feature=$thr_features:log_path=$thr_log" \
                    -f null - > "$thr/run.log" 2>&1; then
                thr_ok=0 thr_why="$thr_n threads: ffmpeg failed"
                tail -3 "$thr/run.log"
                break
            fi
            # Everything but the speed.
            grep -v '<fyi fps=' "$thr_log" > "$thr_log.cmp"
            if [ "$thr_n" = 1 ]; then
                thr_one=$thr_log.cmp
                if ! grep -q 'float_motion\|motion2' "$thr_one" || [ "$(grep -c '<frame ' "$thr_one")" -lt 8 ]; then
                    thr_ok=0 thr_why="the one-thread log lacks frames or keys"
                    break
                fi
            elif ! cmp -s "$thr_one" "$thr_log.cmp"; then
                thr_ok=0 thr_why="$thr_n threads differ from 1: $(diff "$thr_one" "$thr_log.cmp" | head -n 3 | tr '\n' ' ')"
                break
            fi
        done
        if [ $thr_ok = 1 ]; then
            pass "threads: $thr_fmt, n_subsample=$thr_sub: logs of 1, 2, 3, 8 and 16 threads identical"
        else
            fail "threads: $thr_fmt, n_subsample=$thr_sub: $thr_why"
        fi
    done
done

# Every frame leaves with its score: frames that the workers finish between
# two pushes have no model score until the next one, and must wait for it.
thr_meta=$thr/meta.txt
rm -f "$thr_meta"
if "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "testsrc2=size=64x64:rate=25:duration=20" \
        -f lavfi -i "testsrc2=size=64x64:rate=25:duration=20" \
        -lavfi "[0:v]noise=alls=8:allf=t[d];[d][1:v]vmaf_hip=backend=cpu:n_threads=16,metadata=mode=print:key=lavfi.vmaf.score:file=$thr_meta" \
        -f null - > "$thr/meta.log" 2>&1 &&
   [ "$(grep -c '^lavfi.vmaf.score=' "$thr_meta")" = 500 ]; then
    pass "threads: each of 500 frames scored by 16 threads leaves with its VMAF score"
else
    fail "threads: frames scored by 16 threads leave with their score: $(grep -c '^lavfi.vmaf.score=' "$thr_meta" 2>/dev/null) of 500"
fi
