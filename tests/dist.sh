#!/bin/sh
# The archive and the Debian package on clean machines: minimal Debian roots
# (debootstrap --variant=minbase of bookworm and trixie), none of the
# build's packages in them, where ffmpeg scores the clips of tests/data on
# the CPU; every frame's and every pooled value must be the build tree's.
#
# Usage: tests/dist.sh <build-dir> <archive> <deb>...
#        e.g. tests/dist.sh build build/dist/vmaf-hip-*.tar.xz build/dist/vmaf-hip_*.deb
#
# make dist-check runs it on this machine's archive and package; give the
# package made on another Debian release too (make deb there) to check it
# in its own release's root.
#
# Per suite, in a fresh copy of its root each time:
#  - archive: unpacked (by this machine's tar, the root has no xz) into a
#    folder with a space in its name; every library ffmpeg and ffprobe load
#    is glibc's, libstdc++/libgcc_s or the archive's own lib/; the scoring
#    examples (ffmpeg, ffprobe) against the build tree's runs; each bundled
#    encoder encodes and its encode is scored as on the build tree; then,
#    with python3 installed, the archive's vmaf-crf-sweep, as on the build
#    tree.
#  - each package: on the Debian release it was built for, `apt-get
#    install ./x.deb` resolves its dependencies from the archive, the
#    examples (vmaf-hip-ffmpeg, vmaf-hip-ffprobe) give the build tree's
#    values, and vmaf-crf-sweep too (only a row for another release's
#    package: its encoder is another), no file of it is one of Debian's
#    ffmpeg package, and `apt-get remove --purge` leaves none of its
#    files. On another release apt must refuse it (its libraries are the
#    other release's) and leave the root as it was.
# One PASS or FAIL line per check and the time of each step; the last line
# reads "N passed, N failed" and the exit status is 1 when a check failed.
#
# Environment: DIST_ROOTS, where the roots are kept (default .cache/roots
# of the repository; made once by tools/debian-root.sh, about a minute
# each, then reused); DIST_SUITES, the suites (default "bookworm trixie").
# The copies are made in <build-dir>/dist-check and removed when all their
# checks passed; the runs' messages stay in <build-dir>/dist-check/logs.
# Needs root (chroot), debootstrap and the machine's Debian archive.
set -u

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/../tools/script-args.sh"
no_options "$@"
[ $# -ge 3 ] || usage "at least three arguments expected"
[ -d "$1" ] || usage "no build directory '$1'"
[ -f "$2" ] || usage "no archive '$2'"

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
archive=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
debs=
for deb; do
    [ -f "$deb" ] || usage "no package '$deb'"
    case $deb in *+deb[0-9]*_*.deb) ;; *) usage "'$deb' is not named as make deb names it (+deb<N>)" ;; esac
    debs="$debs $(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
done
# pass, fail, count_results; passed=0, failed=0.
. "$top/tests/lib.sh"

[ "$(id -u)" = 0 ] || { echo "dist: needs root (chroot)"; fail "dist: not run as root"; echo "$passed passed, $failed failed"; exit 1; }
roots=${DIST_ROOTS:-$top/.cache/roots}
suites=${DIST_SUITES:-bookworm trixie}
work=$build/dist-check
# A run killed before its end may have left a root's /proc mounted.
awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | while read -r m; do umount "$m"; done
rm -rf "$work"
mkdir -p "$work/data" "$work/ref"
ffmpeg=$build/ffmpeg
ffprobe=$build/ffprobe
now() { date +%s; }
took() { echo "  ($1: $(( $(now) - $2 )) s)"; }

# ---- the inputs, and the build tree's runs of every example ----

data=$top/tests/data
raw420="-f rawvideo -pixel_format yuv420p -video_size 576x324 -framerate 25"
raw444="-f rawvideo -pixel_format yuv444p -video_size 481x321 -framerate 25"
cp "$data/src01_hrc01_576x324_3f.yuv" "$work/data/dis.yuv"
cp "$data/src01_hrc00_576x324_3f.yuv" "$work/data/ref.yuv"
cp "$data/test_image_100007_noisy_481x321_444.yuv" "$work/data/dis444.yuv"
cp "$data/test_image_100007_481x321_444.yuv" "$work/data/ref444.yuv"
for c in dis ref; do
    "$ffmpeg" -hide_banner -nostdin -v error $raw420 -i "$work/data/$c.yuv" -pix_fmt yuv420p \
        "$work/data/$c.y4m" || fail "dist: making $c.y4m"
done
encoders=$("$ffmpeg" -hide_banner -encoders 2>/dev/null | awk '{ print $2 }' |
           grep -x -E 'libx264|libx265|libsvtav1|libaom-av1|libvpx-vp9' | tr '\n' ' ')

# run_examples <runner> <ffmpeg> <ffprobe> <data-dir> <out-dir> [<tag>]: the
# scoring examples; <runner> is "" on this machine, "chroot <root>" in a
# root, where the paths are the root's. Outputs under <out-dir> (as the
# runner sees it): 420.json, 444.json, probe.csv, enc-<encoder>.json and
# each run's messages in .log.
run_examples() {
    rx=$1 f=$2 p=$3 d=$4 o=$5
    $rx "$f" -hide_banner -nostdin -nostats $raw420 -i "$d/dis.yuv" $raw420 -i "$d/ref.yuv" \
        -lavfi "vmaf_hip=backend=cpu:feature=name=psnr|name=float_ssim|name=float_ms_ssim|name=cambi:log_fmt=json:log_path=$o/420.json" \
        -f null - > "$out/420.log" 2>&1
    echo $? > "$out/420.rc"
    $rx "$f" -hide_banner -nostdin -nostats $raw444 -i "$d/dis444.yuv" $raw444 -i "$d/ref444.yuv" \
        -lavfi "vmaf_hip=backend=cpu:model=version=vmaf_v0.6.1neg:feature=name=ciede|name=psnr_hvs:log_fmt=json:log_path=$o/444.json" \
        -f null - > "$out/444.log" 2>&1
    echo $? > "$out/444.rc"
    $rx "$p" -hide_banner -v error -f lavfi -show_entries frame_tags -of csv \
        "movie=$d/dis.y4m[d];movie=$d/ref.y4m[r];[d][r]vmaf_hip=backend=cpu" > "$out/probe.csv" 2> "$out/probe.log"
    echo $? > "$out/probe.rc"
    [ -n "${6:-}" ] || return 0
    for e in $encoders; do
        # One thread: the same bits on every run.
        $rx "$f" -hide_banner -nostdin -v error -y -i "$d/dis.y4m" -threads 1 -c:v "$e" \
            $(case $e in libaom-av1|libvpx-vp9) echo -cpu-used 8 -b:v 0 -crf 40 ;;
                         libsvtav1) echo -preset 12 -crf 40 ;;
                         libx265) echo -preset ultrafast -crf 35 -x265-params log-level=error:pools=1:frame-threads=1 ;;
                         *) echo -preset ultrafast -crf 35 ;; esac) \
            "$o/enc-$e.mkv" > "$out/enc-$e.log" 2>&1 &&
        $rx "$f" -hide_banner -nostdin -nostats -i "$o/enc-$e.mkv" -i "$d/ref.y4m" \
            -lavfi "[0:v]settb=1,setpts=N[d];[1:v]settb=1,setpts=N[r];[d][r]vmaf_hip=backend=cpu:log_fmt=json:log_path=$o/enc-$e.json" \
            -f null - >> "$out/enc-$e.log" 2>&1
        echo $? > "$out/enc-$e.rc"
    done
}

out=$work/ref
run_examples "" "$ffmpeg" "$ffprobe" "$work/data" "$work/ref" enc
for r in 420 444 probe; do
    [ "$(cat "$out/$r.rc")" = 0 ] || { fail "dist: the build tree's $r run fails"; tail -3 "$out/$r.log"; }
done
# The whole run that the archive's chunks, merged, must give.
"$ffmpeg" -hide_banner -nostdin -v error -i "$work/data/dis.y4m" -i "$work/data/ref.y4m" \
    -lavfi "vmaf_hip=backend=cpu:log_fmt=json:log_path=$work/ref/whole.json" -f null - ||
    fail "dist: the build tree's whole run fails"

# same_values <name> <ours> <reference>: identical but for the fps line;
# says how many values that is.
same_values() {
    grep -v '"fps"' "$3" > "$3.nofps"
    if [ ! -s "$2" ]; then
        fail "$1: no output"
    elif grep -v '"fps"' "$2" | cmp -s - "$3.nofps"; then
        case $2 in
        *.json) n=$(grep -c -E '": -?[0-9]' "$3.nofps") ;;
        *)      n=$(tr ',' '\n' < "$3" | grep -c -E '^-?[0-9.]+$') ;;
        esac
        pass "$1: the build tree's $n values"
    else
        fail "$1: values differ from the build tree's"
        diff "$2" "$3" | head -6
    fi
}

# libs_from <name> <root> <binary> <allowed-dir>: every library the binary
# loads in the root is found, and is either the system's glibc, libstdc++
# or libgcc_s, or in <allowed-dir> ("": any of the root's own).
libs_from() {
    chroot "$2" /lib64/ld-linux-x86-64.so.2 --list "$3" > "$out/ldd.txt" 2>&1 ||
        { fail "$1: the dynamic loader cannot list its libraries"; head -3 "$out/ldd.txt"; return; }
    # "name => path (address)", the path possibly with spaces.
    sed -n 's/^[[:space:]]*\([^[:space:]]*\) => \(.*\) (0x[0-9a-f]*)$/\1|\2/p; s/^[[:space:]]*\([^[:space:]]*\) => not found$/\1|not found/p' \
        "$out/ldd.txt" > "$out/libs.txt"
    bad=
    while IFS='|' read -r so path; do
        case $so:$path in
        *:"not found") bad="$bad $so not found;" ;;
        libc.so*:/*|libm.so*:/*|libdl.so*:/*|libpthread.so*:/*|librt.so*:/*|libmvec.so*:/*|libstdc++.so*:/*|libgcc_s.so*:/*)
            case $path in /lib/*|/usr/lib/*|/lib64/*) ;; *) bad="$bad $so at $path;" ;; esac ;;
        *)  if [ -n "$4" ]; then
                case $path in "$4"*) ;; *) bad="$bad $so at $path;" ;; esac
            else
                case $path in /lib/*|/usr/lib/*) ;; *) bad="$bad $so at $path;" ;; esac
            fi ;;
        esac
    done < "$out/libs.txt"
    n=$(wc -l < "$out/libs.txt")
    if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
        if [ -n "$4" ]; then
            pass "$1: its $n libraries found, every one beyond glibc, libstdc++ and libgcc_s in its lib/"
        else
            pass "$1: its $n libraries found, all the system's"
        fi
    else
        fail "$1:${bad:- no library listed}"
    fi
}

# A root's /proc: the dynamic loader finds $ORIGIN of a program through
# /proc/self/exe, as on any running system. Unmounted at the end, whatever
# happens, before a copy is removed.
mounted=
mount_proc() {
    mount -t proc proc "$1/proc" && mounted="$mounted $1/proc"
}
unmount_all() {
    for m in $mounted; do umount "$m" 2>/dev/null; done
    mounted=
}
trap unmount_all EXIT
trap 'unmount_all; exit 1' INT TERM HUP

# fresh <suite> <name>: a copy of the suite's root, its path printed.
fresh() {
    rm -rf "$work/$1-$2"
    cp -a "$roots/$1" "$work/$1-$2"
    cp /etc/resolv.conf "$work/$1-$2/etc/resolv.conf" 2>/dev/null
    mkdir -p "$work/$1-$2/tmp/dist/data" "$work/$1-$2/tmp/dist/out"
    cp "$work"/data/* "$work/$1-$2/tmp/dist/data/"
    echo "$work/$1-$2"
}
in_root() { # root command args...: in the root, with an environment of its own
    ir=$1; shift
    chroot "$ir" env -i PATH=/usr/bin:/bin HOME=/root LC_ALL=C "$@"
}
apt_in() { # root args...: apt-get in the root, its output in $out/apt.log
    ar=$1; shift
    chroot "$ar" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C \
        DEBIAN_FRONTEND=noninteractive apt-get -y -q "$@" > "$out/apt.log" 2>&1
}

# check_build_info <name> <BUILD-INFO>: the GPU code it names is the build
# tree's, its targets at least (the compilers' versions may be another
# release's), and it counts one AMD bundle and one NVIDIA fatbin per
# kernel file of each vendor built.
kernels=$(ls "$build"/src/libavfilter/vmaf/gpu/*.hip "$build"/src/libavfilter/vmaf/features/gpu/*.hip | wc -l)
gpu_targets() { sed -n 's/^GPU code: //p' | sed 's/ ([^)]*)//g'; }
want_targets=$(echo "GPU code: $(config_mak VMAF_HIP_GPU_CODE)" | gpu_targets)
want_amd=0 want_nv=0
[ "$(config_mak CONFIG_HIP_AMD)" = yes ] && want_amd=$kernels
[ "$(config_mak CONFIG_HIP_NV)" = yes ] && want_nv=$kernels
check_build_info() {
    got=$(gpu_targets < "$2")
    counts=$(sed -n 's/^  in the binary: \([0-9]*\) AMD offload bundles, \([0-9]*\) NVIDIA fatbins.*/\1 \2/p' "$2")
    if [ -n "$got" ] && [ "$got" = "$want_targets" ] && [ "$counts" = "$want_amd $want_nv" ]; then
        pass "$1: BUILD-INFO names the build tree's GPU code and counts $want_amd AMD bundles, $want_nv fatbins"
    else
        fail "$1: BUILD-INFO's GPU code '$got' ($counts), the build tree's '$want_targets' ($want_amd $want_nv)"
    fi
}

# check_examples <suite/what> <root>: the runs' outputs against the reference.
check_examples() {
    for r in 420 444; do
        if [ "$(cat "$out/$r.rc")" = 0 ]; then
            same_values "$1: $r scoring, frames and pooled" "$2/tmp/dist/out/$r.json" "$work/ref/$r.json"
        else
            fail "$1: $r scoring fails"; tail -3 "$out/$r.log"
        fi
    done
    if [ "$(cat "$out/probe.rc")" = 0 ]; then
        same_values "$1: ffprobe, per-frame tags" "$out/probe.csv" "$work/ref/probe.csv"
    else
        fail "$1: ffprobe fails"; tail -3 "$out/probe.log"
    fi
}

# sweep <command...>: vmaf-crf-sweep (the command that runs it, and the
# source) at one CRF, with the first encoder this ffmpeg has (x264 unless
# LGPL=1); its table row.
sweep_enc=$(for e in libx264 libsvtav1 libvpx-vp9 libaom-av1 libx265; do
                case " $encoders " in *" $e "*) echo "$e"; break ;; esac
            done)
case $sweep_enc in
libx264|libx265) sweep_preset=ultrafast ;;
libsvtav1)       sweep_preset=12 ;;
*)               sweep_preset=8 ;;
esac
sweep() {
    "$@" --encoder "$sweep_enc" --preset "$sweep_preset" --crf 35 2>&1 | awk 'NF == 5 && $1 == 35'
}
# check_sweep <name> <command...>: its row is the build tree's.
check_sweep() {
    cs_name=$1; shift
    if [ -z "$sweep_enc" ]; then
        echo "$cs_name: vmaf-crf-sweep: skipped: this ffmpeg has none of the tools' encoders"
        return
    fi
    row=$(sweep "$@")
    if [ -n "$row" ] && [ "$row" = "$ref_sweep" ]; then
        pass "$cs_name: vmaf-crf-sweep ($sweep_enc), the build tree's row: $(echo $row)"
    else
        fail "$cs_name: vmaf-crf-sweep gives '$row', the build tree '$ref_sweep'"
    fi
}
ref_sweep=
if [ -n "$sweep_enc" ]; then
    ref_sweep=$(sweep /usr/bin/python3 "$top/tools/vmaf-crf-sweep" --ffmpeg "$ffmpeg" "$work/data/dis.y4m")
    [ -n "$ref_sweep" ] || fail "dist: the build tree's vmaf-crf-sweep gives no row"
fi

# check_package <suite> <release> <deb>: a fresh root of the suite (Debian
# <release>) and the package.
check_package() {
    cp_suite=$1 cp_release=$2 cp_deb=$3
    deb_release=$(echo "$cp_deb" | sed -n 's/.*+deb\([0-9]*\)_[a-z0-9]*\.deb$/\1/p')
    deb_files=$(dpkg-deb -c "$cp_deb" | awk '$1 !~ /^d/ { print substr($6, 2) }')
    name="$cp_suite: package +deb$deb_release"
    t=$(now)
    unmount_all
    root=$(fresh "$cp_suite" "deb$deb_release")
    mount_proc "$root" || fail "$cp_suite: cannot mount /proc in the root"
    out=$work/logs/$cp_suite-deb$deb_release
    mkdir -p "$out"
    cp "$cp_deb" "$root/tmp/dist/"
    d=/tmp/dist/$(basename "$cp_deb")
    if [ "$cp_release" != "$deb_release" ]; then
        if apt_in "$root" install --no-install-recommends "$d"; then
            fail "$name: the Debian $deb_release package installs on Debian $cp_release"
        elif grep -q 'unmet dependencies' "$out/apt.log" && ! chroot "$root" dpkg -s vmaf-hip >/dev/null 2>&1; then
            pass "$name: refused, the root unchanged ($(grep -c 'but it is not installable' "$out/apt.log") of its libraries are not Debian $cp_release's)"
        else
            fail "$name: apt-get fails otherwise than by its dependencies"; tail -5 "$out/apt.log"
        fi
        took "package refused" "$t"
        unmount_all
        return
    fi
    if ! apt_in "$root" install --no-install-recommends "$d"; then
        fail "$name: apt-get install fails"; tail -5 "$out/apt.log"
        unmount_all
        return
    fi
    pass "$name: installed, with $(grep -c '^Unpacking' "$out/apt.log") packages from the archive (its dependencies)"
    took "apt-get install" "$t"
    t=$(now)
    libs_from "$name: ffmpeg" "$root" /opt/vmaf-hip/bin/ffmpeg ""
    check_build_info "$name" "$root/usr/share/doc/vmaf-hip/BUILD-INFO"
    run_examples "in_root $root" /usr/bin/vmaf-hip-ffmpeg /usr/bin/vmaf-hip-ffprobe /tmp/dist/data /tmp/dist/out
    check_examples "$name" "$root"
    if [ "$deb_release" = "$this_release" ]; then
        check_sweep "$name" in_root "$root" /usr/bin/vmaf-crf-sweep /tmp/dist/data/dis.y4m
    elif [ -n "$sweep_enc" ]; then
        # Another release's encoder: its own bits, so only a row.
        row=$(sweep in_root "$root" /usr/bin/vmaf-crf-sweep /tmp/dist/data/dis.y4m)
        [ -n "$row" ] && pass "$name: vmaf-crf-sweep ($sweep_enc of Debian $deb_release): $(echo $row)" ||
            fail "$name: vmaf-crf-sweep gives no row"
    fi
    # Beside Debian's ffmpeg: its own prefix and command names, and no file
    # of Debian's ffmpeg package.
    outside=$(echo "$deb_files" | grep -v -E '^/opt/vmaf-hip/|^/usr/share/doc/vmaf-hip/|^/usr/bin/(vmaf-hip-ffmpeg|vmaf-hip-ffprobe|vmaf-crf-sweep|vmaf-target|vmaf-plot|vmaf-cluster|vmaf-merge)$')
    [ -z "$outside" ] && pass "$name: its $(echo "$deb_files" | wc -l) files in /opt/vmaf-hip, /usr/share/doc/vmaf-hip and seven commands of its own" ||
        fail "$name: files outside its places: $outside"
    if chroot "$root" sh -c 'cd /tmp/dist && apt-get download -q ffmpeg' > "$out/download.log" 2>&1; then
        common=$(dpkg-deb -c "$root"/tmp/dist/ffmpeg_*.deb | awk '$1 !~ /^d/ { print substr($6, 2) }' |
                 grep -x -F "$deb_files")
        [ -z "$common" ] && pass "$name: no file in common with Debian's ffmpeg package ($(basename "$root"/tmp/dist/ffmpeg_*.deb))" ||
            fail "$name: files Debian's ffmpeg has too: $common"
    else
        fail "$name: apt-get download ffmpeg fails"; tail -3 "$out/download.log"
    fi
    took "package checks" "$t"
    t=$(now)
    if apt_in "$root" remove --purge vmaf-hip; then
        left=$(for f in $deb_files /opt/vmaf-hip /usr/share/doc/vmaf-hip; do
                   [ -e "$root$f" ] || [ -L "$root$f" ] && echo "$f"
               done)
        if chroot "$root" dpkg -s vmaf-hip >/dev/null 2>&1; then
            fail "$name: still known to dpkg after remove --purge"
        elif [ -n "$left" ]; then
            fail "$name: remove --purge leaves $(echo "$left" | tr '\n' ' ')"
        else
            pass "$name: removed with --purge, none of its files left"
        fi
    else
        fail "$name: apt-get remove --purge fails"; tail -3 "$out/apt.log"
    fi
    took "remove" "$t"
    unmount_all
}

this_release=$(cut -d. -f1 /etc/debian_version 2>/dev/null)
for suite in $suites; do
    echo "== $suite"
    t=$(now)
    msg=$(sh "$top/tools/debian-root.sh" "$suite" "$roots/$suite") ||
        { fail "$suite: no root (tools/debian-root.sh)"; continue; }
    echo "  $msg"
    release=$(cut -d. -f1 "$roots/$suite/etc/debian_version")
    failed_before=$failed

    # ---- the archive ----
    t=$(now)
    root=$(fresh "$suite" archive)
    mount_proc "$root" || fail "$suite: cannot mount /proc in the root"
    out=$work/logs/$suite-archive
    mkdir -p "$out"
    dir="/opt/unpacked here"
    mkdir -p "$root$dir"
    tar xf "$archive" -C "$root$dir"
    top_dir=$(tar tf "$archive" | head -n1 | cut -d/ -f1)
    a="$dir/$top_dir"
    took "copy and unpack" "$t"
    t=$(now)
    libs_from "$suite: archive: ffmpeg" "$root" "$a/bin/ffmpeg" "$a/bin/../lib/"
    libs_from "$suite: archive: ffprobe" "$root" "$a/bin/ffprobe" "$a/bin/../lib/"
    check_build_info "$suite: archive" "$root$a/BUILD-INFO"
    run_examples "in_root $root" "$a/bin/ffmpeg" "$a/bin/ffprobe" /tmp/dist/data /tmp/dist/out enc
    check_examples "$suite: archive" "$root"
    for e in $encoders; do
        if [ "$(cat "$out/enc-$e.rc")" = 0 ]; then
            same_values "$suite: archive: $e encode, scored" "$root/tmp/dist/out/enc-$e.json" "$work/ref/enc-$e.json"
        else
            fail "$suite: archive: $e encode or its scoring fails"; tail -3 "$out/enc-$e.log"
        fi
    done
    took "archive checks" "$t"
    t=$(now)
    if apt_in "$root" install --no-install-recommends python3; then
        check_sweep "$suite: archive (python3 $(chroot "$root" python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'))" \
            in_root "$root" "$a/bin/vmaf-crf-sweep" /tmp/dist/data/dis.y4m
        # A pair in one-frame chunks, with the archive's ffmpeg, ffprobe
        # and vmaf-merge, merged: the whole run's log.
        if in_root "$root" python3 "$a/bin/vmaf_chunks.py" run --chunk-frames 1 --options backend=cpu \
               --log-fmt json --log-path /tmp/dist/out/chunks.json \
               /tmp/dist/data/dis.y4m /tmp/dist/data/ref.y4m > "$out/chunks.log" 2>&1; then
            same_values "$suite: archive: vmaf_chunks.py and vmaf-merge, one-frame chunks merged" \
                "$root/tmp/dist/out/chunks.json" "$work/ref/whole.json"
        else
            fail "$suite: archive: vmaf_chunks.py run fails"; tail -3 "$out/chunks.log"
        fi
    else
        fail "$suite: archive: apt-get install python3 fails"; tail -3 "$out/apt.log"
    fi
    took "python3 and the tool" "$t"
    unmount_all

    # ---- the packages ----
    for deb in $debs; do
        check_package "$suite" "$release" "$deb"
    done
    # The copies stay for a look when something failed.
    [ "$failed" = "$failed_before" ] && rm -rf "$work/$suite-archive" "$work/$suite"-deb*
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
