"""One call on 20,000 distinct pairs, timed or profiled: where classic ROUGE spends its CPU.

The pairs are ``bench_distinct.py``'s (``article_spans`` of its articles, seed 0, after its 20 warm-up
pairs); the task is ROUGE-1, ROUGE-2 and summary-level ROUGE-L without stemming. After a warm-up call:
``time`` prints rougelab's median CPU and wall seconds over 5 calls, ``rs`` the same for rouge-score-rs
``score_batch``, ``profile`` the cProfile of one call (``time.process_time``). Set ``NUMBA_NUM_THREADS``
and ``RAYON_NUM_THREADS`` for the threads; compare sides in alternating processes.

Run: ``.venv/bin/python benchmarks/profile_distinct.py time|rs|profile``.
"""
import cProfile
import pstats
import statistics
import sys
import time
import warnings

from bench_distinct import ARTICLES, RS_TYPES, SIMPLE, WARM_UP, scorer_of

PAIRS = 20_000


def batch() -> tuple[list, list]:
    import rougelab
    from rougelab.synthetic import article_spans

    articles = [a for name in ARTICLES for a in rougelab.load_dataset(name)["source"]]
    summaries, references = article_spans(articles, WARM_UP + PAIRS, seed=0)
    return (summaries[:WARM_UP], references[:WARM_UP]), (summaries[WARM_UP:], references[WARM_UP:])


def main(mode: str) -> None:
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning (a few texts have such letters)
    warm_up, pairs = batch()
    score = scorer_of("rs" if mode == "rs" else "rougelab")
    score(*warm_up)
    if mode == "profile":
        profile = cProfile.Profile(time.process_time)
        profile.runcall(score, *pairs)
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)
        return
    cpu, wall = [], []
    for _ in range(5):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        score(*pairs)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    print(f"{'rouge-score-rs' if mode == 'rs' else 'rougelab'} {RS_TYPES if mode == 'rs' else SIMPLE}: "
          f"{statistics.median(cpu):.3f} s CPU, {statistics.median(wall):.3f} s wall (median of 5)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "time")
