"""One gram rule: the rows the soft core, WIDAR and Anchored ROUGE count (``ngrams``, ``skip_bigrams``)
are the grams the compiled kernels pack (``gram_codes``), gram for gram, including ROUGE-1.5.5's
last-unigram rule for ROUGE-SU; ``gram_count`` counts them."""
import numpy as np
import pytest

from rougelab.rouge import grams


def _packed(rows: np.ndarray, bits: int) -> list[int]:
    low = np.where(rows[:, 1] == grams.PAD, grams.NO_TOKEN, rows[:, 1]) if rows.shape[1] == 2 else None
    if low is not None and bits == 32:
        return sorted(((rows[:, 0] << 32) | low).tolist())
    code = np.zeros(len(rows), dtype=np.int64)
    for k in range(rows.shape[1]):
        code = (code << bits) | rows[:, k]
    return sorted(code.tolist())


@pytest.mark.parametrize("length", [0, 1, 2, 5, 9])
def test_rows_are_the_packed_grams(length):
    ids = np.random.default_rng(length).integers(0, 4, length)
    for n in (1, 2, 3):
        rows = grams.ngrams(ids, n)
        codes = grams.gram_codes(ids, grams.KIND_NGRAM, n, False, True, grams.pack_bits(n))
        assert _packed(rows, grams.pack_bits(n)) == sorted(codes.tolist())
        assert len(rows) == grams.gram_count(length, grams.KIND_NGRAM, n, False, True)
    for gap in (-1, 0, 1, 4):
        for unigrams in (False, True):
            for bug in (False, True):
                rows = grams.skip_bigrams(ids, gap, unigrams=unigrams, perl_last_unigram_bug=bug)
                codes = grams.gram_codes(ids, grams.KIND_SKIP, gap, unigrams, bug, 32)
                assert _packed(rows, 32) == sorted(codes.tolist())
                assert len(rows) == grams.gram_count(length, grams.KIND_SKIP, gap, unigrams, bug)


def test_skip_bigram_rule_by_hand():
    """Lin (2004), section 5: "police killed the gunman" has C(4, 2) = 6 skip-bigrams; ROUGE-1.5.5 -2 0
    keeps adjacent pairs only, and its ROUGE-SU leaves the last token's unigram out."""
    ids = np.arange(4)
    assert len(grams.skip_bigrams(ids, -1)) == 6
    assert grams.skip_bigrams(ids, 0).tolist() == [[0, 1], [1, 2], [2, 3]]
    assert grams.skip_bigrams(ids, 0, unigrams=True)[:, 0].tolist()[:3] == [0, 1, 2]
    assert len(grams.skip_bigrams(ids, 0, unigrams=True)) == 6
