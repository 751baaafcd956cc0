"""Scale-out benchmark: ROUGE-1/2/L on N synthetic (summary, reference) pairs through Dask.

Reports throughput (pairs/s) and the peak resident memory of each worker, on a LocalCluster here
or on the scheduler named by --scheduler. Usage:

    python benchmarks/bench_scale_out.py --pairs 1000000 --workers 2
"""
from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time

from rougelab.scale import client, score_dask
from rougelab.synthetic import synthetic_pairs

METRICS = ["rouge-1", "rouge-2", "rouge-l"]


def _peak_rss_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--partition", type=int, default=20_000, help="rows per partition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: LocalCluster)")
    args = parser.parse_args()

    frame = synthetic_pairs(args.pairs, words=60, seed=0)
    # A fresh score cache, so every run measures scoring, not cache reads (local workers inherit it).
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="rougelab-bench-")
    with client(args.scheduler, n_workers=args.workers, memory_limit="8GiB") as c:
        print(f"{args.pairs:,} pairs, partitions of {args.partition:,}, {len(c.scheduler_info()['workers'])} workers")
        print("| metric | seconds | pairs/s |\n|---|---:|---:|")
        for name in METRICS:
            start = time.perf_counter()
            score_dask(frame, name, chunksize=args.partition).compute()
            seconds = time.perf_counter() - start
            print(f"| {name} | {seconds:.1f} | {args.pairs / seconds:,.0f} |")
        peaks = c.run(_peak_rss_mib)
    for worker, mib in sorted(peaks.items()):
        print(f"peak RSS {worker}: {mib:,.0f} MiB")
    print(f"machine: {platform.machine()}, {platform.python_version()}, date {time.strftime('%Y-%m-%d')}")


if __name__ == "__main__":
    main()
