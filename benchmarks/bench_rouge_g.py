"""Speed and memory of ROUGE-G on SummEval (issue 18: ROUGE-G-1, -2 and -SU4 together in < 2 min from a warm
PageRank cache, < 12 min cold, peak memory < 4 GiB).

Usage: ``nice python benchmarks/bench_rouge_g.py [--measures rouge-g-1,rouge-g-2,rouge-g-su4] [--docs N]
[--top 100] [--no-gloss] [--cold]``. For the first N SummEval documents (16 summaries each) it prints the time
to load the WordNet graph and the PPR vectors of every WordNet sense of the vocabulary, a first call on one
summary (numba compiles the kernels there if its cache is cold), the time to score all the measures in one
``rouge_g`` call (documents two at a time on the 2 cores), CPU time beside wall time (the machine may be
shared), the load average and the peak resident memory.

``--cold`` points ``$ROUGELAB_CACHE`` at an empty temporary folder after loading the data, so the graph and
every PPR vector are built; then a fresh process loads them from that folder, as a run with a warm cache
does, and the run prints both totals side by side: cold = build + scoring, warm = load + scoring (the
scoring is the same work either way). The temporary folder is deleted at the end.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measures", default="rouge-g-1,rouge-g-2,rouge-g-su4")
    parser.add_argument("--docs", type=int, default=100, help="first N SummEval documents")
    parser.add_argument("--top", type=int, default=100)
    parser.add_argument("--no-gloss", action="store_true")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--load-from", help=argparse.SUPPRESS)   # the warm half of --cold: only load, from there
    args = parser.parse_args()

    import rougelab
    from rougelab.metrics.rouge_g import rouge_g

    table = rougelab.load_dataset("summeval")
    table = table[table["doc_id"].isin(table["doc_id"].unique()[:args.docs])]
    summaries = list(table["summary"])
    references = [list(r) for r in table["references"]]
    environment = dict(os.environ)   # the warm half loads the data from the usual cache, as here
    cold_folder = tempfile.mkdtemp(prefix="rougelab-bench-") if args.cold else None
    if cold_folder or args.load_from:
        os.environ["ROUGELAB_CACHE"] = cold_folder or args.load_from
    gloss = not args.no_gloss
    if not args.load_from:
        print(f"SummEval: {args.docs} documents, {len(summaries)} summaries, "
              f"{sum(map(len, references))} summary/reference pairs; measures {args.measures}; top={args.top}, "
              f"gloss_links={gloss}, cold={args.cold}, {os.cpu_count()} CPUs visible, "
              f"load average {os.getloadavg()[0]:.1f}")
    graph_s, ppr_s = _graph_and_vectors(summaries, references, gloss, args.top)
    if args.load_from:
        print(f"{graph_s} {ppr_s}")
        return
    what = "built" if args.cold else "loaded"
    print(f"WordNet graph {what} (and the PPR cache opened): {graph_s:.1f} s; "
          f"PPR vectors of the vocabulary's senses {what}: {ppr_s:.1f} s")

    measures = args.measures.split(",")
    t0 = time.perf_counter()
    rouge_g(summaries[:1], references[:1], measures=measures, top=args.top, gloss_links=gloss)
    print(f"first call on one summary: {time.perf_counter() - t0:.1f} s")
    t0, cpu0 = time.perf_counter(), time.process_time()
    rouge_g(summaries, references, measures=measures, top=args.top, gloss_links=gloss)
    score_s, score_cpu = time.perf_counter() - t0, time.process_time() - cpu0
    print(f"scoring {args.measures} in one rouge_g call: {score_s:.1f} s (CPU {score_cpu:.0f} s), "
          f"{len(summaries) / score_s:.1f} summaries/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
    if cold_folder:
        command = [sys.executable, __file__, "--load-from", cold_folder, "--docs", str(args.docs),
                   "--top", str(args.top)] + (["--no-gloss"] if args.no_gloss else [])
        warm = subprocess.run(command, check=True, text=True, capture_output=True, env=environment).stdout.split()
        shutil.rmtree(cold_folder)
        warm_graph, warm_ppr = float(warm[-2]), float(warm[-1])
        print(f"warm, in a fresh process from the cache just built: graph {warm_graph:.1f} s, "
              f"PPR vectors {warm_ppr:.1f} s")
        print(f"total cold (build + scoring): {graph_s + ppr_s + score_s:.1f} s; "
              f"total warm (load + scoring): {warm_graph + warm_ppr + score_s:.1f} s")
    else:
        print(f"total (load + scoring): {graph_s + ppr_s + score_s:.1f} s")
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    print(f"peak resident memory: {peak:.2f} GiB")


def _graph_and_vectors(summaries, references, gloss: bool, top: int) -> tuple[float, float]:
    """Seconds to load (or build) the WordNet graph, then the PPR vectors of every sense of the batch's words."""
    from rougelab.semantic.graph_similarity import GraphSimilarity, wordnet_ppr
    from rougelab.text import tokenize
    from rougelab.text.token_ids import TokenIndex

    t0 = time.perf_counter()
    wordnet_ppr(gloss, top=top)
    graph_s = time.perf_counter() - t0
    index = TokenIndex()
    for text in summaries + [r for refs in references for r in refs]:
        index.ids(tokenize(text))
    t0 = time.perf_counter()
    GraphSimilarity(index.tokens, gloss_links=gloss, top=top)
    return graph_s, time.perf_counter() - t0


if __name__ == "__main__":
    main()
