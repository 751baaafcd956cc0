"""(summary, reference) pairs for benchmarks and scale tests: Zipf-distributed words, or spans of real articles."""
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


def article_spans(articles, n: int, *, shortest: int = 35, longest: int = 70,
                  seed: int = 0) -> tuple[list[str], list[list[str]]]:
    """``n`` (summary, [reference]) pairs of real text, no two texts equal: spans of ``shortest`` to
    ``longest`` words cut at random places from ``articles``, one sentence a line (NLTK Punkt).

    The summary and the reference of a pair are cut from the same article, so they share words as a
    summary and its reference do. Raises ``ValueError`` when the articles hold too few distinct spans.
    """
    from rougelab.text.sentences import split_sentences

    documents = []  # (words, the sentence each word belongs to)
    for article in dict.fromkeys(a for a in articles if isinstance(a, str)):
        sentences = [s.split() for s in split_sentences(" ".join(article.split()), "nltk")]
        words = [w for s in sentences for w in s]
        if len(words) >= shortest:
            documents.append((words, np.repeat(np.arange(len(sentences)), [len(s) for s in sentences])))
    if not documents:
        raise ValueError(f"no article has {shortest} words")
    weights = np.array([len(words) for words, _ in documents], dtype=float)
    rng = np.random.default_rng(seed)
    seen: set[str] = set()

    def span(document) -> str | None:
        words, sentence = document
        length = int(rng.integers(shortest, min(longest, len(words)) + 1))
        start = int(rng.integers(0, len(words) - length + 1))
        breaks = [start, *(start + np.flatnonzero(np.diff(sentence[start:start + length])) + 1), start + length]
        text = "\n".join(" ".join(words[lo:hi]) for lo, hi in zip(breaks[:-1], breaks[1:]))
        if text in seen:
            return None
        seen.add(text)
        return text

    summaries, references = [], []
    for _ in range(20 * n + 100):  # attempts: repeats are rare unless the articles run out of spans
        if len(summaries) == n:
            break
        document = documents[rng.choice(len(documents), p=weights / weights.sum())]
        summary = span(document)
        reference = span(document) if summary is not None else None
        if reference is None:
            seen.discard(summary)
            continue
        summaries.append(summary)
        references.append([reference])
    if len(summaries) < n:
        raise ValueError(f"the articles hold too few distinct spans for {n:,} pairs")
    return summaries, references
