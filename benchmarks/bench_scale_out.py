"""The registry path and Dask against one ``rouge()`` call: ROUGE-1, -2 and -L as the registry computes them.

Pairs: spans of 35-70 words cut from our datasets' articles, no text twice (``rougelab.synthetic.article_spans``).
Every side runs in a fresh process, the sides take turns (the next round in the reverse order), and each
first scores 50 other pairs (its kernels loaded); a figure is the median over ``--rounds`` rounds (lowest and
highest round in brackets), a ratio is taken round by round.

* Registry (``--registry-pairs``): ``get_metric("rouge-l").score``; ``score_together`` of rouge-1/2/l (what
  ``rougelab score`` and ``corpus_score`` run); ``cached_scores`` of the three with an empty score cache (what
  ``evaluate``, the leaderboard and Dask run: the texts hashed, three cache files written) -- each against
  ``rouge()`` with the same options and measures, the median of repeated calls on the same batch.
* Scale-out (``--pairs``): Parquet in, Parquet out. One process (numba's threads: one per core) reads the
  pairs with pandas, makes one ``rouge()`` call and writes the scores; Dask runs ``score_parquet`` on a
  LocalCluster of ``--workers`` one-thread workers (or the scheduler given), partitions of ``--partition``
  rows, an empty score cache. The two outputs must be equal. Times exclude starting the cluster.
* Where a Dask partition's time goes, measured in this process on one partition of each ``--partition``
  size: reading it from Parquet, pickling it (what travels between processes when a partition is not read
  where it is scored), hashing its texts, scoring, writing its cache files, writing its scores to Parquet.

Usage (``make bench`` runs the defaults: 1,000,000 pairs in partitions of 50,000, 3 rounds)::

    python benchmarks/bench_scale_out.py [--pairs 1000000] [--partition 50000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from bench_speed import time_calls  # one timer for every benchmark (a warm-up call, then the median)

METRICS = ["rouge-1", "rouge-2", "rouge-l"]
ARTICLES = ["summeval", "realsumm", "newsroom", "pyrxsum", "qags-cnndm", "qags-xsum", "rank19"]
WARM_UP = 50
REGISTRY_ROWS = {"rouge-l": "`get_metric('rouge-l').score`",
                 "together": "`score_together` of rouge-1, -2, -l (`rougelab score`)",
                 "cached": "`cached_scores` of rouge-1, -2, -l, empty cache (`evaluate`, Dask)"}


# ----------------------------------------------------------------------------------------------- data


def make_data(folder: Path, pairs: int, registry_pairs: int, partition: int) -> None:
    """The warm-up and registry batches (a pickle) and the scale-out pairs (Parquet, one file a partition)."""
    import pandas as pd

    import rougelab
    from rougelab.synthetic import article_spans

    articles = [a for name in ARTICLES for a in rougelab.load_dataset(name)["source"]]
    summaries, references = article_spans(articles, WARM_UP + max(pairs, registry_pairs), seed=2)
    warm = (summaries[:WARM_UP], references[:WARM_UP])
    summaries, references = summaries[WARM_UP:], references[WARM_UP:]
    batches = {"warm-up": warm, "registry": (summaries[:registry_pairs], references[:registry_pairs])}
    (folder / "batches.pickle").write_bytes(pickle.dumps(batches))
    pd.DataFrame({"summary": warm[0], "references": warm[1]}).to_parquet(folder / "warm-up.parquet", index=False)
    (folder / "pairs").mkdir()
    for lo in range(0, pairs, partition):
        hi = min(lo + partition, pairs)
        pd.DataFrame({"summary": summaries[lo:hi], "references": references[lo:hi]}).to_parquet(
            folder / "pairs" / f"part-{lo // partition:05d}.parquet", index=False)


def options() -> dict:
    """``rouge()``'s options for the registry's rouge-1/2/l (all but ``measures``)."""
    from rougelab.metrics.registry import get_metric

    return {k: v for k, v in get_metric(METRICS[0]).options.items() if k != "measures"}


# -------------------------------------------------------------------------------------------- workers


def registry_side(side: str, folder: Path) -> dict:
    """Seconds of each registry row, through the registry (``side="registry"``) or one ``rouge()`` call."""
    from rougelab.metrics.registry import get_metric
    from rougelab.metrics.together import score_together
    from rougelab.rouge import rouge
    from rougelab.score_cache import cached_scores

    batches = pickle.loads((folder / "batches.pickle").read_bytes())
    metrics = [get_metric(name) for name in METRICS]
    caches = tempfile.mkdtemp(prefix="caches-", dir=folder)  # removed with the folder

    def empty_cache_scores(batch):
        os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(dir=caches)
        return cached_scores(metrics, *batch)

    rows = {"registry": {"rouge-l": lambda b: metrics[2].score(*b), "together": lambda b: score_together(metrics, *b),
                         "cached": empty_cache_scores},
            "rouge()": {"rouge-l": lambda b: rouge(*b, ["rouge-l"], **options()),
                        "together": lambda b: rouge(*b, METRICS, **options()),
                        "cached": lambda b: rouge(*b, METRICS, **options())}}[side]
    for func in rows.values():
        func(batches["warm-up"])
    return {row: time_calls(lambda: func(batches["registry"])) for row, func in rows.items()}


def one_process_side(folder: Path) -> dict:
    """Parquet in, one ``rouge()`` call, Parquet out, in this process."""
    import pandas as pd

    from rougelab.rouge import rouge

    warm = pd.read_parquet(folder / "warm-up.parquet")  # the Parquet reader's imports, as the workers' warm-up
    rouge(warm["summary"].tolist(), [list(r) for r in warm["references"]], METRICS, **options())
    start = time.perf_counter()
    frame = pd.read_parquet(folder / "pairs")
    summaries, references = frame["summary"].tolist(), [list(r) for r in frame["references"]]
    read = time.perf_counter()
    scores = rouge(summaries, references, METRICS, **options())
    scored = time.perf_counter()
    scores.to_parquet(folder / "one-process.parquet", index=False)
    return {"seconds": time.perf_counter() - start, "scoring": scored - read, "peak_mib": _peak_rss_mib()}


def dask_side(folder: Path, workers: int, partition: int, scheduler: str | None) -> dict:
    """``score_parquet`` on a LocalCluster of one-thread workers (or ``scheduler``), an empty score cache;
    numba's compiled kernels are read from the usual cache, as the one-process side reads them (an empty
    ``numba/`` made each worker compile the kernels that the warm-up's few pairs do not call)."""
    from rougelab.paths import cache_dir
    from rougelab.scale import client, score_parquet

    empty = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
    (empty / "numba").symlink_to(cache_dir("numba"), target_is_directory=True)
    os.environ["ROUGELAB_CACHE"] = str(empty)  # local workers inherit it
    with client(scheduler, n_workers=workers, memory_limit="4GiB") as c:
        n = len(c.scheduler_info()["workers"])
        c.run(_warm_worker, folder)  # every worker's imports and kernels
        score_parquet(str(folder / "warm-up.parquet"), tempfile.mkdtemp(dir=folder), METRICS)  # the client's imports
        target = folder / f"dask-{partition}"
        start = time.perf_counter()
        score_parquet(str(folder / "pairs"), str(target), METRICS)
        seconds = time.perf_counter() - start
        peaks = c.run(_peak_rss_mib)
    return {"seconds": seconds, "workers": n, "peak_mib": max(peaks.values())}


def _warm_worker(folder: Path) -> None:
    """Load what reading, scoring and writing a partition needs (on a Dask worker: ``Client.run``): the
    Parquet reader, dask.dataframe (a read task unpickles into it), the kernels."""
    import dask.dataframe  # noqa: F401
    import pandas as pd

    from rougelab.scale import score_partition

    score_partition(pd.read_parquet(folder / "warm-up.parquet"), METRICS)
    pd.DataFrame({"x": [1.0]}).to_parquet(folder / f"warm-up-{os.getpid()}.parquet")


def breakdown(folder: Path, partition: int) -> dict:
    """Seconds of each step of scoring one partition in this process (module docstring)."""
    import pandas as pd

    from rougelab import score_cache
    from rougelab.metrics.registry import get_metric
    from rougelab.metrics.together import score_together
    from rougelab.scoring import batch_texts

    _warm_worker(folder)
    metrics = [get_metric(name) for name in METRICS]
    path = sorted((folder / "pairs").glob("*.parquet"))[0]
    out: dict = {}
    start = time.perf_counter()
    part = pd.read_parquet(path)
    out["read Parquet"] = time.perf_counter() - start
    summaries, references = part["summary"].tolist(), [list(r) for r in part["references"]]
    start = time.perf_counter()
    pickle.loads(pickle.dumps(part))
    out["pickle + unpickle the partition"] = time.perf_counter() - start
    start = time.perf_counter()
    digest = score_cache.content_digest(summaries, references)
    outline = score_cache._outline(batch_texts(summaries, references))
    out["hash the texts"] = time.perf_counter() - start
    start = time.perf_counter()
    tables = score_together(metrics, summaries, references)
    out["score the three metrics (one call)"] = time.perf_counter() - start
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="cache-", dir=folder)
    start = time.perf_counter()
    for metric, table in zip(metrics, tables):
        maker = score_cache._maker(metric)
        score_cache._stored(score_cache._path(metric, outline, digest, maker), maker, table)
    out["write the three cache files"] = time.perf_counter() - start
    start = time.perf_counter()
    pd.concat(tables, axis=1).to_parquet(folder / "breakdown.parquet", index=False)
    out["write the scores to Parquet"] = time.perf_counter() - start
    return {"rows": len(part), "steps": out}


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(args) -> None:
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning (a few texts have such letters)
    kind, folder = args.worker[0], Path(args.worker[1])
    if kind in ("registry", "rouge()"):
        result = registry_side(kind, folder)
    elif kind == "one process":
        result = one_process_side(folder)
    elif kind == "dask":
        result = dask_side(folder, args.workers, args.partition, args.scheduler)
    else:
        result = breakdown(folder, args.partition)
    print(json.dumps(result))


def run(kind: str, folder: Path, args) -> dict:
    command = [sys.executable, __file__, "--worker", kind, str(folder), "--workers", str(args.workers),
               "--partition", str(args.partition)] + (["--scheduler", args.scheduler] if args.scheduler else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------------------------- main


def spread(values, fmt: str = ".3g") -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def alternate(sides: tuple[str, str], rounds: int, folder: Path, args) -> dict:
    results: dict = {side: [] for side in sides}
    for r in range(rounds):
        for side in (sides if r % 2 == 0 else sides[::-1]):
            results[side].append(run(side, folder, args))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000, help="pairs of the scale-out rows")
    parser.add_argument("--partition", type=int, default=50_000, help="rows per partition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: LocalCluster)")
    parser.add_argument("--registry-pairs", type=int, default=20_000, help="pairs of the registry rows")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of alternating processes")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)

    started, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="rougelab-bench-") as name:
        folder = Path(name)
        make_data(folder, args.pairs, args.registry_pairs, args.partition)
        registry = alternate(("registry", "rouge()"), args.rounds, folder, args)
        scale = alternate(("dask", "one process"), args.rounds, folder, args)
        steps = run("breakdown", folder, args)
        import pandas as pd

        expected = pd.read_parquet(folder / "one-process.parquet")
        got = pd.read_parquet(folder / f"dask-{args.partition}")
        assert got.equals(expected), "Dask's scores differ from one process's"

    print(f"`python benchmarks/bench_scale_out.py --pairs {args.pairs} --partition {args.partition} --workers "
          f"{args.workers} --registry-pairs {args.registry_pairs} --rounds {args.rounds}`: {started}, "
          f"{os.cpu_count()} cores, load average {load:.1f} at the start and {os.getloadavg()[0]:.1f} at the end. "
          "ROUGE-1/2/L as the registry computes them; median over rounds (lowest-highest round).\n")
    print("| batch | path | seconds | compared with | its seconds | ratio | target |\n|---|---|---:|---|---:|---:|---|")
    batch = f"{args.registry_pairs:,} distinct pairs"
    for row, label in REGISTRY_ROWS.items():
        mine = [x[row] for x in registry["registry"]]
        theirs = [x[row] for x in registry["rouge()"]]
        print(f"| {batch} | registry: {label} | {spread(mine)} | one `rouge()` call, same measures | "
              f"{spread(theirs)} | {spread([m / t for m, t in zip(mine, theirs)])}x its time | <= 1.1x |")
    dask = [x["seconds"] for x in scale["dask"]]
    one = [x["seconds"] for x in scale["one process"]]
    workers = scale["dask"][0]["workers"]
    print(f"| {args.pairs:,} distinct pairs | Dask `score_parquet`, {workers} one-thread workers, partitions of "
          f"{args.partition:,} | {spread(dask)} | one process (2 threads): Parquet, one `rouge()` call, Parquet | "
          f"{spread(one)} | {spread([o / d for d, o in zip(dask, one)])}x its throughput | >= 0.8x |")
    peaks = [x["peak_mib"] for x in scale["dask"]]
    print(f"| {args.pairs:,} distinct pairs | peak RSS of the largest Dask worker | {spread(peaks, '.0f')} MiB | "
          f"one process | {spread([x['peak_mib'] for x in scale['one process']], '.0f')} MiB | | < 1024 MiB |")
    print(f"\nOne partition of {steps['rows']:,} pairs in one process, step by step: "
          + "; ".join(f"{step} {seconds:.3f} s" for step, seconds in steps["steps"].items())
          + f". The one-process side's `rouge()` call alone: {spread([x['scoring'] for x in scale['one process']])} s.")


if __name__ == "__main__":
    main()
