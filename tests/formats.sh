# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# Semi-planar and high-bit-packed inputs (NV12, P010, ...) score exactly
# as the same pictures in planar YUV: every value of every frame, on the
# backend $FORMATS_BACKEND (cpu by default; gpu on a GPU machine).
#
# The pictures are made once in the planar format and converted to the
# other (a lossless re-arrangement), at odd sizes so that the rounded-up
# chroma of FFmpeg's planes (which ciede reads) is exercised. Subsampled
# P0xx/P2xx get an even width: FFmpeg's conversion to them drops the last
# chroma column of an odd width, so the pictures would differ.

formats_backend=${FORMATS_BACKEND:-cpu}
formats_dir=$build/formats
mkdir -p "$formats_dir"

# score <name> <pixel format> <crop w:h> [<reference's format>]: the JSON
# log of that run, fps removed.
formats_score() {
    name=$1 fmt=$2 crop=$3 rfmt=${4:-$2}
    "$ffmpeg" -hide_banner -nostdin -nostats \
        -f lavfi -i "testsrc2=size=162x92:rate=25:duration=0.2" \
        -lavfi "[0:v]format=$planar,crop=$crop:0:0:exact=1,split[a][b];[a]avgblur=2,noise=alls=8:allf=t,format=$planar,format=$fmt[d];[b]format=$rfmt[r];[d][r]vmaf_hip=backend=$formats_backend:feature=name=psnr|name=ciede|name=float_ssim:log_fmt=json:log_path=$formats_dir/$name.json" \
        -f null - > "$formats_dir/$name.err" 2>&1 || return 1
    grep -v '"fps"' "$formats_dir/$name.json" > "$formats_dir/$name.cmp"
}

while read -r crop planar others; do
    formats_score "$planar" "$planar" "$crop" || { fail "formats: $planar does not run"; continue; }
    for fmt in $others; do
        if ! formats_score "$fmt" "$fmt" "$crop"; then
            fail "formats ($formats_backend): $fmt does not run"
            tail -3 "$formats_dir/$fmt.err"
        elif ! grep -q "distorted: ${crop%:*}x${crop#*:} $fmt; reference (input 1) = reference: ${crop%:*}x${crop#*:} $fmt" \
                  "$formats_dir/$fmt.err"; then
            # FFmpeg would otherwise convert to a planar format on the way in.
            fail "formats ($formats_backend): the filter did not receive $fmt"
        elif ! grep -q '"vmaf"' "$formats_dir/$fmt.cmp"; then
            fail "formats ($formats_backend): $fmt gave no VMAF"
        elif cmp -s "$formats_dir/$planar.cmp" "$formats_dir/$fmt.cmp"; then
            pass "formats ($formats_backend): $fmt scores as $planar"
        else
            fail "formats ($formats_backend): $fmt differs from $planar"
            diff "$formats_dir/$planar.cmp" "$formats_dir/$fmt.cmp" | head -6
        fi
    done
done <<EOF_FORMATS
161:91 yuv420p     nv12 nv21
161:91 yuv422p     nv16
161:91 yuv444p     nv24 nv42
162:91 yuv420p10le p010le
162:91 yuv420p12le p012le
162:91 yuv420p16le p016le
162:91 yuv422p10le p210le
162:91 yuv422p16le p216le
161:91 yuv444p10le p410le
161:91 yuv444p16le p416le
EOF_FORMATS

# The two inputs stored differently (a hardware decoder's NV12 against a
# software decoder's yuv420p): still the planar scores.
while read -r crop planar dfmt rfmt; do
    name=mixed_${dfmt}_$rfmt
    if ! formats_score "$name" "$dfmt" "$crop" "$rfmt"; then
        fail "formats ($formats_backend): $dfmt against $rfmt does not run"
        tail -3 "$formats_dir/$name.err"
    elif ! grep -q "distorted: [0-9x]* $dfmt; reference (input 1) = reference: [0-9x]* $rfmt" \
              "$formats_dir/$name.err"; then
        fail "formats ($formats_backend): the filter did not receive $dfmt and $rfmt"
    elif cmp -s "$formats_dir/$planar.cmp" "$formats_dir/$name.cmp"; then
        pass "formats ($formats_backend): $dfmt against $rfmt scores as $planar"
    else
        fail "formats ($formats_backend): $dfmt against $rfmt differs from $planar"
        diff "$formats_dir/$planar.cmp" "$formats_dir/$name.cmp" | head -6
    fi
done <<EOF_MIXED
161:91 yuv420p     nv12        yuv420p
161:91 yuv420p     yuv420p     nv21
162:91 yuv420p10le p010le      yuv420p10le
161:91 yuv444p16le yuv444p16le p416le
EOF_MIXED
