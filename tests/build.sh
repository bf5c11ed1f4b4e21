# Sourced by tests/run.sh (uses $top, $build, pass, fail).
# The build: a make with nothing changed does nothing (no configure, no
# compile), and the configuration of the last make is the one in use.

if [ -f "$build/config.vars" ]; then
    # make check has just built: the tree is up to date.
    noop=$(cd "$top" && make 2>&1)
    if printf '%s\n' "$noop" | grep -qE '(^|/)configure |^(CC|NVCC|HIPCC|LD)[[:space:]]'; then
        fail "build: a make with nothing changed configured or compiled"
        printf '%s\n' "$noop" | grep -E 'configure |^(CC|LD)' | head -3
    else
        pass "build: a make with nothing changed configured and compiled nothing"
    fi
    # The remembered configuration is what configure was given.
    if grep -q '^SMALL := 1' "$build/config.vars"; then
        want=--disable-everything
    else
        want=--enable-libdav1d
    fi
    if grep -q -- "$want" "$build/obj/ffbuild/config.mak"; then
        pass "build: configured as $build/config.vars says ($want)"
    else
        fail "build: $build/config.vars and the configuration in use disagree"
    fi
else
    echo "build: skipped: no $build/config.vars (not built by this Makefile)"
fi
