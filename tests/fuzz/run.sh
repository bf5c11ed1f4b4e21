#!/bin/sh
# The fuzz targets' short run for make check.
#
# Usage: sh tests/fuzz/run.sh [BUILD_DIR]   (BUILD_DIR: build unless given)
#
# Run from the repository root after `make fuzzers` (make check runs it
# first; it builds them into BUILD_DIR/fuzz), it runs each once over its
# committed regression inputs (tests/fuzz/regressions/<target>/) and then
# fuzzes each for FUZZ_SECONDS (20) from the seed corpus, the three at once.
# One PASS or FAIL line per run; without clang and libFuzzer, "fuzz:
# skipped: ..." with make fuzzers' reason.
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../../tools/script-args.sh"
no_options "$@"
[ $# -le 1 ] || usage "too many arguments"
top=$(pwd)
[ -d "${1:-$top/build}" ] || usage "no directory '${1:-$top/build}'"
build=$(cd "${1:-$top/build}" && pwd)
seconds=${FUZZ_SECONDS:-20}
out=$build/fuzz

# Without a clang that has libFuzzer, make fuzzers builds nothing and says
# why in $out/none: a skip; otherwise a target missing is a failure.
if [ -f "$out/none" ]; then
    echo "fuzz: skipped: $(cat "$out/none")"
    exit 0
fi
missing=
for t in model options engine; do
    [ -x "$out/${t}_fuzzer" ] || missing="$missing ${t}_fuzzer"
done
if [ -n "$missing" ]; then
    echo "FAIL fuzz targets built: missing$missing (make fuzzers says why)"
    exit 1
fi

targets="model options engine"
for t in $targets; do
    regs=$top/tests/fuzz/regressions/${t}_fuzzer
    if ls "$regs"/* > /dev/null 2>&1; then
        if "$out/${t}_fuzzer" -timeout=10 -rss_limit_mb=2048 "$regs"/* < /dev/null > "$out/$t-regressions.log" 2>&1; then
            echo "PASS ${t}_fuzzer: $(ls "$regs" | wc -l) regression inputs"
        else
            tail -30 "$out/$t-regressions.log"
            echo "FAIL ${t}_fuzzer: a regression input fails (see $out/$t-regressions.log)"
        fi
    fi
done

# Seeds: the models, option strings, small frame headers; a fresh corpus each time.
for t in $targets; do
    rm -rf "$out/short/$t"
    mkdir -p "$out/short/$t/corpus" "$out/short/$t/artifacts"
    case $t in
    model) cp "$top"/models/*.json "$out/short/$t/corpus/" ;;
    *)     cp "$top/tests/fuzz/seeds/$t"/* "$out/short/$t/corpus/" ;;
    esac
    (cd "$out/short/$t" &&
     "$out/${t}_fuzzer" -max_total_time=$seconds -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
         -artifact_prefix=artifacts/ corpus < /dev/null > log 2>&1; echo $? > rc) &
done
wait
for t in $targets; do
    d=$out/short/$t
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
    cov=$(grep -E '^#[0-9]+' "$d/log" | tail -n1 | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
    if [ "$(cat "$d/rc")" = 0 ]; then
        echo "PASS ${t}_fuzzer: ${seconds} s, ${runs:-?} runs, ${cov:-?}"
    else
        grep -A25 '^==[0-9]*==ERROR\|runtime error' "$d/log" | head -40
        echo "FAIL ${t}_fuzzer: crashed (input in $d/artifacts/)"
    fi
done
