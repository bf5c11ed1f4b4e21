# Sourced by tests/run.sh (uses $top, pass, fail).
# Every script of tools/, and every runnable one of tests/ (a #! line),
# answers --help and -h with its usage on stdout and exit 0, and a bogus
# option with its usage on stderr and a non-zero exit; none of the three
# writes anything where it runs (each runs, by its absolute path, in an empty
# folder of its own that must stay empty). The scripts are found by listing
# the folders, so a new one is covered; a file of tools/ that cannot be run
# by itself is named with "skipped:" and why.

sh_tmp=$(mktemp -d "${TMPDIR:-/tmp}/scripts_help.XXXXXX" 2>/dev/null ||
         mktemp -d /tmp/scripts_help.XXXXXX)
sh_scripts() { # tools/*, then the files of tests/ that start with #!
    for sh_f in "$top"/tools/*; do
        [ -f "$sh_f" ] && printf '%s\n' "$sh_f"
    done
    find "$top/tests" -type f | sort | while IFS= read -r sh_f; do
        head -c 2 "$sh_f" | grep -q '^#!' && printf '%s\n' "$sh_f"
    done
}
sh_run() { # args...: runs the script in a new empty folder; sets sh_rc, sh_left
    sh_cwd=$(mktemp -d "$sh_tmp/cwd.XXXXXX")
    (cd "$sh_cwd" && exec timeout 60 $sh_interp "$sh_file" "$@" < /dev/null) \
        > "$sh_tmp/out" 2> "$sh_tmp/err"
    sh_rc=$?
    sh_left=$(ls -A "$sh_cwd" | tr '\n' ' ')
    rm -rf "$sh_cwd"
}
sh_usage_in() { # file: a "usage:" line naming the script
    grep -i 'usage:' "$1" | grep -qF "$sh_base"
}

sh_scripts > "$sh_tmp/list"
while IFS= read -r sh_file; do
    sh_name=${sh_file#"$top"/}
    sh_base=${sh_file##*/}
    # How it runs: by itself when executable, else as its #! line or its
    # extension says; a .sh without #! is a fragment other scripts source.
    if [ -x "$sh_file" ]; then
        sh_interp=
    elif head -c 2 "$sh_file" | grep -q '^#!'; then
        sh_interp=$(sed -n '1s/^#![[:space:]]*//p' "$sh_file")
    else
        case $sh_base in
        *.py) sh_interp=python3 ;;
        *.sh) echo "scripts_help: skipped: $sh_name: no #! line, sourced by other scripts, not run"; continue ;;
        *)    echo "scripts_help: skipped: $sh_name: not a script"; continue ;;
        esac
    fi
    sh_why=
    sh_run --help
    cp "$sh_tmp/out" "$sh_tmp/help"
    [ "$sh_rc" = 0 ] || sh_why="$sh_why; --help exits $sh_rc"
    sh_usage_in "$sh_tmp/help" || sh_why="$sh_why; --help prints no usage line naming $sh_base on stdout"
    [ -z "$sh_left" ] || sh_why="$sh_why; --help left: $sh_left"
    sh_run -h
    [ "$sh_rc" = 0 ] || sh_why="$sh_why; -h exits $sh_rc"
    cmp -s "$sh_tmp/out" "$sh_tmp/help" || sh_why="$sh_why; -h prints other than --help"
    [ -z "$sh_left" ] || sh_why="$sh_why; -h left: $sh_left"
    sh_run --no-such-option
    [ "$sh_rc" != 0 ] || sh_why="$sh_why; --no-such-option exits 0"
    sh_usage_in "$sh_tmp/err" || sh_why="$sh_why; --no-such-option prints no usage line naming $sh_base on stderr"
    [ -z "$sh_left" ] || sh_why="$sh_why; --no-such-option left: $sh_left"
    if [ -z "$sh_why" ]; then
        pass "scripts_help: $sh_name: --help and -h print its usage, --no-such-option fails with it on stderr, nothing written"
    else
        fail "scripts_help: $sh_name: ${sh_why#; }"
        head -n 3 "$sh_tmp/err" | sed 's/^/    /'
    fi
done < "$sh_tmp/list"
rm -rf "$sh_tmp"
