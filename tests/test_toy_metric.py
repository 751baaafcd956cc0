"""A new metric is one module and one registry entry: a toy metric written by this test to a folder of its
own appears in `rougelab metrics`, is scored on the leaderboard and is served by the score cache."""
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

import rougelab.metrics.registry as registry
from rougelab import leaderboard as lb
from rougelab.cli import main
from rougelab.metaeval import correlate
from rougelab.score_cache import cached_scores

TOY_MODULE = '''
"""Toy metric: the share of the summary's words that occur in some reference (no clipping)."""
import pandas as pd

from rougelab.metrics.base import Metric

CALLS = []   # one entry per scorer call, so a test can tell a computed table from a cached one


def word_hits(summaries, references, *, lowercase=True):
    CALLS.append(len(summaries))
    fold = str.lower if lowercase else str
    shares = []
    for summary, refs in zip(summaries, references):
        words, seen = fold(summary).split(), set(fold(" ".join(refs)).split())
        shares.append(sum(w in seen for w in words) / len(words) if words else 0.0)
    return pd.DataFrame({"toy_hits": shares})


def make():
    return Metric("toy-hits", word_hits, primary="toy_hits", options={"lowercase": True})
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy module on sys.path, registered by one entry, a fresh score cache, and a small judged dataset."""
    (tmp_path / "toy_metric.py").write_text(textwrap.dedent(TOY_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "toy_metric", raising=False)
    monkeypatch.setattr(registry, "_YOURS", {})
    monkeypatch.setattr(registry, "_YOUR_BOARD", set())
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))

    registry.register("toy-hits", "toy_metric:make", board=True)      # the registry entry

    rng = np.random.default_rng(0)
    vocabulary = "the cat sat on a mat and dog ran far away".split()
    rows = [{"dataset": "toy", "doc_id": d, "system_id": s, "source": "x",
             "references": [" ".join(rng.choice(vocabulary, 6))],
             "summary": " ".join(rng.choice(vocabulary + ["zebra", "quark"], rng.integers(2, 9))), "quality": float(rng.normal())}
            for d in range(8) for s in range(5)]
    table = pd.DataFrame(rows)
    monkeypatch.setattr("rougelab.data.load_dataset", lambda name: table)
    monkeypatch.setattr(lb, "supported", lambda dataset, level, coef: "both")   # "toy" is not a registered dataset
    yield table
    sys.modules.pop("toy_metric", None)


def test_listed_by_rougelab_metrics(toy, capsys, monkeypatch):
    real = registry.get_metric
    # the other families' signatures are stubbed (computing them all loads every encoder); the toy's is real
    monkeypatch.setattr(registry, "get_metric", lambda name: real(name) if name == "toy-hits" else
                        type("M", (), {"signature": "stub"}))
    assert "toy_metric" not in sys.modules            # registering imported nothing
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[out.index("# your metrics: added with rougelab.metrics.registry.register") + 1].startswith(
        "toy-hits\tyours\ttoy-hits|lowercase:True|version:")


def test_scored_on_the_leaderboard_and_served_from_the_score_cache(toy):
    assert "toy-hits" in registry.board_names()
    board = lb.leaderboard(["toy"], ["length", "toy-hits"], levels=("summary",), coef="pearson", n_resamples=99,
                           progress=False)
    toy_module = sys.modules["toy_metric"]
    assert toy_module.CALLS == [len(toy)]             # scored once, the whole table in one call
    scores = toy_module.word_hits(list(toy.summary), list(toy.references))["toy_hits"]
    row = board.set_index("metric").loc["toy-hits"]
    assert row.value == pytest.approx(correlate(toy.assign(**{"toy-hits": scores}), "toy-hits", "quality",
                                                "summary", "pearson"), abs=1e-12)
    toy_module.CALLS.clear()
    metric = registry.get_metric("toy-hits")
    [again] = cached_scores([metric], list(toy.summary), [list(r) for r in toy.references])
    assert toy_module.CALLS == [] and again["toy_hits"].tolist() == scores.tolist()   # from the cache
    cached_scores([metric.with_options(lowercase=False)], list(toy.summary), [list(r) for r in toy.references])
    assert toy_module.CALLS == [len(toy)]             # another option, another cache key: computed
