"""Speed of WIDAR on SummEval (issue 4): cold components, warm rerun, sweeps, and Table 4's setting.

1. all text work for the 1,600 summaries x 11 references into an empty cache (cold), then again
   from the cache (warm): ``widar_components``;
2. one configuration from the components (``combine``), i.e. one point of a lambda/theta sweep;
3. Table 4 of Jain et al. (2022): WIDAR_L for 100 random summaries with one reference, no cache;
4. side by side with the peer the authors' code relies on: ``rouge-score``'s ``rougeL`` for the same
   ROUGE-L work (IDSS and Algorithm 1's sentence pairs) of those 100 summaries.

Run under nice, once: ``nice .venv/bin/python benchmarks/bench_widar.py [--limit N]``.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N summaries (quick check)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import rougelab

    table = rougelab.load_dataset("summeval")  # from the project cache, before ROUGELAB_CACHE moves
    if args.limit:
        table = table.iloc[:args.limit]
    os.environ["ROUGELAB_CACHE"] = tempfile.mkdtemp(prefix="bench-widar-")
    from rougelab.metrics.widar import combine, widar, widar_components
    from rougelab.metrics.widar import cache as widar_cache
    from rougelab.metrics.widar.tokenize import split_sentences

    summaries, references, sources = list(table.summary), [list(r) for r in table.references], list(table.source)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cpus; "
          f"{len(summaries)} summaries x {len(references[0])} references")

    widar(["warm up the compiled LCS kernels"], [["warm up"]], ["warm up"], cache=False)
    start = time.perf_counter()
    components = widar_components(summaries, references, sources)
    print(f"components, cold cache: {time.perf_counter() - start:8.2f} s")
    widar_cache._LOADED.clear()  # as a fresh process would
    start = time.perf_counter()
    components = widar_components(summaries, references, sources)
    print(f"components, warm cache: {time.perf_counter() - start:8.2f} s")
    start = time.perf_counter()
    for k in ("1", "2", "l"):
        combine(components, k)
    print(f"combine, per configuration: {(time.perf_counter() - start) / 3:8.2f} s")

    sample = table.sample(min(100, len(table)), random_state=args.seed)
    one_ref = [[refs[0]] for refs in sample.references]
    start = time.perf_counter()
    widar(list(sample.summary), one_ref, list(sample.source), k="l", cache=False)
    ours = time.perf_counter() - start
    print(f"Table 4 setting, WIDAR_L, {len(sample)} summaries x 1 reference, no cache: {ours:8.2f} s "
          "(paper: 3.96 s on a Xeon W-2155)")

    from rouge_score.rouge_scorer import RougeScorer

    scorer = RougeScorer(["rougeL"], use_stemmer=True)
    start = time.perf_counter()
    for summary, (reference,), source in zip(sample.summary, one_ref, sample.source):
        scorer.score(source, summary)  # IDSS
        ref_sentences = split_sentences(reference)
        for r in ref_sentences:
            for d in split_sentences(source, drop_blank=True):
                scorer.score(d, r)  # coverage
            for other in ref_sentences:
                scorer.score(r, other)  # redundancy
    peer = time.perf_counter() - start
    print(f"rouge-score rougeL for the same IDSS + Algorithm 1 pairs (peer, no weighted ROUGE): {peer:8.2f} s")
    shutil.rmtree(os.environ["ROUGELAB_CACHE"])


if __name__ == "__main__":
    main()
