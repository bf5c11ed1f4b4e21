# Sourced by tests/run.sh (uses $top, $build, $obj, pass, fail).
# Lifecycle: vmaf_hip created, run and destroyed LIFECYCLE_ITERATIONS times
# (1000) in one process through the public libavfilter API, one or two
# instances a graph, backend=cpu and auto, n_threads 1 and 3, and graphs
# that must fail: no descriptor, thread, heap memory or file leaks
# (tests/lifecycle_test.c). make links it ($build/tests/lifecycle_test)
# against the static libraries of $obj with the external libraries
# FFmpeg's configure found for them; here, why it may not be there.

lc_dir=$build/lifecycle
lc_why=""
lc_libs=""
if [ ! -f "$obj/ffbuild/config.mak" ]; then
    lc_why="no $obj/ffbuild/config.mak (not configured)"
else
    # In linking order, those this configuration builds.
    for lc_l in avfilter avformat avcodec swresample swscale avutil; do
        lc_u=$(echo "$lc_l" | tr a-z A-Z)
        grep -q "^CONFIG_$lc_u=yes" "$obj/ffbuild/config.mak" || continue
        if [ ! -f "$obj/lib$lc_l/lib$lc_l.a" ]; then
            lc_why="no $obj/lib$lc_l/lib$lc_l.a (not built, or a shared build)"
            break
        fi
        lc_libs="$lc_libs $obj/lib$lc_l/lib$lc_l.a"
    done
    [ -n "$lc_why" ] || case $lc_libs in
        *libavfilter.a*) ;;
        *) lc_why="libavfilter is not built in this configuration" ;;
    esac
fi

if [ -n "$lc_why" ]; then
    echo "lifecycle: skipped: $lc_why"
elif [ ! -x "$build/tests/lifecycle_test" ]; then
    fail "lifecycle: lifecycle_test does not compile or link"
else
    rm -rf "$lc_dir"
    mkdir -p "$lc_dir"
    "$build/tests/lifecycle_test" "$lc_dir" "${LIFECYCLE_ITERATIONS:-1000}" > "$build/lifecycle.log" 2>&1
    echo "exit $?" >> "$build/lifecycle.log"
    if grep -q '^SKIP ' "$build/lifecycle.log"; then
        echo "lifecycle: skipped: $(sed -n 's/^SKIP //p' "$build/lifecycle.log")"
    else
        while IFS= read -r lc_line; do
            case $lc_line in
            "PASS "*) pass "lifecycle: ${lc_line#PASS }" ;;
            "FAIL "*) fail "lifecycle: ${lc_line#FAIL }" ;;
            "  "*)    echo "$lc_line" ;;
            "time: "*) echo "lifecycle: $lc_line" ;;
            esac
        done < "$build/lifecycle.log"
        if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed$' "$build/lifecycle.log"; then
            fail "lifecycle: lifecycle_test did not finish"
            tail -5 "$build/lifecycle.log"
        fi
    fi
fi
