"""The one gram counts type (``rougelab.scoring.GramCounts``) and its clipped match (Lin 2004, eq. 1)."""
import numpy as np

from rougelab.rouge.grams import ngrams
from rougelab.scoring import GramCounts, count_grams
from rougelab.text.token_ids import TokenIndex


def test_clipped_overlap_by_hand():
    """ROUGE-1 of "the the the cat" against "the cat the mat": 'the' is clipped at 2, 'cat' matches once."""
    peer = GramCounts("the the the cat".split())
    model = GramCounts("the cat the mat".split())
    assert model.clipped_overlap(peer) == peer.clipped_overlap(model) == 3
    assert list(model) == ["the", "cat", "mat"]                      # first-occurrence order
    assert GramCounts({"a": 0.5}).clipped_overlap({"a": 2.0, "b": 1.0}) == 0.5   # weights (T-bags)
    assert GramCounts().clipped_overlap(model) == 0


def test_array_form_is_the_same_table():
    index = TokenIndex()
    rows = ngrams(index.ids("a b a b a".split()), 2)                 # ab ba ab ba
    grams = count_grams(rows)
    assert grams.keys.tolist() == [[0, 1], [1, 0]] and grams.counts.tolist() == [2, 2] and grams.total == 4
    assert count_grams(np.zeros((0, 2), dtype=np.int64)).keys.shape == (0, 2)
