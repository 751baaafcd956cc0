"""Speed, memory and drift of the contextual encodings on SummEval (issue 18 targets: each < 4 min on 2 cores).

1. Anchored ROUGE: encode every SummEval source, reference and system summary once (2,746 texts) with
   the default MiniLM encoder into an empty embedding cache (a temporary folder unless ``--cache``);
2. BERTScore (layer 6 of MiniLM) of all 1,600 summaries against their 11 references;
3. a rerun from the embedding cache: a fresh encoder reads every embedding back, and ``anc-rouge-1``
   and ``anc-rouge-2`` score all 1,600 summaries;
4. with ``--baseline DIR`` (a cache root filled by the previous implementation, holding its
   embeddings and ``bertscore.csv``): how far every score and every summary- and system-level Kendall
   correlation with SummEval's four criteria moves (the notebooks 05 and 06 correlations).

Peak resident memory is read after steps 1 and 2 (the process's peak so far); CPU time (user +
system, all threads) beside wall time shows the work done when other processes share the cores. Run under nice:
``nice .venv/bin/python benchmarks/bench_anchored.py [--repeats N] [--baseline DIR]``.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time

CRITERIA = ["coherence", "consistency", "fluency", "relevance"]


def _peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20


def _spread(values: list[float]) -> str:
    median = statistics.median(values)
    return f"{median:.0f} s" + (f" (min {min(values):.0f}, max {max(values):.0f}, n={len(values)})" if len(values) > 1 else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help="embedding cache root for step 1 (default: a new temporary folder)")
    parser.add_argument("--repeats", type=int, default=1, help="cold runs of steps 1 and 2 (each a new cache)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N summaries (quick check)")
    parser.add_argument("--baseline", help="cache root of the previous implementation, for step 4")
    args = parser.parse_args()

    import numpy as np
    import pandas as pd
    import rougelab
    from rougelab.metaeval.table import correlation_table
    from rougelab.metrics.anchored import anchored_rouge
    from rougelab.metrics.bertscore import bertscore
    from rougelab.semantic.encoder import ContextualEncoder

    table = rougelab.load_dataset("summeval")  # from the project cache, before the cache root moves
    if args.limit:
        table = table.iloc[:args.limit].reset_index(drop=True)
    summaries = list(table["summary"])
    references = [list(r) for r in table["references"]]
    sources = list(table["source"])
    texts = list(dict.fromkeys([*sources, *(r for refs in references for r in refs), *summaries]))
    print(f"SummEval: {len(summaries)} summaries, {len(texts)} distinct texts; {os.cpu_count()} CPUs visible, "
          f"load average {os.getloadavg()[0]:.1f} at start")

    encode_s, bert_s, peaks, cpu = [], [], [], {"encode": [], "bert": []}
    for repeat in range(args.repeats):
        os.environ["ROUGELAB_CACHE"] = args.cache if args.cache and repeat == 0 else \
            tempfile.mkdtemp(prefix="rougelab-bench-anchored-")
        encoder = ContextualEncoder(progress=False)
        start, cpu_start = time.perf_counter(), time.process_time()
        encoder.encode(texts)
        encode_s.append(time.perf_counter() - start)
        cpu["encode"].append(time.process_time() - cpu_start)
        peaks.append(_peak_gib())
        start, cpu_start = time.perf_counter(), time.process_time()
        scores_bert = bertscore(summaries, references)
        bert_s.append(time.perf_counter() - start)
        cpu["bert"].append(time.process_time() - cpu_start)
        print(f"run {repeat + 1}: encode {encode_s[-1]:.0f} s ({encoder.model_calls} windows), "
              f"BERTScore {bert_s[-1]:.0f} s, load average {os.getloadavg()[0]:.1f}", flush=True)

    rerun = ContextualEncoder(progress=False)  # fresh object: nothing in memory, model not loaded
    start = time.perf_counter()
    ours = pd.concat([anchored_rouge(summaries, references, sources, form=form, encoder=rerun) for form in "12"],
                     axis=1)
    rerun_s = time.perf_counter() - start
    assert rerun.model_calls == 0, "the rerun ran the model: the cache was not used"

    print("\n| step | wall time (median) | CPU time (median) | target |\n|---|---|---|---|")
    print(f"| Anchored ROUGE: encode {len(texts):,} texts, cold | {_spread(encode_s)} | {_spread(cpu['encode'])} "
          "| < 4 min |")
    print(f"| BERTScore, {len(summaries):,} summaries x their references | {_spread(bert_s)} | "
          f"{_spread(cpu['bert'])} | < 4 min |")
    print(f"| anc-rouge-1 and -2 from the embedding cache | {rerun_s:.0f} s | | |")
    print(f"| peak resident memory after encoding / after BERTScore | {min(peaks):.2f} / {_peak_gib():.2f} GiB "
          "| | < 4 GiB |")

    if args.baseline:
        old_encoder = _cached_encoder(args.baseline)
        old = pd.concat([anchored_rouge(summaries, references, sources, form=form, encoder=old_encoder)
                         for form in "12"], axis=1)
        assert old_encoder.model_calls == 0, f"{args.baseline} lacks some embeddings"
        old_bert = pd.read_csv(os.path.join(args.baseline, "bertscore.csv")).iloc[:len(summaries)]
        new_all = pd.concat([ours, scores_bert], axis=1)
        old_all = pd.concat([old, old_bert], axis=1)
        metrics = ["ancrouge1_r", "ancrouge2_r", "bertscore_f"]
        print("\n| score | max abs. score change | max abs. Kendall change (4 criteria x summary, system) |")
        print("|---|---|---|")
        for metric in metrics:
            moved = np.abs(new_all[metric].to_numpy() - old_all[metric].to_numpy()).max()
            corr = [correlation_table(pd.concat([table, frame[[metric]]], axis=1), metric, CRITERIA,
                                      levels=["summary", "system"], coefs="kendall")["value"].to_numpy()
                    for frame in (new_all, old_all)]
            print(f"| {metric} | {moved:.2e} | {np.nanmax(np.abs(corr[0] - corr[1])):.2e} |")
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


def _cached_encoder(root: str):
    """A ContextualEncoder reading the embeddings the previous implementation left under ``root``."""
    from pathlib import Path

    from rougelab.semantic.encoder import ContextualEncoder

    (folder,) = Path(root, "embeddings").glob("all-MiniLM-L6-v2-L4-*")

    class Cached(ContextualEncoder):
        def _cache_folder(self) -> Path:
            return folder

    return Cached(progress=False)


if __name__ == "__main__":
    main()
