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


def test_rouge_score_metrics_rename_columns_so_they_do_not_join():
    """rouge-score's names (``rouge1_f``) come from a renaming scorer: they declare no join, and
    scored together each still equals itself alone."""
    names = ["rouge1", "rouge2", "rougeLsum"]
    together = score_together([get_metric(n) for n in names], SUMMARIES, REFERENCES)
    for name, table in zip(names, together):
        pd.testing.assert_frame_equal(table, get_metric(name).score(SUMMARIES, REFERENCES))


def test_without_frames_the_same_numbers_come_as_score_tables():
    names = ["rouge-1", "rouge-2", "rouge-l", "length"]
    metrics = [get_metric(n) for n in names]
    frames = score_together(metrics, SUMMARIES, REFERENCES)
    tables = score_together(metrics, SUMMARIES, REFERENCES, frames=False)
    for frame, table in zip(frames[:3], tables[:3]):
        pd.testing.assert_frame_equal(table.frame(), frame, check_exact=True)
    pd.testing.assert_frame_equal(tables[3], frames[3], check_exact=True)  # no ScoreTable: its DataFrame
