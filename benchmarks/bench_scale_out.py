"""Scale-out benchmark: ROUGE-1, -2 and -L (the registry's metrics) on distinct pairs through Dask.

Pairs: spans of 35-70 words cut from our datasets' articles, no text twice (``rougelab.synthetic.article_spans``).
Rows: one process scoring the three measures in one ``rouge()`` call (the numbers of ``rouge-1``, ``rouge-2``
and ``rouge-l``: stemming, Punkt sentences for ROUGE-L; numba's two threads); the same process through the
registry with an empty score cache (``score_cache.cached_scores``: the three metrics in one pass, hashed
and written to the cache); and ``score_dask`` (the three metrics in one pass per partition) on a LocalCluster
of one-thread workers or on the scheduler given. Each side first scores 50 pairs (its kernels loaded). Where
a partition's time goes is measured in this process on one partition: hashing the texts, scoring, writing
the cache files. Usage:

    python benchmarks/bench_scale_out.py --pairs 1000000 --workers 2
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
import warnings

import pandas as pd

from rougelab.metrics.registry import get_metric
from rougelab.rouge import rouge
from rougelab.scale import client, score_dask
from rougelab.synthetic import article_spans

METRICS = ["rouge-1", "rouge-2", "rouge-l"]
ARTICLES = ["summeval", "realsumm", "newsroom", "pyrxsum", "qags-cnndm", "qags-xsum", "rank19"]


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(func):
    start = time.perf_counter()
    out = func()
    return out, time.perf_counter() - start


def main() -> None:
    import rougelab
    from rougelab import score_cache

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--partition", type=int, default=20_000, help="rows per partition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: LocalCluster)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning

    articles = [a for name in ARTICLES for a in rougelab.load_dataset(name)["source"]]
    summaries, references = article_spans(articles, args.pairs, seed=2)
    frame = pd.DataFrame({"summary": summaries, "references": references})
    metrics = [get_metric(name) for name in METRICS]
    options = {k: v for k, v in metrics[0].options.items() if k != "measures"}
    load = os.getloadavg()[0]

    warm_up = (summaries[:50], references[:50])  # every side loads its kernels before it is timed
    rouge(*warm_up, METRICS, **options)
    expected, direct = timed(lambda: rouge(summaries, references, METRICS, **options))
    # A fresh score cache, so that every run measures scoring, not cache reads (local workers inherit it).
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="rougelab-bench-")
    _, registry = timed(lambda: score_cache.cached_scores(metrics, summaries, references))
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="rougelab-bench-")
    with client(args.scheduler, n_workers=args.workers, memory_limit="8GiB") as c:
        workers = len(c.scheduler_info()["workers"])
        score_dask(frame[:50], METRICS, chunksize=25).compute()
        got, dask_seconds = timed(lambda: score_dask(frame, METRICS, chunksize=args.partition).compute())
        peaks = c.run(_peak_rss_mib)
    assert got.reset_index(drop=True).equals(expected), "Dask's scores differ from one process's"

    part = slice(0, min(args.partition, args.pairs))
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="rougelab-bench-")
    _, hashing = timed(lambda: score_cache.content_digest(summaries[part], references[part]))
    tables, scoring = timed(lambda: score_cache._score_together(metrics, summaries[part], references[part], None))
    paths = [score_cache._path(m, "bench") for m in metrics]
    _, writing = timed(lambda: [score_cache._write(p, t) for p, t in zip(paths, tables)])

    print(f"`python benchmarks/bench_scale_out.py --pairs {args.pairs} --partition {args.partition} "
          f"--workers {args.workers}`: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {args.pairs:,} distinct pairs, "
          "ROUGE-1/2/L as the registry computes them\n")
    print("| path | seconds | pairs/s | x one process | target |\n|---|---:|---:|---:|---|")
    for label, seconds, target in (("one process, one `rouge()` call (2 threads)", direct, ""),
                                   ("one process, registry `cached_scores` (empty cache)", registry, ""),
                                   (f"Dask, {workers} one-thread workers, partitions of {args.partition:,}",
                                    dask_seconds, ">= 0.8x")):
        print(f"| {label} | {seconds:.1f} | {args.pairs / seconds:,.0f} | {direct / seconds:.2f}x | {target} |")
    n = part.stop
    print(f"\nOne partition of {n:,} pairs in this process: hashing the texts {hashing:.2f} s, scoring the three "
          f"metrics in one call {scoring:.2f} s, writing the three cache files {writing:.3f} s.")
    for worker, mib in sorted(peaks.items()):
        print(f"peak RSS of worker {worker}: {mib:,.0f} MiB")


if __name__ == "__main__":
    main()
