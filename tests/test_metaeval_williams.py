"""Williams's test (Williams 1959; Graham & Baldwin 2014) against published psych::r.test output."""
import numpy as np
import pytest
from scipy import stats

from rougelab.metaeval import WilliamsResult, williams_metrics, williams_test
from test_metaeval_correlations import random_table


@pytest.mark.parametrize("r23,t_printed", [(0.7, 3.38), (0.1, 1.76), (0.8, 4.64)])
def test_t_matches_psych_r_test_printed_output(r23, t_printed):
    # Jan Vanhove, "Assessing differences of significance" (blog post, 2014-10-28,
    # janhove.github.io), prints R psych::r.test(n = 30, r12 = 0.50, r13 = 0.10, r23 = ...):
    # "t value 3.38" (r23 = .7), "t value 1.76" (r23 = .1), "t value 4.64" (r23 = .8).
    result = williams_test(0.5, 0.1, r23, 30)
    assert round(result.t, 2) == t_printed


def test_pvalue_matches_psych_r_test_via_nlpstats():
    # nlpstats (Deutsch), tests/correlations/williams_test.py: on data drawn with
    # np.random.seed(12) (three (9, 5) matrices, then three more), the one-tailed p-value of
    # R psych::r.test for the system-level Spearman correlations (n = 9) is 0.4658712.
    np.random.seed(12)
    for _ in range(3):
        np.random.random((9, 5))  # the first block, used by a different case there
    X, Y, Z = (np.random.random((9, 5)) for _ in range(3))
    rho = lambda a, b: stats.spearmanr(a.mean(axis=1), b.mean(axis=1)).statistic
    result = williams_test(rho(Y, Z), rho(X, Z), rho(X, Y), 9)
    assert result.pvalue == pytest.approx(0.4658712, abs=1e-7)


def test_formula_of_graham_and_baldwin_2014_eq3():
    # Hand-evaluated for r12 = .6, r13 = .4, r23 = .5, n = 20:
    # K = 1 - .36 - .16 - .25 + 2 * .6 * .4 * .5 = .47
    # t = .2 * sqrt(19 * 1.5) / sqrt(2 * .47 * 19 / 17 + .25 * .125)
    #   = 1.0677078 / sqrt(1.0505882 + .03125) = 1.0677078 / 1.0401145 = 1.026529
    result = williams_test(0.6, 0.4, 0.5, 20)
    assert isinstance(result, WilliamsResult)
    assert result.t == pytest.approx(1.0677078 / 1.0401145, rel=1e-6)
    assert result.pvalue == pytest.approx(stats.t.sf(result.t, 17))


def test_one_sided_and_antisymmetric():
    a = williams_test(0.55, 0.35, 0.6, 50)
    b = williams_test(0.35, 0.55, 0.6, 50)
    assert a.t == pytest.approx(-b.t)
    assert a.pvalue + b.pvalue == pytest.approx(1.0)
    assert a.pvalue < 0.05 < b.pvalue
    assert williams_test(0.5, 0.5, 0.3, 40).pvalue == pytest.approx(0.5)


@pytest.mark.parametrize("args,message", [
    ((1.2, 0.1, 0.1, 30), r"r12=1.2: must be a finite number in \[-1, 1\] \(a correlation\)"),
    ((0.5, 0.1, 0.1, 3), r"n=3: must be a whole number >= 4"),
    ((0.9, -0.9, 0.9, 30), "not positive semi-definite"),
])
def test_bad_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        williams_test(*args)


@pytest.mark.parametrize("level", ["system", "global"])
def test_williams_metrics_uses_the_level_correlations(level):
    table = random_table(4, n_systems=12, n_inputs=10, ties=False)
    if level == "system":
        data = table.groupby("system_id")[["m", "m2", "h"]].mean()
    else:
        data = table
    r = lambda u, v: stats.pearsonr(data[u], data[v]).statistic
    expected = williams_test(r("h", "m"), r("h", "m2"), r("m", "m2"), len(data))
    assert williams_metrics(table, "m", "m2", "h", level) == pytest.approx(expected, abs=1e-12)


def test_two_sided_t_and_pvalue_match_bruceR_cor_diff_printed_output():
    # bruceR (Bao), documentation of cor_diff(), example for two nonindependent correlations
    # (psychbruce.github.io/bruceR/reference/cor_diff.html):
    # cor_diff(r1 = 0.20, r2 = 0.45, n = 100, rcov = 0.80) prints "t(97) = -4.56, p = 1e-05".
    result = williams_test(0.20, 0.45, 0.80, 100, alternative="two-sided")
    assert round(result.t, 2) == -4.56
    assert f"{result.pvalue:.0e}" == "1e-05"


def test_alternatives_are_the_two_tails_of_one_t():
    t = williams_test(0.55, 0.35, 0.6, 50).t
    greater, less, two = (williams_test(0.55, 0.35, 0.6, 50, alternative=a).pvalue
                          for a in ("greater", "less", "two-sided"))
    assert greater == pytest.approx(stats.t.sf(t, 47)) and less == pytest.approx(stats.t.cdf(t, 47))
    assert two == pytest.approx(2 * min(greater, less))


def test_absolute_correlations_follow_the_nlpstats_convention():
    # Metric A negated: r12 and r23 flip sign. On absolute values the test is Vanhove's printed
    # psych::r.test(n = 30, r12 = .5, r13 = .1, r23 = .7) again, "t value 3.38"; on signed values
    # the negated metric is (rightly) worse than B.
    assert round(williams_test(-0.5, 0.1, -0.7, 30, correlations="absolute").t, 2) == 3.38
    assert williams_test(-0.5, 0.1, -0.7, 30).t < 0
    assert williams_test(0.5, 0.1, 0.7, 30) == williams_test(0.5, 0.1, 0.7, 30, correlations="signed")


@pytest.mark.parametrize("coef", ["spearman", "kendall"])
def test_rank_coefficients_plug_their_system_level_values_into_the_formula(coef):
    table = random_table(4, n_systems=12, n_inputs=10, ties=False)
    data = table.groupby("system_id")[["m", "m2", "h"]].mean()
    func = {"spearman": stats.spearmanr, "kendall": stats.kendalltau}[coef]
    r = lambda u, v: func(data[u], data[v]).statistic
    expected = williams_test(r("h", "m"), r("h", "m2"), r("m", "m2"), 12, "two-sided")
    got = williams_metrics(table, "m", "m2", "h", "system", coef, alternative="two-sided")
    assert got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("kwargs,message", [
    (dict(level="summary"), "use level='system' or 'global'"),
    (dict(coef="accuracy"), "compares correlations, not 'accuracy'"),
    (dict(alternative="bigger"), "unknown alternative 'bigger'"),
    (dict(correlations="abs"), "unknown correlations 'abs'"),
])
def test_williams_metrics_refuses_what_it_cannot_test(kwargs, message):
    with pytest.raises(ValueError, match=message):
        williams_metrics(random_table(0), "m", "m2", "h", **kwargs)


def test_absolute_on_a_table_ignores_a_metric_sign_flip():
    table = random_table(6, n_systems=12, n_inputs=10, ties=False)
    flipped = table.assign(m=-table["m"])
    signed = williams_metrics(table, "m", "m2", "h", "system", alternative="two-sided")
    absolute = williams_metrics(flipped, "m", "m2", "h", "system", alternative="two-sided",
                                correlations="absolute")
    assert absolute == pytest.approx(signed, abs=1e-12)
    assert williams_metrics(flipped, "m", "m2", "h", "system").t < 0  # signed: the flipped metric is worse
