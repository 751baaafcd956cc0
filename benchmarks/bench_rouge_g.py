"""Speed and memory of ROUGE-G on SummEval (target: ROUGE-G-2 over 1,600 x 11 in < 15 min cold, < 1 min warm).

Usage: ``nice python benchmarks/bench_rouge_g.py [--measures rouge-g-2] [--docs N] [--top 100]
[--no-gloss] [--cold]``. Prints, for the first N SummEval documents (16 summaries each): the time to load
(or, with ``--cold``, build) the WordNet graph, to compute or load the PPR vectors of every WordNet sense
of the vocabulary, to score, the rate, a linear projection to all 100 documents, the time of a
warm re-run through the score cache (``rougelab.score_cache``), with several measures the time of scoring
them all in one ``rouge_g`` call, CPU time beside wall time (the machine may be shared), and the peak
resident memory.
``--cold`` points ``$ROUGELAB_CACHE`` at an empty temporary folder after loading the data, so
the graph and every PPR vector are computed.
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measures", default="rouge-g-2")
    parser.add_argument("--docs", type=int, default=100, help="first N SummEval documents")
    parser.add_argument("--top", type=int, default=100)
    parser.add_argument("--no-gloss", action="store_true")
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()

    import rougelab
    from rougelab.metrics.base import Metric
    from rougelab.metrics.rouge_g import (
        GraphSimilarity,
        rouge_g,
        rouge_g_metric,
        wordnet_ppr,
    )
    from rougelab.text.token_ids import TokenIndex
    from rougelab.score_cache import cache_path, cached_score
    from rougelab.text import tokenize

    table = rougelab.load_dataset("summeval")
    table = table[table["doc_id"].isin(table["doc_id"].unique()[:args.docs])]
    summaries = list(table["summary"])
    references = [list(r) for r in table["references"]]
    if args.cold:
        os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="rougelab-bench-")
    gloss = not args.no_gloss
    print(f"SummEval: {args.docs} documents, {len(summaries)} summaries, "
          f"{sum(map(len, references))} summary/reference pairs; top={args.top}, gloss_links={gloss}, "
          f"cold={args.cold}, {os.cpu_count()} CPUs visible, load average {os.getloadavg()[0]:.1f}")

    t0 = time.perf_counter()
    graph, _, _ = wordnet_ppr(gloss, top=args.top)
    print(f"WordNet graph ({graph.n_nodes} synsets, {graph.n_edges} edges): {time.perf_counter() - t0:.1f} s")

    index = TokenIndex()
    for text in summaries + [r for refs in references for r in refs]:
        index.ids(tokenize(text))
    t0 = time.perf_counter()
    sim = GraphSimilarity(index.tokens, gloss_links=gloss, top=args.top)
    n_senses = len(sim._ids)
    print(f"PPR vectors of {n_senses} senses ({len(index.tokens)} word types): {time.perf_counter() - t0:.1f} s")

    for measure in args.measures.split(","):
        metric: Metric = rouge_g_metric(measure, top=args.top, gloss_links=gloss)
        cache_path(metric, summaries, references).unlink(missing_ok=True)   # score it for real
        t0, cpu0 = time.perf_counter(), time.process_time()
        cached_score(metric, summaries, references)
        dt = time.perf_counter() - t0
        print(f"{measure:12s} scoring {dt:8.1f} s (CPU {time.process_time() - cpu0:.0f} s)  "
              f"{len(summaries) / dt:6.2f} summaries/s  -> all 100 documents ~{dt * 100 / args.docs / 60:.1f} min")
        t0 = time.perf_counter()
        cached_score(metric, summaries, references)
        print(f"{measure:12s} warm (score cache) {time.perf_counter() - t0:6.2f} s")
    if "," in args.measures:   # all measures in one call: the sense matrix of a document is computed once
        t0, cpu0 = time.perf_counter(), time.process_time()
        rouge_g(summaries, references, measures=args.measures.split(","), top=args.top, gloss_links=gloss)
        print(f"{args.measures} in one rouge_g call: {time.perf_counter() - t0:.1f} s "
              f"(CPU {time.process_time() - cpu0:.0f} s)")
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
    print(f"peak resident memory: {peak:.2f} GiB")


if __name__ == "__main__":
    main()
