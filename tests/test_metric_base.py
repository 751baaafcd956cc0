"""The metric interface: batch checks, registry look-up and signatures."""
import inspect
import zlib
from pathlib import Path

import pandas as pd
import pytest

from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.registry import get_metric, metric_names


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
    assert metric.signature.startswith("m|n:[1,2]|stem:True|version:")


def test_settings_a_scorer_tells_apart_get_different_signatures(tmp_path, monkeypatch):
    """Option values holding the signature's delimiters (``|``, ``:``, ``,``) or written alike by ``str``
    (2 and "2", a list and its one item, [] and "", nested lists) get different signatures, and the score
    cache, keyed by the signature, does not serve one setting's numbers for the other. The earlier form
    (``key:str(value)`` joined by ``|``, list items joined by ``,``) gave each pair one signature."""
    from rougelab import score_cache

    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))

    def scorer(summaries, references, **options):  # a number that moves with every option's type and value
        return pd.DataFrame({"x": [float(zlib.crc32(repr(sorted(options.items())).encode()))] * len(summaries)})

    pairs = [({"words": ["a,b"]}, {"words": ["a", "b"]}), ({"words": "ab"}, {"words": ["ab"]}),
             ({"words": ""}, {"words": []}), ({"words": [["a", "b"]]}, {"words": ["a", "b"]}),
             ({"label": "x|n:2"}, {"label": "x", "n": 2}), ({"n": 2}, {"n": "2"}), ({"n": 2.0}, {"n": "2.0"}),
             ({"stem": True}, {"stem": "True"}), ({"stem": None}, {"stem": "None"}),
             ({"label": "[a]"}, {"label": ["a"]}), ({"label": "'a'"}, {"label": "a"}),
             ({"label": "a\nb"}, {"label": "a\\nb"}), ({"label": "a"}, {"label": "a "}),
             ({"label": Path("a")}, {"label": "a"})]
    for one, other in pairs:
        first, second = (Metric("m", scorer, primary="x", options=options) for options in (one, other))
        fresh = second.score(["s"], [["r"]])
        assert first.score(["s"], [["r"]])["x"][0] != fresh["x"][0]  # the scorer tells them apart
        assert first.signature != second.signature, (one, other)
        score_cache.cached_score(first, ["s"], [["r"]])
        pd.testing.assert_frame_equal(score_cache.cached_score(second, ["s"], [["r"]]), fresh)


def test_plain_values_read_as_they_are_written():
    """Words, numbers and booleans appear bare; other strings are quoted as Python writes them."""
    metric = Metric("m", lambda s, r, **kw: None, primary="x",
                    options={"a": "rouge155;stem=none, x:y", "b": 0.5, "c": ("rouge-1", "rouge-l"),
                             "d": "2", "e": "a|b", "f": ()})
    assert metric.signature.startswith("m|a:rouge155;stem=none, x:y|b:0.5|c:[rouge-1,rouge-l]|d:'2'|e:'a|b'|f:[]|")


def test_a_function_option_is_named_by_its_code_not_its_address():
    """A callable option (here ROUGE-L's splitter) is named in the signature by its code: ``str`` of a function
    holds its memory address, so the same settings got another signature in every process (the score cache
    never hit), and a function redefined in one process at a freed address (a notebook cell run again after
    an edit) could keep the old one's signature, and its cached numbers."""
    cell: dict = {"__name__": "__main__"}
    exec("def split(text):\n    return [text]", cell)
    first = cell["split"]
    exec("def split(text):\n    return [text]", cell)
    same_code = cell["split"]  # another object, alive beside the first: at another address
    exec("def split(text):\n    return text.split('. ')", cell)
    other_code = cell["split"]
    rouge_l = get_metric("rouge-l")
    signature = {name: rouge_l.with_options(splitter=f).signature
                 for name, f in [("first", first), ("same_code", same_code), ("other_code", other_code)]}
    assert first is not same_code and signature["first"] == signature["same_code"]
    assert signature["first"] != signature["other_code"]
    assert "0x" not in signature["first"]


def test_parameters_the_scorer_does_not_take_are_refused():
    with pytest.raises(InputError, match=r"'rouge-we-1' has no parameter 'multiref'"):
        get_metric("rouge-we-1", multiref="B")      # ROUGE-WE always pools: multiref is a pin, not a parameter
    with pytest.raises(InputError, match="has no parameter 'scale'"):
        Metric("m", lambda s, r, *, n=1: None, primary="x", options={"scale": 2})
    with pytest.raises(InputError, match="WIDAR has no option 'combine'"):
        get_metric("widar-1", combine="mean").score(["a"], [["a"]], ["a"])
    assert get_metric("rouge-2", multiref="B").signature == get_metric("rouge-2-best").signature.replace(
        "rouge-2-best", "rouge-2")


def test_pins_label_the_signature_without_reaching_the_scorer():
    metric = Metric("m", lambda s, r, *, n=1: pd.DataFrame({"x": [float(n)] * len(s)}), primary="x",
                    options={"n": 2}, pins={"tokenizer": "toy"})
    assert metric.signature.startswith("m|n:2|tokenizer:toy|version:")
    assert metric.score(["a"], [["b"]])["x"].tolist() == [2.0]


def test_names_are_parsed_on_demand_and_the_useful_ones_listed():
    names = metric_names()
    assert "rouge-su4-stop-jackknife-precision" not in names           # a combination: not listed ...
    assert get_metric("rouge-su4-stop-jackknife-precision").primary == "rougesu4_p"   # ... but a name
    assert {"rouge-l-nltk", "rouge-2-best", "widar-idss", "bleu", "rouge-g-su4"} <= set(names)
    for bad in ("rouge-1-nltk", "rouge-l-newline", "rouge-2-nostem-stop", "rouge-l-recall-best", "rouge-"):
        with pytest.raises(InputError, match=f"unknown metric '{bad}'"):
            get_metric(bad)


def test_score_table_gives_the_scores_without_pandas_where_the_scorer_can():
    """Classic ROUGE's scorer computes a ``ScoreTable`` and ``score`` is its DataFrame: one code path, the
    same numbers and columns; a scorer without one (the length baseline) gives its DataFrame."""
    from rougelab.rouge import rouge
    from rougelab.score_table import ScoreTable

    summaries, references = ["the cat sat on the mat", "a b c"], [["the cat was on the mat", "a cat"], ["b c d"]]
    metric = get_metric("rouge-su4-jackknife")
    table = metric.score_table(summaries, references)
    assert isinstance(table, ScoreTable) and table.columns == metric.columns
    pd.testing.assert_frame_equal(table.frame(), metric.score(summaries, references), check_exact=True)
    assert isinstance(get_metric("length").score_table(summaries, references), pd.DataFrame)
    assert rouge.table_scorer.__name__ == rouge.__name__ == "rouge" and rouge.__doc__ == rouge.table_scorer.__doc__
    signature, of_table = inspect.signature(rouge), inspect.signature(rouge.table_scorer)
    assert signature.parameters == of_table.parameters and signature.return_annotation == "pd.DataFrame"
    with pytest.raises(InputError, match="references"):
        metric.score_table(summaries, references[:1])
