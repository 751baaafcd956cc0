"""Speed of the meta-evaluation: bootstrap CIs and permutation tests on a SummEval-sized table.

Synthetic scores for 16 systems x 100 inputs (SummEval's shape), or the real SummEval table with
--summeval (needs `rougelab data fetch`). Prints seconds per call for every level x coefficient.

    python benchmarks/bench_metaeval.py [--resamples 1000] [--summeval]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from rougelab.metaeval import bootstrap_ci, permutation_test


def synthetic_table(n_systems: int = 16, n_inputs: int = 100, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=(n_systems, 1)) + rng.normal(size=(n_systems, n_inputs))
    return pd.DataFrame(
        [(f"d{j}", f"s{i}", quality[i, j] + rng.normal(), quality[i, j] + rng.normal(),
          np.round(quality[i, j] + rng.normal(), 1))
         for i in range(n_systems) for j in range(n_inputs)],
        columns=["doc_id", "system_id", "metric", "metric2", "human"])


def summeval_table() -> pd.DataFrame:
    import rougelab
    table = rougelab.load_dataset("summeval")
    table = table.assign(metric=table["summary"].str.split().str.len(),
                         metric2=table["summary"].str.len(), human=table["relevance"])
    return table[["doc_id", "system_id", "metric", "metric2", "human"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--summeval", action="store_true",
                        help="use SummEval (length metrics vs relevance)")
    args = parser.parse_args()
    table = summeval_table() if args.summeval else synthetic_table()
    print(f"table: {table['system_id'].nunique()} systems x {table['doc_id'].nunique()} inputs, "
          f"{args.resamples} resamples")
    print(f"{'procedure':<12}{'level':<9}{'coef':<10}{'seconds':>8}")
    def bootstrap(level, coef):
        return bootstrap_ci(table, "metric", "human", level, coef, n_resamples=args.resamples)

    def permutation(level, coef):
        return permutation_test(table, "metric", "metric2", "human", level, coef,
                                n_resamples=args.resamples)

    for name, call in (("bootstrap", bootstrap), ("permutation", permutation)):
        for level in ("summary", "system", "global"):
            for coef in ("pearson", "spearman", "kendall"):
                start = time.perf_counter()
                call(level, coef)
                print(f"{name:<12}{level:<9}{coef:<10}{time.perf_counter() - start:>8.2f}")


if __name__ == "__main__":
    main()
