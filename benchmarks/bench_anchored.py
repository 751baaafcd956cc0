"""Speed of the contextual encoder and Anchored ROUGE on SummEval (issue 7 targets).

1. encode every SummEval source, reference and system summary once (target: < 15 min on 2 cores
   with the default MiniLM encoder); texts already in the embedding cache are not re-encoded, so
   point ``--cache`` at an empty folder for a cold measurement;
2. rerun from the cache: a fresh encoder reads every embedding back, and ``anc-rouge-1`` and
   ``anc-rouge-2`` score all 1,600 summaries (target: < 1 min).

Run under nice, once: ``nice .venv/bin/python benchmarks/bench_anchored.py [--cache DIR]``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help="cache root ($ROUGELAB_CACHE); default: the project's data/cache")
    parser.add_argument("--dataset", default="summeval")
    parser.add_argument("--limit", type=int, default=None, help="only the first N summaries (quick check)")
    args = parser.parse_args()

    import torch

    import rougelab
    from rougelab.metrics.anchored import anchored_rouge
    from rougelab.semantic.encoder import ContextualEncoder

    table = rougelab.load_dataset(args.dataset)  # from the project cache, before --cache moves it
    if args.cache:
        os.environ["ROUGELAB_CACHE"] = args.cache
    if args.limit:
        table = table.iloc[:args.limit]
    summaries = list(table["summary"])
    references = [list(r) for r in table["references"]]
    sources = list(table["source"])
    texts = list(dict.fromkeys([*sources, *(r for refs in references for r in refs), *summaries]))

    encoder = ContextualEncoder(progress=True)
    start = time.perf_counter()
    encoder.encode(texts)
    encode_seconds = time.perf_counter() - start

    rerun = ContextualEncoder(progress=False)  # fresh object: nothing in memory, model not loaded
    start = time.perf_counter()
    rerun.encode(texts)
    read_seconds = time.perf_counter() - start
    for form in ("1", "2"):
        anchored_rouge(summaries, references, sources, form=form, encoder=rerun)
    rerun_seconds = time.perf_counter() - start
    assert rerun.model_calls == 0, "the rerun ran the model: the cache was not used"

    report = {
        "dataset": args.dataset, "summaries": len(summaries), "unique_texts": len(texts),
        "encoder": encoder.signature, "forward_passes": encoder.model_calls,
        "encode_seconds": round(encode_seconds, 1),
        "rerun_read_cache_seconds": round(read_seconds, 1),
        "rerun_read_and_score_anc_rouge_1_2_seconds": round(rerun_seconds, 1),
        "torch_threads": torch.get_num_threads(), "cpus": os.cpu_count(), "python": platform.python_version(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
