"""The compiled bootstrap sums equal, bit for bit, the draw-order sums of the pure-Python kernel and of numpy."""
import numpy as np

from rougelab.rouge.rouge155.bootstrap import resample_sums
from rougelab.rouge.rouge155.drand48 import resample_indices


def test_compiled_and_python_sums_are_identical_in_draw_order():
    scores = np.random.default_rng(0).random((257, 3)).round(5)
    idx = resample_indices(50, len(scores))
    by_numpy = scores[idx[:, 0]].copy()
    for j in range(1, idx.shape[1]):
        by_numpy += scores[idx[:, j]]
    assert np.array_equal(resample_sums(scores, idx), by_numpy)
    assert np.array_equal(resample_sums.py_func(scores, idx), by_numpy)
