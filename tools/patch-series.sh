#!/bin/sh
# Write the project as a git format-patch series against an FFmpeg release:
# the overlay's own result, committed piece by piece onto the pristine tree.
#
# Usage: tools/patch-series.sh <ffmpeg-source> <output-dir>
#        e.g. sh tools/patch-series.sh .cache/ffmpeg_9.0.2.orig.tar.xz build/patches
#
# <ffmpeg-source> is what the build starts from: a release tarball (unpacked
# as the Makefile does) or an FFmpeg tree (copied without .git). `make
# patches` passes the build's own. In a git repository of it (the pristine
# tree, one commit), tools/overlay.sh runs exactly as for the build (patch,
# then sync); what it changed is committed in the pieces below, each file by
# the folder it lies in, and the commits are written to <output-dir> as
# 0001-*.patch... (earlier NNNN-*.patch files there are removed). A file that
# no piece claims, or a piece left empty, stops it: the rules here need a look.
# Author and dates are those of the project's last commit, so the same
# inputs give the same files. Needs git.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"
[ -e "$1" ] || usage "no tarball or tree '$1'"
if [ -d "$1" ]; then
    [ -f "$1/configure" ] || usage "'$1' is not an FFmpeg tree"
fi

top=$(cd "$(dirname "$0")/.." && pwd)
src=$1
out=$2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

die() { echo "patch-series: $*" >&2; exit 1; }
command -v git > /dev/null 2>&1 || die "git is not installed"

# The pieces, in the order they apply: piece_of <path> names the piece of a
# file the overlay added or changed, by where it lies (no file names, so
# files may come, go and be renamed in those folders).
PIECES="build engine models features gpu filter doc fate"
piece_of() {
    case $1 in
    tests/*)                         echo fate ;;     # tests/Makefile, fate/*.mak, ref/fate/*
    doc/*)                           echo doc ;;
    configure|Makefile|*/Makefile)   echo build ;;
    libavfilter/vmaf/gpu/*|libavfilter/vmaf/features/gpu/*)
                                     echo gpu ;;
    libavfilter/vmaf/features/*)     echo features ;;
    libavfilter/vmaf/models_data.c)  echo models ;;   # made by the overlay from models/
    libavfilter/vmaf/*)              echo engine ;;
    libavfilter/allfilters.c|libavfilter/vf_*|libavfilter/vmaf_hip_*)
                                     echo filter ;;
    *)                               echo none ;;
    esac
}

# Each piece's commit message: subject (area: what, at most 72 characters),
# blank line, body.
message() {
    case $1 in
    build) cat <<'EOF'
configure: add --enable-hip and the vmaf_hip build rules

--enable-hip compiles vmaf_hip's GPU kernels, written once in HIP, with
hipcc for AMD (--hipcc, --hipccflags, --hip-targets) and with nvcc for
NVIDIA (--hip-nvcc, --hip-nvccflags); each compiler found enables
hip_amd or hip_nv. Neither is required: the filter then runs on the CPU.
The filter is also offered under the names libvmaf and libvmaf_cuda when
the real ones are not built.

libavfilter/vmaf/Makefile builds the engine (without floating-point
contraction, so it gives libvmaf's bits under any flags) and embeds the
code objects with bin2c. Its objects depend on CONFIG_VMAF_HIP_FILTER, so
nothing is compiled until the filter is registered.
EOF
    ;;
    engine) cat <<'EOF'
avfilter/vmaf: add the VMAF engine

The engine behind vmaf_hip: frame pairs in, libvmaf 3.2.0's scores out,
to the last bit. Pictures and their conversion, the feature collector,
the SVM models, pooling, the xml, json, csv and sub logs, frame pairing,
the frame workers and the CPU/GPU scheduler, with AVX2 versions of the
picture helpers on x86-64. The built-in models' data follows.
EOF
    ;;
    models) cat <<'EOF'
avfilter/vmaf: add the built-in VMAF models

libvmaf's model files as C arrays, each under its file's name as the
version (model=version=vmaf_v0.6.1): the same bytes as the file loaded
by path. Generated from the model files, which are Copyright Netflix,
Inc., under the BSD-2-Clause-Patent license.
EOF
    ;;
    features) cat <<'EOF'
avfilter/vmaf/features: add the feature extractors

libvmaf's feature extractors (VIF, ADM, motion, PSNR, SSIM and MS-SSIM,
CAMBI, CIEDE2000, PSNR-HVS, SpEED and the float family), each with its C
dsp functions and, on x86-64, AVX2 and AVX-512 versions chosen at init
that give the same bits.
EOF
    ;;
    gpu) cat <<'EOF'
avfilter/vmaf/gpu: add the GPU runtime, kernels and GPU extractors

One HIP source for AMD and NVIDIA: the runtime opens the HIP runtime or
the CUDA driver at run time (nothing is linked), keeps a ring of frames
on the device and runs the embedded code objects. Each feature with a
GPU twin has its kernels and host code here, giving the CPU's values;
a simulated GPU runs the host code on machines without one.
EOF
    ;;
    filter) cat <<'EOF'
avfilter: add vmaf_hip filter

VMAF between a distorted and a reference input, a drop-in for libvmaf:
the same options, logs and "VMAF score:" line, with libvmaf 3.2.0's
numbers, per-frame scores as frame metadata (lavfi.vmaf.*), on the CPU
or on an AMD or NVIDIA GPU when one answers.

Registered as vmaf_hip, and as libvmaf and libvmaf_cuda (CUDA frames)
when FFmpeg is built without libvmaf.
EOF
    ;;
    doc) cat <<'EOF'
doc/filters: document vmaf_hip

Its options, backends, metadata and logs, with examples.
EOF
    ;;
    fate) cat <<'EOF'
tests/fate: add vmaf_hip tests

Per-frame metadata of testsrc2 against a blurred copy of itself
(refcmp_metadata) with a relative fuzz of 1e-15, so every printed digit
counts: PSNR and VMAF at several pixel formats and bit depths.
EOF
    ;;
    esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patch-series.XXXXXX" 2>/dev/null || mktemp -d /tmp/patch-series.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The identity and the date of every commit: the project's last commit's
# (outside a git checkout, fixed ones: SOURCE_DATE_EPOCH or 1970), never the
# user's git settings.
ident=$(git -C "$top" log -1 --format='%an%n%ae%n%cd' --date=raw 2>/dev/null) ||
    ident=$(printf 'vmaf_hip\nvmaf_hip@localhost\n@%s +0000' "${SOURCE_DATE_EPOCH:-0}")
GIT_AUTHOR_NAME=$(echo "$ident" | sed -n 1p)
GIT_AUTHOR_EMAIL=$(echo "$ident" | sed -n 2p)
GIT_AUTHOR_DATE=$(echo "$ident" | sed -n 3p)
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL
export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE

# The pristine tree, unpacked or copied as the Makefile does, as one commit.
tree=$tmp/ffmpeg
mkdir -p "$tree"
if [ -d "$src" ]; then
    (cd "$src" && tar cf - --exclude=.git .) | (cd "$tree" && tar xf -)
else
    tar xf "$src" -C "$tree" --strip-components=1
fi
[ -f "$tree/configure" ] || die "'$src' holds no FFmpeg tree"
release=$(cat "$tree/RELEASE" 2>/dev/null || echo "(unknown release)")
cd "$tree"
git init -q -b pristine
git config gc.auto 0
# Files as they are: no line-ending conversion whatever .gitattributes says.
echo '* -text' > .git/info/attributes
git add -A -f .
git commit -q -m "FFmpeg $release"

# The overlay, as the build runs it.
sh "$top/tools/overlay.sh" patch "$tree"
sh "$top/tools/overlay.sh" sync "$tree"

# What it added, changed or removed, sorted into the pieces.
git add -A -f .
git -c core.quotepath=off diff --cached --name-only --no-renames HEAD > "$tmp/changed"
git reset -q
[ -s "$tmp/changed" ] || die "the overlay changed nothing in FFmpeg $release"
: > "$tmp/unclaimed"
for p in $PIECES; do : > "$tmp/piece.$p"; done
while IFS= read -r f; do
    p=$(piece_of "$f")
    if [ "$p" = none ]; then
        echo "$f" >> "$tmp/unclaimed"
    else
        echo "$f" >> "$tmp/piece.$p"
    fi
done < "$tmp/changed"
if [ -s "$tmp/unclaimed" ]; then
    echo "patch-series: files the overlay changed that no piece claims (see piece_of):" >&2
    sed 's/^/    /' "$tmp/unclaimed" >&2
    exit 1
fi

n=0
for p in $PIECES; do
    [ -s "$tmp/piece.$p" ] || die "no file of the overlay falls in the piece '$p' (see piece_of)"
    git --literal-pathspecs add -A -f --pathspec-from-file="$tmp/piece.$p"
    message "$p" > "$tmp/msg"
    git commit -q -F "$tmp/msg"
    n=$((n + 1))
done
# By construction the last commit is the overlay's tree: nothing is left.
[ -z "$(git status --porcelain --ignored --untracked-files=all)" ] ||
    die "files of the overlay were left out of the series"

mkdir -p "$out"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
git format-patch --zero-commit --no-signature -o "$out" "HEAD~$n" > "$tmp/written"
echo "patch-series: $n patches against FFmpeg $release in $out:"
sed "s|^$out/|    |" "$tmp/written"
