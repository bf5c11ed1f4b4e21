# The helpers the test scripts share. Sourced by tests/run.sh (and so
# available to every fragment it sources), by tests/workflows.sh, and by
# the scripts that source a fragment of their own (tests/gpu/gpu-hwframes.sh,
# tools/cpu-evidence.sh). Sourcing it starts the count at 0 passed, 0 failed.
#
# pass, fail             one PASS or FAIL line, counted
# count_results          a test program's log, its last line "N passed, N failed"
# run_unit               runs a test program of $build/tests (make tests) and counts it
# expect_error           ffmpeg must fail with a message (uses $ffmpeg, $build)
# ffmpeg_run, ran_ok, ran_says
#                        an ffmpeg run whose output and status are kept, and
#                        questions about it (uses $ffmpeg)
# config_mak             a value of FFmpeg's configure for this build (uses $build)

passed=0
failed=0

# printf, not echo: dash's echo would turn the examples' \\: into \:.
pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }

# ffmpeg_run DIR NAME args...: ffmpeg args... -f null -, its output kept in
# DIR/NAME.log and its exit status in DIR/NAME.rc.
ffmpeg_run() {
    fr_dir=$1 fr_name=$2
    shift 2
    "$ffmpeg" -hide_banner -nostdin -nostats "$@" -f null - > "$fr_dir/$fr_name.log" 2>&1
    echo $? > "$fr_dir/$fr_name.rc"
}
ran_ok()   { [ "$(cat "$1/$2.rc")" = 0 ]; }     # DIR NAME: it exited with 0
ran_says() { grep -q -- "$3" "$1/$2.log"; }      # DIR NAME PATTERN: its output has it

count_results() {
    # $1: output of a test program whose last line is "N passed, N failed...";
    # $2: the suite's name; $3: why it may have nothing to run. A suite that
    # ran nothing says so with that reason (or fails when it has none).
    p=$(tail -n1 "$1" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
    f=$(tail -n1 "$1" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
    if [ -z "$p" ]; then
        fail "$2 (did not finish)"
        return
    fi
    grep -E '^(FAIL|SKIP)' "$1"
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        if [ -n "${3:-}" ]; then
            echo "$2: skipped: $3"
        else
            fail "$2: ran nothing"
        fi
        return
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    echo "$2: $(tail -n1 "$1")"
}

run_unit() {
    # $1: why it may have nothing to run ("" when it must run something);
    # $2: the program, built by make into $build/tests; then its arguments.
    # Its output goes to $build/<program>.log.
    why=$1 t=$2
    shift 2
    if [ -x "$build/tests/$t" ]; then
        "$build/tests/$t" "$@" > "$build/$t.log" 2>&1
        count_results "$build/$t.log" $t "$why"
    else
        fail "$t (does not compile)"
    fi
}

expect_error() {
    # $1: the check's name; $2: what ffmpeg's messages must hold; then
    # ffmpeg's inputs and options: it must exit with non-zero.
    name=$1 pattern=$2
    shift 2
    if "$ffmpeg" -hide_banner -nostdin -nostats "$@" -f null - > "$build/bad.log" 2>&1; then
        fail "$name: exited with 0"
    elif grep -q -- "$pattern" "$build/bad.log"; then
        pass "$name"
    else
        fail "$name: no message matching '$pattern'"
        tail -5 "$build/bad.log"
    fi
}

# config_mak NAME: NAME's value in the build's ffbuild/config.mak (what
# configure found: the GPU targets, the vendors' code built).
config_mak() { sed -n "s/^$1=//p" "$build/obj/ffbuild/config.mak"; }
