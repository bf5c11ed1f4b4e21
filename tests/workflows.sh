#!/bin/sh
# The encoder-tuning tools (tools/vmaf-crf-sweep, vmaf-target, vmaf-plot) run for
# real on a one-second 160x90 clip: every check compares what a tool wrote;
# and tools/bench-default.sh's smallest run scores with its filter.
#
# Usage: tests/workflows.sh <ffmpeg>   e.g. tests/workflows.sh build/ffmpeg
#
# One line per check, "PASS ...", "FAIL ..." or "SKIP <reason>" (an encoder missing
# from this ffmpeg); exits with 1 when a check failed. About 15 s on two cores.
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../tools/script-args.sh"
no_options "$@"
[ $# -eq 1 ] || usage "one argument expected"
ff=$1
case $ff in */*) ff=$(cd "$(dirname "$ff")" && pwd)/$(basename "$ff") ;; esac
tools=$(cd "$(dirname "$0")/../tools" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# pass, fail (counted in $failed).
. "$(dirname "$0")/lib.sh"
check() { # name command...: PASS when the command succeeds
    name=$1; shift
    if "$@"; then pass "$name"; else fail "$name"; return 1; fi
}

# The tools draw with matplotlib, which Debian installs for /usr/bin/python3 only;
# a python3 earlier on PATH (pyenv, venv) may lack it.
py=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$p" -c 'import matplotlib' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { fail "no python3 with matplotlib (apt install python3-matplotlib)"; exit 1; }

tool() { # name out-prefix args...: runs a tool, keeps stdout, stderr and status
    t=$1 o=$2; shift 2
    "$py" "$tools/$t" --ffmpeg "$ff" "$@" >"$T/$o.out" 2>"$T/$o.err"
    echo $? >"$T/$o.rc"
}
plot() { # out-prefix args...
    o=$1; shift
    "$py" "$tools/vmaf-plot" "$@" >"$T/$o.out" 2>"$T/$o.err"
    echo $? >"$T/$o.rc"
}
ok() { [ "$(cat "$T/$1.rc")" = 0 ]; }
failed_with() { # prefix text: non-zero status and the text in stderr
    [ "$(cat "$T/$1.rc")" != 0 ] && grep -q -- "$2" "$T/$1.err"
}
rows() { awk 'NF == 5 && $1 ~ /^[0-9]+$/' "$T/$1.out"; }
png_ok() { # file min-bytes: PNG signature and a picture of some size
    [ -f "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
        [ "$(wc -c <"$1")" -gt "$2" ]
}
png_height() { # from the IHDR chunk, big-endian at bytes 20..23
    head -c 24 "$1" | tail -c 4 | od -An -tu1 | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}
has_encoder() { "$ff" -hide_banner -encoders 2>/dev/null | grep -q " $1 "; }
show_err() { sed 's/^/    /' "$T/$1.err" | head -5; }

"$ff" -nostdin -v error -f lavfi -i testsrc2=size=160x90:rate=25:duration=1 -pix_fmt yuv420p "$T/src.y4m" ||
    { fail "generating the test clip with $ff"; exit 1; }

# --- vmaf-crf-sweep ---------------------------------------------------------
tool vmaf-crf-sweep sweep --crf 23,28,33,38 --preset veryfast --out "$T/sweep" --png "$T/rq.png" "$T/src.y4m"
check "sweep: exits 0" ok sweep || show_err sweep
check "sweep: 4 rows, CRF 23 28 33 38" test "$(rows sweep | awk '{ printf "%s ", $1 }')" = "23 28 33 38 "
monotone() { # prefix rows: VMAF mean and 1% low never rise, bitrate falls, as CRF rises
    ok "$1" && rows "$1" | awk -v n="$2" 'NR > 1 && ($3 > v || $4 > l || $2 >= b) { bad = 1 }
        { b = $2; v = $3; l = $4 } END { exit bad || NR != n || v >= 100 || v <= 0 }'
}
check "sweep: VMAF mean and 1% low non-increasing, bitrate falling as CRF rises" monotone sweep 4
# The table against the filter's own log: mean and pooled mean agree, the 1% low of
# 25 frames is their minimum, and the bitrate stays under the file's (container) rate.
check "sweep: table matches the JSON logs (mean, 1% low = min of 25 frames, PSNR-Y, kbit/s)" \
    "$py" - "$T" <<'EOF'
import json, os, sys
T = sys.argv[1]
for line in open(os.path.join(T, "sweep.out")):
    f = line.split()
    if len(f) != 5 or not f[0].isdigit():
        continue
    crf, kbps, vmaf, low, psnr = int(f[0]), *map(float, f[1:])
    log = json.load(open(os.path.join(T, "sweep", "libx264-crf%d.json" % crf)))
    v = [fr["metrics"]["vmaf"] for fr in log["frames"]]
    p = [fr["metrics"]["psnr_y"] for fr in log["frames"]]
    size = os.path.getsize(os.path.join(T, "sweep", "libx264-crf%d.mkv" % crf))
    assert len(v) == 25, len(v)
    assert abs(vmaf - log["pooled_metrics"]["vmaf"]["mean"]) < 6e-4, (vmaf, log["pooled_metrics"])
    assert abs(low - min(v)) < 6e-4 and low < vmaf, (low, min(v))
    assert abs(psnr - sum(p) / len(p)) < 6e-4, psnr
    assert 0 < kbps < size * 8 / 1000, (kbps, size)
EOF
check "sweep: rate-quality PNG written" png_ok "$T/rq.png" 10000
# Scored by hand, the encode as distorted (first input): the sweep must agree, so it
# did not swap distorted and reference.
direct=$("$ff" -nostdin -i "$T/sweep/libx264-crf23.mkv" -i "$T/src.y4m" -lavfi vmaf_hip -f null - 2>&1 |
    sed -n 's/.*VMAF score: \([0-9.]*\).*/\1/p')
check "sweep: CRF 23's VMAF equals a direct vmaf_hip run (${direct:-none})" \
    test "$(rows sweep | awk -v d="${direct:-x}" '$1 == 23 { print ($3 - d < 6e-4 && d - $3 < 6e-4) }')" = 1

tool vmaf-crf-sweep badenc --encoder libnothing --crf 30 "$T/src.y4m"
check "sweep: unknown encoder fails naming the available ones" failed_with badenc "this ffmpeg has .*libx264"
echo "this is not a video" >"$T/notvideo.mkv"
tool vmaf-crf-sweep badsrc --crf 30 "$T/notvideo.mkv"
check "sweep: unreadable source fails with ffprobe's message" failed_with badsrc "reading .*notvideo.mkv failed"
tool vmaf-crf-sweep badpreset --crf 30 --preset nosuchpreset "$T/src.y4m"
check "sweep: encoder error is reported" failed_with badpreset "encoding at CRF 30 failed"

for enc in libsvtav1:12 libaom-av1:8; do
    name=${enc%:*}
    if ! has_encoder "$name"; then echo "SKIP sweep with $name: not in $ff"; continue; fi
    tool vmaf-crf-sweep "$name" --encoder "$name" --preset "${enc#*:}" --crf 25,55 "$T/src.y4m"
    check "sweep with $name: VMAF and bitrate fall from CRF 25 to 55" monotone "$name" 2 || show_err "$name"
done
if has_encoder libsvtav1; then
    "$ff" -nostdin -v error -i "$T/src.y4m" -pix_fmt yuv444p "$T/src444.y4m"
    tool vmaf-crf-sweep c444 --encoder libsvtav1 --preset 12 --crf 30 "$T/src444.y4m"
    check "sweep: SVT-AV1 on a 4:4:4 source fails naming the format it wrote" \
        failed_with c444 "libsvtav1 cannot encode yuv444p (it wrote yuv420p)"
fi

# --- vmaf-target ------------------------------------------------------------
# A target the sweep showed reachable: the VMAF of CRF 33.
target=$(rows sweep | awk '$1 == 33 { print $3 }')
tool vmaf-target target --target "$target" --preset veryfast "$T/src.y4m"
check "target $target: converges (exit 0, a chosen CRF)" ok target || show_err target
chosen_is_probe() { # [out-prefix]: the chosen CRF and VMAF are a printed probe, within 0.5 of the target
    cf=$T/${1:-target}.out
    set -- $(sed -n 's/^chosen CRF \([0-9]*\): VMAF \([0-9.]*\),.*/\1 \2/p' "$cf")
    [ $# = 2 ] && awk -v c="$1" -v v="$2" -v t="$target" 'NF == 5 && $1 == c && $3 == v { found = 1 }
        END { d = v - t; exit !found || d > 0.5 || d < -0.5 }' "$cf"
}
check "target $target: chosen VMAF within 0.5, one of the printed probes" chosen_is_probe
tool vmaf-target high --target 100.5 --preset veryfast "$T/src.y4m"
check "target 100.5: fails naming the lowest CRF (10) and its VMAF" \
    failed_with high "unreachable: even the lowest CRF, 10 (--crf-min), gives VMAF [0-9]"
check "target 100.5: probed down to CRF 10" test "$(rows high | tail -n 1 | awk '{ print $1 }')" = 10
tool vmaf-target low --target 5 --crf-min 40 --preset veryfast "$T/src.y4m"
check "target 5 in CRF 40..51: fails naming the highest CRF (51) and its VMAF" \
    failed_with low "unreachable: even the highest CRF, 51 (--crf-max), gives VMAF [0-9]"

# --- the same on a Dask cluster (--scheduler local: two CPU workers here) ---
if "$py" -c 'import distributed' 2>/dev/null; then
    tool vmaf-crf-sweep dsweep --crf 23,28,33,38 --preset veryfast --scheduler local "$T/src.y4m"
    check "sweep --scheduler local: the table of the sweep without it" \
        eval 'ok dsweep && [ -n "$(rows dsweep)" ] && [ "$(rows dsweep)" = "$(rows sweep)" ]' || show_err dsweep
    tool vmaf-target dtarget --target "$target" --preset veryfast --scheduler local "$T/src.y4m"
    check "target $target --scheduler local: converges, the chosen VMAF within 0.5, a printed probe" \
        eval 'ok dtarget && chosen_is_probe dtarget' || show_err dtarget
    # Two workers: each round probes two CRFs, the first splitting 10..51 in three.
    check "target --scheduler local: two CRFs a round (the first 23 and 37)" \
        test "$(rows dtarget | head -n 2 | awk '{ printf "%s ", $1 }')" = "23 37 "
    same_rows() { # every probe of dtarget that the sweep measured has the sweep's row
        rows sweep > "$T/sweep.rows"
        rows dtarget | awk 'NR == FNR { r[$1] = $0; next } ($1 in r) && r[$1] != $0 { bad = 1 }
                            END { exit bad }' "$T/sweep.rows" -
    }
    check "target --scheduler local: its probes of the sweep's CRFs give the sweep's rows" same_rows
    tool vmaf-crf-sweep remote --crf 30 --scheduler tcp://127.0.0.1:9 "$T/src.y4m"
    check "sweep --scheduler <address> without --out: fails asking for a folder every worker sees" \
        failed_with remote "needs --out DIR"
else
    fail "no dask.distributed for $py (apt install python3-distributed)"
fi
# A dask.distributed that does not import (a package made for another
# python): the error says so and why, not that none is installed.
mkdir -p "$T/brokendask/distributed"
echo "raise AttributeError('a module of another python')" > "$T/brokendask/distributed/__init__.py"
(PYTHONPATH=$T/brokendask; export PYTHONPATH
 tool vmaf-crf-sweep brokendask --crf 30 --scheduler local "$T/src.y4m")
check "sweep --scheduler with a dask.distributed that does not import: says why" \
    failed_with brokendask "dask.distributed does not import in .*AttributeError: a module of another python"

# --- vmaf-plot --------------------------------------------------------------
l23=$T/sweep/libx264-crf23.json l38=$T/sweep/libx264-crf38.json
plot plot2 "$l23" "$l38" --label "CRF 23" --label "CRF 38" -o "$T/frames.png"
check "plot: two logs give a PNG" eval 'ok plot2 && png_ok "$T/frames.png" 10000'
plot plot3 "$l23" "$l38" --metric vmaf --metric psnr_y -o "$T/frames2.png"
check "plot: two metrics give a taller PNG than one" \
    eval 'ok plot3 && [ "$(png_height "$T/frames2.png")" -gt "$(png_height "$T/frames.png")" ]'
plot badlog "$l23" "$T/notvideo.mkv" -o "$T/bad.png"
check "plot: a file that is not a VMAF log fails clearly, writes no PNG" \
    eval 'failed_with badlog "notvideo.mkv: not a VMAF JSON log" && [ ! -e "$T/bad.png" ]'
plot nometric "$l23" --metric ssim -o "$T/bad.png"
check "plot: a missing metric fails naming the log's metrics" \
    failed_with nometric "has no metric ssim; it has: .*psnr_y.*vmaf"

# --- tools/bench-default.sh ---------------------------------------------------
# Its smallest run here (no GPU: the gpu runs fail and are said so): the
# default's and backend=cpu's runs score, and their logs are compared.
SECTIONS=1 LENGTHS=1 FRAMES=3 BENCH_DIR=$T/bench "$tools/bench-default.sh" "$ff" \
    > "$T/bench.out" 2>&1
check "bench-default: the default and backend=cpu score, their logs the same" \
    grep -q "^1 frames .*default against cpu: same" "$T/bench.out"

[ "$failed" -eq 0 ]
