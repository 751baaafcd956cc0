"""Synthetic (summary, reference) pairs for benchmarks and scale tests: Zipf-distributed words."""
from __future__ import annotations

import numpy as np
import pandas as pd


def synthetic_pairs(n: int, *, words: int = 60, vocabulary: int = 5000, sentence_words: int = 20,
                    seed: int = 0) -> pd.DataFrame:
    """``n`` rows of ``summary`` and ``references`` (one reference each), ``words`` words per text.

    Word ranks follow a Zipf law over ``vocabulary`` types (as in natural text); sentences of
    ``sentence_words`` words are separated by newlines. The reference shares about half its words
    with the summary, so every ROUGE measure has something to count.
    """
    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(vocabulary)])
    ranks = np.arange(1, vocabulary + 1)
    p = 1.0 / ranks
    p /= p.sum()
    summaries = rng.choice(vocabulary, size=(n, words), p=p)
    references = np.where(rng.random((n, words)) < 0.5, summaries, rng.choice(vocabulary, size=(n, words), p=p))

    def texts(ids):
        return ["\n".join(" ".join(vocab[row[i:i + sentence_words]]) for i in range(0, words, sentence_words))
                for row in ids]

    return pd.DataFrame({"summary": texts(summaries), "references": [[r] for r in texts(references)]})
