"""Metrics join one scorer call only as they declare (``Metric.joins`` and ``Metric.columns``)."""
import pandas as pd
import pytest

from rougelab.metrics.base import Metric
from rougelab.metrics.registry import get_metric
from rougelab.metrics.together import score_together

SUMMARIES = ["the cat sat on the mat", "a dog barked"]
REFERENCES = [["the cat lay on a mat"], ["the dog barked loudly"]]


def counts(summaries, references, *, units=("a",), calls=None):
    """A toy scorer: for each unit letter, how many times it occurs in each summary (column ``<letter>_n``)."""
    calls.append(tuple(units))
    return pd.DataFrame({f"{u}_n": [float(s.count(u)) for s in summaries] for u in units})


def toy(unit: str, calls: list, joins: str | None = "units") -> Metric:
    return Metric(f"count-{unit}", counts, primary=f"{unit}_n", options={"units": (unit,), "calls": calls},
                  pins={"code": "toy"}, columns=(f"{unit}_n",), joins=joins)


def test_declared_metrics_share_one_call_and_keep_their_own_columns():
    calls = []
    tables = score_together([toy("a", calls), toy("t", calls), toy("e", calls)], SUMMARIES, REFERENCES)
    assert calls == [("a", "t", "e")]
    assert [list(t.columns) for t in tables] == [["a_n"], ["t_n"], ["e_n"]]
    for unit, table in zip("ate", tables):
        pd.testing.assert_frame_equal(table, toy(unit, []).score(SUMMARIES, REFERENCES))
    assert tables[1]["t_n"].tolist() == [5.0, 0.0]  # "the cat sat on the mat" has five t's


def test_undeclared_metrics_are_scored_alone():
    calls = []
    score_together([toy("a", calls, joins=None), toy("t", calls, joins=None)], SUMMARIES, REFERENCES)
    assert calls == [("a",), ("t",)]


def test_a_joint_call_without_a_declared_column_is_an_error_not_a_guess():
    def wrong(summaries, references, *, units=("a",)):
        return pd.DataFrame({"x": [0.0] * len(summaries)})
    metrics = [Metric(f"m{u}", wrong, primary=f"{u}_n", options={"units": (u,)}, pins={"code": "toy"},
                      columns=(f"{u}_n",), joins="units") for u in "ab"]
    with pytest.raises(ValueError, match="did not return"):
        score_together(metrics, SUMMARIES, REFERENCES)


def test_joins_needs_its_list_option_and_columns():
    with pytest.raises(ValueError, match="joins on 'units'"):
        Metric("m", counts, primary="a_n", options={"units": ("a",)}, pins={"code": "toy"}, joins="units")


def test_rouge_score_metrics_scored_together_each_equal_itself_alone():
    """rouge-score's names (``rouge1_f``) come from a renaming scorer: scored together (joined where they
    can), each still equals itself alone."""
    names = ["rouge1", "rouge2", "rougeLsum"]
    together = score_together([get_metric(n) for n in names], SUMMARIES, REFERENCES)
    for name, table in zip(names, together):
        pd.testing.assert_frame_equal(table, get_metric(name).score(SUMMARIES, REFERENCES))


MULTI_SUMMARIES = ["the cats sat on the mat.\nThen they slept", "a dog barked at the running cat",
                   "Nothing matches here"]
MULTI_REFERENCES = [["The cat was sitting on a mat.\nIt slept then.", "cats sat; then slept"],
                    ["dogs bark at running cats\nloudly", "the dog barked"], ["something else entirely"]]


@pytest.mark.parametrize("stem", ["", "-stem"])
def test_rouge_score_names_join_and_give_their_own_numbers_to_the_last_bit(stem):
    """rouge1 .. rouge9 and rougeLsum (newline sentences) join one call of ``rouge``; rougeL (the whole text)
    splits text otherwise and is scored alone; each table equals the metric's own, bit for bit."""
    from rougelab.metrics.rouge_score_metrics import TYPES
    from rougelab.metrics.together import joint_key

    metrics = [get_metric(t + stem) for t in TYPES]
    keys = [joint_key(m) for m in metrics]
    assert len(set(keys)) == 2 and keys.count(keys[TYPES.index("rougeL")]) == 1
    for metric, table in zip(metrics, score_together(metrics, MULTI_SUMMARIES, MULTI_REFERENCES)):
        pd.testing.assert_frame_equal(table, metric.score(MULTI_SUMMARIES, MULTI_REFERENCES), check_exact=True)


@pytest.mark.parametrize("suffix", ["", "-eq2", "-s3"])
def test_registry_rouge_we_metrics_join_over_the_same_vectors(suffix):
    """ROUGE-WE-1, -2 and -SU4 of one variant bind the same vectors to their scorer: one call, and each
    table equals the metric's own, bit for bit."""
    from rougelab.metrics.together import joint_key

    metrics = [get_metric(m + suffix) for m in ("rouge-we-1", "rouge-we-2", "rouge-we-su4")]
    assert len({joint_key(m) for m in metrics}) == 1
    for metric, table in zip(metrics, score_together(metrics, MULTI_SUMMARIES, MULTI_REFERENCES)):
        pd.testing.assert_frame_equal(table, metric.score(MULTI_SUMMARIES, MULTI_REFERENCES), check_exact=True)


def test_partial_scorers_join_on_equal_arguments_or_the_same_object():
    """A scorer that is a ``functools.partial`` joins another made alike: bound values equal in value and type,
    or the very same object; two arrays that print alike but differ are scored apart."""
    import functools

    import numpy as np

    zeros, one = np.zeros(2_000), np.zeros(2_000)
    one[1_000] = 1.0

    def metric(unit, calls, scorer=weighted_counts, **bound):
        return Metric(f"p-{unit}", functools.partial(scorer, **bound), primary=f"{unit}_n",
                      options={"units": (unit,), "calls": calls}, pins={"code": "toy"}, columns=(f"{unit}_n",),
                      joins="units")

    calls = []
    tables = score_together([metric("a", calls, weights=one), metric("t", calls, weights=one)], SUMMARIES, REFERENCES)
    assert calls == [("a", "t")]
    assert tables[1]["t_n"].tolist() == [5.0, 0.0]
    calls = []
    tables = score_together([metric("t", calls, weights=zeros), metric("t", calls, weights=one)], SUMMARIES,
                            REFERENCES)
    assert calls == [("t",), ("t",)]
    assert [t["t_n"].tolist() for t in tables] == [[0.0, 0.0], [5.0, 0.0]]
    calls = []
    score_together([metric(u, calls, options_counts, extra=x) for u, x in zip("ate", [[1], [1], (1,)])],
                   SUMMARIES, REFERENCES)
    assert calls == [("a", "t"), ("e",)]


def test_without_frames_the_same_numbers_come_as_score_tables():
    names = ["rouge-1", "rouge-2", "rouge-l", "length"]
    metrics = [get_metric(n) for n in names]
    frames = score_together(metrics, SUMMARIES, REFERENCES)
    tables = score_together(metrics, SUMMARIES, REFERENCES, frames=False)
    for frame, table in zip(frames[:3], tables[:3]):
        pd.testing.assert_frame_equal(table.frame(), frame, check_exact=True)
    pd.testing.assert_frame_equal(tables[3], frames[3], check_exact=True)  # no ScoreTable: its DataFrame


def weighted_counts(summaries, references, *, units=("a",), weights=None, calls=None):
    """A toy scorer with an option whose repr hides its value: each unit's count times ``weights.sum()``."""
    calls.append(tuple(units))
    return pd.DataFrame({f"{u}_n": [float(s.count(u)) * float(weights.sum()) for s in summaries] for u in units})


def test_options_with_equal_reprs_but_different_values_do_not_join():
    """Two numpy arrays of 2,000 numbers print alike (numpy elides the middle) and differ: the metrics
    holding them are scored in calls of their own, each with its own numbers."""
    import numpy as np

    zeros, one = np.zeros(2_000), np.zeros(2_000)
    one[1_000] = 1.0
    assert repr(zeros) == repr(one)

    def metric(unit, weights, calls):
        return Metric(f"w-{unit}", weighted_counts, primary=f"{unit}_n",
                      options={"units": (unit,), "weights": weights, "calls": calls},
                      pins={"code": "toy"}, columns=(f"{unit}_n",), joins="units")

    calls = []
    tables = score_together([metric("a", zeros, calls), metric("t", one, calls)], SUMMARIES, REFERENCES)
    assert calls == [("a",), ("t",)]
    for table, (unit, weights) in zip(tables, [("a", zeros), ("t", one)]):
        pd.testing.assert_frame_equal(table, metric(unit, weights, []).score(SUMMARIES, REFERENCES))
    assert tables[1]["t_n"].tolist() == [5.0, 0.0]  # five t's, times the one weight of 1


def test_options_equal_in_value_and_type_join_and_others_do_not():
    """Lists, dicts and frozensets made separately but equal join (frozensets equal in value can print in
    different orders); values Python calls equal but of different types (1, 1.0, True) do not."""
    def metric(unit, calls, **options):
        return Metric(f"o-{unit}", options_counts, primary=f"{unit}_n",
                      options={"units": (unit,), "calls": calls, **options},
                      pins={"code": "toy"}, columns=(f"{unit}_n",), joins="units")

    first, second = frozenset([1, 9]), frozenset([9, 1])  # 1 and 9 share a slot of an 8-slot table
    assert first == second and repr(first) != repr(second)
    calls = []
    score_together([metric("a", calls, extra=[1, {"k": (2.5, None)}], bag=first),
                    metric("t", calls, extra=[1, {"k": (2.5, None)}], bag=second)], SUMMARIES, REFERENCES)
    assert calls == [("a", "t")]
    calls = []
    score_together([metric(u, calls, extra=x) for u, x in zip("ate", [1, 1.0, True])], SUMMARIES, REFERENCES)
    assert calls == [("a",), ("t",), ("e",)]


def options_counts(summaries, references, *, units=("a",), calls=None, **options):
    """``counts``, taking (and ignoring) any other option."""
    return counts(summaries, references, units=units, calls=calls)


def test_a_metric_that_does_not_join_is_scored_each_time_it_is_listed():
    calls = []
    metric = toy("a", calls, joins=None)
    tables = score_together([metric, metric], SUMMARIES, REFERENCES)
    assert calls == [("a",), ("a",)]
    pd.testing.assert_frame_equal(tables[0], tables[1])
