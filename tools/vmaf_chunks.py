#!/usr/bin/python3
"""Score one (distorted, reference) pair in chunks of frames, one ffmpeg each, and
merge the chunks into the log a single run writes (byte for byte, its fps aside).

Each chunk is vmaf_hip with chunk_start/chunk_end on inputs seeked to a key frame
before the chunk (-copyts -start_at_zero keep the timestamps a single run sees):
the filter skips the frames before the one whose time it is given (chunk_first,
a few frames before the chunk), checks that this one came, reads the frames around
the chunk that its temporal features need and writes log_fmt=chunk; vmaf-merge then
writes the run's log. Only the standard library is needed.

The frames of the run are the distorted input's: every distorted frame is assumed
to have its reference frame (an encode against its source). The reference is seeked
by the distorted frames' instants, so its frame rate may differ.

Interface for a distributed runner (doc/architecture.md): plan() gives one dict per
chunk, run_chunk() scores one (any machine with ffmpeg and both files), merge()
writes the log from the chunk files. The command line offers the same steps:

  vmaf_chunks.py run DIST REF --chunk-frames N [--options OPTS] [--log-fmt F] [--log-path P]
  vmaf_chunks.py plan DIST REF --chunk-frames N            (the chunks, as JSON)
  vmaf_chunks.py chunk DIST REF --spec JSON --output FILE  (one chunk of the plan)
"""

import argparse
import bisect
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

# Frames before a chunk that its inputs start at: the most that any feature needs
# today (motion with motion_five_frame_window and motion_moving_average: 4). A
# chunk that needs more says so and fails; --lead raises it.
DEFAULT_LEAD = 4

# Containers whose demuxers seek by an index to the key frame at or before a time:
# a chunk decodes from the last key frame before it. Others (MPEG-TS seeks by byte
# position and may land late) start a key frame earlier.
EXACT_SEEK_FORMATS = ("matroska", "webm", "mov", "mp4")

# Options the runner sets itself on every chunk.
CHUNK_OPTIONS = ("chunk_start", "chunk_end", "chunk_first", "chunk_first_time", "log_fmt",
                 "log_path")


class ChunkError(Exception):
    """A failure to report in one message, without a traceback."""


def find_tool(path, name):
    """path, or <name> beside this tool (the archive's and the package's
    bin/), or build/<name> of this repository, or <name> on PATH. A path with a
    '/' is made absolute: the chunks run in their own directories."""
    if path:
        found = os.path.abspath(path) if os.sep in path else shutil.which(path)
        if not found or not os.access(found, os.X_OK):
            raise ChunkError("%s: no such program" % path)
        return found
    for built in (os.path.join(os.path.dirname(os.path.realpath(__file__)), name),
                  os.path.join(REPO, "build", name)):
        if os.access(built, os.X_OK):
            return built
    found = shutil.which(name)
    if not found:
        raise ChunkError("no %s: build the repository (make) or give its path" % name)
    return found


def run_tool(cmd, what, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        tail = "\n".join(p.stderr.strip().splitlines()[-8:])
        raise ChunkError("%s failed (exit status %d):\n%s" % (what, p.returncode, tail))
    return p.stdout


class Frames:
    """A file's video frames: their presentation times (s) in order, from the file's
    start as a single ffmpeg run sees them, and which are key frames; exact_seek: the
    container seeks to the key frame at or before a time (Matroska, WebM, MP4)."""

    def __init__(self, times, keys, exact_seek=False):
        order = sorted(range(len(times)), key=lambda i: times[i])
        self.times = [times[i] for i in order]
        self.key_times = sorted(times[i] for i in order if keys[i])
        self.exact_seek = exact_seek

    def seek_before(self, t):
        """A seek time from which decoding gives every frame from time t on; None: the
        start. In a container that seeks exactly, after the last key frame at or before t
        (ffmpeg's -ss drops the frames before the time; when t is that key frame, just
        before it); elsewhere before the key frame ahead of that one, so that a
        container whose seeks land late (MPEG-TS) and open GOPs still start early
        enough."""
        k = bisect.bisect_right(self.key_times, t) - (1 if self.exact_seek else 2)
        if k < 0:
            return None
        i = bisect.bisect_left(self.times, self.key_times[k])
        if self.exact_seek and self.times[i] < t:
            return (self.times[i] + self.times[i + 1]) / 2
        return (self.times[i - 1] + self.times[i]) / 2 if i > 0 else None


def probe_frames(ffprobe, path, decode=False):
    """path's Frames, read from its packets (fast, no decoding) or, with decode, from
    the decoded frames (exact for any stream; a full decode). The chunks check the
    time of their first frame, so a packet that is no frame makes a chunk fail."""
    out = run_tool([ffprobe, "-v", "error", "-show_entries", "format=start_time,format_name",
                    "-of", "json", path], "reading the start time of " + path)
    try:
        fmt = json.loads(out).get("format", {})
    except ValueError:
        fmt = {}
    try:
        start = float(fmt.get("start_time", 0.0))
    except ValueError:
        start = 0.0
    exact_seek = any(n in EXACT_SEEK_FORMATS for n in fmt.get("format_name", "").split(","))
    if decode:
        entries = ["-show_entries", "frame=best_effort_timestamp_time,key_frame"]
    else:
        entries = ["-show_entries", "packet=pts_time,flags"]
    out = run_tool([ffprobe, "-v", "error", "-select_streams", "v:0"] + entries +
                   ["-of", "csv=p=0", path], "reading the frame times of " + path)
    times, keys = [], []
    for line in out.splitlines():
        f = line.strip().split(",")
        if len(f) < 2 or not f[0]:
            continue
        # ffprobe writes a frame's fields in its own order: key_frame first.
        t, flag = (f[1], f[0] == "1") if decode else (f[0], "K" in f[1])
        # A packet the decoder discards (before an edit list's start) is no frame.
        if not decode and "D" in f[1]:
            continue
        if t == "N/A":
            raise ChunkError("%s: a frame has no timestamp: the chunks cannot be found by "
                             "their time (remux the file into .mkv or .mp4)" % path)
        times.append(float(t) - start)
        keys.append(flag)
    if not times:
        raise ChunkError("%s: no video frame" % path)
    return Frames(times, keys, exact_seek)


def probe_pair(ffprobe, dist, ref, decode=False):
    """probe_frames() of both inputs, side by side: each is one read of a
    whole file, and the plan waits for both."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(probe_frames, ffprobe, p, decode) for p in (dist, ref)]
        return tuple(j.result() for j in jobs)


def _seeks(dist, ref, first):
    """The inputs' seek times for a chunk whose first frame read is distorted frame
    first (None: from the start), and the reference frame index it needs first."""
    if first == 0:
        return None, None, 0
    # The reference frame of the first distorted frame is at most half a frame
    # before it, or the one on screen then (another frame rate).
    mid = (dist.times[first - 1] + dist.times[first]) / 2
    j = bisect.bisect_right(ref.times, mid) - 1
    return (dist.seek_before(dist.times[first]),
            ref.seek_before(ref.times[j]) if j >= 0 else None, max(j, 0))


def _frames_before(frames, seek, index):
    """Frames an input decodes from the seek time (None: its start) before frame index."""
    return index - (0 if seek is None else bisect.bisect_left(frames.times, seek))


def _start_near(dist, ref, nominal, lead, reach):
    """A chunk start within reach frames of nominal whose inputs decode the fewest
    frames before the chunk: just after a key frame of either input, lead frames on
    (the frames the chunk reads first), the nearest to nominal of the cheapest."""
    candidates = {nominal}
    n = len(dist.times)
    lo = dist.times[min(max(nominal - lead - reach - 1, 0), n - 1)]
    hi = dist.times[min(max(nominal - lead + reach, 0), n - 1)]
    for frames in (dist, ref):
        # The key frames near nominal, as the first distorted frame from their time on.
        for t in frames.key_times[bisect.bisect_left(frames.key_times, lo):
                                  bisect.bisect_right(frames.key_times, hi)]:
            k = bisect.bisect_left(dist.times, t)
            # One more: the reference is read from the frame before the one
            # paired with a chunk's first (_seeks()).
            candidates.update(c for c in (k + lead, k + lead + 1) if abs(c - nominal) <= reach)

    def cost(start):
        first = max(start - lead, 0)
        seek_dist, seek_ref, j = _seeks(dist, ref, first)
        return (_frames_before(dist, seek_dist, first) + _frames_before(ref, seek_ref, j),
                abs(start - nominal))
    return min((c for c in candidates if c < n), key=cost, default=nominal)


def plan(dist, ref, chunk_frames, lead=DEFAULT_LEAD, snap=True, tail=(0, 0)):
    """The chunks of a run of the distorted Frames dist against the reference Frames
    ref, about chunk_frames each: a list of dicts with start, end (None: the run's
    end), first (the first frame the chunk reads, lead frames before start),
    first_time (its time) and the inputs' seek times, seek_dist and seek_ref (None:
    from the start). With snap, each start moves by up to an eighth of chunk_frames
    to where the inputs decode the fewest frames before it (lead frames after a key
    frame): the frames between a key frame and a chunk's first are decoded for
    nothing (a GOP of 250 frames costs 125 on average); without, the starts are the
    multiples of chunk_frames. tail, (frames, count): the run's last frames in count
    chunks of their own, about equal, marked tail=True (for slower workers)."""
    n = len(dist.times)
    if chunk_frames < 1:
        raise ChunkError("chunks need at least one frame")
    tail_frames, tail_chunks = tail
    if tail_chunks < 1 or not 0 < tail_frames < n:
        tail_frames, tail_chunks = 0, 0
    head = n - tail_frames
    # Each start moves from a multiple of chunk_frames, not from the last start
    # plus chunk_frames: moves that added up would make a last chunk of a few
    # frames, one more than the length asks for (a round of its own for one
    # worker). Less than half a chunk: the starts stay in order.
    nominal = list(range(chunk_frames, head, chunk_frames))
    step = chunk_frames
    if tail_chunks:
        step = -(-tail_frames // tail_chunks)
        nominal += range(head, n, step)
    reach = min(chunk_frames, step) // 8 if snap else 0
    # A start, and whether it begins a tail chunk; a start that two nominal
    # ones moved to (a short last chunk of the head) is one chunk's.
    starts = sorted(dict([(0, False)] + [(_start_near(dist, ref, s, lead, reach) if reach else s,
                                          s >= head) for s in nominal]).items())
    chunks = []
    for i, (start, in_tail) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else None
        first = max(start - lead, 0)
        seek_dist, seek_ref, _ = _seeks(dist, ref, first)
        chunk = dict(start=start, end=end, first=first, first_time="%.6f" % dist.times[first],
                     seek_dist=seek_dist, seek_ref=seek_ref)
        if tail_chunks:
            chunk["tail"] = in_tail
        chunks.append(chunk)
    return chunks


def check_options(options):
    for opt in options.split(":"):
        name = opt.split("=", 1)[0].strip()
        if name in CHUNK_OPTIONS:
            raise ChunkError("--options sets %s, which the runner sets for each chunk" % name)


def chunk_command(ffmpeg, dist, ref, spec, options, output, input_options=(),
                  global_options=(), ref_options=None):
    """The ffmpeg command of one chunk; output is a file name in the working directory
    (the filtergraph would need other characters escaped); input_options go before
    each input (a hardware decoder, say), or before the distorted one alone where
    ref_options (not None) go before the reference; global_options before the
    inputs (the device that decoder uses)."""
    graph = "vmaf_hip=" + (options + ":" if options else "")
    graph += "chunk_start=%d:chunk_first=%d:chunk_first_time=%s" % (
        spec["start"], spec["first"], spec["first_time"])
    if spec["end"] is not None:
        graph += ":chunk_end=%d" % spec["end"]
    graph += ":log_fmt=chunk:log_path=" + output
    # The times a single run sees: each file's own, from its start.
    cmd = [ffmpeg, "-hide_banner", "-nostdin", "-nostats"] + list(global_options)
    cmd += ["-copyts", "-start_at_zero"]
    if spec["seek_dist"] is not None:
        cmd += ["-ss", "%.6f" % spec["seek_dist"]]
    cmd += list(input_options) + ["-i", os.path.abspath(dist)]
    if spec["seek_ref"] is not None:
        cmd += ["-ss", "%.6f" % spec["seek_ref"]]
    if ref_options is None:
        ref_options = input_options
    cmd += list(ref_options) + ["-i", os.path.abspath(ref), "-lavfi", "[0:v][1:v]" + graph,
                                "-f", "null", "-"]
    return cmd


# What NVDEC decodes: both inputs, or one (--sw-input names the other, decoded
# on the CPU); SW_INPUTS, the inputs --sw-input can name.
NVDEC_INPUTS = ("both", "reference", "distorted")
SW_INPUTS = ("distorted", "reference")


def nvdec_choice(nvdec, sw_input=None):
    """--nvdec and --sw-input as the inputs NVDEC decodes: None (no NVDEC),
    'both', or the one input that --sw-input leaves it; --sw-input without
    --nvdec is a ChunkError."""
    if sw_input and not nvdec:
        raise ChunkError("--sw-input decodes one input on the CPU beside NVDEC: it needs --nvdec")
    if not nvdec:
        return None
    if not sw_input:
        return "both"
    return "reference" if sw_input == "distorted" else "distorted"


def nvdec_inputs(nvdec, hw):
    """The options before the distorted and the reference input where NVDEC
    decodes nvdec (nvdec_choice(); True: both): hw before those it decodes."""
    if not nvdec:
        return [], []
    if nvdec is not True and nvdec not in NVDEC_INPUTS:
        raise ChunkError("NVDEC decodes %s, not '%s'" % (", ".join(NVDEC_INPUTS), nvdec))
    return (list(hw) if nvdec in (True, "both", "distorted") else [],
            list(hw) if nvdec in (True, "both", "reference") else [])


def run_chunk(ffmpeg, dist, ref, spec, options, output, input_options=(), global_options=(),
              ref_options=None):
    """Score one chunk into the chunk file output (its directory must exist);
    the options as chunk_command() takes them."""
    check_options(options)
    out_dir, name = os.path.split(os.path.abspath(output))
    if os.path.exists(output):
        os.remove(output)  # a file of an earlier run must not pass for this one's
    cmd = chunk_command(ffmpeg, dist, ref, spec, options, name, input_options, global_options,
                        ref_options)
    last = "the end" if spec["end"] is None else str(spec["end"] - 1)
    run_tool(cmd, "chunk %d to %s" % (spec["start"], last), cwd=out_dir)
    if not os.path.exists(output):
        raise ChunkError("chunk at frame %d wrote no chunk file" % spec["start"])
    return output


def merge(vmaf_merge, chunk_files, log_fmt, log_path, nb_frames=None):
    """Write the run's log from its chunk files with vmaf-merge."""
    cmd = [vmaf_merge, "-f", log_fmt, "-o", log_path]
    if nb_frames is not None:
        cmd += ["-n", str(nb_frames)]
    run_tool(cmd + list(chunk_files), "merging the chunks")


def add_inputs(p):
    p.add_argument("distorted", help="the distorted video (any file ffmpeg reads)")
    p.add_argument("reference", help="the reference video")
    p.add_argument("--ffmpeg", metavar="PATH", help="ffmpeg with vmaf_hip (default: build/ffmpeg "
                   "of this repository, else ffmpeg on PATH)")
    p.add_argument("--ffprobe", metavar="PATH", help="ffprobe (default: build/ffprobe, else PATH)")


def add_plan_args(p):
    p.add_argument("--chunk-frames", type=int, required=True, metavar="N",
                   help="frames per chunk, about: each chunk's start moves by up to N/8 "
                        "frames to just after a key frame, so that its inputs decode few "
                        "frames before it (the last chunk may have fewer)")
    p.add_argument("--fixed-chunks", action="store_true",
                   help="chunks of exactly N frames, starting at the multiples of N")
    p.add_argument("--lead", type=int, default=DEFAULT_LEAD, metavar="N",
                   help="frames before each chunk that its inputs start at (default: %d)"
                        % DEFAULT_LEAD)
    p.add_argument("--decode", action="store_true",
                   help="find the frames' times by decoding them (default: from the packets)")


def make_plan(args):
    ffprobe = find_tool(args.ffprobe, "ffprobe")
    dist, ref = probe_pair(ffprobe, args.distorted, args.reference, args.decode)
    return (plan(dist, ref, args.chunk_frames, args.lead, not args.fixed_chunks),
            len(dist.times))


def cmd_plan(args):
    chunks, _ = make_plan(args)
    json.dump(chunks, sys.stdout, indent=1)
    print()
    return 0


def cmd_chunk(args):
    spec = json.loads(args.spec)
    run_chunk(find_tool(args.ffmpeg, "ffmpeg"), args.distorted, args.reference, spec,
              args.options, args.output)
    return 0


def cmd_run(args):
    nvdec = nvdec_choice(args.nvdec, args.sw_input)
    ffmpeg = find_tool(args.ffmpeg, "ffmpeg")
    vmaf_merge = find_tool(args.vmaf_merge, "vmaf-merge")
    check_options(args.options)
    chunks, nb_frames = make_plan(args)
    work = args.workdir or tempfile.mkdtemp(prefix="vmaf-chunks.")
    os.makedirs(work, exist_ok=True)
    try:
        files = [os.path.join(work, "chunk-%06d.json" % c["start"]) for c in chunks]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            hw = ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda"]
            dist_in, ref_in = nvdec_inputs(nvdec, hw)
            jobs = [pool.submit(run_chunk, ffmpeg, args.distorted, args.reference, c,
                                args.options, f, dist_in, (), ref_in)
                    for c, f in zip(chunks, files)]
            for j in jobs:
                j.result()
        merge(vmaf_merge, files, args.log_fmt, args.log_path, nb_frames)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    print("%d frames in %d chunks: %s" % (nb_frames, len(chunks), args.log_path))
    return 0


def main():
    p = argparse.ArgumentParser(prog=os.path.basename(sys.argv[0]), description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="{run,plan,chunk}")
    r = sub.add_parser("run", help="score the pair in chunks and merge them into one log")
    add_inputs(r)
    add_plan_args(r)
    r.add_argument("--options", default="", metavar="OPTS",
                   help="vmaf_hip's options, as after 'vmaf_hip=' (model, feature, n_subsample...)")
    r.add_argument("--log-fmt", default="xml", choices=["xml", "json", "csv", "sub"])
    r.add_argument("--log-path", required=True, metavar="FILE", help="the merged log")
    r.add_argument("--jobs", type=int, default=1, metavar="N", help="chunks scored at once")
    r.add_argument("--nvdec", action="store_true",
                   help="decode on the GPU (-hwaccel cuda), frames scored where they are")
    r.add_argument("--sw-input", choices=SW_INPUTS,
                   help="with --nvdec: this input is decoded on the CPU, the other on NVDEC "
                   "(NVDEC's time goes by bits: a reference of many bits costs it most)")
    r.add_argument("--workdir", metavar="DIR", help="keep the chunk files here "
                   "(default: a temporary directory, removed)")
    r.add_argument("--vmaf-merge", metavar="PATH",
                   help="vmaf-merge (default: beside this tool, else build/vmaf-merge, "
                        "else PATH)")
    r.set_defaults(func=cmd_run)
    pl = sub.add_parser("plan", help="print the chunks (JSON) that run would score")
    add_inputs(pl)
    add_plan_args(pl)
    pl.set_defaults(func=cmd_plan)
    c = sub.add_parser("chunk", help="score one chunk of a plan into a chunk file")
    add_inputs(c)
    c.add_argument("--spec", required=True, metavar="JSON", help="one entry of plan's list")
    c.add_argument("--options", default="", metavar="OPTS", help="as for run")
    c.add_argument("--output", required=True, metavar="FILE", help="the chunk file")
    c.set_defaults(func=cmd_chunk)
    args = p.parse_args()
    if not args.command:
        p.error("a command is needed: run, plan or chunk")
    try:
        return args.func(args)
    except ChunkError as e:
        sys.exit("%s: %s" % (p.prog, e))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
