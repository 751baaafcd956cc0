"""Whether closing ``rougelab.scale.client``'s LocalCluster writes to stderr: notebook 06's Dask cell in a loop.

Each cycle starts a LocalCluster of two workers (``client``), scores 200 synthetic pairs with ROUGE-2 through
``score_dask`` and closes it; the workers inherit this process's stderr, which goes to a file; at the end the
script prints how many cycles ran and every line written to stderr (the book check refuses any). A worker's
heartbeat under way when the cluster closes used to be cut off ("Failed to communicate with scheduler during
heartbeat"), about once in 30 cycles. ``--late-heartbeats`` makes that race likely: the scheduler answers
each heartbeat 0.3 s late, so one is nearly always under way when the cluster closes.

Run: ``.venv/bin/python benchmarks/dask_close.py [--cycles 30] [--late-heartbeats]``.
"""
import argparse
import asyncio
import os
import sys
import tempfile
import time
import warnings


def late_heartbeats(dask_scheduler) -> None:
    """Run on the scheduler: answer each heartbeat 0.3 s late."""
    answer = dask_scheduler.handlers["heartbeat_worker"]

    async def late(*args, **kwargs):
        await asyncio.sleep(0.3)
        return answer(*args, **kwargs)

    dask_scheduler.handlers["heartbeat_worker"] = late


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--late-heartbeats", action="store_true", help="answer each heartbeat 0.3 s late")
    args = parser.parse_args()

    from rougelab.scale import client, score_dask
    from rougelab.synthetic import synthetic_pairs

    pairs = synthetic_pairs(200, seed=0)
    with tempfile.TemporaryFile("w+") as captured:
        saved = os.dup(2)
        os.dup2(captured.fileno(), 2)  # this process's stderr, and so its workers'
        try:
            start = time.perf_counter()
            for _ in range(args.cycles):
                with client(n_workers=2, memory_limit="1GiB") as dask_client, warnings.catch_warnings():
                    if args.late_heartbeats:
                        dask_client.run_on_scheduler(late_heartbeats)
                    warnings.filterwarnings("ignore", message="Sending large graph", category=UserWarning)
                    score_dask(pairs, "rouge-2", chunksize=len(pairs) // 8 + 1).compute()
                    time.sleep(1)  # a few heartbeats
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
        captured.seek(0)
        lines = captured.read().splitlines()
    print(f"{args.cycles} cycles in {time.perf_counter() - start:.0f} s"
          f"{' (heartbeats answered 0.3 s late)' if args.late_heartbeats else ''}: {len(lines)} lines on stderr, "
          f"{sum('Failed to communicate with scheduler during heartbeat' in line for line in lines)} of them "
          "'Failed to communicate with scheduler during heartbeat'")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
