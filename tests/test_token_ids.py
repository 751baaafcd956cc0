"""The one token -> id map (``rougelab.text.token_ids``) and its users."""
import numpy as np

from rougelab.text.token_ids import TokenIndex, first_sight_ids


def test_ids_in_order_of_first_sight_shared_across_calls():
    index = TokenIndex()
    assert index.ids(["b", "a", "b"]).tolist() == [0, 1, 0]
    assert index.id_list(["c", "a"]) == [2, 1]
    assert index.tokens == ["b", "a", "c"] and len(index) == 3 and "c" in index and "d" not in index
    assert index.ids([]).dtype == np.int64 and index.ids([]).shape == (0,)


def test_every_user_shares_it():
    from rougelab.metrics import soft_rouge
    from rougelab.rouge.core import Vocabulary

    assert soft_rouge.TokenIndex is TokenIndex and issubclass(Vocabulary, TokenIndex)
    vocab = Vocabulary()
    assert vocab.encode(["x", "y", "x"]) == [0, 1, 0] and vocab.tokens == ["x", "y"]


def test_first_sight_ids_number_a_list_as_a_fresh_index_does():
    rng = np.random.default_rng(0)
    for items in ([], ["a"], ["b", "a", "c"], ["b", "a", "b", "c", "a"],
                  [f"t{k}" for k in rng.integers(0, 30, size=200)], [f"t{k}" for k in range(200)]):
        index = TokenIndex()
        expected = index.ids(items)
        distinct, ids = first_sight_ids(list(items))
        assert distinct == index.tokens and ids.dtype == np.int64 and ids.tolist() == expected.tolist()
