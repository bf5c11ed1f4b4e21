"""Shared code of tools/vmaf-cluster: the tasks its workers run, the
manifest, the results table. Imported by the workers too, so it holds no
state of its own.

usage: vmaf_cluster.py is a module with nothing to run: run tools/vmaf-cluster"""

import contextlib
import csv
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time

import vmaf_tune as vt

# The environment variable that pins a worker to one GPU (the filter's
# device= option); a worker without it scores on the CPU.
DEVICE_ENV = vt.DEVICE_ENV
# Set to 'cpu' for a GPU worker that decodes in software even with --nvdec.
DECODE_ENV = "VMAF_CLUSTER_DECODE"
# The Dask resources of the GPU workers of a cluster started here: NVDEC for
# those that decode there with --nvdec, CPU_DECODE for those that decode on
# the CPU; a chunked title is split between the two kinds where both are.
NVDEC = "nvdec"
CPU_DECODE = "cpu-decode"
# The frames of a chunked title a worker decoding on the CPU takes, in NVDEC
# workers' worth. On an H100 host with fast cores (tools/results/bench-chunks-
# h100-a84d89c.txt, call 6), one such worker beside eight NVDEC workers
# decoded about 335 frames a second and each NVDEC worker about 145: with a
# fifth of the title for it, 9.6 s against 10.3 with a tenth and 10.6 with
# none. On hosts with slower cores (calls 7 and 9), a fifth changed nothing
# (12.0 s) or cost 0.7 s, and a quarter cost 1.8 s: it needs cores to spare,
# so no such worker is started unless asked for (--sw-per-gpu).
CPU_DECODE_WEIGHT = 2
TOOLS = os.path.dirname(os.path.realpath(__file__))

# Set before distributed is imported, for this process and the workers it
# starts; a value in the environment is kept. Dask's GPU monitoring is of
# no use here, and Debian 12's distributed (2022.12) fails to start its
# workers where a newer pynvml is installed (nvidia-ml-py returns names as
# str; it calls .decode() on them).
os.environ.setdefault("DASK_DISTRIBUTED__DIAGNOSTICS__NVML", "False")
# Worker processes of a cluster started here (--processes) are forked from a
# server process that has imported distributed once, not each spawned as a
# new python that imports it: 8 workers on 2 cores started in 0.9 s rather
# than 2.6, and closed in 0.05 s rather than 1.0.
os.environ.setdefault("DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD", "forkserver")
PROGRESS_TOPIC = "vmaf-cluster-frames"
MANIFEST_KEYS = ("distorted", "reference", "model", "options", "name")

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    pair        TEXT NOT NULL,   -- the manifest row's name
    model       TEXT NOT NULL,   -- the model's name in the log ('vmaf' unless name= says)
    distorted   TEXT NOT NULL,
    reference   TEXT NOT NULL,
    models      TEXT NOT NULL,   -- the filter's model option
    options     TEXT NOT NULL,   -- the other filter options, as given
    job         TEXT NOT NULL,   -- a hash of all of the above but model: a rerun skips a job done
    status      TEXT NOT NULL,   -- 'ok' or 'error'
    error       TEXT,            -- what went wrong, for 'error'
    frames      INTEGER,         -- frames scored
    mean        REAL,            -- the model's pooled scores
    harmonic_mean REAL,
    min         REAL,
    max         REAL,
    pooled      TEXT,            -- every pooled metric of the log, JSON
    log_path    TEXT,            -- the pair's log (JSON)
    version     TEXT,            -- the scoring tool's version (the log's)
    host        TEXT,            -- where it ran
    device      TEXT,            -- 'gpu N' or 'cpu'
    wall_s      REAL,            -- the task's wall time
    finished    TEXT,            -- UTC, ISO 8601
    PRIMARY KEY (pair, model)
);
"""


def gpus():
    """The GPUs this machine shows: CUDA_VISIBLE_DEVICES when set, else
    nvidia-smi's list; their indices as the filter's device= takes them."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return [str(i) for i, d in enumerate(x for x in visible.split(",") if x.strip())]
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        out = vt.run([smi, "-L"], "listing GPUs")
    except vt.ToolError:
        return []
    return [str(i) for i, line in enumerate(l for l in out.splitlines() if l.startswith("GPU "))]


def worker_specs(devices, per_gpu=1, sw_per_gpu=0, cpu_workers=0, env=None):
    """The workers of a cluster of this machine, by name: their environment
    (env and what pins them) and one thread each. For each GPU of devices,
    per_gpu workers that decode as --nvdec says, and sw_per_gpu more that
    always decode on the CPU (beside NVDEC, the cores are decoders too);
    then cpu_workers that score on the CPU."""
    # Both variables are set for every worker, empty where they do not
    # apply: a worker's environment only adds to the one it inherits.
    env = env or {}
    specs = {}
    for d in devices:
        for k in range(per_gpu):
            specs["gpu%s-%d" % (d, k)] = dict(env, **{DEVICE_ENV: d, DECODE_ENV: ""})
        for k in range(sw_per_gpu):
            specs["gpu%s-sw%d" % (d, k)] = dict(env, **{DEVICE_ENV: d, DECODE_ENV: "cpu"})
    for k in range(cpu_workers):
        specs["cpu-%d" % k] = dict(env, **{DEVICE_ENV: "", DECODE_ENV: ""})
    return specs


def start_cluster(gpu_list=None, per_gpu=1, sw_per_gpu=0, cpu_workers=None, processes=False):
    """A SpecCluster of this machine's workers (worker_specs(); gpu_list: GPU
    indices joined by ',', 'none', or None for all; cpu_workers default: 2
    without a GPU, else 0), and a line saying which. The workers are threads
    of this process, or with processes, processes of their own (Dask's Nanny
    restarts one that dies)."""
    from distributed import Nanny, Scheduler, SpecCluster, Worker
    devices = [] if gpu_list == "none" else (gpu_list.split(",") if gpu_list else gpus())
    cpu = cpu_workers if cpu_workers is not None else (0 if devices else 2)
    env = {"PYTHONPATH": TOOLS + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "DASK_LOGGING__DISTRIBUTED": "error"}
    specs = worker_specs(devices, per_gpu, sw_per_gpu, cpu, env)
    if not specs:
        raise vt.ToolError("no workers: no GPU found and --cpu-workers 0")
    os.environ.update(env)

    def options(e):
        o = {"nthreads": 1, "dashboard": False}
        if e[DEVICE_ENV]:
            o["resources"] = {CPU_DECODE if e[DECODE_ENV] == "cpu" else NVDEC: 1}
        return o

    if processes:
        workers = {name: {"cls": Nanny, "options": dict(options(e), env=e)}
                   for name, e in specs.items()}
    else:
        # A task runs ffmpeg and waits for it: a thread does that as well as a
        # process, and 8 threads start in 0.17-0.20 s where 8 processes take
        # 0.75-0.84 s (2 cores, tools/results/cluster-start-cpu.txt). Their
        # settings are kept by name, not in the environment.
        vt.THREAD_WORKERS.update(specs)
        workers = {name: {"cls": Worker, "options": options(e)} for name, e in specs.items()}
    cluster = SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {
        "dashboard_address": None}}, silence_logs=40)
    return cluster, "%d worker(s), %s: %s" % (
        len(workers), "processes of their own" if processes else "threads of this process",
        ", ".join(sorted(workers)))


def require_distributed():
    """A clear error where this python has no dask.distributed, or one that
    does not import (another python's package: Debian 12's is for 3.11)."""
    try:
        import distributed  # noqa: F401
    except ModuleNotFoundError as e:
        if e.name not in ("distributed", "dask"):
            raise vt.ToolError("dask.distributed does not import in %s (%s): it needs a "
                               "package this python lacks" % (sys.executable, e))
        raise vt.ToolError("no dask.distributed for %s: install Debian's python3-distributed"
                           % sys.executable)
    except Exception as e:
        raise vt.ToolError("dask.distributed does not import in %s: %s: %s (a package made "
                           "for another python?)" % (sys.executable, type(e).__name__, e))


@contextlib.contextmanager
def connect(scheduler, **workers):
    """A client of a running cluster (scheduler: its address), or of one
    started on this machine (scheduler None or 'local'; workers: those of
    start_cluster()); and where it runs, in words. Both closed on the way out."""
    require_distributed()
    from distributed import Client
    cluster = None
    if scheduler and scheduler != "local":
        client, where = Client(scheduler), "the cluster at %s" % scheduler
    else:
        try:
            cluster, where = start_cluster(**workers)
        except RuntimeError as e:
            # SpecCluster's own words, without a traceback.
            raise vt.ToolError("the Dask cluster of this machine did not start: %s" % e)
        client = Client(cluster)
    try:
        yield client, where
    finally:
        client.close()
        if cluster:
            cluster.close()


@contextlib.contextmanager
def crf_measures(scorer, scheduler):
    """For vmaf-crf-sweep and vmaf-target: a function that measures a list
    of CRFs with scorer (vmaf_tune.CrfScorer) and yields the measures in the
    list's order, and how many CRFs it measures at once. Here, one after the
    other; with a scheduler ('local' or an address), as tasks of a Dask
    cluster, one per CRF, as many at once as it has workers."""
    if not scheduler:
        yield (lambda crfs: (scorer.measure(c) for c in crfs)), 1
        return
    if scheduler != "local" and not scorer.keep:
        raise vt.ToolError("--scheduler %s needs --out DIR, a folder every worker sees" % scheduler)
    with connect(scheduler) as (client, where):
        width = max(len(client.scheduler_info()["workers"]), 1)
        print("encoding and scoring on %s" % where, file=sys.stderr)

        def measure(crfs):
            futures = [client.submit(scorer.measure, c, key="crf-%d-%s" % (c, scorer.out))
                       for c in crfs]
            for f in futures:
                yield f.result()
        yield measure, width


class ManifestError(Exception):
    pass


def read_manifest(path):
    """Rows of a CSV (with a header) or JSON (a list of objects) manifest:
    dicts with distorted, reference, model, options and name."""
    try:
        with open(path, newline="") as f:
            if path.endswith(".json"):
                rows = json.load(f)
                if not isinstance(rows, list):
                    raise ManifestError("%s: a JSON manifest is a list of objects" % path)
            else:
                rows = list(csv.DictReader(f))
    except (OSError, ValueError) as e:
        raise ManifestError("%s: %s" % (path, e))
    out, names = [], set()
    for i, r in enumerate(rows, 1):
        if not isinstance(r, dict):
            raise ManifestError("%s: row %d is not an object" % (path, i))
        unknown = set(k for k in r if k) - set(MANIFEST_KEYS)
        if unknown:
            raise ManifestError("%s: row %d: unknown column %s (columns: %s)" %
                                (path, i, ", ".join(sorted(unknown)), ", ".join(MANIFEST_KEYS)))
        row = {k: (r.get(k) or "").strip() for k in MANIFEST_KEYS}
        if not row["distorted"] or not row["reference"]:
            raise ManifestError("%s: row %d: distorted and reference are required" % (path, i))
        row["model"] = row["model"] or "version=vmaf_v0.6.1"
        row["name"] = row["name"] or "%03d-%s" % (i, os.path.splitext(os.path.basename(row["distorted"]))[0])
        if row["name"] in names:
            raise ManifestError("%s: row %d: the name %s is used twice" % (path, i, row["name"]))
        names.add(row["name"])
        out.append(row)
    return out


def model_names(models):
    """The names the log gives the models of a model option."""
    names = []
    for spec in models.split("|"):
        name = "vmaf"
        for kv in spec.split(":"):
            if kv.startswith("name="):
                name = kv[5:]
        names.append(name)
    return names


def model_option(models):
    """The filter's model option for a model string: its own ':' escaped twice,
    for the filtergraph, then for the filter's option parser."""
    return "model=" + models.replace(":", "\\\\:")


def job_key(row):
    text = json.dumps([row[k] for k in ("name", "distorted", "reference", "model", "options")])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def filter_options(ffmpeg):
    """The option names vmaf_hip takes, from its help."""
    out = vt.run([ffmpeg, "-hide_banner", "-h", "filter=vmaf_hip"], "reading vmaf_hip's options")
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # Options are indented 3 spaces, their constants 5.
        if line.startswith("   ") and not line.startswith("     ") and parts and \
           len(parts) > 1 and parts[1].startswith("<"):
            names.add(parts[0])
    return names


def check_options(options, known):
    """'' or what is wrong with a row's options (key=value, ':'-separated)."""
    if not options:
        return ""
    for kv in options.split(":"):
        key = kv.split("=", 1)[0]
        if "=" not in kv:
            return "options: '%s' is not key=value" % kv
        if key in ("model", "log_path", "log_fmt", "device"):
            return "options: %s is set by the tool (the model column, the log, the worker's GPU)" % key
        if key not in known:
            return "options: unknown option '%s' of vmaf_hip" % key
    return ""


def worker_device():
    """The GPU this worker is pinned to (its index as a string), or None."""
    return vt.pinned_device()


def hw_options(nvdec):
    """ffmpeg's options for NVDEC on this worker's GPU, as --nvdec's value says
    (True or 'both', 'reference', 'distorted': vmaf_chunks.NVDEC_INPUTS): those
    before the inputs, before the distorted input and before the reference;
    none where the worker scores on the CPU or decodes there. The CUDA device is
    made once, by name, for both inputs: -hwaccel_device N before each input
    would make one per input (ffmpeg looks N up among its devices' names, cuda0,
    cuda1..., before it makes one), so two CUDA contexts in each process,
    taking turns on the GPU."""
    import vmaf_chunks
    device = worker_device()
    if not nvdec or device is None or vt.worker_setting(DECODE_ENV) == "cpu":
        return [], [], []
    hw = ["-hwaccel", "cuda", "-hwaccel_device", "vmaf", "-hwaccel_output_format", "cuda"]
    return (["-init_hw_device", "cuda=vmaf:%s" % device],) + \
        tuple(vmaf_chunks.nvdec_inputs(nvdec, hw))


def backend_option():
    device = worker_device()
    return "device=%s" % device if device is not None else "backend=cpu"


def progress_pub():
    try:
        from distributed import Pub
        return Pub(PROGRESS_TOPIC)
    except Exception:  # no cluster around (a direct call)
        return None


def score_chunk(spec, dist, ref, options, ffmpeg, output, nvdec):
    """Run on a worker: one chunk of a pair (tools/vmaf_chunks.py) into the
    chunk file output, unless a complete one is there (a rerun); returns
    what the table and the progress need."""
    import vmaf_chunks
    start = time.time()
    gpu = worker_device()
    before, dist_in, ref_in = hw_options(nvdec)
    if not os.path.exists(output):
        opts = ":".join(o for o in (options, backend_option()) if o)
        vmaf_chunks.run_chunk(ffmpeg, dist, ref, spec, opts, output, input_options=dist_in,
                              global_options=before, ref_options=ref_in)
    n = (spec["end"] if spec["end"] is not None else spec.get("frames", 0)) - spec["start"]
    _publish(progress_pub(), n)
    device = "cpu" if gpu is None else "gpu %s%s" % (gpu, ", NVDEC" if before else "")
    return dict(output=output, host=socket.gethostname(), wall_s=time.time() - start,
                device=device, began=start)


def _publish(pub, n):
    if pub is not None and n:
        pub.put(n)


def score_pair(row, ffmpeg, out_dir, nvdec=False):
    """Run on a worker: score one manifest row; returns a dict for the table.
    The log is written under another name and renamed once complete, so a
    task that is lost and rerun elsewhere leaves the same file."""
    start = time.time()
    device = worker_device()
    where = "gpu %s" % device if device is not None else "cpu"
    result = dict(row=row, host=socket.gethostname(), device=where, status="error",
                  error=None, frames=0, log_path=None, pooled=None, version=None)
    pub = progress_pub()
    for key in ("distorted", "reference"):
        if not os.path.isfile(row[key]):
            result["error"] = "no such file: %s" % row[key]
            result["wall_s"] = time.time() - start
            return result
    logs = os.path.join(out_dir, "logs")
    os.makedirs(logs, exist_ok=True)
    final = os.path.join(logs, row["name"] + ".json")
    partial = "%s.%s.%d.part" % (final, socket.gethostname(), os.getpid())
    backend = backend_option()
    # The model option's own ':' are escaped twice: for the graph, then the filter.
    opts = [o for o in ("model=" + row["model"].replace(":", "\\\\:"), row["options"], backend,
                        "log_fmt=json", "log_path=" + partial) if o]
    before, dist_in, ref_in = hw_options(nvdec)
    cmd = [ffmpeg, "-nostdin", "-hide_banner", "-nostats", "-v", "error", "-progress", "pipe:1"] + \
        before + dist_in + ["-i", row["distorted"]] + ref_in + ["-i", row["reference"],
           "-lavfi", "vmaf_hip=" + ":".join(opts), "-f", "null", "-"]
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
    except OSError as e:
        result["error"] = "cannot run %s: %s" % (ffmpeg, e)
        return result
    seen = 0
    for line in p.stdout:
        if line.startswith("frame="):
            try:
                n = int(line[6:])
            except ValueError:
                continue
            _publish(pub, n - seen)
            seen = max(seen, n)
    err = p.stderr.read()
    rc = p.wait()
    result["wall_s"] = time.time() - start
    if rc != 0 or not os.path.exists(partial):
        tail = "\n".join(err.strip().splitlines()[:4]) or "(no message)"
        result["error"] = "ffmpeg exited with %d: %s" % (rc, tail)
        if os.path.exists(partial):
            os.unlink(partial)
        return result
    os.replace(partial, final)
    with open(final) as f:
        log = json.load(f)
    result.update(status="ok", frames=len(log.get("frames", [])), log_path=final,
                  pooled=log.get("pooled_metrics", {}), version=log.get("version"))
    return result


def open_table(path):
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    return db


def done_jobs(db):
    """The jobs whose every row is 'ok' and whose log is still there."""
    done = {}
    for job, status, log in db.execute("SELECT job, status, log_path FROM results"):
        ok = status == "ok" and log and os.path.exists(log)
        done[job] = done.get(job, True) and ok
    return {j for j, ok in done.items() if ok}


def record(db, result, error=None):
    """The table's rows of one task's result (one per model)."""
    row = result["row"] if result else None
    status = result["status"] if result and not error else "error"
    error = error or (result or {}).get("error")
    finished = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    pooled = (result or {}).get("pooled") or {}
    db.execute("DELETE FROM results WHERE pair = ?", (row["name"],))
    for model in model_names(row["model"]):
        m = pooled.get(model, {}) if status == "ok" else {}
        db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (row["name"], model, row["distorted"], row["reference"], row["model"],
                    row["options"], job_key(row), status, error, result.get("frames", 0),
                    m.get("mean"), m.get("harmonic_mean"), m.get("min"), m.get("max"),
                    json.dumps(pooled) if status == "ok" else None, result.get("log_path"),
                    result.get("version"), result.get("host"), result.get("device"),
                    result.get("wall_s"), finished))
    db.commit()


if __name__ == "__main__":
    # Nothing to run by itself: -h/--help prints the docstring above, anything
    # else its usage line, on stderr.
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        sys.exit(0)
    sys.stderr.write(__doc__.strip().splitlines()[-1] + "\n")
    sys.exit(2)
