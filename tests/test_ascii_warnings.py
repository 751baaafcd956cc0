"""Every metric that keeps only ASCII letters warns, as classic ROUGE does, when other scripts' letters
are dropped, and names what keeps them; every warning points at the caller's line, not at ours."""
import warnings

import numpy as np
import pandas as pd
import pytest

from rougelab.metrics.registry import get_metric

CHINESE = ["今天天气很好我们去公园"]


def _recorded(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if "keeps only ASCII letters" in str(w.message)]


@pytest.mark.parametrize("name, options, named", [
    ("rouge-we-1", {}, "ROUGE-WE"),
    ("widar-1", {"cache": False}, "WIDAR"),
    ("widar-idss", {"cache": False}, "WIDAR"),
    ("rouge-1", {}, "tokenizer='rouge155'"),
    ("rougeLsum-stem", {}, "tokenizer='rouge-score'"),
])
def test_identical_chinese_texts_warn_at_the_callers_line(name, options, named):
    metric = get_metric(name, **options)
    table, caught = _recorded(lambda: metric.score(CHINESE, [CHINESE], CHINESE))
    assert table[metric.primary].iloc[0] == 0.0  # what the warning is about
    assert len(caught) == 1 and named in str(caught[0].message)
    assert "1 text(s) lost letters" in str(caught[0].message)
    assert "tokenizer='unicode'" in str(caught[0].message)  # what keeps them
    assert caught[0].filename == __file__


def test_the_metric_named_in_the_warning_keeps_the_letters():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = get_metric("rouge-1", tokenizer="unicode").score(CHINESE, [CHINESE])
    assert table["rouge1_f"].iloc[0] == 1.0


class _Stop(Exception):
    pass


def test_anchored_rouge_and_rouge_g_warn_before_their_models_load(monkeypatch):
    from rougelab.metrics import rouge_g
    from rougelab.metrics.anchored import anchored_rouge

    class Encoder:
        def encode(self, texts):
            raise _Stop

    monkeypatch.setattr(rouge_g, "GraphSimilarity", lambda *a, **k: (_ for _ in ()).throw(_Stop()))
    for call, named in ((lambda: anchored_rouge(CHINESE, [CHINESE], CHINESE, encoder=Encoder()), "Anchored ROUGE"),
                        (lambda: rouge_g.rouge_g(CHINESE, [CHINESE]), "ROUGE-G")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(_Stop):
                call()
        assert [named in str(w.message) and w.filename == __file__ for w in caught] == [True]


def test_ascii_text_does_not_warn():
    _, caught = _recorded(lambda: get_metric("rouge-we-1").score(["the cat sat"], [["the cat sat"]]))
    assert caught == []


def test_other_warnings_point_at_the_callers_line(tmp_path):
    from rougelab.metaeval import bootstrap_ci
    from rougelab.user_files import read_lines

    path = tmp_path / "s.txt"
    path.write_text("a\n\nb\n")
    table = pd.DataFrame({"doc_id": [d for _ in range(3) for d in range(4)],
                          "system_id": [s for s in range(3) for _ in range(4)],
                          "m": [1.0, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6], "h": np.arange(12.0)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_lines(path)
        bootstrap_ci(table, "m", "h", "system", "pearson", n_resamples=200, resample="systems")
    assert {type(w.message).__name__ for w in caught} == {"UserWarning", "UndefinedCorrelationWarning"}
    assert {w.filename for w in caught} == {__file__}


def test_warn_knows_its_own_files_by_their_absolute_path(monkeypatch):
    """``warn`` skips the frames of the package's files, named as the import system names them or otherwise
    (relative, through ``..``), and no other file, though its path starts with the package's folder."""
    import os

    import rougelab.warn as warn_module

    package = warn_module._PACKAGE
    assert warn_module._ours(warn_module.__file__) and warn_module._ours(package + "text/./tokenizers.py")
    assert warn_module._ours(package + "../rougelab/warn.py")
    assert not warn_module._ours(package + "../other.py") and not warn_module._ours(__file__)
    monkeypatch.chdir(package)
    assert warn_module._ours("warn.py") and not warn_module._ours(os.path.relpath(__file__))
