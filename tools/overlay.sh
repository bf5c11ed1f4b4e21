#!/bin/sh
# Turn a pristine FFmpeg tree into one with vmaf_hip in it.
#
# Usage: tools/overlay.sh patch <tree>
#        tools/overlay.sh sync <tree>
#
# patch, once per fresh copy: configure.patch and the one-line registrations
# in FFmpeg's own files. sync, every build: copy the project's files in,
# touching only those that changed, so make rebuilds only what was edited.
set -eu

# -h/--help and wrong arguments: show_help, usage.
. "$(dirname "$0")/script-args.sh"
no_options "$@"
[ $# -eq 2 ] || usage "two arguments expected"
case $1 in patch|sync) ;; *) usage "unknown mode '$1'" ;; esac
[ -d "$2" ] || usage "no directory '$2'"

mode=$1
tree=$2
top=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "overlay: $*" >&2; exit 1; }

# Insert line $3 into file $1 before the first line starting with $2, once.
insert_before() {
    grep -qxF "$3" "$1" && return 0
    grep -qF "$2" "$1" || die "cannot find '$2' in $1 (unsupported FFmpeg version?)"
    awk -v pat="$2" -v line="$3" '!done && index($0, pat) == 1 { print line; done = 1 } { print }' \
        "$1" > "$1.tmp" && mv "$1.tmp" "$1"
    grep -qxF "$3" "$1" || die "could not insert '$3' into $1"
}

# Put the project's filter section (file $2, between its "@c vmaf_hip
# begin/end" lines) into FFmpeg's filters.texi $1, alphabetically before
# vmafmotion, replacing an earlier copy.
merge_doc() {
    grep -q '^@section vmafmotion' "$1" || die "cannot find '@section vmafmotion' in $1"
    awk -v f="$2" '
        /^@c vmaf_hip begin/ { skip = 1 }
        skip { if (/^@c vmaf_hip end/) skip = 0; next }
        !done && /^@section vmafmotion/ { while ((getline l < f) > 0) print l; done = 1 }
        { print }' "$1" > "$1.tmp"
    cmp -s "$1.tmp" "$1" && rm -f "$1.tmp" || mv "$1.tmp" "$1"
}

case $mode in
patch)
    (cd "$tree" && patch -p1 --forward --quiet < "$top/configure.patch") ||
        die "configure.patch does not apply to $tree"
    insert_before "$tree/libavfilter/allfilters.c" 'extern const FFFilter ff_vf_vmafmotion;' \
        'extern const FFFilter ff_vf_vmaf_hip;'
    # vmaf_hip under the name libvmaf; configure builds it only when the
    # real libvmaf filter is not built (configure.patch).
    insert_before "$tree/libavfilter/allfilters.c" 'extern const FFFilter ff_vf_vmafmotion;' \
        'extern const FFFilter ff_vf_vmaf_hip_libvmaf;'
    # ... and libvmaf_cuda, when the real one is not built, with the GPU
    # as its backend (its scripts pass CUDA frames).
    insert_before "$tree/libavfilter/allfilters.c" 'extern const FFFilter ff_vf_vmafmotion;' \
        'extern const FFFilter ff_vf_vmaf_hip_libvmaf_cuda;'
    insert_before "$tree/libavfilter/Makefile" 'include $(SRC_PATH)/libavfilter/vulkan/Makefile' \
        'include $(SRC_PATH)/libavfilter/vmaf/Makefile'
    insert_before "$tree/tests/Makefile" 'include $(SRC_PATH)/tests/fate/filter-video.mak' \
        'include $(SRC_PATH)/tests/fate/vmaf-hip.mak'
    ;;
sync)
    cd "$top"
    for f in libavfilter/vf_vmaf_hip.c libavfilter/vmaf_hip_*.[ch] \
             libavfilter/vmaf/* libavfilter/vmaf/x86/* libavfilter/vmaf/gpu/* \
             libavfilter/vmaf/features/* libavfilter/vmaf/features/x86/* libavfilter/vmaf/features/gpu/* \
             tests/fate/vmaf-hip.mak tests/ref/fate/vmaf-hip-*; do
        [ -f "$f" ] || continue
        mkdir -p "$tree/$(dirname "$f")"
        cmp -s "$f" "$tree/$f" || cp "$f" "$tree/$f"
    done
    merge_doc "$tree/doc/filters.texi" doc/filters.texi
    sh tools/embed-models.sh models "$tree/libavfilter/vmaf/models_data.c.tmp"
    if cmp -s "$tree/libavfilter/vmaf/models_data.c.tmp" "$tree/libavfilter/vmaf/models_data.c"; then
        rm -f "$tree/libavfilter/vmaf/models_data.c.tmp"
    else
        mv "$tree/libavfilter/vmaf/models_data.c.tmp" "$tree/libavfilter/vmaf/models_data.c"
    fi
    # Files removed or moved in the project leave the tree too, at any depth
    # (libavfilter/hip/ is where the GPU code was before vmaf/gpu/ and
    # vmaf/features/gpu/); so do the folders left empty.
    for d in libavfilter/vmaf libavfilter/hip; do
        [ -d "$tree/$d" ] || continue
        find "$tree/$d" -type f | while IFS= read -r f; do
            rel=${f#"$tree"/}
            case $rel in libavfilter/vmaf/models_data.c) continue ;; esac
            [ -f "$rel" ] || rm -f "$f"
        done
        find "$tree/$d" -depth -type d -empty -delete
    done
    ;;
esac
