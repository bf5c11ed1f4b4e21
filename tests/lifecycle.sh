# Sourced by tests/run.sh (uses $top, $build, $obj, $CC, pass, fail).
# Lifecycle: vmaf_hip created, run and destroyed LIFECYCLE_ITERATIONS times
# (1000) in one process through the public libavfilter API, one or two
# instances a graph, backend=cpu and auto, n_threads 1 and 3, and graphs
# that must fail: no descriptor, thread, heap memory or file leaks
# (tests/lifecycle_test.c). It links against the static libraries of
# $obj with the external libraries FFmpeg's configure found for them.

lc_dir=$build/lifecycle
lc_why=""
lc_libs=""
lc_extra=""
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
        lc_extra="$lc_extra $(sed -n "s/^EXTRALIBS-$lc_l=//p" "$obj/ffbuild/config.mak")"
    done
    lc_extra="$lc_extra $(sed -n 's/^EXTRALIBS=//p' "$obj/ffbuild/config.mak")"
    [ -n "$lc_why" ] || case $lc_libs in
        *libavfilter.a*) ;;
        *) lc_why="libavfilter is not built in this configuration" ;;
    esac
fi

if [ -n "$lc_why" ]; then
    echo "lifecycle: skipped: $lc_why"
elif ! ${CC:-cc} -std=c11 -O2 -I"$obj" -I"$build/src" "$top/tests/lifecycle_test.c" \
         $lc_libs $lc_extra -lm -pthread -ldl -o "$build/lifecycle_test" > "$build/lifecycle.build.log" 2>&1; then
    fail "lifecycle: lifecycle_test does not compile or link"
    tail -5 "$build/lifecycle.build.log"
else
    rm -rf "$lc_dir"
    mkdir -p "$lc_dir"
    "$build/lifecycle_test" "$lc_dir" "${LIFECYCLE_ITERATIONS:-1000}" > "$build/lifecycle.log" 2>&1
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
