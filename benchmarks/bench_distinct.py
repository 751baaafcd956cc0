"""Classic ROUGE on distinct texts: the first call on a batch, repeated calls, the registry path, a cold start.

Pairs: spans of 35-70 words cut from the articles of every dataset we fetch, one sentence a line, no text
twice (``rougelab.synthetic.article_spans``, which checks it); "SummEval" is its 1,600 summaries x 11
references (17,600 pairs; each reference scored 16 times). Task: ROUGE-1, ROUGE-2 and summary-level
ROUGE-L without stemming: rougelab ``rouge(..., ["rouge-1", "rouge-2", "rouge-l"], stem=False)`` against
rouge-score-rs ``RougeScorer(["rouge1", "rouge2", "rougeLsum"]).score_batch``.

Protocol: each (implementation, batch) runs in a fresh process that scores 20 other short pairs to warm up,
then times its FIRST call on the batch, then repeated calls on it (median of at least 3 calls and 1 s). The
processes alternate (ours, the peer, ...; the next round in the reverse order); each figure is the median
over ``--rounds`` rounds (``--small-rounds`` for batches of up to ``SMALL_BATCH`` pairs: a first call is one sample
a process, and their processes take about a second) with the lowest and highest round in brackets, and each ratio
(peer time / our time: above 1 we are faster) is taken round by round. ``1 thread``: ``NUMBA_NUM_THREADS=1`` / ``RAYON_NUM_THREADS=1``.

Registry: ``get_metric(name).score`` against ``rouge()`` with the same options (the registry's defaults:
stemming, Punkt sentences for ROUGE-L), and ``score_cache.cached_scores`` of rouge-1/2/l (an empty cache,
as ``evaluate`` meets new data, and a miss in a cache holding the entries of three other batches, as a cache in
use holds them) against one ``rouge()`` call with the three measures, in alternating processes. Cold start: import and first call in a fresh interpreter with an empty kernel cache (``ROUGELAB_CACHE``,
where the compiled kernels are kept, a new folder), then again with that cache filled, for each of
``FIRST_CALLS`` (``rouge()`` of ROUGE-1/2/L without stemming, the < 5 s target, and other common first calls),
``--rounds`` times.

Run: ``.venv/bin/python benchmarks/bench_distinct.py [--rounds 3] [--small-rounds 9] [--sizes 1,10,1000,20000,1000000]``.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from bench_speed import time_calls  # one timer for both benchmarks (a warm-up call, then the median)

SIMPLE = ["rouge-1", "rouge-2", "rouge-l"]
RS_TYPES = ["rouge1", "rouge2", "rougeLsum"]
ARTICLES = ["summeval", "realsumm", "newsroom", "pyrxsum", "qags-cnndm", "qags-xsum", "rank19"]
WARM_UP = 20
REGISTRY = ["rouge-1", "rouge-2", "rouge-l"]
SMALL_BATCH = 1_000  # pairs up to which a batch takes ``--small-rounds`` rounds
# The targets: peer time / our time (ours faster above 1).
TARGETS = {"1": "within 3x of rs (>= 0.33x)", "10": ">= 1x", "summeval": ">= 1.5x"}


def target(size: str) -> str:
    return TARGETS.get(size, ">= 1.5x")


# ----------------------------------------------------------------------------------------------- data


def make_batches(sizes: list[int], data: Path) -> None:
    """Write the warm-up pairs, every distinct batch (prefixes of one generation) and SummEval to the folder
    ``data``, one pickle each (a worker reads the warm-up and its own batch: a million pairs are 1 GB)."""
    import rougelab
    from rougelab.synthetic import article_spans

    articles = [a for name in ARTICLES for a in rougelab.load_dataset(name)["source"]]
    summaries, references = article_spans(articles, WARM_UP + max(sizes), seed=0)
    texts = summaries + [r for refs in references for r in refs]
    assert len(set(texts)) == len(texts), "a text repeats"
    summeval = rougelab.load_dataset("summeval")
    batches = {"warm-up": (summaries[:WARM_UP], references[:WARM_UP]),
               "summeval": (summeval["summary"].tolist(), [list(r) for r in summeval["references"]])}
    for size in sizes:
        batches[str(size)] = (summaries[WARM_UP:WARM_UP + size], references[WARM_UP:WARM_UP + size])
    for name, batch in batches.items():
        (data / f"{name}.pickle").write_bytes(pickle.dumps(batch))


# -------------------------------------------------------------------------------------------- workers


def scorer_of(impl: str):
    """A function scoring one batch (summaries, references) with ``impl``."""
    if impl.startswith("rougelab"):
        from rougelab.rouge import rouge
        return lambda summaries, references: rouge(summaries, references, SIMPLE, stem=False)
    from rouge_score_rs import rouge_scorer
    scorer = rouge_scorer.RougeScorer(RS_TYPES)

    def score(summaries, references):
        targets = [r for refs in references for r in refs]
        predictions = [s for s, refs in zip(summaries, references) for _ in refs]
        return scorer.score_batch(targets, predictions)
    return score


def registry_work(side: str, batch, others, timer=time_calls) -> dict:
    """Seconds (``timer``) of each registry row, by ``get_metric`` (``side="registry"``) or by ``rouge()``; the
    cache's second row finds the entries of the batch ``others`` and of its halves in the cache (a miss among
    other batches' entries, as a cache in use holds them)."""
    from rougelab.metrics.registry import get_metric
    from rougelab.rouge import rouge
    from rougelab.score_cache import cached_scores

    metrics = [get_metric(name) for name in REGISTRY]
    out = {}
    for metric in metrics:
        if side == "registry":
            out[metric.name] = timer(lambda: metric.score(*batch))
        else:
            out[metric.name] = timer(lambda: metric.scorer(*batch, **metric.options))

    def together():
        if side == "registry":
            return cached_scores(metrics, *batch)
        return rouge(*batch, REGISTRY, **{k: v for k, v in metrics[0].options.items() if k != "measures"})

    def new_cache(filled: bool) -> None:
        os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(dir=caches)
        half = len(others[0]) // 2
        for part in (slice(None), slice(half), slice(half, None)) if filled and side == "registry" else ():
            cached_scores(metrics, others[0][part], others[1][part])
    with tempfile.TemporaryDirectory() as caches:
        out["rouge-1/2/l"] = timer(together, setup=lambda: new_cache(False))
        out["rouge-1/2/l filled"] = timer(together, setup=lambda: new_cache(True))
    return out


def splitter_work(batch, rounds: int = 3) -> dict:
    """Seconds to split every text of ``batch`` with NLTK's ``PunktSentenceTokenizer`` and with rougelab's
    ``split_sentences(..., "nltk")`` (the same splits), taking turns in this process."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    from rougelab.text.sentences import split_sentences

    texts = [t.replace("\n", " ") for t in batch[0] + [r for refs in batch[1] for r in refs]]  # one line each
    nltk = PunktSentenceTokenizer()
    sides = {"nltk": lambda: [nltk.tokenize(t) for t in texts], "rougelab": lambda: [split_sentences(t, "nltk")
                                                                                   for t in texts]}
    out: dict = {"nltk": [], "rougelab": []}
    for _ in range(rounds):
        for side, func in sides.items():
            start = time.perf_counter()
            func()
            out[side].append(time.perf_counter() - start)
    return out


def worker(impl: str, size: str, data: Path) -> None:
    """In a fresh process: warm up on other small input, time the first call on batch ``size``, then repeats."""
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning (a few texts have such letters)
    batches = {name: pickle.loads((data / f"{name}.pickle").read_bytes()) for name in ("warm-up", size)}
    batch = batches[size]
    if impl == "splitter":
        print(json.dumps(splitter_work(batch)))
        return
    if impl in ("registry", "rouge()"):
        warm_up = batches["warm-up"]
        registry_work(impl, warm_up, warm_up, timer=lambda func, setup=lambda: None: (setup(), func()))
        print(json.dumps(registry_work(impl, batch, warm_up)))
        return
    score = scorer_of(impl)
    score(*batches["warm-up"])
    start = time.perf_counter()
    score(*batch)
    first = time.perf_counter() - start
    print(json.dumps({"first": first, "repeated": time_calls(lambda: score(*batch), warm_up=False)}))


IMPLS = {  # name -> extra environment
    "rougelab": {}, "rouge-score-rs": {},
    "rougelab 1 thread": {"NUMBA_NUM_THREADS": "1"}, "rouge-score-rs 1 thread": {"RAYON_NUM_THREADS": "1"},
}


def run(impl: str, size: str, data: Path) -> dict:
    env = {**os.environ, **IMPLS.get(impl, {})}
    done = subprocess.run([sys.executable, __file__, "--worker", impl, size, str(data)], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"worker {impl} {size} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


PAIR = "['a b c'], [['a b d']]"
SENTENCES = "['a b c.\\nd e.'], [['a b d.\\ne c.']]"  # two sentences a text: the union LCS
# The first calls of a fresh environment (the first two with the target), each timed from before the
# import to its first score: (what, Python code or a command line, target).
FIRST_CALLS = [
    (f"`rouge()` of {', '.join(SIMPLE)}, stem=False", f"from rougelab.rouge import rouge; rouge({PAIR}, {SIMPLE!r}, "
     "stem=False)", "< 5 s"),
    (f"`rouge()` of {', '.join(SIMPLE)}, stem=False, two sentences a text",
     f"from rougelab.rouge import rouge; rouge({SENTENCES}, {SIMPLE!r}, stem=False)", "< 5 s"),
    (f"`rouge()` of {', '.join(SIMPLE)} (stemming: the default)", f"from rougelab.rouge import rouge; rouge({PAIR}, "
     f"{SIMPLE!r})", ""),
    ("`rouge()` of rouge-su4", f"from rougelab.rouge import rouge; rouge({PAIR}, ['rouge-su4'])", ""),
    ("`get_metric('rouge1').score` (rouge-score's names)",
     f"from rougelab.metrics.registry import get_metric; get_metric('rouge1').score({PAIR})", ""),
    ("`rougelab score --metric rouge-1` (the whole command, with its bootstrap interval)",
     ["-m", "rougelab.cli", "score", "--metric", "rouge-1", "--summaries", "{s}", "--references", "{r}"], ""),
]


def first_call(call, cache: str, compile_all: bool = False) -> float:
    """Seconds of one of ``FIRST_CALLS`` in a fresh interpreter whose rougelab cache is the folder ``cache``
    (which also holds a command line's input files); with ``compile_all``, every kernel it runs compiled
    (``ROUGELAB_COMPILE_SECONDS=0``), else as the package decides (a small first call runs their Python
    sources: ``rougelab._jit.compiled_or_python``)."""
    env = {**os.environ, "ROUGELAB_CACHE": cache, "NUMBA_CACHE_DIR": cache}
    env.pop("ROUGELAB_COMPILE_SECONDS", None)  # ``make bench`` sets it for the warm processes
    if compile_all:
        env["ROUGELAB_COMPILE_SECONDS"] = "0"
    if isinstance(call, str):
        code = f"import time; t = time.perf_counter(); {call}; print(time.perf_counter() - t)"
        return float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                    check=True).stdout)
    files = {"s": Path(cache) / "summaries.txt", "r": Path(cache) / "references.txt"}
    files["s"].write_text("a b c\n")
    files["r"].write_text("a b d\n")
    start = time.perf_counter()
    subprocess.run([sys.executable, *(a.format(**files) for a in call)], env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def cold_start(rounds: int) -> list[tuple[list[float], list[float]]]:
    """Per ``FIRST_CALLS`` entry, its seconds in each round with an empty kernel cache, then with that cache
    filled (by the same call with every kernel compiled). Our kernels are kept in the rougelab cache
    (``numba/<kernel_key>``), so an empty cache is a new ``ROUGELAB_CACHE``."""
    out = [([], []) for _ in FIRST_CALLS]
    for _ in range(rounds):
        for (_, call, _), (cold, warm) in zip(FIRST_CALLS, out):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(first_call(call, cache))
                first_call(call, cache, compile_all=True)
                warm.append(first_call(call, cache))
    return out


# ----------------------------------------------------------------------------------------------- main


def spread(values, fmt: str = ".3g") -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def ms(seconds) -> list[float]:
    return [1000 * s for s in seconds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of alternating processes")
    parser.add_argument("--small-rounds", type=int, default=9,
                        help=f"rounds for batches of up to {SMALL_BATCH:,} pairs (at least --rounds)")
    parser.add_argument("--sizes", default="1,10,1000,20000,1000000", help="distinct pairs per batch, comma-separated")
    parser.add_argument("--one-thread", default="20000,summeval", help="batches also timed on one thread each")
    parser.add_argument("--registry-size", default="20000", help="the batch of the registry rows")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker[0], args.worker[1], Path(args.worker[2]))

    os.environ.setdefault("ROUGELAB_COMPILE_SECONDS", "0")  # warm workers: a warm-up on 20 pairs compiles
    sizes = [int(s) for s in args.sizes.split(",")]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        make_batches(sorted({*sizes, int(args.registry_size)}), data)
        first_calls = cold_start(args.rounds)
        plans = [(str(s), "rougelab", "rouge-score-rs") for s in sizes] + [("summeval", "rougelab", "rouge-score-rs")]
        plans += [(s, "rougelab 1 thread", "rouge-score-rs 1 thread") for s in args.one_thread.split(",") if s]
        results: dict = {}
        small_rounds = max(args.rounds, args.small_rounds)
        for r in range(small_rounds):
            for size, ours, peer in plans:
                if r >= args.rounds and not (size.isdigit() and int(size) <= SMALL_BATCH):
                    continue
                for impl in ((ours, peer) if r % 2 == 0 else (peer, ours)):
                    results.setdefault((impl, size), []).append(run(impl, size, data))
            for impl in (("registry", "rouge()") if r % 2 == 0 else ("rouge()", "registry")):
                if r < args.rounds:
                    results.setdefault((impl, "registry"), []).append(run(impl, args.registry_size, data))
            print(f"round {r + 1} of {small_rounds} done", file=sys.stderr)
        splits = run("splitter", args.registry_size, data)

    load_end = os.getloadavg()
    print(f"\n`python benchmarks/bench_distinct.py --rounds {args.rounds} --small-rounds {small_rounds} "
          f"--sizes {args.sizes}`: {started}, "
          f"{os.cpu_count()} cores, load average {load_start[0]:.1f} at the start and {load_end[0]:.1f} at the end. "
          "Median over rounds (lowest-highest round); ratios taken round by round.\n")
    print("| batch | call | rougelab | compared with | its time | ratio | target |")
    print("|---|---|---:|---|---:|---:|---|")
    for size, ours, peer in plans:
        plural = "s" * (size != "1")
        label = ("SummEval 1,600 x 11 pairs" if size == "summeval" else f"{int(size):,} distinct pair{plural}") + \
            (", 1 thread each" if "thread" in ours else "")
        for call in ("first", "repeated"):
            mine = [x[call] for x in results[(ours, size)]]
            theirs = [x[call] for x in results[(peer, size)]]
            ratios = [t / m for m, t in zip(mine, theirs)]
            print(f"| {label} | {call} | {spread(ms(mine))} ms | rouge-score-rs `score_batch` | "
                  f"{spread(ms(theirs))} ms | {spread(ratios)}x faster | {target(size)} |")
    registry_label = f"{int(args.registry_size):,} distinct pairs"
    cached = {"rouge-1/2/l": "(empty cache)", "rouge-1/2/l filled": "(a miss; the cache holds 3 other batches' entries)"}
    for name in [*REGISTRY, *cached]:
        reg = [x[name] for x in results[("registry", "registry")]]
        direct = [x[name] for x in results[("rouge()", "registry")]]
        what = f"`cached_scores` of rouge-1, -2, -l {cached[name]}" if name in cached else \
            f"`get_metric({name!r}).score`"
        print(f"| {registry_label} | registry: {what} | {spread(ms(reg))} ms | `rouge()`, same options | "
              f"{spread(ms(direct))} ms | {spread([r / d for r, d in zip(reg, direct)])}x its time | <= 1.1x |")
    print(f"| the {2 * int(args.registry_size):,} texts of that batch, each on one line | Punkt sentence splits | "
          f"{spread(splits['rougelab'])} s | NLTK's `PunktSentenceTokenizer` | {spread(splits['nltk'])} s | "
          f"{spread([a / b for a, b in zip(splits['nltk'], splits['rougelab'])])}x faster | same splits |")
    for (what, _, goal), (cold, warm) in zip(FIRST_CALLS, first_calls):
        print(f"| 1 pair, fresh interpreter | import + first {what}, empty kernel cache | {spread(cold, '.2f')} s "
              f"| | | | {goal} |")
        print(f"| 1 pair, fresh interpreter | import + first {what}, kernel cache filled | {spread(warm, '.2f')} s "
              "| | | | |")


if __name__ == "__main__":
    main()
