"""The compiled bootstrap sums equal, bit for bit, the draw-order sums of the pure-Python kernel and of numpy."""
import numpy as np

from rougelab.rouge.rouge155.bootstrap import bootstrap_average, bootstrap_averages, resample_sums
from rougelab.rouge.rouge155.drand48 import resample_indices


def test_compiled_and_python_sums_are_identical_in_draw_order():
    scores = np.random.default_rng(0).random((257, 3)).round(5)
    idx = resample_indices(50, len(scores))
    by_numpy = scores[idx[:, 0]].copy()
    for j in range(1, idx.shape[1]):
        by_numpy += scores[idx[:, j]]
    assert np.array_equal(resample_sums(scores, idx), by_numpy)
    assert np.array_equal(resample_sums.py_func(scores, idx), by_numpy)


def test_measures_resampled_together_equal_each_resampled_alone():
    scores = np.random.default_rng(1).random((101, 4, 3)).round(5)
    together = bootstrap_averages(scores, 200, 95.0)
    assert together == [bootstrap_average(scores[:, k], 200, 95.0) for k in range(4)]
    counts = np.random.default_rng(2).integers(0, 30, (40, 2, 3)).astype(float)
    assert bootstrap_averages(counts, 50, 90.0, per_token=True, alpha=0.2) == \
        [bootstrap_average(counts[:, k], 50, 90.0, per_token=True, alpha=0.2) for k in range(2)]


def test_no_instances_average_zero():
    assert bootstrap_average([], 10) == ((0.0, 0.0, 0.0),) * 3
