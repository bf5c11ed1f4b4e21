"""The experiment of bench-chunks-h100-8b1720d.txt, section 3: a pair's chunks as
tasks of a started Dask cluster (vmaf_cluster.start_cluster), four rounds,
each task's start and end; in rounds 2 and 4 the tasks remove the variables
Dask's nannies set (MALLOC_TRIM_THRESHOLD_, OMP/MKL/OPENBLAS_NUM_THREADS)
before running ffmpeg.

Usage: dask-tasks.py BIN DISTORTED REFERENCE OUT WORKERS NVDEC(0|1) CHUNK_FRAMES
(BIN: an unpacked archive's bin/)
"""
import os, sys, time
if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if len(sys.argv) != 8:
    sys.stderr.write(__doc__.strip().split("\n\n")[1] + "\n")
    sys.exit(2)
B = os.path.abspath(sys.argv[1])
sys.path.insert(0, B)
import vmaf_cluster as vc
import vmaf_chunks

KEYS = ("MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")

def task(strip, *a):
    t = time.time()
    seen = {k: os.environ.get(k) for k in KEYS}
    if strip:
        for k in KEYS:
            os.environ.pop(k, None)
    try:
        r = vc.score_chunk(*a)
    finally:
        os.environ.update({k: v for k, v in seen.items() if v is not None})
    r.update(t0=t, t1=time.time(), env=seen)
    return r

def main():
    dis, ref, out, per, nvdec, chunk = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6] == "1", int(sys.argv[7])
    from distributed import Client
    t0 = time.time()
    if nvdec:
        cl, _ = vc.start_cluster(per_gpu=per, cpu_workers=0)
    else:
        cl, _ = vc.start_cluster(gpu_list="none", cpu_workers=per)
    c = Client(cl)
    print("cluster %.2f s" % (time.time() - t0))
    d, r = vmaf_chunks.probe_pair(os.path.join(B, "ffprobe"), dis, ref)
    chunks = vmaf_chunks.plan(d, r, chunk, vmaf_chunks.DEFAULT_LEAD)
    for ch in chunks:
        ch["frames"] = len(d.times)
    for i, strip in enumerate((False, True, False, True)):
        o = os.path.join(out, "r%d" % i)
        os.makedirs(o, exist_ok=True)
        ts = time.time()
        futs = [c.submit(task, strip, ch, dis, ref, "model=version=vmaf_v0.6.1", os.path.join(B, "ffmpeg"),
                         os.path.join(o, "c%06d.json" % ch["start"]), nvdec, pure=False) for ch in chunks]
        res = c.gather(futs)
        te = time.time()
        print("strip=%s: %.2f s; env %s; tasks (start, end): %s" % (strip, te - ts, res[0]["env"],
              " ".join("%.2f-%.2f" % (x["t0"] - ts, x["t1"] - ts) for x in res)), flush=True)
    c.close(); cl.close()

if __name__ == "__main__":
    main()
