"""The scorecard's one rule on constructed cases: test outcomes, data sets, verdicts, and refusals."""
import numpy as np
import pandas as pd
import pytest

from rougelab import scorecard as sc


def _p(dataset, p_for, p_against, effect=0.1):
    return sc.Test(dataset, "permutation", effect, effect - 0.05, effect + 0.05, p_for, p_against)


@pytest.mark.parametrize("p_for, p_against, outcome", [(0.01, 0.99, sc.SUPPORTS), (0.05, 0.95, sc.SUPPORTS),
                                                       (0.051, 0.949, sc.INCONCLUSIVE), (0.97, 0.03, sc.CONTRADICTS),
                                                       (0.5, None, sc.INCONCLUSIVE), (None, 0.01, sc.CONTRADICTS)])
def test_outcome_from_p_values(p_for, p_against, outcome):
    assert _p("a", p_for, p_against).outcome == outcome


def test_p_values_decide_over_the_interval():
    # an interval above 0 but a permutation p of 0.2: the test with p-values is the one reported
    assert sc.Test("a", "t", 0.1, 0.01, 0.2, 0.2, 0.8).outcome == sc.INCONCLUSIVE


@pytest.mark.parametrize("low, high, side, outcome", [(0.01, 0.2, ">", sc.SUPPORTS), (-0.01, 0.2, ">", sc.INCONCLUSIVE),
                                                      (-0.2, -0.01, ">", sc.CONTRADICTS), (-0.2, -0.01, "<", sc.SUPPORTS),
                                                      (0.01, 0.2, "<", sc.CONTRADICTS), (-0.1, 0.1, "<", sc.INCONCLUSIVE)])
def test_outcome_from_the_interval(low, high, side, outcome):
    assert sc.Test("a", "bootstrap", (low + high) / 2, low, high, side=side).outcome == outcome


def test_exact_values_are_never_inconclusive():
    assert sc.exact("a", "worked example", 0.0004, threshold=0.0005, side="<").outcome == sc.SUPPORTS
    assert sc.exact("a", "worked example", 0.2, threshold=0.0005, side="<").outcome == sc.CONTRADICTS
    assert sc.exact("a", "spread", 0.9, threshold=0.7, side=">").outcome == sc.SUPPORTS


def _card(*tests, untestable=None):
    card = sc.Scorecard("Paper", {"c": ("A beats B", "Section 3")})
    if tests:
        card.add("c", *tests)
    if untestable:
        card.not_testable("c", untestable)
    return card


def test_verdict_held_when_every_set_bears_it_out():
    card = _card(_p("x", 0.01, 0.99), _p("x", 0.02, 0.98), _p("y", 0.001, 1.0))
    assert card.verdict("c") == sc.HELD
    assert "borne out on 2 of 2 data sets" in card.claims["c"].why


def test_verdict_held_on_some_sets():
    card = _card(_p("x", 0.01, 0.99), _p("y", 0.4, 0.6))
    assert card.verdict("c") == sc.SOME
    assert card.claims["c"].why == "borne out on 1 of 2 data sets (x); of 2 tests, 1 supports it and 0 contradict it"


def test_a_set_with_one_inconclusive_test_does_not_bear_it_out():
    card = _card(_p("x", 0.01, 0.99), _p("x", 0.3, 0.7))
    assert card.verdict("c") == sc.NOT_HELD


def test_two_wins_and_eight_losses_is_not_held():
    # the case a "holds in part" verdict got wrong: 2 significant wins, 8 significant losses over 3 sets
    tests = [_p("qags-cnndm", 0.01, 0.99), _p("qags-cnndm", 0.99, 0.01), _p("rank19", 0.02, 0.98)]
    tests += [_p(d, 0.99, 0.01) for d in ("rank19", "rank19", "rank19", "qags-xsum", "qags-xsum", "qags-xsum",
                                          "qags-xsum")]
    card = _card(*tests)
    assert card.verdict("c") == sc.NOT_HELD
    assert "of 10 tests, 2 support it and 8 contradict it" in card.claims["c"].why


def test_nothing_significant_is_not_held():
    assert _card(_p("x", 0.3, 0.7), _p("y", 0.5, 0.5)).verdict("c") == sc.NOT_HELD


def test_not_testable_carries_its_reason():
    card = _card(untestable="the paper's data are licensed")
    assert card.verdict("c") == sc.UNTESTABLE and card.claims["c"].why == "the paper's data are licensed"
    assert "not testable here" in card.markdown()


def test_pending_claims_are_refused():
    card = _card()
    with pytest.raises(ValueError, match="no test yet"):
        card.verdict("c")
    with pytest.raises(ValueError, match="without a test or a reason: c"):
        card.check_complete()
    assert "pending" in card.markdown()


def test_bad_input_is_refused_with_the_parameter_named():
    with pytest.raises(ValueError, match="side"):
        sc.Test("a", "t", 0.0, -1.0, 1.0, side=">=")
    with pytest.raises(ValueError, match="finite"):
        sc.Test("a", "t", float("nan"), -1.0, 1.0)
    with pytest.raises(ValueError, match="reversed"):
        sc.Test("a", "t", 0.0, 1.0, -1.0)
    with pytest.raises(KeyError, match="no claim 'd'"):
        _card().add("d", _p("x", 0.01, 0.99))


def test_markdown_lists_every_test_with_its_interval():
    text = _card(_p("x", 0.01, 0.99), sc.exact("y", "worked example", 0.0, threshold=0.0005, side="<")).markdown()
    assert "| 1 | x | permutation | +0.100 [+0.050, +0.150] | 0.010 / 0.990 | supports |" in text
    assert "| 1 | y | worked example | +0.000 (< 0.0005) | – | supports |" in text
    assert sc.RULE in text
    piped = _card(sc.Test("x", "rouge-2|STOP vs rouge-2|STEM", 0.1, 0.0, 0.2)).markdown()
    assert "| 1 | x | rouge-2\\|STOP vs rouge-2\\|STEM |" in piped


def test_compared_on_a_table_where_one_metric_is_the_human_score():
    # metric "good" is the human score plus little noise, "bad" is noise: good beats bad, significantly
    rng = np.random.default_rng(0)
    docs, systems = 30, 8
    human = rng.normal(size=(systems, docs))
    table = pd.DataFrame({"doc_id": np.tile(np.arange(docs), systems), "system_id": np.repeat(np.arange(systems), docs),
                          "human": human.ravel(), "good": (human + 0.1 * rng.normal(size=human.shape)).ravel(),
                          "bad": rng.normal(size=human.size)})
    test = sc.compared(table, "good", "bad", "human", dataset="toy", level="summary", coef="pearson", n_resamples=200)
    assert test.outcome == sc.SUPPORTS and test.low > 0.5
    reverse = sc.compared(table, "bad", "good", "human", dataset="toy", level="summary", coef="pearson", n_resamples=200)
    assert reverse.outcome == sc.CONTRADICTS
