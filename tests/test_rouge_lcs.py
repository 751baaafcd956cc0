"""LCS kernels: Lin (2004)'s worked examples, and the compiled kernels against their pure-Python source."""
from __future__ import annotations

import numpy as np
import pytest

from rougelab.rouge import grams, lcs
from rougelab._jit import NUMBA
from rougelab.rouge.lcs import lcs_length, union_lcs_positions, weighted_lcs_positions, wlcs


def test_lcs_length_textbook():
    assert lcs_length("ABCBDAB", "BDCABA") == 4       # Cormen et al., the example Lin cites
    assert lcs_length([], ["a"]) == 0 and lcs_length("abc", "abc") == 3


def test_lin_section_3_1_sentences():
    s1 = "police killed the gunman".split()
    assert lcs_length(s1, "police kill the gunman".split()) == 3     # S2: 3/4 = 0.75
    assert lcs_length(s1, "the gunman kill police".split()) == 2     # S3: 2/4 = 0.5
    assert lcs_length(s1, "the gunman police killed".split()) == 2   # S4: same as S3


def test_lin_union_lcs_example():
    """Lin 2004, section 3.2: r_i = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5 -> w1 w2 w3 w5, 4/5."""
    ref = "w1 w2 w3 w4 w5".split()
    positions = union_lcs_positions(ref, ["w1 w2 w6 w7 w8".split(), "w1 w3 w8 w9 w5".split()])
    assert positions == [0, 1, 2, 4] and len(positions) / len(ref) == 4 / 5


def test_lin_wlcs_example():
    """Lin 2004, section 4: X = [A B C D E F G], f(k) = k^2: WLCS(X, Y1) = 16, WLCS(X, Y2) = 4,
    so R = f^-1(WLCS / f(7)) = 0.571 and 0.286."""
    x = "A B C D E F G".split()
    y1, y2 = "A B C D H I K".split(), "A H B K C I D".split()
    assert wlcs(x, y1, 2) == 16 and wlcs(x, y2, 2) == 4
    assert round((16 / 49) ** 0.5, 3) == 0.571 and round((4 / 49) ** 0.5, 3) == 0.286
    # Both paths mark A B C D in X: ROUGE-1.5.5 then counts one run of 4 for Y2 as well (see test_rouge_api).
    assert weighted_lcs_positions(x, [y2], 2) == [0, 1, 2, 3]


def _random_case(rng):
    model = rng.integers(0, 5, rng.integers(0, 12)).astype(np.int64)
    sizes = rng.integers(0, 8, rng.integers(1, 4))
    peer = rng.integers(0, 5, int(sizes.sum())).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return model, peer, offsets


@pytest.mark.skipif(not NUMBA, reason="numba disabled: nothing compiled to compare")
def test_compiled_kernels_equal_pure_python():
    """Every kernel, compiled and as plain Python (the fallback), on 300 random small cases."""
    rng = np.random.default_rng(0)
    for _ in range(300):
        model, peer, offsets = _random_case(rng)
        model_offsets = np.array([0, len(model)], dtype=np.int64)
        vocab, counts = np.unique(model, return_counts=True)
        pvocab, pcounts = np.unique(peer, return_counts=True)
        for weight in (1.0, 1.2, 2.0):
            args = (model, model_offsets, peer, offsets, weight, vocab.astype(np.int64), counts.astype(np.int64),
                    pvocab.astype(np.int64), pcounts.astype(np.int64))
            assert lcs.summary_lcs_hits(*args) == lcs.summary_lcs_hits.py_func(*args)
            wargs = (model, model_offsets, peer, offsets, weight)
            assert lcs.summary_wlcs_lin(*wargs) == lcs.summary_wlcs_lin.py_func(*wargs)
        codes = rng.integers(0, 6, 20).astype(np.int64)
        for got, want in zip(grams.count_codes(codes), grams.count_codes.py_func(codes)):
            assert np.array_equal(got, want)
        a, b = (np.unique(rng.integers(0, 9, 6)).astype(np.int64) for _ in range(2))
        ca, cb = rng.integers(1, 4, len(a)).astype(np.int64), rng.integers(1, 4, len(b)).astype(np.int64)
        assert grams.clipped_hits(a, ca, b, cb) == grams.clipped_hits.py_func(a, ca, b, cb) == \
            sum(min(x, dict(zip(b, cb)).get(k, 0)) for k, x in zip(a, ca))
        tokens = rng.integers(0, 7, rng.integers(0, 10)).astype(np.int64)
        spec = [np.array(x, dtype=np.int64) for x in ([0, 0, 0, 1, 1, 1], [1, 2, 4, 0, 4, -1], [0, 0, 0, 0, 1, 1],
                                                      [63, 31, 15, 32, 32, 32])]
        for bug in (True, False):
            compiled = grams.gram_tables(tokens, *spec[:3], bug, spec[3])
            plain = grams.gram_tables.py_func(tokens, *spec[:3], bug, spec[3])
            assert all(np.array_equal(x, y) for x, y in zip(compiled, plain))


def test_gram_codes_count_like_perl_loops():
    """Counts as createNGram / createSkipBigram make them: 4 tokens give 3 bigrams, C(4, 2) = 6 skip-bigrams
    at any distance, 3 at distance 0 (= bigrams), and with -U 3 unigrams (the last one never counted)."""
    t = np.array([5, 6, 7, 5], dtype=np.int64)
    assert len(grams.gram_codes(t, 0, 2, False, True, 31)) == 3
    assert len(grams.gram_codes(t, 1, -1, False, True, 32)) == 6
    assert sorted(grams.gram_codes(t, 1, 0, False, True, 32)) == sorted(grams.gram_codes(t, 0, 2, False, True, 32))
    assert len(grams.gram_codes(t, 1, -1, True, True, 32)) == 6 + 3
    assert len(grams.gram_codes(t, 1, -1, True, False, 32)) == 6 + 4
    distinct, counts = grams.count_codes(grams.gram_codes(t, 0, 1, False, True, 63))
    assert distinct.tolist() == [5, 6, 7] and counts.tolist() == [2, 1, 1]


def test_ngram_numbering_fallback_matches_packing():
    """A vocabulary too large to pack 4-grams into 63 bits falls back to numbering; scores are unchanged."""
    from rougelab.rouge.core import PreparedText, Vocabulary, measure_stats, Measure
    from rougelab.rouge.options import RougeOptions

    options = RougeOptions()
    texts = [["a b c d e a b c d"], ["x a b c d e y"]]
    small = Vocabulary()
    big = Vocabulary()
    big.encode([f"filler{i}" for i in range(1 << 15)])      # 32,768 ids: 4-grams no longer fit 15 bits each
    results = []
    for vocab in (small, big):
        peer, model = (PreparedText(t, options, vocab) for t in texts)
        measures = [Measure("N", 4), Measure("N", 2), Measure("S", 4, unigrams=True)]
        results.append(measure_stats(peer, [model], measures))
    assert big.grams and not small.grams                       # the fallback really ran
    assert results[0] == results[1] and results[0][0][0].hit == 2
