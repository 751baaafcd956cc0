"""What a process's first call on a batch of 1,000 distinct pairs costs more than a repeated one, and how much of it
a previous large call on other texts takes away.

The pairs and the task are ``bench_distinct.py``'s (its 20 warm-up pairs, then 1,000 distinct pairs; ROUGE-1,
ROUGE-2 and summary-level ROUGE-L without stemming). Each variant runs in a fresh process that scores the warm-up
pairs, then, by variant, nothing more (``warm-up``, bench_distinct's protocol) or one call on 500 or 1,000 other
distinct pairs of the same generation (``after 500 others``, ``after 1,000 others``), then times its first call
on the 1,000 pairs and 7 repeated calls (their median): wall and CPU milliseconds and minor page faults
(``getrusage``: pages the process touches for the first time). A call on other texts leaves the process's state
as a large batch leaves it (memory grown to a piece's size in each thread, the pieces' path run on the threads);
what stays in the first call after it belongs to the texts themselves (their first read, their str hashes). The
variants alternate, ``--rounds`` rounds; medians over the rounds. ``NUMBA_NUM_THREADS=1``: one thread.

Run: ``ROUGELAB_COMPILE_SECONDS=0 .venv/bin/python benchmarks/first_call_costs.py [--rounds 8]``.
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

from bench_distinct import SIMPLE, make_batches

VARIANTS = {"warm-up": 0, "after 500 others": 500, "after 1,000 others": 1000}  # other pairs scored first
SIZE = 1000


def worker(variant: str, data: Path) -> dict:
    """In a fresh process: the variant's calls, then the first and 7 repeated calls on the batch, each as
    (wall ms, CPU ms, minor page faults)."""
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning (a few texts have such letters)
    from rougelab.rouge import rouge

    warm_up = pickle.loads((data / "warm-up.pickle").read_bytes())
    summaries, references = pickle.loads((data / f"{2 * SIZE}.pickle").read_bytes())  # the batch, then others
    rouge(*warm_up, SIMPLE, stem=False)
    others = VARIANTS[variant]
    if others:
        rouge(summaries[SIZE:SIZE + others], references[SIZE:SIZE + others], SIMPLE, stem=False)
    batch = summaries[:SIZE], references[:SIZE]

    def timed() -> tuple[float, float, int]:
        before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        rouge(*batch, SIMPLE, stem=False)
        wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return 1e3 * wall, 1e3 * cpu, after.ru_minflt - before.ru_minflt

    first = timed()
    repeated = [timed() for _ in range(7)]
    return {"first": first, "repeated": [statistics.median(x) for x in zip(*repeated)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds of alternating processes")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker[0], Path(args.worker[1]))))
        return
    load_start = os.getloadavg()[0]
    found: dict = {variant: [] for variant in VARIANTS}
    with tempfile.TemporaryDirectory() as folder:
        make_batches([2 * SIZE], Path(folder))
        for r in range(args.rounds):
            for variant in (list(VARIANTS) if r % 2 == 0 else list(reversed(VARIANTS))):
                done = subprocess.run([sys.executable, __file__, "--worker", variant, folder], capture_output=True,
                                      text=True, check=True)
                found[variant].append(json.loads(done.stdout.strip().splitlines()[-1]))
    threads = os.environ.get("NUMBA_NUM_THREADS", "all")
    print(f"\n{SIZE:,} distinct pairs, NUMBA_NUM_THREADS={threads}, {args.rounds} rounds, load average "
          f"{load_start:.1f} at the start and {os.getloadavg()[0]:.1f} at the end; medians over the rounds.\n")
    print("| before the batch | first: wall ms | CPU ms | page faults | repeated: wall ms | CPU ms | page faults |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for variant, rows in found.items():
        cells = [statistics.median(row[call][k] for row in rows) for call in ("first", "repeated") for k in range(3)]
        print(f"| {variant} | " + " | ".join(f"{c:.0f}" if k % 3 == 2 else f"{c:.2f}" for k, c in enumerate(cells))
              + " |")


if __name__ == "__main__":
    main()
