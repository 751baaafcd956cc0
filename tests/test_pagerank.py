"""Personalised PageRank (ShafieiBavani et al. 2018, Eq. 1) against networkx and hand computation."""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from rougelab.semantic.pagerank import (PPRCache, personalized_pagerank, ppr_vectors, seed_matrix,
                                        transition_matrix)


def _graph_with_dangling():
    g = nx.karate_club_graph()
    g.add_node(34)            # isolated: its mass goes back to p(0), as in networkx
    g.add_edge(35, 36)        # a separate component
    return g


@pytest.mark.parametrize("seeds", [[0], [5, 33], [34], [35, 2]])
def test_ppr_converges_to_networkx_personalised_pagerank(seeds):
    g = _graph_with_dangling()
    nodes = sorted(g.nodes())
    transition = transition_matrix(nx.to_scipy_sparse_array(g, nodelist=nodes, weight=None))
    vectors = ppr_vectors(transition, [seeds], iterations=150, top=len(nodes))
    ours = vectors.dense(0, len(nodes))[-1]
    personalization = {u: (1.0 / len(seeds) if u in seeds else 0.0) for u in nodes}
    ref = nx.pagerank(g, alpha=0.85, personalization=personalization, tol=1e-14, max_iter=1000, weight=None)
    np.testing.assert_allclose(ours, [ref[u] for u in nodes], atol=2e-7)  # float32 storage


def test_many_seed_sets_at_once_equal_one_at_a_time():
    g = nx.les_miserables_graph()
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    seed_sets = [[0], [3, 7], [10, 11, 12], [40]]
    together = ppr_vectors(transition, seed_sets, top=20, batch=3)
    for i, seeds in enumerate(seed_sets):
        alone = ppr_vectors(transition, [seeds], top=20)
        np.testing.assert_array_equal(together.ids[i], alone.ids[0])
        np.testing.assert_allclose(together.values[i], alone.values[0], rtol=1e-6)


def test_first_iterations_by_hand_on_a_path():
    # path a - b - c, seed a: p(1) = 0.85 * A p(0) + 0.15 p(0) = (0.15, 0.85, 0);
    # p(2) = 0.85 * (0.85 * 0.5, 0.15, 0.85 * 0.5) + (0.15, 0, 0)
    adjacency = sp.csr_matrix(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=float))
    steps = list(personalized_pagerank(transition_matrix(adjacency), seed_matrix([[0]], 3), iterations=2))
    assert len(steps) == 3                                  # p(0), p(1), p(2): every iteration kept
    np.testing.assert_allclose(steps[0][:, 0], [1, 0, 0])
    np.testing.assert_allclose(steps[1][:, 0], [0.15, 0.85, 0], atol=1e-7)
    np.testing.assert_allclose(steps[2][:, 0], [0.85 * 0.425 + 0.15, 0.85 * 0.15, 0.85 * 0.425], atol=1e-7)
    for p in steps:
        assert p.sum() == pytest.approx(1.0, abs=1e-6)


def test_truncation_keeps_the_largest_entries_in_order():
    g = nx.les_miserables_graph()
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    full = ppr_vectors(transition, [[5]], top=g.number_of_nodes())
    cut = ppr_vectors(transition, [[5]], top=7)
    for x in range(cut.ids.shape[1]):
        dense = full.dense(0, g.number_of_nodes())[x]
        positive = np.flatnonzero(dense > 0)
        expected = positive[np.lexsort((positive, -dense[positive]))][:7]
        got = cut.ids[0, x][cut.ids[0, x] >= 0]
        np.testing.assert_array_equal(got, expected)
    assert (cut.ids[0, 0] >= 0).sum() == 1                  # p(0) is the seed alone, the rest padding


def test_bad_seeds_and_parameters_raise():
    transition = transition_matrix(sp.identity(3, format="csr"))
    with pytest.raises(ValueError, match="empty"):
        seed_matrix([[]], 3)
    with pytest.raises(ValueError, match="outside"):
        seed_matrix([[3]], 3)
    with pytest.raises(ValueError, match="top"):
        ppr_vectors(transition, [[0]], top=0)
    with pytest.raises(ValueError, match="damping"):
        list(personalized_pagerank(transition, seed_matrix([[0]], 3), damping=1.5))


def test_cache_stores_and_reloads_vectors(tmp_path):
    g = nx.les_miserables_graph()
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    first = PPRCache(transition, "test-graph", top=10, folder=tmp_path)
    computed = first.vectors([4, 2, 4])
    assert len(list(tmp_path.glob("batch-*.npz"))) == 1
    np.testing.assert_array_equal(computed.ids[0], computed.ids[2])
    again = PPRCache(transition, "test-graph", top=10, folder=tmp_path)
    assert again._row.keys() == {2, 4}                      # read from disk, nothing recomputed
    np.testing.assert_array_equal(again.vectors([2]).ids[0], computed.ids[1])
    np.testing.assert_array_equal(ppr_vectors(transition, [[2]], top=10).ids[0], computed.ids[1])


def test_corrupt_cache_file_is_recomputed(tmp_path):
    g = nx.path_graph(6)
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    PPRCache(transition, "g", top=3, folder=tmp_path).vectors([1])
    for path in tmp_path.glob("batch-*.npz"):
        path.write_bytes(b"not a zip file")
    cache = PPRCache(transition, "g", top=3, folder=tmp_path)
    np.testing.assert_array_equal(cache.vectors([1]).ids[0], ppr_vectors(transition, [[1]], top=3).ids[0])


def test_fewer_iterations_or_entries_are_a_prefix_of_more():
    # what lets ROUGE-G read a smaller `top` or `iterations` from the default's cache (graph_similarity)
    g = nx.les_miserables_graph()
    transition = transition_matrix(nx.to_scipy_sparse_array(g, weight=None))
    seeds = [[0], [11], [3, 7], [40, 41]]
    more = ppr_vectors(transition, seeds, iterations=12, top=30)
    fewer = ppr_vectors(transition, seeds, iterations=5, top=9)
    np.testing.assert_array_equal(fewer.ids, more.ids[:, :6, :9])
    np.testing.assert_array_equal(fewer.values, more.values[:, :6, :9])
    assert (fewer.ids[:, 5] >= 0).all() and (more.ids[:, :6, 9:] >= 0).any()   # a real cut, not padding


def test_product_kernel_is_scipys_product_bit_for_bit():
    # the PPR step's own sparse x dense product: same sums in the same order as SciPy, so identical floats
    from rougelab.semantic.pagerank import _product

    rng = np.random.default_rng(3)
    adjacency = sp.random(300, 300, density=0.05, random_state=4, format="csr")
    adjacency = adjacency + adjacency.T
    transition = transition_matrix(adjacency)
    p = rng.random((300, 17)).astype(np.float32)
    np.testing.assert_array_equal(_product(transition, p), transition @ p)
    assert _product(transition, p).dtype == np.float32
