"""The soft-matching ROUGE core: grams, clipping, matchers, P/R/F pooling, reduction to ROUGE."""
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rougelab.metrics.soft_rouge import (GramSpec, SoftCounts, VectorSimilarity, exact_similarity, greedy_match,
                                         ng_abrecht_match, s3_match, soft_rouge)
from rougelab.rouge.grams import PAD, ngrams, skip_bigrams
from rougelab.scoring import Grams, count_grams, prf
from rougelab.text.token_ids import TokenIndex

WORDS = ["police", "killed", "the", "gunman", "kill", "a", "of", "and", "rain", "heavy"]


def _ids(index, text):
    return index.ids(text.split())


# --- grams -------------------------------------------------------------------------------------

def test_ngrams_and_skip_bigrams_by_hand():
    ids = np.array([0, 1, 2, 3])
    assert ngrams(ids, 2).tolist() == [[0, 1], [1, 2], [2, 3]]
    assert ngrams(ids, 5).shape == (0, 5)
    # gap <= 1: pairs at most 2 positions apart
    assert skip_bigrams(ids, 1).tolist() == [[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]]
    # ROUGE-SU as ROUGE-1.5.5 -U: the last token's unigram is never counted
    su = skip_bigrams(ids, 1, unigrams=True)
    assert su[:3].tolist() == [[0, PAD], [1, PAD], [2, PAD]] and len(su) == 8
    assert len(skip_bigrams(ids, 1, unigrams=True, perl_last_unigram_bug=False)) == 9
    assert skip_bigrams(ids, -1).shape == (6, 2)          # C(4, 2), unlimited gap
    assert skip_bigrams(np.array([5]), 4, unigrams=True).shape == (0, 2)


def test_count_grams_keeps_first_occurrence_order():
    grams = count_grams(np.array([[3, 1], [2, 2], [3, 1], [0, 9]]))
    assert grams.keys.tolist() == [[3, 1], [2, 2], [0, 9]]
    assert grams.counts.tolist() == [2, 1, 1] and grams.total == 4


def test_gram_spec_names():
    assert [GramSpec(n=2).name, GramSpec(skip=4, unigrams=True).name, GramSpec(skip=-1).name] == ["2", "su4", "s*"]


# --- reduction to classic ROUGE ---------------------------------------------------------------

def test_lin_2004_skip_bigram_example():
    # Lin (2004), section 5: with S1 as reference, ROUGE-S (beta = 1) of S2 = 0.5, S3 = 0.167, S4 = 0.333.
    index = TokenIndex()
    s1 = _ids(index, "police killed the gunman")
    cands = [_ids(index, t) for t in ("police kill the gunman", "the gunman kill police", "the gunman police killed")]
    table = soft_rouge(cands, [[s1]] * 3, GramSpec(skip=-1), exact_similarity)
    assert table["rouges*_f"].round(3).tolist() == [0.5, 0.167, 0.333]


def test_lin_2004_rouge2_example():
    # Lin (2004), section 3.1: S2 and S3 share one bigram ("the gunman") with S1.
    index = TokenIndex()
    s1 = _ids(index, "police killed the gunman")
    cands = [_ids(index, "police kill the gunman"), _ids(index, "the gunman kill police")]
    table = soft_rouge(cands, [[s1], [s1]], GramSpec(n=2), exact_similarity)
    assert table["rouge2_r"].tolist() == [1 / 3, 1 / 3]


texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=25).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(cand=texts, ref=texts)
def test_exact_similarity_reproduces_rouge_score(cand, ref):
    """Google's rouge-score (single reference, no stemming) is an independent ROUGE-N."""
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=False)
    expected = scorer.score(ref, cand)
    index = TokenIndex()
    c, r = _ids(index, cand), _ids(index, ref)
    for n in (1, 2):
        got = soft_rouge([c], [[r]], GramSpec(n=n), exact_similarity).iloc[0]
        want = expected[f"rouge{n}"]
        assert got[f"rouge{n}_r"] == pytest.approx(want.recall, abs=1e-12)
        assert got[f"rouge{n}_p"] == pytest.approx(want.precision, abs=1e-12)
        assert got[f"rouge{n}_f"] == pytest.approx(want.fmeasure, abs=1e-12)


def test_exact_similarity_reproduces_classic_rouge_multireference():
    """The core with f_R gives the numbers of rougelab.rouge.rouge (ROUGE-1.5.5, -f A, no stemming)."""
    from rougelab.rouge import api

    rng = np.random.default_rng(7)
    vocab = WORDS + ["x", "y"]
    summaries, references = [], []
    for _ in range(40):
        summaries.append(" ".join(rng.choice(vocab, rng.integers(0, 30))))
        references.append([" ".join(rng.choice(vocab, rng.integers(1, 30))) for _ in range(rng.integers(1, 4))])
    classic = api.rouge(summaries, references, measures=["rouge-1", "rouge-2", "rouge-su4"], stem=False,
                        multiref="A")
    index = TokenIndex()
    cand = [_ids(index, s) for s in summaries]
    refs = [[_ids(index, r) for r in rs] for rs in references]
    for spec in (GramSpec(n=1), GramSpec(n=2), GramSpec(skip=4, unigrams=True)):
        ours = soft_rouge(cand, refs, spec, exact_similarity, round_digits=5)
        for col in ours.columns:
            assert ours[col].tolist() == classic[col].tolist(), col


# --- matchers ----------------------------------------------------------------------------------

def _grams(counts):
    counts = np.asarray(counts, dtype=np.int64)
    return Grams(np.arange(len(counts)).reshape(-1, 1), counts)


def test_greedy_match_by_hand():
    sim = np.array([[0.9, 0.8], [0.85, 0.1]])
    # most similar first: (0,0) 0.9, then row 0 and column 0 are used up, then (1,1) 0.1
    assert greedy_match(sim, _grams([1, 1]), _grams([1, 1])) == pytest.approx(1.0)
    # a reference gram occurring twice can take both candidate grams
    assert greedy_match(sim, _grams([2, 1]), _grams([1, 1])) == pytest.approx(0.9 + 0.8)
    # non-positive similarities are never matched
    assert greedy_match(-sim, _grams([1, 1]), _grams([1, 1])) == 0.0


def test_greedy_match_clips_a_repeated_candidate_gram():
    # candidate "rain" once, reference has three grams all similar to it: credited once only
    sim = np.array([[1.0], [0.9], [0.8]])
    assert greedy_match(sim, _grams([1, 1, 1]), _grams([1])) == pytest.approx(1.0)
    # candidate "rain" twice: credited twice
    assert greedy_match(sim, _grams([1, 1, 1]), _grams([2])) == pytest.approx(1.9)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_greedy_match_never_credits_a_gram_more_than_it_occurs(data):
    m = data.draw(st.integers(1, 6))
    c = data.draw(st.integers(1, 6))
    sim = np.array(data.draw(st.lists(st.floats(-1, 1), min_size=m * c, max_size=m * c))).reshape(m, c)
    r = np.array(data.draw(st.lists(st.integers(1, 4), min_size=m, max_size=m)))
    q = np.array(data.draw(st.lists(st.integers(1, 4), min_size=c, max_size=c)))
    hit = greedy_match(sim, _grams(r), _grams(q))
    pos = np.clip(sim, 0, None)
    assert hit <= (q * pos.max(axis=0)).sum() + 1e-9      # each candidate occurrence at most once
    assert hit <= (r * pos.max(axis=1)).sum() + 1e-9      # each reference occurrence at most once
    assert hit <= min(r.sum(), q.sum()) + 1e-9            # similarities are <= 1 here


def _greedy_by_sorting(sim, r, q):
    """The definition, spelled out: all pairs by decreasing similarity, ties in row-major order."""
    r, q, hit = list(r), list(q), 0.0
    for k in sorted(range(sim.size), key=lambda k: (-sim.flat[k], k)):
        i, j = divmod(k, sim.shape[1])
        if sim[i, j] > 0 and r[i] and q[j]:
            f = min(r[i], q[j])
            hit, r[i], q[j] = hit + f * sim[i, j], r[i] - f, q[j] - f
    return hit


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_greedy_match_follows_its_definition(data):
    m = data.draw(st.integers(1, 7))
    c = data.draw(st.integers(1, 7))
    values = st.sampled_from([-0.5, 0.0, 0.25, 0.5, 0.75, 1.0]) | st.floats(-1, 2)   # many ties
    sim = np.array(data.draw(st.lists(values, min_size=m * c, max_size=m * c))).reshape(m, c)
    r = data.draw(st.lists(st.integers(1, 3), min_size=m, max_size=m))
    q = data.draw(st.lists(st.integers(1, 3), min_size=c, max_size=c))
    assert greedy_match(sim, _grams(r), _grams(q)) == pytest.approx(_greedy_by_sorting(sim, r, q), abs=1e-12)


def test_ng_abrecht_match_by_hand():
    # reference grams (first-occurrence order) with counts 2, 1, 3; the script's counter admits the
    # k-th reference gram's soft sum only while its count >= k: grams 1 and 3, not 2.
    ref = Grams(np.array([[0], [1], [2]]), np.array([2, 1, 3]))
    cand = Grams(np.array([[0], [7]]), np.array([5, 1]))
    sim = np.array([[1.0, 0.5], [0.25, 0.25], [0.125, 0.0]])
    exact = min(2, 5)                                  # gram 0 occurs in both
    soft = (1.0 + 0.5) + (0.125 + 0.0)
    assert ng_abrecht_match(sim, ref, cand) == pytest.approx(0.5 * exact + 0.5 * soft)


def test_s3_match_by_hand():
    ref = Grams(np.array([[0], [1]]), np.array([1, 2]))
    cand = Grams(np.array([[5], [6], [7]]), np.array([3, 1, 1]))
    sim = np.array([[0.9, 0.95, 0.1],
                    [0.85, 0.7, 0.79]])
    # cand 5 (x3) takes ref 0 (0.9): +1, ref 0 used up; cand 6 now best ref 1 at 0.7 < 0.8: nothing;
    # cand 7 best remaining ref 1 at 0.79 < 0.8: nothing. Whole counts, not similarities.
    assert s3_match(sim, ref, cand) == 1.0
    # threshold 0.7: cand 6 -> ref 1 (0.7): +1, one left; cand 7 -> ref 1 (0.79): +1
    assert s3_match(sim, ref, cand, threshold=0.7) == 3.0


def _ng_abrecht_by_counter(sim, ref_counts, cand_counts):
    """The script's loop, spelled out: one 'seen' counter per candidate gram, shared by all reference grams."""
    seen, hit = {}, 0.0
    for i, count in enumerate(ref_counts):
        exact = min(count, cand_counts[i]) if i < len(cand_counts) else 0   # gram i of both sides is the same gram here
        soft = 0.0
        for j in range(len(cand_counts)):
            seen[j] = seen.get(j, 0) + 1
            if seen[j] <= count:
                soft += sim[i, j]
        hit += 0.5 * exact + 0.5 * soft
    return hit


def _s3_by_loop(sim, ref_counts, cand_counts, threshold=0.8):
    """S3's greedy, spelled out: each candidate gram in turn takes the closest remaining reference gram."""
    left, hit = dict(enumerate(ref_counts)), 0
    for j, v in enumerate(cand_counts):
        if not left:
            break
        best = max(left, key=lambda i: (sim[i, j], -i))
        if sim[best, j] < threshold:
            continue
        f = min(v, left[best])
        hit += f
        left[best] -= f
        if left[best] == 0:
            del left[best]
    return hit


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_published_matchers_follow_their_loops(data):
    m = data.draw(st.integers(1, 6))
    c = data.draw(st.integers(1, 6))
    values = st.sampled_from([0.0, 0.5, 0.8, 0.9, 1.0]) | st.floats(-1, 1)
    sim = np.array(data.draw(st.lists(values, min_size=m * c, max_size=m * c))).reshape(m, c)
    r = data.draw(st.lists(st.integers(1, 4), min_size=m, max_size=m))
    q = data.draw(st.lists(st.integers(1, 4), min_size=c, max_size=c))
    ref = Grams(np.arange(m).reshape(-1, 1), np.array(r))      # gram k of both sides is token k
    cand = Grams(np.arange(c).reshape(-1, 1), np.array(q))
    assert ng_abrecht_match(sim, ref, cand) == pytest.approx(_ng_abrecht_by_counter(sim, r, q), abs=1e-12)
    assert s3_match(sim, ref, cand) == _s3_by_loop(sim, r, q)


# --- P/R/F, pooling, bad input ---------------------------------------------------------------

def test_prf_pools_like_rouge_f_a_and_handles_zeros():
    assert prf(*SoftCounts(3.0, 6, 4)) == pytest.approx((0.5, 0.75, 0.6))
    assert prf(*SoftCounts(0.0, 0, 0)) == (0.0, 0.0, 0.0)
    assert prf(*SoftCounts(1.0, 3, 3), round_digits=5) == (0.33333, 0.33333, 0.33333)


def test_multi_reference_pooling_by_hand():
    index = TokenIndex()
    cand = _ids(index, "a b c")
    refs = [_ids(index, "a b"), _ids(index, "c d e f")]
    row = soft_rouge([cand], [refs], GramSpec(n=1), exact_similarity).iloc[0]
    # hits 2 + 1 over 2 + 4 reference unigrams; precision over 2 references x 3 candidate unigrams
    assert (row["rouge1_r"], row["rouge1_p"]) == (0.5, 0.5)


def test_empty_summary_and_empty_reference_score_zero():
    index = TokenIndex()
    table = soft_rouge([_ids(index, ""), _ids(index, "a b")], [[_ids(index, "a b")], [_ids(index, "")]],
                       GramSpec(n=1), exact_similarity)
    assert table.to_numpy().tolist() == [[0.0] * 3, [0.0] * 3]


def test_mismatched_batch_is_an_error():
    with pytest.raises(ValueError, match="2 summaries but 1 reference lists"):
        soft_rouge([np.array([0]), np.array([1])], [[np.array([0])]], GramSpec(n=1), exact_similarity)


# --- vector similarity ---------------------------------------------------------------------------

def test_vector_similarity_compositions_by_hand():
    vectors = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [9.0, 9.0]])
    known = np.array([True, True, True, False])
    keys_a = np.array([[0, 1]])                       # bigram (0, 1)
    keys_b = np.array([[2, PAD], [0, 3]])             # unigram 2, and a bigram with an OOV word
    prod = VectorSimilarity(vectors, known, composition="product", measure="dot")
    assert prod.compose(keys_a).tolist() == [[3.0, -2.0]]
    assert prod(keys_a, keys_b).tolist() == [[3.0 * 0.5 - 2.0 * 0.5, 0.0]]
    total = VectorSimilarity(vectors, known, composition="sum", measure="dot")
    assert total.compose(keys_a).tolist() == [[4.0, 1.0]]
    mean = VectorSimilarity(vectors, known, composition="mean", measure="cosine")
    assert mean.compose(np.array([[0, 1], [2, PAD]])).tolist() == [[2.0, 0.5], [0.5, 0.5]]
    cos = mean(np.array([[0, 1]]), np.array([[2, PAD]]))[0, 0]
    assert cos == pytest.approx((2.0 * 0.5 + 0.5 * 0.5) / (np.hypot(2.0, 0.5) * np.hypot(0.5, 0.5)))


def test_oov_gram_has_similarity_zero_even_to_itself_unless_exact_is_one():
    vectors, known = np.eye(3), np.array([True, False, True])
    keys = np.array([[1]])
    assert VectorSimilarity(vectors, known, measure="cosine")(keys, keys).tolist() == [[0.0]]
    assert VectorSimilarity(vectors, known, measure="cosine", exact_is_one=True)(keys, keys).tolist() == [[1.0]]


def test_one_hot_unigram_vectors_with_cosine_reduce_to_exact_match():
    # (for bigrams they do not: the product of two different one-hot vectors is 0)
    index = TokenIndex()
    cand = _ids(index, "the gunman kill the police the")
    ref = _ids(index, "police killed the gunman the")
    for composition in ("product", "sum", "mean"):
        sim = VectorSimilarity(np.eye(len(index)), np.ones(len(index), bool), composition=composition,
                               measure="cosine")
        soft = soft_rouge([cand], [[ref]], GramSpec(n=1), sim)
        exact = soft_rouge([cand], [[ref]], GramSpec(n=1), exact_similarity)
        assert np.allclose(soft.to_numpy(), exact.to_numpy(), atol=1e-12)
        assert exact.iloc[0].tolist() == pytest.approx([4 / 5, 4 / 6, 2 * (4 / 5) * (4 / 6) / (4 / 5 + 4 / 6)])


def test_unknown_composition_or_measure_is_an_error():
    with pytest.raises(ValueError, match="composition"):
        VectorSimilarity(np.eye(2), np.ones(2, bool), composition="max")
    with pytest.raises(ValueError, match="measure"):
        VectorSimilarity(np.eye(2), np.ones(2, bool), measure="euclid")


# --- determinism -------------------------------------------------------------------------------

_SCRIPT = """
import numpy as np
from rougelab.metrics.soft_rouge import *
from rougelab.text.token_ids import TokenIndex
rng = np.random.default_rng(0)
index = TokenIndex()
words = [f"w{i}" for i in range(30)]
cands = [index.ids(rng.choice(words, 40)) for _ in range(5)]
refs = [[index.ids(rng.choice(words, 35)) for _ in range(3)] for _ in range(5)]
vec = rng.normal(size=(len(index), 8)); vec[:, 0] = 1.0    # many ties in the product composition
sim = VectorSimilarity(vec, np.ones(len(index), bool), measure="cosine")
for m in (greedy_match, ng_abrecht_match, s3_match):
    print(soft_rouge(cands, refs, GramSpec(skip=4, unigrams=True), sim, matcher=m).to_numpy().tobytes().hex())
"""


def test_deterministic_across_processes_and_hash_seeds():
    outs = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", _SCRIPT], env=env, check=True, capture_output=True,
                                text=True).stdout)
    assert len(outs) == 1
