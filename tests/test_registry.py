"""The registry: every name has one family (by construction, not by order), families load on demand, and
`rougelab metrics` groups the names by family, marking those computed as in each paper's tables."""
import subprocess
import sys

import pandas as pd
import pytest

import rougelab.metrics.registry as registry
from rougelab.cli import main
from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.registry import (BASELINE, FAMILIES, PAPER, VARIANT, YOURS, AmbiguousName, Family, board_names,
                                       by_family, family_of, get_metric, metric_names, register)

# Names that look alike across families: each must belong to exactly the family named.
PROBES = {"rouge-1": "ROUGE (Lin", "rouge-w-1.2": "ROUGE (Lin", "rouge-we-1": "ROUGE-WE", "rouge-g-1": "ROUGE-G",
          "rouge1": "ROUGE as Google", "rougeLsum-stem": "ROUGE as Google", "anc-rouge-1": "Anchored",
          "widar-rouge-l-sl": "WIDAR", "rouge-l-nltk": "ROUGE (Lin", "rouge-su*-nostem": "ROUGE (Lin",
          "bleu": "baselines: sacreBLEU", "bertscore": "baselines: BERTScore", "length": "baselines: length"}


def _accepting(name):
    return [f.title for f in FAMILIES if f.accepts(name)]


def test_no_listed_name_is_accepted_by_two_families():
    for family in FAMILIES:
        for name in family.listed():
            assert _accepting(name) == [family.title], name


@pytest.mark.parametrize("name, title", PROBES.items())
def test_look_alike_names_belong_to_one_family(name, title):
    assert len(_accepting(name)) == 1 and family_of(name).title.startswith(title)


def test_overlapping_patterns_are_refused_not_resolved_by_order(monkeypatch):
    greedy = Family("greedy", r"rouge-.*", "rougelab.metrics.baselines", "", "", "rouge-anything")
    monkeypatch.setattr(registry, "FAMILIES", (greedy, *FAMILIES))
    with pytest.raises(AmbiguousName, match="'rouge-1' fits 2 families: greedy, ROUGE"):
        get_metric("rouge-1")
    monkeypatch.setattr(registry, "FAMILIES", (*FAMILIES, greedy))      # the order changes nothing
    with pytest.raises(AmbiguousName, match="fits 2 families"):
        get_metric("rouge-1")


def test_a_name_its_family_does_not_make_is_unknown_not_handed_on():
    assert family_of("rouge-1-newline").title.startswith("ROUGE (Lin")
    with pytest.raises(InputError, match=r"unknown metric 'rouge-1-newline'; ROUGE \(Lin 2004\) names: rouge-<"):
        get_metric("rouge-1-newline")
    with pytest.raises(InputError, match="unknown metric 'meteor'; known families: ROUGE"):
        get_metric("meteor")


def test_lookup_imports_only_the_family_asked_for():
    code = ("import sys; from rougelab.metrics.registry import get_metric; get_metric('rouge-1'); "
            "print(sorted(m for m in ('nltk', 'torch', 'transformers', 'gensim', 'sacrebleu', "
            "'rougelab.metrics.widar', 'rougelab.metrics.rouge_we', 'rougelab.metrics.rouge_g', "
            "'rougelab.metrics.anchored', 'rougelab.metrics.bertscore', 'rougelab.semantic.word_vectors') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_registered_name_has_a_family_and_each_paper_family_a_paper_name():
    grouped = by_family(metric_names())
    assert sum(len(rows) for rows in grouped.values()) == len(metric_names())
    for family, rows in grouped.items():
        roles = [role for _, role in rows]
        assert (PAPER in roles) == bool(family.paper), family.title
        assert roles == sorted(roles, key=lambda r: r != PAPER)          # paper names first


@pytest.mark.parametrize("name, title, role", [
    ("rouge-we-1", "ROUGE-WE", PAPER), ("rouge-we-su4-eq2", "ROUGE-WE", VARIANT), ("rouge-we-2-s3", "ROUGE-WE", VARIANT),
    ("rouge-g-su4", "ROUGE-G", PAPER), ("rouge-2", "ROUGE (Lin", PAPER), ("rouge-su*", "ROUGE (Lin", PAPER),
    ("rouge-w-1.2", "ROUGE (Lin", PAPER), ("rouge-2-nostem", "ROUGE (Lin", VARIANT), ("widar-l", "WIDAR", PAPER),
    ("widar-1-total", "WIDAR", VARIANT), ("anc-rouge-2", "Anchored", PAPER), ("anc-rouge-s4", "Anchored", VARIANT),
    ("bleu", "baselines", BASELINE)])
def test_roles(name, title, role):
    family = family_of(name)
    assert family.title.startswith(title) and family.role(name) == role


def test_a_name_of_no_family_cannot_be_grouped():
    assert family_of("meteor") is None
    with pytest.raises(LookupError, match="belongs to no family"):
        by_family(["meteor"])


def test_board_names_are_registered_names_of_their_family():
    for family in FAMILIES:
        for name in family.board:
            assert family_of(name) is family and get_metric(name).name == name
    assert "rouge-1" in board_names() and "rouge-g-1" in board_names() and "rouge-g-1-f" not in board_names()


def _toy(summaries, references, *, scale=1.0):
    return pd.DataFrame({"toy": [scale * len(s) for s in summaries]})


@pytest.fixture
def yours(monkeypatch):
    monkeypatch.setattr(registry, "_YOURS", {})
    monkeypatch.setattr(registry, "_YOUR_BOARD", set())


def test_your_metrics_are_listed_grouped_and_on_the_board(yours):
    register("toy-chars", lambda: Metric("toy-chars", _toy, primary="toy"), board=True)
    register("toy-half", lambda: Metric("toy-half", _toy, primary="toy", options={"scale": 0.5}))
    assert {"toy-chars", "toy-half"} <= set(metric_names())
    assert family_of("toy-chars") is YOURS
    assert by_family(["toy-half", "rouge-1"])[YOURS] == [("toy-half", "yours")]
    assert board_names()[-1] == "toy-chars" and "toy-half" not in board_names()
    assert get_metric("toy-half").score(["abcd"], [["x"]])["toy"].tolist() == [2.0]


def test_register_refuses_names_of_a_family_or_taken(yours):
    register("toy", lambda: None)
    with pytest.raises(ValueError, match="already registered"):
        register("toy", lambda: None)
    with pytest.raises(ValueError, match=r"spelled like the names of ROUGE \(Lin 2004\)"):
        register("rouge-1-mine", lambda: None)
    with pytest.raises(ValueError, match="'module:function'"):
        register("toy-2", "no_colon_here")


def test_metrics_command_prints_families_and_roles(capsys, monkeypatch):
    # signatures of every name are what the command prints; a stub keeps this test off the slow encoders
    monkeypatch.setattr(registry, "get_metric", lambda name: type("M", (), {"signature": f"sig-{name}"}))
    assert main(["metrics", "--paper"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"# {FAMILIES[0].title}")
    assert "rouge-we-1\tas in the paper's tables\tsig-rouge-we-1" in out
    assert not any(line.startswith("rouge-we-1-eq2") for line in out)
    assert main(["metrics"]) == 0
    assert "rouge-we-1-eq2\tvariant\tsig-rouge-we-1-eq2" in capsys.readouterr().out
