"""RW (Eq. 3), Sim_sem (Eq. 2), n-gram vectors with OOV dimensions (3.5) and sense alignment (3.4).

The compiled kernels are checked against straightforward Python versions of their definitions
(``*_by_definition`` below), bit for bit, on random inputs."""
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab.semantic import semantic_similarity
from rougelab.semantic.pagerank import ppr_vectors, transition_matrix
from rougelab.semantic.gram_vectors import OOV_MASS, gram_vectors
from rougelab.semantic.semantic_similarity import iteration_weights, rank_and_weight, sim_sem_blocks, sim_sem_matrix
from rougelab.semantic.sense_alignment import align_senses


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
    # word A has senses rows 0,1; word B (OOV) none; word C has row 2. best[i, j]: sense i vs other text j
    best = np.array([[0.2, 0.0],
                     [0.9, 0.0],
                     [0.0, 0.3]])
    assert align_senses(best, [0, 2, 2, 3]).tolist() == [[1, 0], [-1, -1], [2, 2]]
    # nothing meets text 1: the first (most frequent) sense; a tie: the earlier sense
    assert align_senses(np.array([[0.5, 0.0], [0.5, 0.0]]), [0, 2]).tolist() == [[0, 0]]
    assert align_senses(np.zeros((2, 0)), [0, 2]).shape == (1, 0)     # no text on the other side


def _align_by_definition(sense_sim, words_a, text_b):
    """Section 3.4 for one pair of texts: each word of a (a list of sense rows) takes the sense whose
    best similarity to any sense of text b is highest (the first such; 0 when nothing meets)."""
    chosen = []
    for senses in words_a:
        best = [max([0.0] + [sense_sim[s, q] for q in text_b]) for s in senses]
        chosen.append(senses[best.index(max(best))] if senses else -1)
    return chosen


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_align_senses_equals_pairwise_alignment(data):
    # Aligning every word against every text of the other side at once gives, for each pair of texts,
    # the senses the pair's own alignment picks. Similarities are drawn from a few values, so ties occur.
    n_a, n_b = data.draw(st.integers(1, 6)), data.draw(st.integers(0, 6))
    sense_sim = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=n_b,
                                                     max_size=n_b), min_size=n_a, max_size=n_a))).reshape(n_a, n_b)
    words_a = data.draw(st.lists(st.lists(st.integers(0, n_a - 1), max_size=3, unique=True), min_size=1, max_size=5))
    texts_b = data.draw(st.lists(st.lists(st.integers(0, n_b - 1), max_size=4, unique=True) if n_b else st.just([]),
                                 min_size=1, max_size=4))
    rows = [s for senses in words_a for s in senses]
    best = np.array([[max([0.0] + [sense_sim[s, q] for q in text]) for text in texts_b] for s in rows])
    starts = np.cumsum([0] + [len(senses) for senses in words_a])
    chosen = align_senses(best.reshape(len(rows), len(texts_b)), starts)
    for j, text in enumerate(texts_b):
        expected = _align_by_definition(sense_sim, words_a, text)
        assert [rows[k] if k >= 0 else -1 for k in chosen[:, j]] == expected


def _sim_sem_by_definition(a, b, c=0.7):
    """Eq. 2 with Eq. 3, normalised, for two ranked vectors (k + 1, w): RW summed over the nodes of a in
    its rank order, weighted by c^x, divided by sum_x c^x; capped at 1."""
    weights = iteration_weights(a.shape[0] - 1, c)
    total = 0.0
    for x in range(a.shape[0]):
        rank_b = {h: t + 1 for t, h in enumerate(b[x]) if h >= 0}
        acc, shared = 0.0, 0
        for t, h in enumerate(a[x]):
            if h >= 0 and h in rank_b:
                acc += 1.0 / (t + 1 + rank_b[h])
                shared += 1
        if shared:
            total += weights[x] * acc / sum(0.5 / i for i in range(1, shared + 1))
    return min(total, 1.0)


def _random_ranked(rng, g, iterations, width, n_nodes):
    out = np.full((g, iterations, width), -1, dtype=np.int64)
    for i in range(g):
        for x in range(iterations):
            n = rng.integers(0, width + 1)
            out[i, x, :n] = rng.choice(n_nodes, n, replace=False)
    return out


def test_sim_sem_blocks_equal_the_definition_bit_for_bit():
    rng = np.random.default_rng(0)
    a, b = _random_ranked(rng, 40, 4, 12, 30), _random_ranked(rng, 30, 4, 9, 30)
    full = sim_sem_matrix(a, b)
    assert np.array_equal(full, [[_sim_sem_by_definition(u, v) for v in b] for u in a])
    rows = [rng.choice(len(a), rng.integers(0, 10), replace=False) for _ in range(12)]
    cols = [rng.choice(len(b), rng.integers(0, 10), replace=False) for _ in range(12)]
    for block, r, j in zip(sim_sem_blocks(a, b, rows, cols), rows, cols):
        assert block.shape == (len(r), len(j)) and np.array_equal(block, full[np.ix_(r, j)])



@pytest.mark.parametrize("dense_share", [0.0, 0.2, 2.0])
def test_sim_sem_blocks_equal_the_definition_on_both_kernel_paths(monkeypatch, dense_share):
    # Nodes drawn with Zipf-like odds: hubs held by most vectors, a tail held by few. A node is compared
    # as a dense row of ranks when DENSE_SHARE of a block's columns hold it: 0 makes every node dense,
    # 2 none (posting lists only), 0.2 (the default) mixes both in one block.
    monkeypatch.setattr(semantic_similarity, "DENSE_SHARE", dense_share)
    rng = np.random.default_rng(3)
    odds = 1.0 / np.arange(1, 81)

    def ranked(g):
        out = np.full((g, 3, 25), -1, dtype=np.int64)
        for i in range(g):
            for x in range(3):
                n = rng.integers(0, 26)
                out[i, x, :n] = rng.choice(80, n, replace=False, p=odds / odds.sum())
        return out

    a, b = ranked(30), ranked(50)
    rows = [np.arange(30), rng.choice(30, 7, replace=False), np.zeros(0, dtype=np.int64)]
    cols = [np.arange(50), rng.choice(50, 11, replace=False), np.arange(5)]
    for block, r, j in zip(sim_sem_blocks(a, b, rows, cols), rows, cols):
        expected = np.array([[_sim_sem_by_definition(a[u], b[v]) for v in j] for u in r]).reshape(len(r), len(j))
        assert np.array_equal(block, expected)

def _gram_vector_by_definition(sense_ids, sense_values, seeds, oov, *, oov_offset, top, width):
    """Section 3.1/3.5: per iteration, the mean of the seeds' vectors (accumulated in seed order), its
    ``top`` largest entries (ties: smaller node first), each OOV word's node of mass 0.5 placed after the
    entries of mass >= 0.5; ``-1`` padded to ``width``."""
    rows, oov = [r for r in seeds if r >= 0], [o for o in oov if o >= 0]
    out = np.full((sense_ids.shape[1], width), -1, dtype=np.int64)
    for x in range(sense_ids.shape[1]):
        mass = {}
        for r in rows:
            for h, v in zip(sense_ids[r, x], sense_values[r, x]):
                if h < 0:
                    break
                mass[h] = mass.get(h, 0.0) + float(v) * (1.0 / len(rows))
        kept = sorted(mass, key=lambda h: (-mass[h], h))[:top]
        split = sum(mass[h] >= OOV_MASS for h in kept)
        ranked = kept[:split] + [oov_offset + o for o in oov] + kept[split:]
        out[x, :len(ranked)] = ranked
    return out


def test_gram_vectors_equal_the_definition_bit_for_bit():
    # single-sense vectors ranked by value, ties by node id (as PPRCache stores them), with many ties
    rng = np.random.default_rng(1)
    n_senses, iterations, width, n_nodes = 12, 3, 8, 20
    ids = np.full((n_senses, iterations, width), -1, dtype=np.int32)
    values = np.zeros((n_senses, iterations, width), dtype=np.float32)
    for s in range(n_senses):
        for x in range(iterations):
            n = rng.integers(1, width + 1)
            nodes = rng.choice(n_nodes, n, replace=False)
            mass = rng.choice(np.array([0.5, 0.25, 0.125, 0.3], dtype=np.float32), n)
            order = np.lexsort((nodes, -mass))
            ids[s, x, :n], values[s, x, :n] = nodes[order], mass[order]
    seeds = np.full((40, 3), -1)
    oov = np.full((40, 2), -1)
    for i in range(40):
        k = rng.integers(0, 4)
        seeds[i, 3 - min(k, 3):] = np.sort(rng.choice(n_senses, min(k, 3), replace=False))
        if k == 0 or rng.random() < 0.3:
            oov[i, 1] = rng.integers(0, 5)
    for top in (3, 8):
        got = gram_vectors(ids, values, seeds, oov, oov_offset=n_nodes, top=top)
        for i in range(40):
            expected = _gram_vector_by_definition(ids, values, seeds[i], oov[i], oov_offset=n_nodes, top=top,
                                                  width=got.shape[2])
            assert np.array_equal(got[i], expected)


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="same k"):
        sim_sem_matrix(np.zeros((1, 2, 3), dtype=np.int64), np.zeros((1, 3, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="c must be"):
        iteration_weights(3, 0.0)
