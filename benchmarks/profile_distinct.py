"""One call on 20,000 distinct pairs, timed or profiled: where classic ROUGE spends its CPU.

The pairs are ``bench_distinct.py``'s (``article_spans`` of its articles, seed 0, after its 20 warm-up
pairs); the task is ROUGE-1, ROUGE-2 and summary-level ROUGE-L without stemming. After a warm-up call:
``time`` prints rougelab's median CPU and wall seconds over 5 calls, ``rs`` the same for rouge-score-rs
``score_batch``, ``profile`` the cProfile of one call (``time.process_time``). ``registry``: the registry's
``score_cache.cached_scores`` of rouge-1/2/l (a new empty cache each call) and one ``rouge()`` call with the
same options and measures, taking turns in this process (16 pairs of calls): their median wall and CPU, the
median difference, and what the cache adds apart from scoring (``check_batch``, which ``rouge()`` runs too,
``content_digest``, the rest: keys, paths, files). Set ``NUMBA_NUM_THREADS`` and ``RAYON_NUM_THREADS`` for
the threads; compare sides (or two trees, by ``PYTHONPATH``) in alternating processes.

Run: ``.venv/bin/python benchmarks/profile_distinct.py time|rs|profile|registry``.
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
    if mode == "registry":
        return registry(warm_up, pairs)
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


def registry(warm_up, pairs, rounds: int = 16) -> None:
    """The ``registry`` mode (module docstring)."""
    import os
    import tempfile
    from unittest import mock

    from rougelab import score_cache
    from rougelab.metrics.registry import get_metric
    from rougelab.rouge import rouge
    from rougelab.scoring import check_batch

    metrics = [get_metric(name) for name in SIMPLE]
    options = {k: v for k, v in metrics[0].options.items() if k != "measures"}
    with tempfile.TemporaryDirectory() as caches:
        def cached(batch):
            os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(dir=caches)  # an empty score cache
            return score_cache.cached_scores(metrics, *batch)

        sides = {"cached_scores": cached, "rouge()": lambda batch: rouge(*batch, SIMPLE, **options)}
        for side in sides.values():
            side(warm_up)
            side(pairs)
        wall: dict = {side: [] for side in sides}
        cpu: dict = {side: [] for side in sides}
        for r in range(rounds):
            for side in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                sides[side](pairs)
                cpu[side].append(time.process_time() - start_cpu)
                wall[side].append(time.perf_counter() - start_wall)
        tables = score_cache.score_together(metrics, *pairs)
        parts: dict = {"check_batch": [], "content_digest": [], "all": []}
        with mock.patch.object(score_cache, "score_together", lambda *args, **kwargs: tables):  # no scoring
            for _ in range(rounds):
                for part, func in (("check_batch", lambda: check_batch(*pairs)),
                                   ("content_digest", lambda: score_cache.content_digest(*pairs)),
                                   ("all", lambda: cached(pairs))):
                    start = time.process_time()
                    func()
                    parts[part].append(time.process_time() - start)
    parts = {part: 1000 * statistics.median(t) for part, t in parts.items()}
    parts["the rest"] = parts.pop("all") - parts["check_batch"] - parts["content_digest"]
    ms = {side: 1000 * statistics.median(w) for side, w in wall.items()}
    print(f"cached_scores {ms['cached_scores']:.1f} ms, rouge() {ms['rouge()']:.1f} ms wall (CPU "
          f"{1000 * statistics.median(cpu['cached_scores']):.1f} / {1000 * statistics.median(cpu['rouge()']):.1f}); "
          f"difference {1000 * statistics.median(a - b for a, b in zip(wall['cached_scores'], wall['rouge()'])):.1f} ms, "
          f"ratio {statistics.median(a / b for a, b in zip(wall['cached_scores'], wall['rouge()'])):.3f} (medians "
          f"over {rounds} turns). Without scoring, ms CPU: " + ", ".join(
              f"{part} {t:.2f}" for part, t in parts.items()) +
          f"; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "time")
