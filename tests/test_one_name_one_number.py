"""One name, one number: a metric name gives the same scores through ``get_metric``, ``rougelab score``,
``rougelab evaluate``'s scoring (``add_metric_scores``, through the score cache) and, for classic ROUGE,
``rougelab.rouge.rouge(measures=[name])`` with its defaults; two conventions have two names; the columns of
several metrics scored together never collide."""
import io

import pandas as pd
import pytest

from rougelab.cli import main
from rougelab.corpus import corpus_score
from rougelab.evaluate import add_metric_scores
from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.rouge import rouge

# One line each, several sentences: NLTK's Punkt splits them, one sentence per line does not.
SUMMARIES = ["Cats sleep. Dogs bark at night.", "The police killed the gunman. He fled."]
REFERENCES = [["dogs bark at night cats sleep"], ["the gunman fled. police killed him."]]


def _cli_scores(tmp_path, capsys, names):
    summaries, references = tmp_path / "s.txt", tmp_path / "r.txt"
    summaries.write_text("\n".join(SUMMARIES) + "\n")
    references.write_text("\n".join(refs[0] for refs in REFERENCES) + "\n")
    code = main(["score", "--per-summary", "--metric", ",".join(names), "--summaries", str(summaries),
                 "--references", str(references)])
    captured = capsys.readouterr()
    return code, captured


@pytest.mark.parametrize("name", ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4", "rouge-l-nostem"])
def test_a_classic_name_is_one_number_on_every_path(name, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    metric = get_metric(name)
    registry = metric.score(SUMMARIES, REFERENCES)
    measure = "rouge-" + name.removeprefix("rouge-").removesuffix("-nostem")
    direct = rouge(SUMMARIES, REFERENCES, measures=[measure], stem=not name.endswith("-nostem"))
    assert registry.equals(direct)
    code, captured = _cli_scores(tmp_path, capsys, [name])
    assert code == 0, captured.err
    assert pd.read_csv(io.StringIO(captured.out)).to_numpy().tolist() == registry.to_numpy().tolist()
    table = pd.DataFrame({"summary": SUMMARIES, "references": REFERENCES})
    for _ in range(2):  # scored, then read from the score cache
        assert add_metric_scores(table, [name], progress=False)[name].tolist() == registry[metric.primary].tolist()


def test_the_two_sentence_conventions_have_two_names():
    plain, nltk = (get_metric(n).score(SUMMARIES, REFERENCES)["rougel_f"] for n in ("rouge-l", "rouge-l-nltk"))
    assert not plain.equals(nltk)                    # the texts tell the conventions apart ...
    assert nltk.equals(rouge(SUMMARIES, REFERENCES, ["rouge-l"], splitter="nltk")["rougel_f"])  # ... each is named
    assert "splitter:newline" in get_metric("rouge-l").signature
    assert "splitter:nltk" in get_metric("rouge-l-nltk").signature


def test_a_metric_named_twice_is_refused(tmp_path, capsys):
    code, captured = _cli_scores(tmp_path, capsys, ["rouge-1", "rouge-2", "rouge-1"])
    assert code == 2 and "'rouge-1' named more than once" in captured.err and captured.out == ""


def test_columns_of_two_metrics_never_collide(tmp_path, capsys):
    code, captured = _cli_scores(tmp_path, capsys, ["rouge-1", "rouge1", "rouge-1-nostem"])
    assert code == 0, captured.err
    table = pd.read_csv(io.StringIO(captured.out))
    assert list(table.columns) == [f"{name}:{column}" for name, prefix in
                                   [("rouge-1", "rouge1"), ("rouge1", "rouge1"), ("rouge-1-nostem", "rouge1")]
                                   for column in (f"{prefix}_r", f"{prefix}_p", f"{prefix}_f")]
    for name in ("rouge-1", "rouge1", "rouge-1-nostem"):
        ours = get_metric(name).score(SUMMARIES, REFERENCES)
        assert table.filter(like=f"{name}:").to_numpy().tolist() == ours.to_numpy().tolist(), name


def test_columns_of_metrics_that_share_none_keep_their_names(tmp_path, capsys):
    code, captured = _cli_scores(tmp_path, capsys, ["rouge-1", "rouge-2"])
    assert code == 0 and captured.out.splitlines()[0] == "rouge1_r,rouge1_p,rouge1_f,rouge2_r,rouge2_p,rouge2_f"


def test_corpus_scores_refuse_a_repeat_and_label_shared_columns_by_metric():
    with pytest.raises(InputError, match="'rouge-1' given more than once"):
        corpus_score(SUMMARIES, REFERENCES, ["rouge-1", get_metric("rouge-1")], n_resamples=0)
    result = corpus_score(SUMMARIES, REFERENCES, ["rouge-1", "rouge1"], n_resamples=0)
    assert list(result.rows.columns[:4]) == ["rouge-1:rouge1_r", "rouge-1:rouge1_p", "rouge-1:rouge1_f",
                                             "rouge1:rouge1_r"]
