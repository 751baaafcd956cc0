"""``rougelab.lin2004``: the paper's Tables 1-3 as transcribed, and the builders of notebook 01 on a
hand-made correlation table."""
from __future__ import annotations

import pandas as pd
import pytest

from rougelab.lin2004 import (MEASURES, TABLE1, TABLE2, TABLE3, coefficient_agreement, conclusions, layout,
                              measure_name, paper, paper_column, with_interval)


def test_tables_have_the_papers_shape_and_cells():
    assert TABLE1.shape == (17, 12) and TABLE2.shape == (17, 6)
    # Lin (2004) Table 1: R-1, DUC 2001, 1 REF: CASE 0.76, STEM 0.76, STOP 0.84; R-W-1.2 DUC 2002 2 REFS STOP 0.99
    assert TABLE1.loc["R-1", ("2001", "1 REF")].tolist() == [0.76, 0.76, 0.84]
    assert TABLE1.loc["R-W-1.2", ("2002", "2 REFS", "STOP")] == 0.99
    # Table 2 (DUC 2003): R-8 STOP with 1 and 4 references, 0.00 and 0.24; R-SU4 CASE 0.97 / 0.96
    assert TABLE2.loc["R-8", [("2003", "1 REF", "STOP"), ("2003", "4 REFS", "STOP")]].tolist() == [0.0, 0.24]
    assert TABLE2.loc["R-SU4", [("2003", "1 REF", "CASE"), ("2003", "4 REFS", "CASE")]].tolist() == [0.97, 0.96]

SETTINGS = ("CASE", "STEM", "STOP")


def test_table3_cells_and_the_papers_statements_about_it():
    assert TABLE3.shape == (17, 36)
    # A1 (DUC 2001, 100 words), R-1 with 1 reference: CASE 0.48, STEM 0.56, STOP 0.86; C (DUC 2002, 10 words) R-5
    # CASE -0.25; D2 (DUC 2002, 50 words) R-8 CASE -0.11; E2 (DUC 2002, 200 words) R-2 STOP 0.94; F R-9 STOP 0.46
    assert [TABLE3.loc["R-1", ("2001 multi 100", "1 REF", s)] for s in SETTINGS] == [0.48, 0.56, 0.86]
    assert TABLE3.loc["R-5", ("2002 multi 10", "2 REFS", "CASE")] == -0.25
    assert TABLE3.loc["R-8", ("2002 multi 50", "2 REFS", "CASE")] == -0.11
    assert TABLE3.loc["R-2", ("2002 multi 200", "2 REFS", "STOP")] == 0.94
    assert TABLE3.loc["R-9", ("2001 multi 400", "3 REFS", "STOP")] == 0.46
    # ROUGE-L and ROUGE-W do not change with stemming or stopwords, in every sub-table (as in Tables 1-2)
    for row in ("R-L", "R-W-1.2"):
        for duc, refs in dict.fromkeys((d, r) for d, r, _ in TABLE3.columns):
            assert len({TABLE3.loc[row, (duc, refs, s)] for s in SETTINGS}) == 1, (row, duc, refs)
    # "ROUGE-1, ROUGE-S4, ROUGE-SU4, ROUGE-S9, and ROUGE-SU9 with stopword removal had correlation above 0.70"
    # (A1-A3, multiple references)
    for duc, refs in (("2001 multi 100", "3 REFS"), ("2002 multi 100", "2 REFS"), ("2003 multi 100", "4 REFS")):
        assert (TABLE3.loc[["R-1", "R-S4", "R-SU4", "R-S9", "R-SU9"], (duc, refs, "STOP")] > 0.70).all()
    assert paper_column("2002 multi 50", "2 REFS", "STEM").tolist()[:2] == [0.48, 0.49]
    assert paper_column("2002", "2 REFS", "STEM").tolist() == TABLE1[("2002", "2 REFS", "STEM")].tolist()


def test_measure_names_and_order():
    assert [measure_name(m) for m in ("rouge-1", "rouge-l", "rouge-su*", "rouge-w-1.2")] == ["R-1", "R-L", "R-SU*",
                                                                                            "R-W-1.2"]
    assert list(paper().index) == [measure_name(m) for m in MEASURES] == list(TABLE1.index)


def _corr():
    rows = []
    values = {"R-1": 0.5, "R-2": 0.7, "R-3": 0.6, "R-4": 0.4, "R-5": 0.3, "R-6": 0.2, "R-7": 0.1, "R-8": 0.0,
              "R-9": -0.1}
    for measure, value in values.items():
        for setting, shift in (("CASE", -0.1), ("STEM", 0.0), ("STOP", 0.05)):
            for coef, scale in (("pearson", 1.0), ("spearman", 0.9), ("kendall", 0.8)):
                rows.append(dict(dataset="d", level="system", coef=coef, measure=measure, setting=setting,
                                 refs="1 REF", value=(value + shift) * scale, ci_low=value - 0.2, ci_high=value + 0.05))
    return pd.DataFrame(rows)


def test_layout_and_interval_cells():
    corr = _corr()
    measures = [f"rouge-{n}" for n in range(1, 10)]
    table = layout(corr, measures, ["d"])
    assert table.loc["R-2", ("d", "1 REF", "STEM")] == pytest.approx(0.7)
    assert table.loc["R-2", ("d", "1 REF", "CASE")] == pytest.approx(0.6)
    cells = with_interval(corr, measures, ["d"])
    assert cells.loc["R-2", ("d", "1 REF")] == "0.70 [0.50, 0.75]"


def test_conclusions_by_hand():
    row = conclusions(_corr(), ["d"], top=2).loc["d"]
    assert row["best 2 (STEM)"] == "R-2, R-3"
    assert row["R-2 best of R-1..R-9"]
    assert row["R-1 minus R-9"] == pytest.approx(0.6)
    # intervals reaching the best value 0.7: R-2 (0.75) only; R-3 reaches 0.65
    assert row["# measures whose CI reaches the best"] == 1
    assert row["mean STEM - CASE"] == pytest.approx(0.1)
    assert row["mean STOP - STEM"] == pytest.approx(0.05)
    assert row["STOP better (# of measures)"] == 9


def test_coefficient_agreement_of_scaled_coefficients_is_one():
    agreement = coefficient_agreement(_corr())
    assert agreement.loc[("d", "system")].tolist() == pytest.approx([1.0, 1.0])
