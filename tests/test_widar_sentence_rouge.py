"""Sentence-level ROUGE-N / ROUGE-L and their weighted forms (Eqs. 2-7), by hand and against rouge-score."""
import pytest
from hypothesis import given, settings, strategies as st
from rouge_score.rouge_scorer import RougeScorer

from rougelab.metrics.base import InputError
from rougelab.metrics.widar.sentence_rouge import lcs_hits, ngram_hits, weighted_prf
from rougelab.metrics.widar.tokenize import widar_tokens

S = [["a", "b", "a"], ["b", "c"]]  # summary sentences
R = [["a", "b"], ["a", "c", "b"]]  # reference sentences


def test_rouge1_sl_consumes_matches_in_sentence_order():
    # s1 {a:2, b:1} meets r1 {a:1, b:1}: a 1, b 1 -> r1 gets 2; then r2 {a:1, c:1, b:1}: a 1 -> r2 gets 1.
    # s2 {b:1, c:1} meets r1 (exhausted): 0; r2: b 1, c 1 -> r2 gets 2 more. Hits [2, 3].
    found = ngram_hits(S, R, 1)
    assert found.hits.tolist() == [2, 3]
    # Distinct unigrams: reference 2 + 3 = 5, summary 2 + 2 = 4; all occurrences: 5 and 5.
    assert (found.reference_size, found.summary_size) == (5, 4)
    total = ngram_hits(S, R, 1, denominator="total")
    assert (total.reference_size, total.summary_size) == (5, 5)
    # Unweighted (Eqs. 2-4): R = 5/5, P = 5/4, F = 2 x 1 x 1.25 / 2.25.
    assert weighted_prf(found) == pytest.approx((1.0, 1.25, 2.5 / 2.25))
    # Weighted with w = [0.5, 1.5]: 2 x 0.5 + 3 x 1.5 = 5.5 -> R = 1.1, P = 1.375, F = 3.025 / 2.475.
    assert weighted_prf(found, [0.5, 1.5]) == pytest.approx((1.1, 1.375, 3.025 / 2.475))


def test_rouge2_sl_discards_bridge_bigrams():
    # Bigrams inside sentences: s1 (a b)(b a), s2 (b c); r1 (a b); r2 (a c)(c b). Only (a b) matches, in r1.
    found = ngram_hits(S, R, 2)
    assert found.hits.tolist() == [1, 0]
    assert weighted_prf(found) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # "x a" + "b y": the bigram (a b) would bridge the two summary sentences, so it does not count.
    assert ngram_hits([["x", "a"], ["b", "y"]], [["a", "b"]], 2).hits.tolist() == [0]
    assert ngram_hits([["x", "a", "b", "y"]], [["a", "b"]], 2).hits.tolist() == [1]


def test_a_match_is_credited_to_the_first_reference_sentence_holding_it():
    assert ngram_hits([["a"]], [["a"], ["a"]], 1).hits.tolist() == [1, 0]
    assert ngram_hits([["a", "a"]], [["a"], ["a"]], 1).hits.tolist() == [1, 1]
    # With w = [0.2, 1.8] the first placement is what counts: 0.2 / 2 reference unigrams.
    assert weighted_prf(ngram_hits([["a"]], [["a"], ["a"]], 1), [0.2, 1.8])[0] == pytest.approx(0.1)


def test_rouge_l_sl_union_lcs_lin_example():
    # Lin (2004) 3.2: r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5 -> union {w1 w2 w3 w5} = 4 hits;
    # R = 4/5, P = 4/10, F = 2 x .8 x .4 / 1.2.
    r = [["w1", "w2", "w3", "w4", "w5"]]
    c = [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]
    found = lcs_hits(c, r)
    assert found.hits.tolist() == [4]
    assert weighted_prf(found) == pytest.approx((0.8, 0.4, 0.64 / 1.2))


def test_rouge_l_sl_clips_hits_by_tokens_left():
    # r1 = r2 = "a b", summary "a b": r1 takes both summary tokens, r2 finds none left.
    found = lcs_hits([["a", "b"]], [["a", "b"], ["a", "b"]])
    assert found.hits.tolist() == [2, 0]
    assert weighted_prf(found) == pytest.approx((0.5, 1.0, 2 / 3))
    # Eqs. 5-6 as printed divide by |R| = 2 and |S| = 1 sentences: R = 2/2, P = 2/1.
    assert weighted_prf(lcs_hits([["a", "b"]], [["a", "b"], ["a", "b"]], denominator="sentences"))[:2] == (1.0, 2.0)


def test_empty_sides_score_zero():
    assert weighted_prf(lcs_hits([], R)) == (0.0, 0.0, 0.0)
    assert weighted_prf(ngram_hits([], R, 1)) == (0.0, 0.0, 0.0)
    assert weighted_prf(ngram_hits(S, [[]], 2)) == (0.0, 0.0, 0.0)


def test_bad_arguments():
    with pytest.raises(InputError, match="denominator"):
        ngram_hits(S, R, 1, denominator="set")
    with pytest.raises(InputError, match=">= 1"):
        ngram_hits(S, R, 0)
    with pytest.raises(InputError, match="weights for 2 reference sentences"):
        weighted_prf(ngram_hits(S, R, 1), [1.0])


SENTENCE = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=8).map(" ".join)
TEXT = st.lists(SENTENCE, min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT)
def test_unweighted_rouge1_sl_with_total_counts_is_rouge1(summary, reference):
    # Footnote 6: "ROUGE-1 and ROUGE-1_SL denote the same metrics" (true with occurrence counts).
    s = [widar_tokens(x, stem=False) for x in summary]
    r = [widar_tokens(x, stem=False) for x in reference]
    expected = RougeScorer(["rouge1"]).score(" ".join(reference), " ".join(summary))["rouge1"]
    assert weighted_prf(ngram_hits(s, r, 1, denominator="total")) == pytest.approx(
        (expected.recall, expected.precision, expected.fmeasure), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT)
def test_unweighted_rouge_l_sl_is_rouge_score_rougeLsum(summary, reference):
    # rougeLsum is the union-LCS summary-level ROUGE-L with token clipping over newline-split sentences.
    s = [widar_tokens(x, stem=False) for x in summary]
    r = [widar_tokens(x, stem=False) for x in reference]
    expected = RougeScorer(["rougeLsum"]).score("\n".join(reference), "\n".join(summary))["rougeLsum"]
    assert weighted_prf(lcs_hits(s, r)) == pytest.approx((expected.recall, expected.precision, expected.fmeasure),
                                                          abs=1e-12)
