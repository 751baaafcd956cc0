"""One long pair, one measure: CPU time and (under ``/usr/bin/time -v``) the peak memory of a ``rouge()`` call.

Two texts of 3,000 words drawn from a Zipf law (exponent 1.2) over 5,000 words, scored with ``argv[1]``
(default ``rouge-s*``: 4.5 million skip-bigrams per text) beside ROUGE-1; ``rouge-1`` alone gives the
process's memory without the measure. Prints the scores and the CPU seconds of the call.

Run: ``/usr/bin/time -v .venv/bin/python benchmarks/bench_long_pair.py rouge-s*`` (the "Maximum resident
set size" line is the peak).
"""
import sys
import time

import numpy as np

from rougelab.rouge import rouge

rng = np.random.default_rng(0)
WORDS = [f"w{k}" for k in range(5000)]


def text(n: int) -> str:
    return " ".join(WORDS[min(int(z), len(WORDS)) - 1] for z in rng.zipf(1.2, n))


summary, reference = text(3000), text(3000)
measures = list(dict.fromkeys([sys.argv[1] if len(sys.argv) > 1 else "rouge-s*", "rouge-1"]))
start = time.process_time()
table = rouge([summary], [[reference]], measures)
print(measures, table.iloc[0].round(5).to_dict(), f"{time.process_time() - start:.2f} s CPU")
