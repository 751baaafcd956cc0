"""Seconds per step of each ROUGE kernel's pure-Python source: the constants ``compiled_or_python`` estimates a
batch's Python run from (``rougelab.rouge.batch``'s ``*_STEP``, ``rougelab.text.byte_tokens.SCAN_STEP``,
``rougelab.text.tokenizers.ASCII_WORDS_STEP``, and ``rougelab.rouge.core``'s for ROUGE-1.5.5's pair-by-pair path).

Each kernel's Python twin (``rougelab._jit.python_twin``: nothing compiles) is timed on batches of 1 to 100 pairs
of texts of 1 to 3 sentences of 10 to 40 Zipf-distributed words (fastest of 3 runs), and divided by the steps its
estimate counts (the estimate with a step cost of 1). A constant should sit a little above the most printed.

Run: ``.venv/bin/python benchmarks/python_steps.py``.
"""
from __future__ import annotations

import os
import time

import numpy as np

from rougelab._jit import python_twin
from rougelab.rouge import batch as kernels
from rougelab.rouge import core, grams, lcs
from rougelab.rouge.best_f import best_f_rpf
from rougelab.rouge.options import RougeOptions
from rougelab.text import byte_tokens, tokenizers

WORDS = [f"w{k}" for k in range(400)]
BATCHES = [(1, 1, 10), (1, 3, 20), (10, 2, 30), (100, 1, 20), (30, 3, 40)]  # pairs, sentences a text, words a sentence


def fastest(function, *args) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def per_step(kernel, estimate, step: float, *args) -> float:
    """Microseconds of the Python twin of ``kernel`` per step of ``estimate`` (which charges ``step`` a step)."""
    return 1e6 * fastest(python_twin(kernel), *args) / (estimate(*args) / step)


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"load average {os.getloadavg()[0]:.1f}; microseconds per step")
    for pairs, sentences, words in BATCHES:
        texts = ["\n".join(" ".join(WORDS[int(z) % len(WORDS)] for z in rng.zipf(1.2, words))
                           for _ in range(sentences)) for _ in range(2 * pairs)]
        encoded = kernels.EncodedBatch(texts, "newline", RougeOptions(stem=False))
        peers = np.arange(pairs, dtype=np.int64)
        models = peers + pairs
        data = np.frombuffer("\n".join(texts).encode(), dtype=np.uint8)
        ends = np.cumsum([len(t.encode()) + 1 for t in texts]).astype(np.int64) - 1
        found = {"scan": 1e6 * fastest(python_twin(byte_tokens._scan), data, byte_tokens.eight_bytes(data), ends,
                                       np.empty(len(data) // 2 + 1, dtype=np.int64),
                                       byte_tokens.new_table(len(data)), *byte_tokens.RAW) / len(data),
                 "ascii_words": 1e6 * fastest(python_twin(tokenizers.unicode_ascii_words), data,
                                              np.ones(len(data), dtype=np.bool_)) / len(data)}
        _, unit_lengths, per_text, _ = encoded.options.preprocessing("newline").encode(texts)
        found["bounds"] = per_step(kernels.text_bounds, kernels._bounds_seconds, kernels.BOUNDS_STEP, unit_lengths,
                                   per_text)
        ids = (encoded.vocabulary, encoded.ids, encoded.start, encoded.end)
        found["ngram"] = per_step(kernels.batch_pair_stats, kernels._ngram_seconds, kernels.NGRAM_STEP, peers, models,
                                  np.array([1, 2]), *ids)
        found["skip4"] = per_step(kernels.skip_pair_stats, kernels._skip_seconds, kernels.SKIP_STEP, peers, models,
                                  np.array([4]), np.array([True]), True, *ids[1:])
        sentence_bounds = (encoded.unit_offsets, encoded.unit_start)
        found["lcs"] = per_step(kernels.lcs_pair_stats, kernels._lcs_seconds, kernels.LCS_PAIR_BITS_STEP, peers,
                                models, np.array([1.0]), np.array([False]), *ids, *sentence_bounds)
        found["wlcs"] = per_step(kernels.lcs_pair_stats, kernels._lcs_seconds, kernels.LCS_PAIR_CELL_STEP, peers,
                                 models, np.array([1.2]), np.array([True]), *ids, *sentence_bounds)
        if sentences == 1:
            found["sentence_lcs"] = per_step(kernels.sentence_lcs_pair_stats, kernels._sentence_lcs_seconds,
                                             kernels.SENTENCE_LCS_STEP, peers, models, *ids, *sentence_bounds)
        stats = rng.random((pairs, 3, 4))
        bounds = np.arange(pairs + 1, dtype=np.int64)
        found["pooled"] = per_step(kernels.pooled_rpf, kernels.rpf_seconds, kernels.RPF_STEP, stats, bounds,
                                   np.zeros(3, bool), np.ones(3), 0.5, False, 5)
        found["best_f"] = per_step(best_f_rpf, kernels.rpf_seconds, kernels.RPF_STEP, stats, bounds,
                                   np.zeros(3, bool), np.ones(3), 0.5)
        found.update(pair_by_pair_steps(texts[0].split("\n"), texts[-1].split("\n")))
        print(f"{pairs} pairs, {sentences} x {words} words:", ", ".join(f"{k} {v:.2f}" for k, v in found.items()))


def pair_by_pair_steps(peer_sentences: list[str], model_sentences: list[str]) -> dict[str, float]:
    """Microseconds per step of ``rouge.core``'s kernels for one peer and one model (ROUGE-1/2/SU4/L/W-1.2)."""
    vocab = core.Vocabulary()
    peer, model = (core.PreparedText(s, RougeOptions(stem=False), vocab) for s in (peer_sentences, model_sentences))
    kinds, sizes, unigrams, bits = (np.array(x, dtype=np.int64) for x in ([0, 0, 1], [1, 2, 4], [0, 0, 1], [32, 31, 32]))
    tables = [text.packed((core.Measure("N", 1), core.Measure("N", 2), core.Measure("S", 4, unigrams=True)))
              for text in (model, peer)]
    clip = model.unigram_arrays() + peer.unigram_arrays()
    sentences = (model.units, model.offsets, peer.units, peer.offsets)
    return {"tables": per_step(grams.gram_tables, core._tables_seconds, core.GRAM_STEP, peer.flat, kinds, sizes,
                               unigrams, True, bits),
            "count": per_step(grams.count_codes, core._count_seconds, core.COUNT_STEP, peer.flat),
            "clipped": per_step(grams.multi_clipped_hits, core._clipped_seconds, core.CLIP_STEP,
                                *tables[0][:3], *tables[1][:3]),
            "summary_lcs": per_step(lcs.summary_lcs_hits, core._summary_lcs_seconds, core.LCS_BITS_STEP, *sentences,
                                    1.0, *clip),
            "summary_wlcs": per_step(lcs.summary_lcs_hits, core._summary_lcs_seconds, core.LCS_CELL_STEP, *sentences,
                                     1.2, *clip),
            "wlcs_lin": per_step(lcs.summary_wlcs_lin, core._wlcs_lin_seconds, core.LCS_CELL_STEP, *sentences, 1.2)}


if __name__ == "__main__":
    main()
