"""How long the cluster vmaf-cluster starts takes to start and close, with
its workers as threads of the process (the default) and as processes of
their own (--processes), as a fresh process of the tool meets it:
vmaf_cluster.start_cluster() with 8 CPU workers, 8 tasks that run
/bin/true, then the close; and the import of distributed before it.

Usage: cluster-start-cpu.py TOOLS threads|processes   (TOOLS: the repository's tools/)
"""
import os
import sys
import time

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
if len(sys.argv) != 3 or sys.argv[2] not in ("threads", "processes"):
    sys.stderr.write(__doc__.strip().split("\n\n")[1] + "\n")
    sys.exit(2)
t_import = time.time()
sys.path.insert(0, os.path.abspath(sys.argv[1]))
import subprocess  # noqa: E402
import vmaf_cluster as vc  # noqa: E402
from distributed import Client  # noqa: E402
t_import = time.time() - t_import


def main():
    processes = sys.argv[2] == "processes"
    t0 = time.time()
    cluster, _ = vc.start_cluster(gpu_list="none", cpu_workers=8, processes=processes)
    t1 = time.time()
    with Client(cluster) as client:
        for f in [client.submit(subprocess.run, ["true"], pure=False) for _ in range(8)]:
            f.result()
    t2 = time.time()
    cluster.close()
    t3 = time.time()
    print("%-9s import %.2f s, start %.2f s, 8 tasks %.2f s, close %.2f s" %
          (sys.argv[2], t_import, t1 - t0, t2 - t1, t3 - t2))


if __name__ == "__main__":
    main()
