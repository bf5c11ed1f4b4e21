"""Shared code of tools/vmaf-crf-sweep, tools/vmaf-target and tools/vmaf-plot.

Encode a source at one CRF, score the encode against the source with vmaf_hip,
and read the filter's JSON log (libvmaf's schema). Only the standard library is
needed, except matplotlib for the pictures, imported only when one is asked for.

usage: vmaf_tune.py [-h]  (a module: run one of the tools above, each with --help)
"""

import argparse
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

LOW_PERCENT = 1
LOW_DEFINITION = ("VMAF 1%% low is the mean of the lowest %d%% of the per-frame VMAF "
                  "values (at least one frame: the minimum when there are fewer than "
                  "100 frames)." % LOW_PERCENT)


class ToolError(Exception):
    """A failure to report in one message, without a traceback."""


def run_main(main):
    try:
        sys.exit(main())
    except ToolError as e:
        sys.exit("%s: %s" % (os.path.basename(sys.argv[0]), e))
    except KeyboardInterrupt:
        sys.exit(130)


# Each encoder's CRF range (the default bounds of the target search) and how its
# speed setting is spelled. libaom and libvpx take the CRF as constant quality only
# with a zero bitrate, so it is set rather than left to the wrapper's default.
ENCODERS = {
    "libx264": dict(crf=(10, 51), preset="-preset", extra=[]),
    "libx265": dict(crf=(10, 51), preset="-preset", extra=["-x265-params", "log-level=error"]),
    "libsvtav1": dict(crf=(10, 63), preset="-preset", extra=[]),
    "libaom-av1": dict(crf=(10, 63), preset="-cpu-used", extra=["-b:v", "0"]),
    "libvpx-vp9": dict(crf=(10, 63), preset="-cpu-used", extra=["-b:v", "0"]),
}


# The environment variable that pins a Dask worker of vmaf-cluster or of
# the tools' --scheduler to one GPU (the filter's device= option).
DEVICE_ENV = "VMAF_CLUSTER_DEVICE"


# The settings of the workers that are threads of this process (a cluster of
# this machine started by vmaf_cluster), by worker name: they share the
# process's environment, which can pin only one of them.
THREAD_WORKERS = {}


def worker_setting(key):
    """A setting of the worker this runs on (DEVICE_ENV, ...): its entry in
    THREAD_WORKERS where it is a thread of this process, else the
    environment's (a worker process of its own, or no worker)."""
    if THREAD_WORKERS:
        # The worker of the task this thread runs; not distributed's
        # get_worker(), which outside a task gives any worker of the process.
        try:
            from distributed.worker import thread_state
            worker = thread_state.execution_state["worker"]
        except (ImportError, AttributeError, KeyError):  # not in a task of a worker
            worker = None
        settings = THREAD_WORKERS.get(worker.name) if worker is not None else None
        if settings is not None:
            return settings.get(key)
    return os.environ.get(key)


def pinned_device():
    """The GPU the worker's DEVICE_ENV names (an index, as a string), or None
    where it is unset or empty (a CPU worker)."""
    return worker_setting(DEVICE_ENV) or None


def add_common_args(p):
    p.add_argument("source", help="the source video: any file ffmpeg reads (.y4m, .mkv, .mp4, ...)")
    p.add_argument("--encoder", default="libx264", metavar="NAME",
                   help="libx264 (default), libx265, libsvtav1, libaom-av1 or libvpx-vp9")
    p.add_argument("--preset", metavar="P",
                   help="encoder speed: -preset for x264/x265/SVT-AV1, -cpu-used for libaom/libvpx "
                        "(default: the encoder's own)")
    p.add_argument("--ffmpeg", metavar="PATH",
                   help="ffmpeg with vmaf_hip (default: the one beside this tool, as in the archive "
                        "and the package, else build/ffmpeg of this repository, else ffmpeg on PATH); "
                        "ffprobe is taken from the same directory, else PATH")
    p.add_argument("--out", metavar="DIR",
                   help="keep the encodes and JSON logs here (default: a temporary directory, removed)")
    p.add_argument("--source-opts", default="", metavar="OPTS",
                   help="ffmpeg input options for the source, e.g. for raw video "
                        "'-f rawvideo -pixel_format yuv420p -video_size 576x324 -framerate 25'")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="encode and score on a Dask cluster, one task per CRF: 'local' starts "
                        "one on this machine (as vmaf-cluster does: a worker per GPU, else two "
                        "CPU workers), else a running scheduler's address (tcp://host:8786), whose "
                        "workers must see the same paths (--out on a shared filesystem)")


class CrfScorer:
    """One source, one encoder, one output directory: encode and score at any CRF."""

    def __init__(self, args):
        self.ffmpeg, self.ffprobe = find_ffmpeg(args.ffmpeg)
        check_ffmpeg(self.ffmpeg, args.encoder)
        if not os.path.exists(args.source):
            raise ToolError("%s: no such file" % args.source)
        self.source = os.path.abspath(args.source)
        self.source_opts = shlex.split(args.source_opts)
        self.encoder = args.encoder
        self.preset = args.preset
        self.pix_fmt = probe_pix_fmt(self.ffprobe, self.source_opts, self.source)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            self.out, self.keep = os.path.abspath(args.out), True
        else:
            self.out, self.keep = tempfile.mkdtemp(prefix="vmaf-tune."), False

    def close(self):
        if not self.keep:
            shutil.rmtree(self.out, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def measure(self, crf):
        """Encode at crf and score it: a dict of crf, kbps, vmaf, vmaf_low, psnr_y, log."""
        name = "%s-crf%d" % (self.encoder, crf)
        encode = os.path.join(self.out, name + ".mkv")
        log = name + ".json"
        enc = ENCODERS[self.encoder]
        cmd = [self.ffmpeg, "-hide_banner", "-nostdin", "-y", "-v", "error"]
        cmd += self.source_opts + ["-i", self.source, "-map", "0:v:0", "-an", "-sn", "-dn"]
        cmd += ["-c:v", self.encoder, "-crf", str(crf)] + enc["extra"]
        if self.preset:
            cmd += [enc["preset"], self.preset]
        # The encode keeps the source's pixel format so that vmaf_hip compares like with like.
        cmd += ["-pix_fmt", self.pix_fmt, encode]
        run(cmd, "encoding at CRF %d" % crf)
        kbps, pix_fmt = probe_encode(self.ffprobe, encode)
        if pix_fmt != self.pix_fmt:
            # ffmpeg falls back to a format the encoder supports, with only a warning.
            raise ToolError("%s cannot encode %s (it wrote %s): convert the source or pick another encoder"
                            % (self.encoder, self.pix_fmt, pix_fmt))

        # Pair frames by index, not timestamp: the encode's container may round the
        # timestamps (Matroska keeps milliseconds), which would pair the wrong frames.
        # A cluster's worker pinned to a GPU scores on that one.
        device = pinned_device()
        graph = ("[0:v]settb=1,setpts=N[dis];[1:v]settb=1,setpts=N[ref];[dis][ref]vmaf_hip="
                 + ("device=%s:" % device if device is not None else "")
                 + "feature=name=psnr:log_fmt=json:log_path=" + log)
        cmd = [self.ffmpeg, "-hide_banner", "-nostdin", "-v", "error", "-i", encode]
        cmd += self.source_opts + ["-i", self.source, "-lavfi", graph, "-f", "null", "-"]
        # cwd=out keeps log_path a plain name, free of characters the filtergraph parser
        # would need escaped.
        log_file = os.path.join(self.out, log)
        if os.path.exists(log_file):
            os.remove(log_file)  # a log left by an earlier run in --out must not pass for this one
        run(cmd, "scoring CRF %d with vmaf_hip" % crf, cwd=self.out)
        log = log_file
        if not os.path.exists(log):
            raise ToolError("scoring CRF %d produced no score: ffmpeg wrote no log %s" % (crf, log))
        frames = load_log(log, ["vmaf", "psnr_y"])
        vmaf = [f["vmaf"] for f in frames]
        return dict(crf=crf, kbps=kbps, vmaf=mean(vmaf),
                    vmaf_low=low_mean(vmaf), psnr_y=mean([f["psnr_y"] for f in frames]), log=log)


def find_ffmpeg(path):
    if path is None:
        # Beside the tools in the archive's and the package's bin/; in the
        # repository, the build's.
        beside = os.path.join(os.path.dirname(os.path.realpath(__file__)), "ffmpeg")
        built = os.path.join(REPO, "build", "ffmpeg")
        path = next((p for p in (beside, built) if os.access(p, os.X_OK)), None) or shutil.which("ffmpeg")
        if path is None:
            raise ToolError("no ffmpeg: neither %s nor ffmpeg on PATH "
                            "(build it with make, or pass --ffmpeg)" % built)
    elif os.sep not in path:
        path = shutil.which(path) or path
    if not os.access(path, os.X_OK):
        raise ToolError("%s: not an executable ffmpeg" % path)
    probe = os.path.join(os.path.dirname(path), "ffprobe")
    if not os.access(probe, os.X_OK):
        probe = shutil.which("ffprobe")
        if probe is None:
            raise ToolError("no ffprobe beside %s or on PATH" % path)
    return path, probe


def check_ffmpeg(ffmpeg, encoder):
    filters = run([ffmpeg, "-hide_banner", "-filters"], "listing filters")
    if " vmaf_hip " not in filters:
        raise ToolError("%s has no vmaf_hip filter (use this repository's build/ffmpeg)" % ffmpeg)
    listed = run([ffmpeg, "-hide_banner", "-encoders"], "listing encoders")
    present = {line.split()[1] for line in listed.splitlines()
               if line.startswith(" V") and len(line.split()) > 1}
    usable = [e for e in ENCODERS if e in present]
    have = ", ".join(usable) or "none of them"
    if encoder not in ENCODERS:
        raise ToolError("unknown encoder %s: the tools know %s; this ffmpeg has %s"
                        % (encoder, ", ".join(ENCODERS), have))
    if encoder not in present:
        raise ToolError("encoder %s is missing from %s; available: %s" % (encoder, ffmpeg, have))


def run(cmd, what, cwd=None):
    """Run a command; its stdout, or a ToolError quoting the start of its stderr."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    except OSError as e:
        raise ToolError("%s: cannot run %s: %s" % (what, cmd[0], e))
    if p.returncode != 0:
        # ffmpeg states the cause first; what follows is mostly its consequences.
        tail = "\n".join(p.stderr.strip().splitlines()[:6]) or "(no message)"
        raise ToolError("%s failed (%s exited with %d):\n%s" % (what, os.path.basename(cmd[0]),
                                                               p.returncode, tail))
    return p.stdout


def probe_json(ffprobe, args, what):
    out = run([ffprobe, "-v", "error", "-of", "json"] + args, what)
    return json.loads(out)


def probe_pix_fmt(ffprobe, source_opts, source):
    info = probe_json(ffprobe, source_opts + ["-select_streams", "v:0", "-show_entries",
                                              "stream=pix_fmt", source], "reading " + source)
    streams = info.get("streams") or []
    if not streams or not streams[0].get("pix_fmt"):
        raise ToolError("%s: no video stream" % source)
    return streams[0]["pix_fmt"]


def probe_encode(ffprobe, path):
    """The video stream's bitrate, its packets' bytes over the file's duration (no
    container overhead), and its pixel format."""
    info = probe_json(ffprobe, ["-select_streams", "v:0", "-show_entries",
                                "packet=size:format=duration:stream=pix_fmt", path], "reading " + path)
    size = sum(int(p["size"]) for p in info.get("packets", []))
    duration = float(info.get("format", {}).get("duration", 0) or 0)
    if size == 0 or duration <= 0:
        raise ToolError("%s: no packets or no duration, cannot compute its bitrate" % path)
    streams = info.get("streams") or [{}]
    return size * 8 / duration / 1000, streams[0].get("pix_fmt")


def load_log(path, metrics):
    """The frames of a VMAF JSON log, each a dict of the named metrics (frames lacking one are dropped)."""
    try:
        with open(path) as f:
            log = json.load(f)
    except OSError as e:
        raise ToolError("%s: %s" % (path, e.strerror))
    except ValueError as e:
        raise ToolError("%s: not a VMAF JSON log (not JSON: %s)" % (path, e))
    frames = log.get("frames") if isinstance(log, dict) else None
    if not isinstance(frames, list) or not all(isinstance(f, dict) and "metrics" in f for f in frames):
        raise ToolError('%s: not a VMAF JSON log (no "frames" list of {"frameNum", "metrics"})' % path)
    if not frames:
        raise ToolError("%s: the log has no frames (nothing was scored)" % path)
    have = []
    for f in frames:
        have += [k for k in f["metrics"] if k not in have]
    missing = [m for m in metrics if m not in have]
    if missing:
        raise ToolError("%s has no metric %s; it has: %s" % (path, ", ".join(missing), ", ".join(have)))
    out = []
    for i, f in enumerate(frames):
        if all(m in f["metrics"] for m in metrics):
            row = {m: float(f["metrics"][m]) for m in metrics}
            row["frameNum"] = f.get("frameNum", i)
            out.append(row)
    return out


def mean(values):
    return sum(values) / len(values)


def low_mean(values):
    """Mean of the lowest LOW_PERCENT % of values, at least one of them."""
    n = max(1, len(values) * LOW_PERCENT // 100)
    return mean(sorted(values)[:n])


def parse_crfs(text):
    try:
        crfs = [int(c) for c in text.split(",") if c.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("CRFs are integers separated by commas, e.g. 23,28,33,38")
    if not crfs:
        raise argparse.ArgumentTypeError("no CRF given")
    return crfs


HEADER = "%4s %10s %10s %12s %8s" % ("CRF", "kbit/s", "VMAF mean", "VMAF 1% low", "PSNR-Y")


def row(m):
    return "%4d %10.1f %10.3f %12.3f %8.3f" % (m["crf"], m["kbps"], m["vmaf"], m["vmaf_low"], m["psnr_y"])


def pyplot():
    """matplotlib's pyplot without a display, or a ToolError saying how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise ToolError("matplotlib is missing for %s (on Debian: apt install python3-matplotlib, "
                        "then run the tool with /usr/bin/python3)" % sys.executable)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save_png(fig, path):
    """Write a 256-colour PNG: a third of the size of matplotlib's RGBA one, the same look
    for line plots. Without Pillow (matplotlib needs it since 3.3) keep the RGBA one."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    try:
        from PIL import Image
    except ImportError:
        Image = None
    try:
        if Image is None:
            with open(path, "wb") as f:
                f.write(buf.getvalue())
        else:
            Image.open(buf).convert("RGB").quantize(256).save(path, format="PNG", optimize=True)
    except OSError as e:
        raise ToolError("cannot write %s: %s" % (path, e.strerror or e))


def plot_rate_quality(measures, title, png):
    plt = pyplot()
    pts = sorted(measures, key=lambda m: m["kbps"])
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    x = [m["kbps"] for m in pts]
    ax.plot(x, [m["vmaf"] for m in pts], "o-", color="tab:blue", label="VMAF mean")
    ax.plot(x, [m["vmaf_low"] for m in pts], "s--", color="tab:orange", ms=4, label="VMAF 1% low")
    for m in pts:
        ax.annotate("CRF %d" % m["crf"], (m["kbps"], m["vmaf"]), textcoords="offset points",
                    xytext=(-5, 7), ha="right", fontsize=8)
    ax.margins(x=0.08, y=0.08)
    ax.set_title(title)
    ax.set_xlabel("bitrate (kbit/s)")
    ax.set_ylabel("VMAF (0-100, model vmaf_v0.6.1)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    save_png(fig, png)
    plt.close(fig)


if __name__ == "__main__":
    # Nothing to run by itself: -h/--help prints the docstring above, anything
    # else its usage line, on stderr.
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        sys.exit(0)
    sys.stderr.write(__doc__.strip().splitlines()[-1] + "\n")
    sys.exit(2)
