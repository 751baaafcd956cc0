"""The per-metric choices tables point at code that exists, options the scorers take, and sweeps that run."""
import importlib
import inspect
from pathlib import Path

import pytest

from rougelab.metrics.choices import CHOICES, PAPERS, SCORERS, choices_markdown, choices_table

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _resolve(dotted: str):
    """The object at ``rougelab.<dotted>``: the longest importable module prefix, then attributes."""
    parts = ("rougelab." + dotted).split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(dotted)


def _parameters(obj) -> set[str]:
    return set(inspect.signature(obj).parameters) if callable(obj) else set()


@pytest.mark.parametrize("family", list(CHOICES))
def test_every_row_names_existing_code_and_a_real_option(family):
    scorer = _parameters(_resolve(SCORERS[family]))
    for choice in CHOICES[family]:
        where = _resolve(choice.code)     # AttributeError / ModuleNotFoundError if the code moved
        if choice.option:
            name = choice.option.split("=")[0]
            assert name in scorer | _parameters(where), f"{family}: {choice.step}: no option {name!r}"
            assert choice.alternatives, f"{family}: {choice.step}: an option with no alternative named"
        else:
            assert not choice.swept, f"{family}: {choice.step}: swept, but no option to sweep"


@pytest.mark.parametrize("family", list(CHOICES))
def test_every_swept_option_is_swept_in_its_notebook(family):
    for choice in CHOICES[family]:
        if choice.swept:
            source = (NOTEBOOKS / f"{choice.swept}.ipynb").read_text()
            assert choice.option.split("=")[0] in source, f"{choice.swept} does not sweep {choice.option}"


def test_table_and_markdown():
    table = choices_table("rouge-g")
    assert list(table.columns) == ["step", "code", "paper", "ours", "alternatives", "option", "swept"]
    assert table["code"].str.startswith("rougelab.").all() and len(table) == len(CHOICES["rouge-g"])
    text = choices_markdown("anchored-rouge")
    assert text.startswith(f"**{PAPERS['anchored-rouge']}**") and "`k=5`" in text
    assert text.count("\n|") == len(CHOICES["anchored-rouge"]) + 2     # header, rule, one line per row
    with pytest.raises(KeyError, match="families: rouge-we"):
        choices_table("rouge-x")


def test_the_paper_data_rows_say_what_for_paper_correlates():
    from rougelab.metrics.registry import get_metric
    from rougelab.paper_data import setup

    rouge_g = next(c for c in CHOICES["rouge-g"] if c.code == "paper_data.for_paper")
    assert "ROUGE-G recall (Eq. 4)" in rouge_g.ours and "rows with F" in rouge_g.ours
    rows = setup("shafieibavani2018").rows
    assert {label: row.score for label, row in rows.items() if label.startswith("ROUGE-G")} == dict.fromkeys(
        ["ROUGE-G-1", "ROUGE-G-2", "ROUGE-G-SU4"], "r")
    assert all(row.score == "f" for label, row in rows.items() if not label.startswith("ROUGE-G"))
    assert get_metric("rouge-g-1").primary.endswith("_r")
    rouge_we = next(c for c in CHOICES["rouge-we"] if c.code == "paper_data.for_paper")
    assert "F (notebook 02's `score`)" in rouge_we.ours and rouge_we.option == "score=f"
    assert {row.score for row in setup("ng2015").rows.values()} == {"f"}
    assert setup("ng2015").level == setup("shafieibavani2018").level == "system"
    anchored = next(c for c in CHOICES["anchored-rouge"] if c.code == "paper_data.for_paper")
    assert "summary level" in anchored.ours and setup("wang2020").level == "summary"
    assert "AncR-1" not in setup("wang2020").rows     # no release added with its documents: no AncR row
