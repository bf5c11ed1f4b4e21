# Sourced by the scripts of tools/ and tests/ right after their header, for
# their command line: -h/--help prints the header; a wrong argument prints
# what is wrong and the header's "# Usage:" lines on stderr, and exits 2.
# Both read the script's own header ($0), so the two cannot drift apart.

show_help() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
usage() {
    echo "${0##*/}: $1" >&2
    awk '/^# Usage:/ { u = 1 } u && !/^#./ { exit } u { sub(/^# ?/, ""); print }' "$0" >&2
    exit 2
}
# need_ffmpeg <path-or-name>: an executable file, or a command on the PATH;
# otherwise usage() with what was given.
need_ffmpeg() {
    case $1 in */*) [ -f "$1" ] && [ -x "$1" ] ;; *) command -v "$1" > /dev/null ;; esac ||
        usage "no ffmpeg at '$1'"
}
# no_options "$@": for a script that takes no options, -h/--help prints the
# help and exits; any other argument that starts with - is a usage error.
no_options() {
    for arg; do
        case $arg in -h|--help) show_help; exit 0 ;; -?*) usage "unknown option '$arg'" ;; esac
    done
}
