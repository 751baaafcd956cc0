"""Speed of ROUGE-WE on SummEval: 1,600 summaries x 11 references (target: ROUGE-WE-2 < 2 minutes).

Usage: ``nice python benchmarks/bench_rouge_we.py [--measures rouge-we-2] [--variants perl,eq2,s3]
[--limit N]``. Prints one line per (measure, variant): wall time, summaries/s, and the loading time of
the default vectors. No cache is read or written: every number is computed.
"""
from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measures", default="rouge-we-2")
    parser.add_argument("--variants", default="perl,eq2,s3")
    parser.add_argument("--limit", type=int, default=None, help="score only the first N summaries")
    args = parser.parse_args()

    import rougelab
    from rougelab.metrics.rouge_we import rouge_we
    from rougelab.metrics.soft_rouge import GramSpec, exact_similarity, soft_rouge
    from rougelab.text.token_ids import TokenIndex
    from rougelab.semantic.word_vectors import load_word_vectors

    t0 = time.perf_counter()
    load_word_vectors()
    print(f"load GloVe 6B 50-d: {time.perf_counter() - t0:.2f} s")

    table = rougelab.load_dataset("summeval")
    if args.limit:
        table = table.head(args.limit)
    summaries = list(table["summary"])
    references = [list(r) for r in table["references"]]
    n_refs = sum(len(r) for r in references)
    print(f"SummEval: {len(summaries)} summaries, {n_refs} summary/reference pairs, "
          f"{os.cpu_count()} CPUs visible")

    rouge_we(summaries[:2], references[:2], measures=["rouge-we-1"])   # compile the numba kernels
    for measure in args.measures.split(","):
        for variant in args.variants.split(","):
            t0 = time.perf_counter()
            rouge_we(summaries, references, measures=[measure], variant=variant)
            dt = time.perf_counter() - t0
            print(f"{measure:13s} {variant:6s} {dt:7.2f} s  {len(summaries) / dt:8.1f} summaries/s")

    # the same core with exact matching, for scale (classic ROUGE-2, no stemming)
    index = TokenIndex()
    from rougelab.text import tokenize
    cand = [index.ids(tokenize(s)) for s in summaries]
    refs = [[index.ids(tokenize(r)) for r in rs] for rs in references]
    t0 = time.perf_counter()
    soft_rouge(cand, refs, GramSpec(n=2), exact_similarity)
    print(f"{'core f_R, n=2':20s} {time.perf_counter() - t0:7.2f} s (after tokenisation)")


if __name__ == "__main__":
    main()
