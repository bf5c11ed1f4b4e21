# Sourced by tests/run.sh (uses $ffmpeg, $build, pass, fail).
# log_path's corner cases: two instances of one process given one file are
# refused at configure; SIGHUP writes the log as SIGTERM does (and stays
# ignored under nohup); a dangling symlink's target gets the log and the
# link stays; an empty log_path is refused at the start; a write that
# fails says why (ENOSPC, EPIPE), not "Input/output error", and no frame
# is said to be cut off by an output that ended; /dev/stdout into a pipe
# and a named pipe get the log a file gets.

lg=$build/log-cases
rm -rf "$lg"
mkdir -p "$lg"
lg_src="testsrc2=size=160x90:rate=25:duration=1"

# lg_run <name> <ffmpeg args...>: a run to the null muxer; its stderr in
# $lg/<name>.err, its status in $lg_rc.
lg_run() {
    lg_n=$1
    shift
    "$ffmpeg" -hide_banner -nostdin -nostats "$@" -f null - > "$lg/$lg_n.err" 2>&1
    lg_rc=$?
}

lg_says() { grep -q -- "$2" "$lg/$1.err"; }

# lg_no_temp <log_path>: no temporary file of the log is left beside it.
lg_no_temp() { ! ls "$1".tmp-* > /dev/null 2>&1; }

# lg_frames <json log>: its number of frames, nothing if it is not JSON.
lg_frames() {
    python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["frames"]))' "$1" 2> /dev/null
}

# ---- two instances, one log ----

# One input split in four, two instances, one file spelled two ways: the
# second instance is refused at configure, naming both and the file.
mkdir -p "$lg/sub"
lg_two() { # name path1 path2 [mapped outputs]
    lg_run "$1" -f lavfi -i "$lg_src" \
        -lavfi "[0:v]split=4[a][b][c][d];[a][b]vmaf_hip=log_fmt=json:log_path=$2[o1];[c][d]vmaf_hip=log_fmt=json:log_path=$3[o2]" \
        -map "[o1]" -f null - -map "[o2]"
}
lg_both_named() { # name file: the refusal names both instances and the file
    grep "both write their log to '[^']*$2'" "$lg/$1.err" | grep "Parsed_vmaf_hip_1" |
        grep -q "Parsed_vmaf_hip_2"
}
lg_two two "$lg/two.json" "$lg/sub/../two.json"
if [ $lg_rc -ne 0 ] && lg_both_named two two.json && [ ! -e "$lg/two.json" ] &&
   lg_no_temp "$lg/two.json"; then
    pass "log cases: two instances given one log_path are refused at configure, both named"
else
    fail "log cases: two instances given one log_path (exit $lg_rc)"
    tail -3 "$lg/two.err"
fi
# An existing file under two names (a hard link): one file all the same.
echo previous > "$lg/hard.json"
ln -f "$lg/hard.json" "$lg/hard-link.json"
lg_two hard "$lg/hard.json" "$lg/hard-link.json"
if [ $lg_rc -ne 0 ] && lg_both_named hard hard.json && [ "$(cat "$lg/hard.json")" = previous ]; then
    pass "log cases: two instances given two names of one file are refused, the file kept"
else
    fail "log cases: two instances given two names of one file (exit $lg_rc)"
    tail -3 "$lg/hard.err"
fi
# Two files, or a device both may write: as before.
lg_two apart "$lg/one.json" "$lg/other.json"
lg_one=$(lg_frames "$lg/one.json") lg_other=$(lg_frames "$lg/other.json")
lg_two devnull /dev/null /dev/null
lg_devnull_rc=$lg_rc
if [ "$lg_one" = 25 ] && [ "$lg_other" = 25 ] && [ $lg_devnull_rc -eq 0 ]; then
    pass "log cases: two instances with their own log_path, or both /dev/null, run"
else
    fail "log cases: two instances with their own log_path (frames: '$lg_one' '$lg_other'), or /dev/null (exit $lg_devnull_rc)"
    tail -3 "$lg/apart.err" "$lg/devnull.err"
fi

# ---- SIGHUP, SIGTERM: the run ends and writes its log ----

# The signal's action as a terminal's shell leaves it (default) or nohup
# (ignored), whatever this script inherited. Run in the background, they
# exec, so that $! is ffmpeg's.
if env --default-signal=HUP true 2> /dev/null; then
    lg_hup_default() { exec env --default-signal=HUP "$@"; }
    lg_hup_ignored() { exec env --ignore-signal=HUP "$@"; }
else
    lg_hup_default() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
    lg_hup_ignored() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN); os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
fi

# lg_signal <name> <action wrapper> <signal...>: a long stream read at its
# frame rate, the signals sent once it has scored for a second (a second
# apart); the status in $lg_rc, and in $lg_alive a y for each signal that
# found the run still going.
lg_signal() {
    lg_n=$1 lg_wrap=$2
    shift 2
    lg_long="testsrc2=size=160x90:rate=25:duration=60"
    rm -f "$lg/$lg_n.json"
    : > "$lg/$lg_n.err"
    $lg_wrap "$ffmpeg" -hide_banner -nostdin -nostats -readrate 1 -f lavfi -i "$lg_long" \
        -readrate 1 -f lavfi -i "$lg_long" \
        -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=$lg/$lg_n.json" \
        -f null - > "$lg/$lg_n.err" 2>&1 &
    lg_pid=$!
    lg_i=0
    while [ $lg_i -lt 100 ] && ! grep -q "main (input 0) = distorted" "$lg/$lg_n.err"; do
        sleep 0.1
        lg_i=$((lg_i + 1))
    done
    lg_alive=""
    for lg_s in "$@"; do
        sleep 1
        kill -s "$lg_s" $lg_pid 2> /dev/null && lg_alive=${lg_alive}y
    done
    # A run the signals did not end is ended here: the test has failed.
    lg_i=0
    while [ $lg_i -lt 100 ] && kill -0 $lg_pid 2> /dev/null; do
        sleep 0.1
        lg_i=$((lg_i + 1))
    done
    kill -9 $lg_pid 2> /dev/null
    wait $lg_pid
    lg_rc=$?
}
lg_complete() { # name: a complete JSON log with frames, no temporary file
    [ "$(lg_frames "$lg/$1.json")" -gt 0 ] 2> /dev/null && lg_no_temp "$lg/$1.json"
}
for lg_sig in HUP TERM; do
    lg_signal sig$lg_sig lg_hup_default $lg_sig
    if lg_complete sig$lg_sig && lg_says sig$lg_sig "Exiting normally, received signal"; then
        pass "log cases: SIG$lg_sig ends the run with a complete log ($(lg_frames "$lg/sig$lg_sig.json") frames), no temporary file"
    else
        fail "log cases: SIG$lg_sig ends the run with a complete log (exit $lg_rc, frames: '$(lg_frames "$lg/sig$lg_sig.json")')"
        ls "$lg/sig$lg_sig.json"* 2> /dev/null
        tail -2 "$lg/sig$lg_sig.err"
    fi
done
# Under nohup SIGHUP stays ignored: the run goes on until SIGTERM.
lg_signal nohup lg_hup_ignored HUP TERM
if [ "$lg_alive" = yy ] && lg_complete nohup && lg_says nohup "received signal 15"; then
    pass "log cases: an ignored SIGHUP (nohup) stays ignored"
else
    fail "log cases: an ignored SIGHUP (nohup) stays ignored (exit $lg_rc, signals that found it running: '$lg_alive')"
    tail -2 "$lg/nohup.err"
fi

# ---- symlinks ----

# A dangling chain of links, relative ones among them: the file at its end
# gets the log (as libvmaf's fopen() creates it), and the links stay.
mkdir -p "$lg/links"
ln -sf ../dangling-target.json "$lg/links/first"
ln -sf links/first "$lg/dangling.json"
lg_run dangling -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
    -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=$lg/dangling.json"
if [ $lg_rc -eq 0 ] && [ -L "$lg/dangling.json" ] && [ -L "$lg/links/first" ] &&
   [ "$(lg_frames "$lg/dangling-target.json")" = 25 ] && lg_no_temp "$lg/dangling-target.json"; then
    pass "log cases: a dangling symlink's target gets the log, the links stay"
else
    fail "log cases: a dangling symlink's target gets the log, the links stay (exit $lg_rc)"
    ls -l "$lg/dangling.json" "$lg/links/first" "$lg/dangling-target.json" 2>&1
fi
ln -sf loop "$lg/loop.json"
ln -sf loop.json "$lg/loop"
lg_run loop -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
    -lavfi "[0:v][1:v]vmaf_hip=log_path=$lg/loop.json"
if [ $lg_rc -ne 0 ] && lg_says loop "Cannot open log_path '$lg/loop.json' for writing: Too many levels of symbolic links" &&
   [ -L "$lg/loop.json" ]; then
    pass "log cases: a symlink loop is refused at the start, the links kept"
else
    fail "log cases: a symlink loop (exit $lg_rc)"; tail -2 "$lg/loop.err"
fi

# ---- an empty log_path: refused before any frame ----

lg_run empty -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" -lavfi "[0:v][1:v]vmaf_hip=log_path="
if [ $lg_rc -ne 0 ] &&
   lg_says empty "log_path is empty: give a file name, or leave log_path out to write no log" &&
   ! lg_says empty "main (input 0) = distorted"; then
    pass "log cases: an empty log_path is refused at the start"
else
    fail "log cases: an empty log_path is refused at the start (exit $lg_rc)"; tail -2 "$lg/empty.err"
fi

# ---- a failed write says why, and no frame is said to be cut off ----

# /dev/full, written directly: ENOSPC in the middle of the log (25 frames
# are more than stdio's buffer).
lg_run full -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
    -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=/dev/full"
if [ $lg_rc -ne 0 ] && lg_says full "Error writing the log to '/dev/full': No space left on device" &&
   ! lg_says full "The output ended after" && lg_says full "Scored 25 of 25 frame pairs"; then
    pass "log cases: log_path=/dev/full says 'No space left on device', every pair pooled"
else
    fail "log cases: log_path=/dev/full (exit $lg_rc)"
    grep "log\|ended\|Scored" "$lg/full.err" | head -4
fi

# ---- devices, pipes and names of open files: written directly ----

lg_timeout=""
command -v timeout > /dev/null 2>&1 && lg_timeout="timeout -s KILL 60"
# /dev/stdout where it is a pipe (its links end in "pipe:[...]"): the log
# is the one a file gets.
lg_run file -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
    -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=$lg/file.json"
$lg_timeout "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
    -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=/dev/stdout" -f null - 2> "$lg/stdout.err" |
    cat > "$lg/stdout.json"
lg_rc=$?
# lg_same_log <json log>: the log of $lg/file.json but its fps.
grep -v '"fps"' "$lg/file.json" > "$lg/file.cmp"
lg_same_log() { grep -v '"fps"' "$1" | cmp -s - "$lg/file.cmp"; }
if [ $lg_rc -eq 0 ] && [ "$(lg_frames "$lg/stdout.json")" = 25 ] && lg_same_log "$lg/stdout.json"; then
    pass "log cases: log_path=/dev/stdout into a pipe gets the log a file gets"
else
    fail "log cases: log_path=/dev/stdout into a pipe (exit $lg_rc)"
    tail -2 "$lg/stdout.err"
fi

if mkfifo "$lg/fifo" 2> /dev/null; then
    # A named pipe and its reader: ffmpeg initializes the filter once more
    # than it runs it, and an open there would end the reader's input
    # before the log (the run then waited for a reader for ever).
    $lg_timeout cat "$lg/fifo" > "$lg/fifo.json" &
    lg_reader=$!
    $lg_timeout "$ffmpeg" -hide_banner -nostdin -nostats -f lavfi -i "$lg_src" -f lavfi -i "$lg_src" \
        -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=$lg/fifo" -f null - > "$lg/fifo.err" 2>&1
    lg_rc=$?
    wait $lg_reader
    if [ $lg_rc -eq 0 ] && lg_same_log "$lg/fifo.json"; then
        pass "log cases: a named pipe's reader gets the log a file gets"
    else
        fail "log cases: a named pipe and its reader (exit $lg_rc)"
        tail -2 "$lg/fifo.err"
    fi

    # A reader that leaves while the log is written: EPIPE (ffmpeg ignores
    # SIGPIPE), said as such. The reader takes the first bytes, then reads
    # no more, and the log (200 frames) is more than the pipe holds: the
    # filter is writing when the reader is killed.
    ( head -c 100 > "$lg/fifo.head"; exec sleep 60 ) < "$lg/fifo" &
    lg_reader=$!
    $lg_timeout "$ffmpeg" -hide_banner -nostdin -nostats \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=8" \
        -f lavfi -i "testsrc2=size=160x90:rate=25:duration=8" \
        -lavfi "[0:v][1:v]vmaf_hip=log_fmt=json:log_path=$lg/fifo" -f null - > "$lg/pipe.err" 2>&1 &
    lg_pid=$!
    lg_i=0
    while [ $lg_i -lt 300 ] && [ "$({ wc -c < "$lg/fifo.head"; } 2> /dev/null)" != 100 ]; do
        sleep 0.1
        lg_i=$((lg_i + 1))
    done
    kill $lg_reader 2> /dev/null
    wait $lg_reader 2> /dev/null
    wait $lg_pid
    lg_rc=$?
    if [ $lg_i -lt 300 ] && [ $lg_rc -ne 0 ] &&
       lg_says pipe "Error writing the log to '$lg/fifo': Broken pipe" &&
       ! lg_says pipe "The output ended after"; then
        pass "log cases: a pipe whose reader left says 'Broken pipe'"
    else
        fail "log cases: a pipe whose reader left (exit $lg_rc)"
        grep "log\|ended" "$lg/pipe.err" | head -3
    fi
else
    echo "log cases: named pipes: skipped: no mkfifo here"
fi
