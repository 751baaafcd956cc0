"""Anchored ROUGE: Eqs. 1-2 by hand on toy embeddings, the k = 1 identity-encoder limit, the protocol."""
from __future__ import annotations

import numpy as np
import pytest

from rougelab.metrics.anchored import (anchor_sets, anchor_table, anchored_overlap, anchored_rouge, gram_positions,
                                       particles, reference_subsets, score_anchored, subset_recall, top_k, transfer)
from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.semantic.encoder import TokenEmbeddings
from rougelab.text import tokenize


class ToyEncoder:
    """Non-contextual: every ROUGE token gets a fixed vector from a table (unknown tokens: zero)."""

    signature = "toy"

    def __init__(self, table: dict[str, tuple[float, ...]]):
        self.table = table
        self.dim = len(next(iter(table.values())))

    def encode(self, texts):
        out = []
        for text in texts:
            tokens = tuple(tokenize(text))
            vectors = np.array([self.table.get(t, (0.0,) * self.dim) for t in tokens], dtype=np.float32)
            out.append(TokenEmbeddings(tokens, vectors.reshape(len(tokens), self.dim)))
        return out


class IdentityEncoder(ToyEncoder):
    """One-hot vector per word type: cosine 1 for the same word, 0 otherwise."""

    def __init__(self, texts):
        vocab = sorted({t for text in texts for t in tokenize(text)})
        super().__init__({w: tuple(float(i == j) for j in range(len(vocab))) for i, w in enumerate(vocab)})


# The hand-worked example (2-D unit vectors). Source unigrams: huge (1, 0), excellent (.6, .8), result (0, 1);
# the summary word "great" is (.8, .6). k = 2.
TOY = ToyEncoder({"huge": (1.0, 0.0), "excellent": (0.6, 0.8), "result": (0.0, 1.0), "great": (0.8, 0.6)})
SOURCE = "huge excellent result"
PEER = "great great result"
REFS = ["huge huge result", "excellent"]
# Anchor sets (cosines): great -> excellent .96, huge .80 | result -> result 1, excellent .80
#                        huge -> huge 1, excellent .60    | excellent -> excellent 1, result .80
# Eq. 2: T(., peer) = huge 2*.8 = 1.6, excellent 2*.96 + .8 = 2.72, result 1   (sum 5.32)
#        T(., ref1) = huge 2*1 = 2, excellent 2*.6 + .8 = 2.0, result 1         (sum 5.0)
#        T(., ref2) = excellent 1, result .8                                   (sum 1.8)
# Eq. 1 numerator: ref1 min(1.6,2) + min(2.72,2) + min(1,1) = 4.6; ref2 min(2.72,1) + min(1,.8) = 1.8
R_HAND = (4.6 + 1.8) / (5.0 + 1.8)
P_HAND = (4.6 + 1.8) / (2 * 5.32)


def _parts(text, **kw):
    return particles(TOY.encode([text])[0], "1", stem=False, **kw)


def test_eq2_transfer_by_hand():
    source = _parts(SOURCE)
    peer = _parts(PEER)
    anchors = anchor_sets(peer, source, k=2)
    assert peer.keys == (("great",), ("result",)) and list(peer.weights) == [2, 1]
    assert anchors.index.tolist() == [[1, 0], [2, 1]]
    np.testing.assert_allclose(anchors.strength, [[0.96, 0.8], [1.0, 0.8]])
    bag = transfer(peer, anchors, source)
    assert bag.keys() == {("huge",), ("excellent",), ("result",)}
    np.testing.assert_allclose([bag[("huge",)], bag[("excellent",)], bag[("result",)]], [1.6, 2.72, 1.0])


def test_eq1_by_hand_through_the_metric():
    out = anchored_rouge([PEER], [REFS], [SOURCE], form="1", k=2, stem=False, encoder=TOY)
    f_hand = 2 * P_HAND * R_HAND / (P_HAND + R_HAND)
    np.testing.assert_allclose(out.loc[0, ["ancrouge1_r", "ancrouge1_p", "ancrouge1_f"]].to_numpy(float),
                               [R_HAND, P_HAND, f_hand], rtol=1e-6)
    # stemming changes only particle identities, not this example's numbers
    again = anchored_rouge([PEER], [REFS], [SOURCE], form="1", k=2, stem=True, encoder=TOY)
    assert again.loc[0, "ancrouge1_r"] == pytest.approx(R_HAND)


def test_anchored_overlap_edge_cases():
    assert anchored_overlap({}, [{"a": 1.0}]) == {"r": 0.0, "p": 0.0, "f": 0.0}
    assert anchored_overlap({"a": 1.0}, [{}]) == {"r": 0.0, "p": 0.0, "f": 0.0}
    assert anchored_overlap({"a": 2.0}, [{"a": 1.0}]) == {"r": 1.0, "p": 0.5, "f": pytest.approx(2 / 3)}


def test_particle_vectors_are_token_means_and_type_means():
    emb = TokenEmbeddings(("huge", "success", "huge", "success"),
                          np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]], dtype=np.float32))
    types = particles(emb, "2", stem=False)
    assert types.keys == (("huge", "success"), ("success", "huge")) and list(types.weights) == [2, 1]
    # ("huge success") occurs with (1,1,0)/2 and (1,0,1)/2: mean (1, .5, .5)/... normalised
    np.testing.assert_allclose(types.vectors[0], np.array([1, 0.5, 0.5]) / np.linalg.norm([1, 0.5, 0.5]))
    occurrences = particles(emb, "2", stem=False, unit="occurrence")
    assert len(occurrences) == 3 and list(occurrences.weights) == [1, 1, 1]


def test_skip_bigrams_follow_rouge_155_distance_rule():
    # ROUGE-1.5.5 createSkipBigram: j <= i + d + 1 (at most d words in between)
    assert gram_positions(4, "s", 1).tolist() == [[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]]
    assert gram_positions(4, "s", -1).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert gram_positions(3, "2").tolist() == [[0, 1], [1, 2]]
    assert gram_positions(1, "2").shape == (0, 2)
    with pytest.raises(ValueError):
        gram_positions(3, "3")


def test_stopwords_are_removed_before_grams_are_formed():
    emb = TokenEmbeddings(tuple("the cat and the dog".split()), np.eye(5, dtype=np.float32))
    assert particles(emb, "2", stem=False, stopwords=True).keys == (("cat", "dog"),)


def test_ties_go_to_the_first_source_particle_and_k_caps_at_source_size():
    toy = ToyEncoder({"alpha": (1.0, 0.0), "beta": (1.0, 0.0), "gamma": (0.0, 1.0), "delta": (-1.0, 0.0)})
    source = particles(toy.encode(["beta alpha gamma delta"])[0], "1", stem=False)
    peer = particles(toy.encode(["alpha"])[0], "1", stem=False)
    assert source.keys[anchor_sets(peer, source, k=1).index[0, 0]] == ("beta",)  # tie: first in the source
    anchors = anchor_sets(peer, source, k=10)
    assert anchors.index.shape == (1, 4)
    assert anchors.strength[0, -1] == 0.0  # cosine -1 clipped to 0


def test_k1_identity_encoder_copied_summary_is_rouge_n_recall():
    """With one-hot embeddings and k = 1 every source gram anchors to itself with q = 1, so T(d, summ)
    is the count of d in summ and Eq. 1 becomes ROUGE-N recall (Lin & Bilmes 2011, Theorem 3).
    Checked against Google's rouge-score (no stemming; one reference)."""
    from rouge_score import rouge_scorer

    source = ("the police said the man was arrested on friday after a long chase through the city . "
              "the man was later released without charge , the police said on saturday .")
    peer = "the man was arrested on friday after a long chase"
    ref = "the police said the man was later released without charge"
    enc = IdentityEncoder([source, peer, ref])
    google = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=False).score(ref, peer)
    for form, key in (("1", "rouge1"), ("2", "rouge2")):
        ours = anchored_rouge([peer], [[ref]], [source], form=form, k=1, stem=False, encoder=enc)
        prefix = f"ancrouge{form}"
        assert ours.loc[0, f"{prefix}_r"] == pytest.approx(google[key].recall)
        assert ours.loc[0, f"{prefix}_p"] == pytest.approx(google[key].precision)
        assert ours.loc[0, f"{prefix}_f"] == pytest.approx(google[key].fmeasure)
    same = anchored_rouge([ref], [[ref]], [source], form="2", k=1, stem=False, encoder=enc)
    assert same.loc[0, ["ancrouge2_r", "ancrouge2_p"]].tolist() == [1.0, 1.0]


def test_content_absent_from_the_source_earns_nothing():
    source = "the man was arrested on friday"
    enc = IdentityEncoder([source, "the man was arrested on friday in paris", "aliens landed"])
    grounded = anchored_rouge(["the man was arrested"], [[source]], [source], k=1, stem=False, encoder=enc)
    padded = anchored_rouge(["the man was arrested aliens landed"], [[source]], [source], k=1, stem=False,
                            encoder=enc)
    assert padded.loc[0, "ancrouge1_r"] == grounded.loc[0, "ancrouge1_r"] == pytest.approx(4 / 6)


def test_protocol_anchors_any_bag_metric():
    def mass(peer, refs):
        return {"peer": sum(peer.values()), "refs": sum(sum(r.values()) for r in refs)}

    out = score_anchored(mass, [PEER], [REFS], [SOURCE], encoder=TOY, prefix="mass", form="1", k=2, stem=False)
    assert out.loc[0, "mass_peer"] == pytest.approx(5.32) and out.loc[0, "mass_refs"] == pytest.approx(6.8)


def test_multi_document_source_pools_particles_without_cross_document_grams():
    one = anchored_rouge([PEER], [REFS], [SOURCE], k=2, stem=False, encoder=TOY)
    split = anchored_rouge([PEER], [REFS], [["huge excellent", "result"]], k=2, stem=False, encoder=TOY)
    assert split.loc[0, "ancrouge1_r"] == pytest.approx(one.loc[0, "ancrouge1_r"])
    source = particles([TOY.encode(["huge excellent"])[0], TOY.encode(["result"])[0]], "2", stem=False)
    assert source.keys == (("huge", "excellent"),)


def test_bad_input():
    assert anchored_rouge(["", "   "], [REFS, REFS], [SOURCE, SOURCE], encoder=TOY).to_numpy().sum() == 0
    with pytest.raises(InputError, match=r"sources\[0\] is empty"):
        anchored_rouge([PEER], [REFS], ["  "], encoder=TOY)
    with pytest.raises(InputError, match=r"sources\[0\]"):
        anchored_rouge([PEER], [REFS], [[]], encoder=TOY)
    with pytest.raises(ValueError, match=r"k=0: must be a whole number >= 1 \(the anchor set size\)"):
        anchored_rouge([PEER], [REFS], [SOURCE], k=0, encoder=TOY)
    with pytest.raises(ValueError, match="unit"):
        anchored_rouge([PEER], [REFS], [SOURCE], summary_unit="token", encoder=TOY)


def test_registry_and_real_minilm(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))
    metric = get_metric("anc-rouge-2")
    assert metric.needs_source and metric.primary == "ancrouge2_r"
    assert "k:5" in metric.signature and "fingerprint:" in metric.signature
    with pytest.raises(InputError, match="source"):
        metric.score(["a summary"], [["a reference"]])
    source = ("The company reported a huge success in its quarterly results. "
              "Analysts praised the excellent result as a remarkable achievement.")
    ref = "Analysts praised the quarterly results as a huge success."
    scores = metric.score([ref, "The company reported a huge success.", "Rain is expected tomorrow."],
                          [[ref]] * 3, [source] * 3)
    r = scores["ancrouge2_r"].tolist()
    assert r[0] == pytest.approx(1.0) and 0 < r[2] < r[1] < 1


def test_top_k_equals_stable_argsort():
    rng = np.random.default_rng(0)
    for trial in range(200):
        m, n = rng.integers(1, 6), rng.integers(1, 25)
        k = int(rng.integers(1, n + 1))
        scores = rng.integers(0, 3, size=(m, n)).astype(float) if trial % 2 else rng.random((m, n))
        assert np.array_equal(top_k(scores, k), np.argsort(-scores, axis=1, kind="stable")[:, :k])


def test_k_list_scores_every_k_in_one_pass():
    both = anchored_rouge([PEER], [REFS], [SOURCE], k=[1, 2], stem=False, encoder=TOY)
    for k in (1, 2):
        alone = anchored_rouge([PEER], [REFS], [SOURCE], k=k, stem=False, encoder=TOY)
        assert both.loc[0, f"ancrouge1_k{k}_r"] == pytest.approx(alone.loc[0, "ancrouge1_r"])
    assert both.loc[0, "ancrouge1_k2_r"] == pytest.approx(R_HAND)


def test_reference_subsets_and_subset_recall():
    assert reference_subsets(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    sample = reference_subsets(11, 5, max_subsets=20, seed=3)
    assert len(set(sample)) == 20 and sample == sorted(sample) and sample == reference_subsets(11, 5, 20, seed=3)
    assert all(len(s) == 5 for s in sample) and sample != reference_subsets(11, 5, 20, seed=4)
    with pytest.raises(ValueError):
        reference_subsets(3, 4)
    subsets = [(0,), (1,), (0, 1)]
    out = score_anchored(subset_recall(subsets), [PEER], [REFS], [SOURCE], encoder=TOY, prefix="x", k=2, stem=False)
    # by hand (see the top of this file): ref1 4.6 / 5, ref2 1.8 / 1.8, both 6.4 / 6.8
    np.testing.assert_allclose(out.loc[0, ["x_s0", "x_s1", "x_s2"]].to_numpy(float), [4.6 / 5, 1.0, R_HAND])


def test_anchor_table_lists_each_particles_anchors():
    table = anchor_table(PEER, SOURCE, encoder=TOY, form="1", k=2, stem=False)
    assert table.to_dict("list") == {"particle": ["great", "great", "result", "result"], "rank": [1, 2, 1, 2],
                                     "anchor": ["excellent", "huge", "result", "excellent"],
                                     "strength": pytest.approx([0.96, 0.8, 1.0, 0.8])}
    assert list(anchor_table(PEER, SOURCE, encoder=TOY, form="1", k=1, stem=False, contains="res")["particle"]) == ["result"]


def test_units_agree_when_embeddings_are_not_contextual():
    """With one vector per word, a type's mean embedding equals each occurrence's, so splitting a type
    into occurrences of weight 1 gives the same T (Eq. 2) and the same score; the source side's
    occurrences spread T over copies of one type instead, which changes only the keys."""
    base = anchored_rouge([PEER], [REFS], [SOURCE], k=2, stem=False, encoder=TOY)
    split = anchored_rouge([PEER], [REFS], [SOURCE], k=2, stem=False, encoder=TOY, summary_unit="occurrence")
    assert split.loc[0, "ancrouge1_r"] == pytest.approx(base.loc[0, "ancrouge1_r"])
    src = anchored_rouge([PEER], [REFS], [SOURCE], k=2, stem=False, encoder=TOY, source_unit="occurrence")
    assert src.loc[0, "ancrouge1_r"] == pytest.approx(R_HAND)


def test_changed_model_files_are_refused():
    with pytest.raises(InputError, match="hash to"):
        anchored_rouge([PEER], [REFS], [SOURCE], fingerprint="000000000000")
