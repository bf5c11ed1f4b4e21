"""The experiment behind chunks-processes-h100-a1d969e.txt: a pair's chunks
shared among fewer ffmpeg processes than chunks, each chunk a filtergraph of
its own, merged by vmaf-merge.

Usage: chunks-processes.py BIN DISTORTED REFERENCE CHUNK_FRAMES PROCESSES NVDEC(0|1) LOG
(BIN: an unpacked archive's bin/, with ffmpeg, ffprobe, vmaf-merge and vmaf_chunks.py)
"""
import concurrent.futures, os, subprocess, sys, tempfile, time
if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if len(sys.argv) != 8:
    sys.stderr.write(__doc__.strip().split("\n\n")[1] + "\n")
    sys.exit(2)
bindir, dis, ref, chunk, procs, nvdec = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1"
out = sys.argv[7]
sys.path.insert(0, bindir)
import vmaf_chunks as vc
ff, fp, mg = (os.path.join(bindir, n) for n in ("ffmpeg", "ffprobe", "vmaf-merge"))
t0 = time.time()
d, r = vc.probe_frames(fp, dis), vc.probe_frames(fp, ref)
chunks = vc.plan(d, r, chunk)
work = tempfile.mkdtemp(prefix="multi.")
files = [os.path.join(work, "chunk-%06d.json" % c["start"]) for c in chunks]
groups = [list(range(i, len(chunks), procs)) for i in range(procs)]
hw = ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda"] if nvdec else []
def run(group):
    cmd = [ff, "-hide_banner", "-nostdin", "-nostats", "-v", "error", "-copyts", "-start_at_zero"]
    graph, maps = [], []
    for k, i in enumerate(group):
        s = chunks[i]
        for seek, path in ((s["seek_dist"], dis), (s["seek_ref"], ref)):
            if seek is not None:
                cmd += ["-ss", "%.6f" % seek]
            cmd += hw + ["-i", os.path.abspath(path)]
        g = "[%d:v][%d:v]vmaf_hip=chunk_start=%d:chunk_first=%d:chunk_first_time=%s" % (2 * k, 2 * k + 1, s["start"], s["first"], s["first_time"])
        if s["end"] is not None:
            g += ":chunk_end=%d" % s["end"]
        g += ":log_fmt=chunk:log_path=%s[o%d]" % (os.path.basename(files[i]), k)
        graph += ["-filter_complex", g]  # a graph (a thread) each
        maps += ["-map", "[o%d]" % k, "-f", "null", "-"]
    p = subprocess.run(cmd + graph + maps, cwd=work, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("ffmpeg failed: " + p.stderr[-2000:])
with concurrent.futures.ThreadPoolExecutor(procs) as pool:
    list(pool.map(run, groups))
vc.merge(mg, files, "json", out, len(d.times))
print("%d chunks in %d processes: %.1f s" % (len(chunks), procs, time.time() - t0))
