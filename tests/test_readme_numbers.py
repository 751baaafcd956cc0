"""The numbers typed into README.md against the command that prints them (issue 20, item 5).

The reproduction table names its command (``rougelab evaluate ... --level global --coef kendall``); its
"paper" column must equal the paper's Table 3 as kept in ``rougelab.metrics.widar.reproduce.TABLE3``, the
sentence under it must follow from the table, and our columns must equal what ``evaluate`` prints (the
ROUGE rows always, a few seconds; the WIDAR rows under ``-m slow``, about 50 s).
Speed figures are measurements of one machine; each names the benchmark that prints it and is not
checked here.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rougelab.metrics.widar.reproduce import CRITERIA, TABLE3

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
SECTION = README[README.index("## Results at a glance"):README.index("## Speed")]
COMMAND = re.search(r"`(rougelab evaluate --dataset (\S+) --metric (\S+) --level (\S+) --coef (\S+))`", SECTION)
ROWS = {cells[0]: cells[1:] for cells in (
    [c.strip() for c in line.strip().strip("|").split("|")] for line in SECTION.splitlines()
    if line.startswith("| ") and not line.startswith("| metric"))}
PAPER_NAMES = {"widar-1": "WIDAR_1", "widar-2": "WIDAR_2", "widar-l": "WIDAR_L",
               "rouge-1": "ROUGE-1", "rouge-2": "ROUGE-2", "rouge-l-nltk": "ROUGE-L"}


def ours(metric):
    return [float(v) for v in ROWS[metric][:4]]


def test_the_table_names_its_command_and_rows():
    assert COMMAND, "the reproduction table must name the command that prints it"
    assert COMMAND[3].split(",") == list(ROWS)


def test_paper_column_is_table_3():
    for metric, cells in ROWS.items():
        paper = [float(v) for v in cells[4].split(" / ")]
        assert paper == TABLE3.loc[PAPER_NAMES[metric], CRITERIA].tolist(), metric


def test_sentence_under_the_table_follows_from_it():
    gaps = [round(abs(o - float(p)), 3) for o, p in zip(ours("widar-1"), ROWS["widar-1"][4].split(" / "))]
    match = re.search(r"consistency and fluency cells miss the paper by ([0-9.]*[0-9]) and ([0-9.]*[0-9])", SECTION)
    assert [float(match[1]), float(match[2])] == gaps[1:3]


def _evaluate(metrics):
    from rougelab.evaluate import evaluate
    try:
        table = evaluate(COMMAND[2], metrics, level=COMMAND[4], coef=COMMAND[5], progress=False)
    except Exception as err:  # the data cache may be empty on a fresh checkout
        pytest.skip(f"{COMMAND[2]} not available: {err}")
    return table.pivot(index="metric", columns="criterion", values="value").loc[metrics, CRITERIA]


@pytest.mark.filterwarnings("ignore:tokenizer=")
def test_rouge_rows_equal_evaluate():
    rows = [m for m in ROWS if m.startswith("rouge")]
    printed = _evaluate(rows).round(3)
    for metric in rows:
        assert printed.loc[metric].tolist() == ours(metric), metric


@pytest.mark.slow  # about 50 s from a cold WIDAR cache on our 2-core machine
@pytest.mark.filterwarnings("ignore:tokenizer=")
def test_widar_rows_and_total_reading_equal_evaluate():
    rows = [m for m in ROWS if m.startswith("widar")]
    printed = _evaluate([*rows, "widar-1-total"])
    for metric in rows:
        assert printed.loc[metric].round(3).tolist() == ours(metric), metric
    within = float(re.search(r"`widar-1-total`: every cell within ([0-9.]*[0-9])", SECTION)[1])
    gap = (printed.loc["widar-1-total"] - TABLE3.loc["WIDAR_1", CRITERIA]).abs().max()
    assert gap <= within
