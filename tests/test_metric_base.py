"""The metric interface: batch checks, registry look-up and signatures."""
import pytest

from rougelab.metrics.base import InputError, Metric, get_metric, metric_names


def test_length_baseline_is_registered_and_scores():
    metric = get_metric("length")
    assert "length" in metric_names()
    assert metric.score(["a b c", ""], [["x"], ["y"]])["length"].tolist() == [3.0, 0.0]


def test_unknown_metric_names_the_known_ones():
    with pytest.raises(InputError, match="unknown metric 'rouge-99'.*length"):
        get_metric("rouge-99")


@pytest.mark.parametrize("summaries, references, message", [
    (["a", "b"], [["x"]], "2 summaries but 1 reference lists"),
    (["a"], [[]], "summary 0 has no references"),
    (["a"], ["x"], r"references\[0\] is a string"),
    ("a b", [["x"]], "not one string"),
    ([None], [["x"]], r"summaries\[0\] is NoneType"),
])
def test_bad_batches_get_clear_errors(summaries, references, message):
    with pytest.raises(InputError, match=message):
        get_metric("length").score(summaries, references)


def test_source_metrics_require_sources():
    metric = Metric("src", lambda s, r, src: None, primary="x", needs_source=True)
    with pytest.raises(InputError, match="pass sources"):
        metric.score(["a"], [["b"]])
    with pytest.raises(InputError, match="1 summaries but 2 sources"):
        metric.score(["a"], [["b"]], ["c", "d"])


def test_signature_lists_every_option():
    metric = Metric("m", lambda s, r, **kw: None, primary="x", options={"stem": True, "n": [1, 2]})
    assert metric.signature.startswith("m|n:1,2|stem:True|version:")
