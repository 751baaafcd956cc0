"""The shared scoring layer: R/P/F and its rounding policy, checked against rouge-score and exact decimals."""
import random
from decimal import ROUND_HALF_EVEN, Decimal

import pytest
from rouge_score.scoring import fmeasure

from rougelab.scoring import InputError, check_batch, prf, round_decimals, with_f


def test_f_is_rouge_scores_harmonic_mean_to_the_last_bit():
    rng = random.Random(0)
    for _ in range(20000):
        hit, ref, summ = rng.randint(0, 60), rng.randint(1, 60), rng.randint(1, 60)
        r, p, f = prf(hit, ref, summ)
        assert (r, p) == (hit / ref, hit / summ) and f == fmeasure(p, r)


def test_rounding_is_printfs_correctly_rounded_decimal():
    rng = random.Random(1)
    for _ in range(20000):
        x = rng.randint(0, 10**6) / rng.randint(1, 10**6)
        exact = Decimal(x).quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN)  # the binary value, exactly
        assert round_decimals(x, 5) == float(exact)


def test_rouge155_policy_rounds_r_and_p_before_f():
    """R = 1/3, P = 2/3: ROUGE-1.5.5 prints 0.33333, 0.66667 and F from those, 0.44444."""
    assert with_f(1 / 3, 2 / 3, round_digits=5) == (0.33333, 0.66667, 0.44444)
    assert with_f(1 / 3, 2 / 3) == (1 / 3, 2 / 3, pytest.approx(4 / 9, abs=1e-15))
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert with_f(0.5, 1.0, alpha=1.0)[2] == 1.0 and with_f(0.5, 1.0, alpha=0.0)[2] == 0.5  # F is P, then R


def test_check_batch_is_the_one_input_check():
    with pytest.raises(InputError, match="2 summaries, 1 reference lists and 1 sources"):
        check_batch(["a", "b"], [["x"]], ["s"])
    with pytest.raises(InputError, match="no references: pass a non-empty list"):
        check_batch(["a"], [[]])
