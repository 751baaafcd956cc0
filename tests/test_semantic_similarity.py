"""RW (Eq. 3), Sim_sem (Eq. 2), n-gram vectors with OOV dimensions (3.5) and sense alignment (3.4)."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab.semantic.pagerank import ppr_vectors, transition_matrix
from rougelab.semantic.semantic_similarity import (align_senses, gram_vectors, iteration_weights,
                                                   rank_and_weight, sim_sem_matrix)


def _ranked(*lists, width=None):
    """(g, X, w) id array from per-vector, per-iteration ranked id lists."""
    width = width or max(len(ids) for vec in lists for ids in vec)
    out = np.full((len(lists), len(lists[0]), width), -1, dtype=np.int64)
    for g, vec in enumerate(lists):
        for x, ids in enumerate(vec):
            out[g, x, :len(ids)] = ids
    return out


def test_rank_and_weight_by_hand():
    # Y ranks a(0) > b(1) > c(2); Z ranks c > a. H = {a, c}:
    # (1/(1+2) + 1/(3+1)) / (1/2 + 1/4) = (7/12) / (3/4) = 7/9
    y = np.array([0.5, 0.3, 0.2, 0.0])
    z = np.array([0.3, 0.0, 0.6, 0.0])
    assert rank_and_weight(y, z) == pytest.approx(7 / 9)
    assert rank_and_weight(y, y) == pytest.approx(1.0)
    assert rank_and_weight(y, np.array([0, 0, 0, 1.0])) == 0.0          # no overlap
    assert rank_and_weight(np.array([0.0, 1.0]), np.array([0.0, 0.0])) == 0.0


def test_rank_and_weight_one_shared_node_at_different_ranks():
    # H = {d}: rank 4 in Y, rank 1 in Z -> (1/5) / (1/2) = 0.4
    y = np.array([0.4, 0.3, 0.2, 0.1])
    z = np.array([0.0, 0.0, 0.0, 1.0])
    assert rank_and_weight(y, z) == pytest.approx(0.4)


def test_sim_sem_weights_iterations_by_c():
    # iteration 0: RW = 1 (identical); iteration 1: RW = 7/9 (as above); c = 0.7
    a = _ranked([[0], [0, 1, 2]])
    b = _ranked([[0], [2, 0]], width=3)
    expected = (1.0 + 0.7 * 7 / 9) / (1.0 + 0.7)
    assert sim_sem_matrix(a, b, c=0.7)[0, 0] == pytest.approx(expected)
    np.testing.assert_allclose(iteration_weights(2, 0.5), np.array([1, 0.5, 0.25]) / 1.75)


vectors = st.lists(st.lists(st.integers(0, 30), min_size=0, max_size=12, unique=True), min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.lists(vectors, min_size=1, max_size=4), st.lists(vectors, min_size=1, max_size=4))
def test_sim_sem_is_symmetric_and_in_unit_interval(side_a, side_b):
    a, b = _ranked(*side_a, width=12), _ranked(*side_b, width=12)
    ab, ba = sim_sem_matrix(a, b), sim_sem_matrix(b, a)
    np.testing.assert_allclose(ab, ba.T, atol=1e-12)
    assert (ab >= 0).all() and (ab <= 1 + 1e-12).all()
    for vec in side_a:  # identical non-empty vectors score 1
        if all(vec):
            one = _ranked(vec, width=12)
            assert sim_sem_matrix(one, one)[0, 0] == pytest.approx(1.0)


def test_gram_vector_of_a_seed_set_is_the_ppr_of_that_set():
    # PPR is linear in p(0): the mean of single-sense vectors is the vector of the pair
    g = nx.les_miserables_graph()
    n = g.number_of_nodes()
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    single = ppr_vectors(transition, [[3], [20]], top=n)
    pair = ppr_vectors(transition, [[3, 20]], top=n)
    got = gram_vectors(single.ids, single.values, [[0, 1]], [[-1]], oov_offset=n, top=n)
    for x in range(single.ids.shape[1]):
        dense = pair.dense(0, n)[x]
        # same ranking, up to float32 ties in the pair's own vector
        assert np.allclose(dense[got[0, x][got[0, x] >= 0]], dense[pair.ids[0, x][pair.ids[0, x] >= 0]], atol=1e-6)


def test_oov_words_become_extra_dimensions_of_mass_half():
    g = nx.path_graph(5)
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    senses = ppr_vectors(transition, [[0], [4]], top=3)
    # grams: "sense0 + oov7", "oov7" alone, "oov8" alone, "sense4" alone
    vec = gram_vectors(senses.ids, senses.values, [[0], [-1], [-1], [1]], [[7], [7], [8], [-1]], oov_offset=5,
                       top=3)
    assert vec.shape == (4, senses.ids.shape[1], 4)
    assert vec[0, 0, 0] == 0 and vec[0, 0, 1] == 5 + 7      # p(0): seed 1.0, then the OOV dimension 0.5
    assert (vec[1] == np.array([5 + 7, -1, -1, -1])).all()
    sim = sim_sem_matrix(vec, vec)
    assert sim[1, 1] == pytest.approx(1.0)                  # the same OOV word: identical
    assert sim[1, 2] == 0.0                                 # different OOV words: no shared dimension
    assert 0.0 < sim[0, 1] < 1.0                            # sharing the OOV word only
    assert sim[2, 3] == 0.0


def test_align_senses_picks_the_most_similar_sense():
    # word A has senses rows 0,1; word B (OOV) none; other side: word C has columns 0,1,2
    sense_sim = np.array([[0.1, 0.0, 0.2],
                          [0.0, 0.9, 0.0]])
    a, b = align_senses(sense_sim, [0, 2, 2], [0, 3])
    assert a.tolist() == [1, -1] and b.tolist() == [1]
    a, b = align_senses(np.zeros((2, 1)), [0, 2], [0, 1])
    assert a.tolist() == [0] and b.tolist() == [0]          # nothing meets: first (most frequent) sense
    a, b = align_senses(np.zeros((2, 0)), [0, 2], [0, 0])
    assert a.tolist() == [0] and b.tolist() == [-1]         # the other side is all OOV


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="same k"):
        sim_sem_matrix(np.zeros((1, 2, 3), dtype=np.int64), np.zeros((1, 3, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="c must be"):
        iteration_weights(3, 0.0)
