#!/bin/sh
# Package a build: a relocatable archive, or a Debian package.
#
# Usage: tools/dist.sh archive <build-dir> <out-dir>
#        tools/dist.sh deb <build-dir> <out-dir>
#        tools/dist.sh name archive|deb
#        tools/dist.sh version
#
# archive: <out-dir>/vmaf-hip-<version>-linux-x86_64.tar.xz, to unpack
# anywhere: bin/ (ffmpeg, ffprobe, the tuning tools), lib/ (the shared
# libraries the binaries need beyond glibc, libstdc++ and libgcc_s, found
# through a run path relative to the binary, $ORIGIN/../lib), models/,
# README.md, LICENSE (the licence of the whole, GPL or LGPL as the build's
# configure made it, and of each part), BUILD-INFO (version, configure line,
# the oldest glibc it runs on, the GPU code inside) and licenses/ (the
# texts: FFmpeg's, the models', each bundled library's Debian copyright).
# deb: <out-dir>/vmaf-hip_<version>+deb<N>_amd64.deb for the Debian release
# N this machine runs: the same binaries in /opt/vmaf-hip, vmaf-hip-ffmpeg
# and vmaf-hip-ffprobe in /usr/bin, depending (dpkg-shlibdeps) on that
# release's own libraries instead of carrying them. Neither carries a GPU
# runtime: libcuda and libamdhip64 are the machine's, loaded at run time.
# name: the file either would make; version: the version, from VERSION
# (+git<commits>.<hash> when HEAD is not tagged v<VERSION>, .dirty with
# uncommitted changes). The Makefile runs it (make dist, make deb).
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -ge 1 ] || usage "no mode given"
case $1 in
archive|deb) [ $# -eq 3 ] || usage "$1: two arguments expected" ;;
name)        [ $# -eq 2 ] || usage "name: one argument expected"
             case $2 in archive|deb) ;; *) usage "name: archive or deb, not '$2'" ;; esac ;;
version)     [ $# -eq 1 ] || usage "version: no arguments expected" ;;
*)           usage "unknown mode '$1'" ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "dist: $*" >&2; exit 1; }

version() {
    v=$(cat "$top/VERSION")
    if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        if [ "$(git -C "$top" tag --points-at HEAD 2>/dev/null | grep -x "v$v")" != "v$v" ]; then
            v="$v+git$(git -C "$top" rev-list --count HEAD).$(git -C "$top" rev-parse --short=7 HEAD)"
        fi
        git -C "$top" diff --quiet HEAD -- 2>/dev/null || v="$v.dirty"
    fi
    echo "$v"
}

# The Debian release this machine runs (12, 13), for the package's version.
debian_release() {
    r=$(. /etc/os-release 2>/dev/null && echo "${VERSION_ID:-}")
    [ -n "$r" ] || r=$(cut -d. -f1 /etc/debian_version 2>/dev/null)
    case $r in [0-9]*) echo "$r" ;; *) echo unstable ;; esac
}

file_name() { # archive|deb
    case $1 in
    archive) echo "vmaf-hip-$(version)-linux-x86_64.tar.xz" ;;
    deb)     echo "vmaf-hip_$(version)+deb$(debian_release)_amd64.deb" ;;
    esac
}

case $1 in
version) version; exit 0 ;;
name)    file_name "$2"; exit 0 ;;
esac

mode=$1
mkdir -p "$3"
build=$(cd "$2" && pwd)
out=$(cd "$3" && pwd)
config=$build/obj/ffbuild/config.mak
[ -x "$build/ffmpeg" ] && [ -x "$build/ffprobe" ] && [ -f "$config" ] ||
    fail "no built ffmpeg and ffprobe in $build (run make first)."
cfg() { grep -q "^CONFIG_$1=yes" "$config"; }

# ---- tools this needs: installed once as root, named otherwise ----

need=
for t in objdump:binutils xz:xz-utils dpkg-query:dpkg; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need="$need ${t#*:}"
done
[ "$mode" = archive ] && ! command -v patchelf >/dev/null 2>&1 && need="$need patchelf"
[ "$mode" = deb ] && ! command -v dpkg-shlibdeps >/dev/null 2>&1 && need="$need dpkg-dev"
if [ -n "$need" ]; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
        fail "missing:$need; install them first (apt-get install$need)."
    echo "dist: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq $need >/dev/null || fail "apt-get install$need failed."
fi

# ---- what the build is ----

cfg NONFREE && fail "this build has nonfree parts (--enable-nonfree): it may not be distributed."
if cfg GPL; then licence=GPL; else licence=LGPL; fi
if cfg VERSION3; then
    [ $licence = GPL ] && spdx=GPL-3.0-or-later || spdx=LGPL-3.0-or-later
else
    [ $licence = GPL ] && spdx=GPL-2.0-or-later || spdx=LGPL-2.1-or-later
fi
ver=$(version)
ffver=$(cat "$build/src/VERSION" 2>/dev/null || sed -n 's/^#define FFMPEG_VERSION "\(.*\)"/\1/p' "$build/obj/libavutil/ffversion.h")
commit=$(git -C "$top" rev-parse HEAD 2>/dev/null || echo unknown)
epoch=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
configure_line=$(sed -n 's/^#define FFMPEG_CONFIGURATION "\(.*\)"$/\1/p' "$build/obj/config.h")

# ---- the files both carry ----

# stage_common <dir>: bin/ (binaries, tools), models/.
stage_common() {
    mkdir -p "$1/bin" "$1/models"
    cp "$build/obj/ffmpeg" "$build/obj/ffprobe" "$1/bin/"
    chmod 755 "$1/bin/ffmpeg" "$1/bin/ffprobe"
    install -m 755 "$build/vmaf-merge" "$1/bin/vmaf-merge"
    for t in vmaf-crf-sweep vmaf-target vmaf-plot vmaf-cluster; do
        install -m 755 "$top/tools/$t" "$1/bin/$t"
    done
    for t in vmaf_tune.py vmaf_chunks.py vmaf_cluster.py; do
        install -m 644 "$top/tools/$t" "$1/bin/$t"
    done
    install -m 644 "$top"/models/*.json "$top/models/LICENSE" "$1/models/"
}

# The highest version of a kind (GLIBC, GLIBCXX, CXXABI, GCC) the ELF files
# ask for.
max_symver() {
    k=$1; shift
    for f; do objdump -T "$f" 2>/dev/null; done |
        grep -o "($k"'_[0-9][0-9.]*)' | tr -d '()' | sed "s/^${k}_//" | sort -uV | tail -n1
}

# The GPU code inside a binary: what configure embedded (the make summary's
# line), and each kernel file's AMD offload bundles and NVIDIA fatbins (magic
# 0xba55ed50) counted in the binary itself.
gpu_code() {
    # A bundle's magic is followed by its entry count (never 0); the
    # runtime's own copy of the string, by its terminating NUL.
    amd=$(LC_ALL=C grep -a -o -P '__CLANG_OFFLOAD_BUNDLE__[\x01-\xff]' "$1" | wc -l)
    nv=$(LC_ALL=C grep -a -o -P '\x50\xed\x55\xba' "$1" | wc -l)
    echo "GPU code: $(sed -n 's/^VMAF_HIP_GPU_CODE=//p' "$config")"
    echo "  in the binary: $amd AMD offload bundles, $nv NVIDIA fatbins (one per kernel file and vendor)"
}

# BUILD-INFO: what the build is; $1 the ffmpeg binary, $2 a file saying
# what it runs on.
build_info() {
    echo "vmaf-hip $ver"
    echo "Commit: $commit"
    echo "FFmpeg: $ffver"
    echo "Configure: $configure_line"
    echo "Licence: $spdx"
    echo "Built on: $(. /etc/os-release && echo "$PRETTY_NAME"), $(${CC:-gcc} --version | head -n1)"
    cat "$2"
    echo "GPU runtime: the machine's, loaded at run time (NVIDIA: libcuda.so.1 of the"
    echo "  driver; AMD: libamdhip64.so of ROCm); none is carried."
    gpu_code "$1"
}

# The licence statement of this project and FFmpeg, for LICENSE and the
# package's copyright file; $1 is where the texts are, $2 the notices of
# compiled_in_notices.
licence_text() {
    case $spdx in
    GPL-2*)  l="GNU General Public License, version 2 or (at your option) any later version" ;;
    GPL-3*)  l="GNU General Public License, version 3 or (at your option) any later version" ;;
    LGPL-2*) l="GNU Lesser General Public License, version 2.1 or (at your option) any later version" ;;
    LGPL-3*) l="GNU Lesser General Public License, version 3 or (at your option) any later version" ;;
    esac
    if [ $licence = GPL ]; then
        why="This build links GPL libraries (configure: --enable-gpl), so ffmpeg and ffprobe as a whole are under the $l."
    else
        why="This build links no GPL library (no --enable-gpl), so ffmpeg and ffprobe are under the $l."
    fi
    cat <<EOF
vmaf-hip $ver: FFmpeg $ffver with the vmaf_hip filter.

The whole: $spdx.
EOF
    echo "$why" | fold -s -w 76 | sed 's/ *$//'
    cat <<EOF

Parts:
- FFmpeg: LGPL-2.1-or-later, its GPL parts GPL-2.0-or-later
  ($1/FFmpeg: LICENSE.md and the COPYING files).
- The vmaf_hip filter and engine: LGPL-2.1-or-later, as FFmpeg
  ($1/FFmpeg/COPYING.LGPLv2.1).
- The tools (bin/vmaf-crf-sweep, vmaf-target, vmaf-plot, vmaf-cluster,
  vmaf-merge and the Python modules beside them): LGPL-2.1-or-later, as
  the filter.
- The VMAF models (models/, also built into ffmpeg): Netflix's,
  BSD-2-Clause-Patent ($1/models/LICENSE).
EOF
    [ -z "$2" ] || echo "$2"
    cat <<EOF

The corresponding source: FFmpeg $ffver's release tarball (ffmpeg.org, or
Debian's ffmpeg source package, whose orig tarball it is) and this
project's repository at commit $commit
(make builds it); Debian's libraries' source is Debian's source package of
the version named (apt-get source <package>=<version>).
EOF
}

# Notices of code compiled into the binaries from outside FFmpeg: the
# ffnvcodec headers (MIT, CUDA and NVDEC loading) and ROCm's device
# libraries (NCSA, linked into the AMD code objects). Copies them into $1
# and names them on stdout.
compiled_in_notices() {
    if cfg FFNVCODEC; then
        h=$build/ffnvcodec/include/ffnvcodec/dynlink_loader.h
        [ -f "$h" ] || h=$(pkg-config --variable=includedir ffnvcodec 2>/dev/null)/ffnvcodec/dynlink_loader.h
        [ -f "$h" ] || h=/usr/include/ffnvcodec/dynlink_loader.h
        [ -f "$h" ] || fail "the build uses ffnvcodec, but its headers (for their licence) are not found."
        mkdir -p "$1/nv-codec-headers"
        awk 'NR == 1, /\*\// { sub(/^ ?\/?\* ?/, ""); sub(/\*\/$/, ""); print }' "$h" > "$1/nv-codec-headers/LICENSE"
        echo "- nv-codec-headers (compiled in: CUDA and NVDEC loading): MIT"
        echo "  (licenses/nv-codec-headers/LICENSE)."
    fi
    if cfg HIP_AMD; then
        # rocm-device-libs on Debian 12, rocm-device-libs-17 on 13.
        p=$(dpkg -S '*/amdgcn/bitcode/ocml.bc' 2>/dev/null | sed -n '1s/^\([^:,]*\).*/\1/p')
        c=/usr/share/doc/${p:-rocm-device-libs}/copyright
        [ -f "$c" ] || fail "the build has AMD GPU code, but $c (ROCm device libraries' licence) is missing."
        mkdir -p "$1/$p"
        cp "$c" "$1/$p/copyright"
        echo "- ROCm device libraries (compiled into the AMD GPU code): NCSA"
        echo "  (licenses/$p/copyright)."
    fi
}

# ---- archive ----

# The shared libraries the binaries need, one "soname path" a line, but
# glibc's, libstdc++ and libgcc_s: those are the system's (every Linux
# system has them, and the GPU runtimes loaded later link the system's
# libstdc++, which must be the only one in the process).
bundled_libs() {
    for b; do ldd "$b"; done | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
    while read -r so path; do
        system_lib "$so" || echo "$so $path"
    done
}

# glibc's libraries, libstdc++ and libgcc_s: the system's.
system_lib() {
    case $1 in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|libutil.so.*|\
    ld-linux*|libmvec.so.*|libstdc++.so.*|libgcc_s.so.*) return 0 ;;
    esac
    return 1
}

# The Debian package that has a library: "name version".
lib_package() {
    p=$(dpkg -S "*/${1##*/}" 2>/dev/null | sed -n "1s/^\([^:,]*\)\(:[a-z0-9]*\)\?[:,].*/\1/p")
    [ -n "$p" ] || return 1
    echo "$p $(dpkg-query -W -f '${Version}' "$p" 2>/dev/null | head -n1)"
}

make_archive() {
    name=$(file_name archive)
    root=${name%.tar.xz}
    stage=$out/stage-archive
    rm -rf "$stage"
    d=$stage/$root
    stage_common "$d"
    mkdir -p "$d/lib" "$d/licenses/FFmpeg"

    # lib/: the libraries, each under its soname, with a run path of its
    # own ($ORIGIN) for the libraries it needs in turn.
    bundled_libs "$d/bin/ffmpeg" "$d/bin/ffprobe" > "$stage/libs"
    libs_text=
    while read -r so path; do
        cp -L "$path" "$d/lib/$so"
        chmod 644 "$d/lib/$so"
        pv=$(lib_package "$path") || fail "$path belongs to no Debian package: cannot find its licence."
        pkg=${pv%% *}
        c=/usr/share/doc/$pkg/copyright
        [ -f "$c" ] || fail "$c is missing: cannot ship $so without its licence."
        mkdir -p "$d/licenses/$pkg"
        cp "$c" "$d/licenses/$pkg/copyright"
        libs_text="$libs_text
- lib/$so: Debian's $pv (licenses/$pkg/copyright)."
    done < "$stage/libs"
    # A library's own dependencies must come from lib/ too.
    for f in "$d"/lib/*; do
        [ -f "$f" ] && patchelf --set-rpath '$ORIGIN' "$f"
    done
    patchelf --set-rpath '$ORIGIN/../lib' "$d/bin/ffmpeg"
    patchelf --set-rpath '$ORIGIN/../lib' "$d/bin/ffprobe"
    # Every library the copies need resolves into lib/ (or is the system's).
    for b in "$d"/bin/ffmpeg "$d"/bin/ffprobe "$d"/lib/*; do
        [ -f "$b" ] || continue
        ldd "$b" | awk '$2 == "=>" { print $1, $3 }' > "$stage/ldd"
        while read -r so path; do
            system_lib "$so" && continue
            case $(readlink -f "$path" 2>/dev/null) in
            "$d/lib/"*) ;;
            *) fail "${b#"$d"/} finds $so at $path, not in lib/." ;;
            esac
        done < "$stage/ldd"
    done

    cp "$build/src/LICENSE.md" "$build/src"/COPYING.* "$d/licenses/FFmpeg/"
    mkdir -p "$d/licenses/models"
    cp "$top/models/LICENSE" "$d/licenses/models/LICENSE"
    notices=$(compiled_in_notices "$d/licenses")
    cp "$top/README.md" "$d/README.md"

    elfs="$d/bin/ffmpeg $d/bin/ffprobe $(ls "$d"/lib/* 2>/dev/null | tr '\n' ' ')"
    glibc=$(max_symver GLIBC $elfs)
    glibcxx=$(max_symver GLIBCXX $elfs)
    cxxabi=$(max_symver CXXABI $elfs)
    gcc_s=$(max_symver GCC $elfs)
    needs_cxx=$(for f in $elfs; do readelf -d "$f"; done | grep -c 'NEEDED.*libstdc++' || true)
    {
        licence_text licenses "$notices"
        echo
        echo "Bundled libraries (lib/), copied from Debian $(cat /etc/debian_version) with their"
        echo "copyright files:${libs_text:- none}"
    } > "$d/LICENSE"
    {
        echo "Runs on: x86-64 Linux with glibc $glibc or newer"
        if [ "${needs_cxx:-0}" -gt 0 ]; then
            echo "  and the system's libstdc++ (GLIBCXX_${glibcxx:-3.4}, CXXABI_${cxxabi:-1.3}) and libgcc_s (GCC_${gcc_s:-3.0}),"
            echo "  which every glibc system has; neither is bundled, since a GPU runtime loaded"
            echo "  later (libamdhip64) needs the system's."
        fi
        echo "Bundled libraries (lib/): $(cut -d' ' -f1 "$stage/libs" | tr '\n' ' ')"
    } > "$stage/runs-on"
    build_info "$d/bin/ffmpeg" "$stage/runs-on" > "$d/BUILD-INFO"

    # Names sorted, owner root, times those of the commit.
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
        -cf - "$root" | xz -T0 -6 > "$out/$name.tmp"
    mv "$out/$name.tmp" "$out/$name"
    rm -rf "$stage"
    echo "dist: $out/$name ($(du -k "$out/$name" | cut -f1) KiB; $spdx; glibc $glibc or newer)"
}

# ---- Debian package ----

make_deb() {
    command -v dpkg-shlibdeps >/dev/null 2>&1 || fail "dpkg-shlibdeps is missing (apt-get install dpkg-dev)."
    name=$(file_name deb)
    stage=$out/stage-deb
    rm -rf "$stage"
    r=$stage/root
    stage_common "$r/opt/vmaf-hip"
    mkdir -p "$r/usr/bin" "$r/usr/share/doc/vmaf-hip" "$r/DEBIAN"
    # Names of their own beside Debian's ffmpeg, which owns /usr/bin/ffmpeg
    # and ffprobe; the tools' names are the project's own.
    ln -s /opt/vmaf-hip/bin/ffmpeg "$r/usr/bin/vmaf-hip-ffmpeg"
    ln -s /opt/vmaf-hip/bin/ffprobe "$r/usr/bin/vmaf-hip-ffprobe"
    for t in vmaf-crf-sweep vmaf-target vmaf-plot vmaf-cluster vmaf-merge; do
        ln -s "/opt/vmaf-hip/bin/$t" "$r/usr/bin/$t"
    done
    install -m 644 "$top/README.md" "$r/usr/share/doc/vmaf-hip/README.md"
    echo "Runs on: Debian $(debian_release) with the libraries of the package's Depends" > "$stage/runs-on"
    build_info "$r/opt/vmaf-hip/bin/ffmpeg" "$stage/runs-on" > "$r/usr/share/doc/vmaf-hip/BUILD-INFO"
    notices=$(compiled_in_notices "$r/usr/share/doc/vmaf-hip")
    {
        licence_text /usr/share/doc/vmaf-hip "$(echo "$notices" | sed 's#licenses/#/usr/share/doc/vmaf-hip/#')"
        echo
        echo "The texts: GPL-2 and LGPL-2.1 in /usr/share/common-licenses, FFmpeg's in"
        echo "/usr/share/doc/vmaf-hip/FFmpeg, the models' (BSD-2-Clause-Patent) in"
        echo "/usr/share/doc/vmaf-hip/models/LICENSE."
    } > "$r/usr/share/doc/vmaf-hip/copyright"
    mkdir -p "$r/usr/share/doc/vmaf-hip/FFmpeg" "$r/usr/share/doc/vmaf-hip/models"
    cp "$build/src/LICENSE.md" "$build/src"/COPYING.* "$r/usr/share/doc/vmaf-hip/FFmpeg/"
    cp "$top/models/LICENSE" "$r/usr/share/doc/vmaf-hip/models/LICENSE"

    # dpkg-shlibdeps reads debian/control; it looks the libraries up in the
    # packages installed here, which are this release's.
    mkdir -p "$stage/debian"
    printf 'Source: vmaf-hip\n\nPackage: vmaf-hip\nArchitecture: amd64\n' > "$stage/debian/control"
    deps=$(cd "$stage" && dpkg-shlibdeps -O -e root/opt/vmaf-hip/bin/ffmpeg -e root/opt/vmaf-hip/bin/ffprobe 2>"$stage/shlibdeps.err" |
           sed -n 's/^shlibs:Depends=//p') ||
        { cat "$stage/shlibdeps.err" >&2; fail "dpkg-shlibdeps failed."; }
    [ -n "$deps" ] || { cat "$stage/shlibdeps.err" >&2; fail "dpkg-shlibdeps found no dependencies."; }
    size=$(du -sk --exclude=DEBIAN "$r" | cut -f1)
    maint=${DEB_MAINTAINER:-$(git -C "$top" log -1 --format='%an <%ae>' 2>/dev/null || echo "vmaf-hip <root@localhost>")}
    cat > "$r/DEBIAN/control" <<EOF
Package: vmaf-hip
Version: $ver+deb$(debian_release)
Architecture: amd64
Maintainer: $maint
Installed-Size: $size
Depends: $deps, python3
Recommends: python3-matplotlib, python3-distributed
Section: video
Priority: optional
Description: VMAF as an FFmpeg filter, on an AMD or NVIDIA GPU or the CPU
 FFmpeg $ffver with the vmaf_hip filter: Netflix's VMAF video-quality metric
 with libvmaf 3.2.0's numbers, computed through HIP on an AMD (ROCm) or
 NVIDIA (CUDA driver) GPU when the machine has one, on the CPU otherwise.
 Installed in /opt/vmaf-hip beside Debian's ffmpeg: the commands are
 vmaf-hip-ffmpeg and vmaf-hip-ffprobe, with the tuning tools vmaf-crf-sweep,
 vmaf-target and vmaf-plot (the pictures need python3-matplotlib), and
 vmaf-cluster and vmaf-merge, which score catalogues and long titles in
 exact chunks on a Dask cluster (python3-distributed).
 Licence of this build: $spdx.
EOF
    find "$r" -exec touch -h -d "@$epoch" {} +
    SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$r" "$out/$name.tmp" >/dev/null ||
        fail "dpkg-deb failed."
    mv "$out/$name.tmp" "$out/$name"
    rm -rf "$stage"
    echo "dist: $out/$name ($(du -k "$out/$name" | cut -f1) KiB; Depends: $deps, python3)"
}

case $mode in
archive) make_archive ;;
deb)     make_deb ;;
esac
