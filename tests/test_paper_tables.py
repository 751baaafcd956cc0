"""The transcribed paper tables agree with each other where two tables print the same number."""
import pytest

from rougelab.metrics.paper_tables import (NG_ABRECHT_2015, SHAFIEIBAVANI_2018_TABLE1, WANG_2020_TABLE1,
                                           WANG_2020_TABLE2)


@pytest.mark.parametrize("family, prefix", [("rouge", "ROUGE"), ("rouge-we", "ROUGE-WE")])
def test_shafieibavani_reprints_ng_abrecht_rounded(family, prefix):
    """ShafieiBavani et al. (2018) Table 1 reprints Ng & Abrecht's TAC 2011 ROUGE and ROUGE-WE rows, to 3 decimals."""
    for table, criterion in (("Pyramid (Table 1)", "Pyramid"), ("Responsiveness (Table 2)", "Responsiveness"),
                             ("Readability (Table 3)", "Readability")):
        for n in ("1", "2", "su4"):
            theirs = NG_ABRECHT_2015.loc[(table, f"{family}-{n}")]
            ours = SHAFIEIBAVANI_2018_TABLE1.loc[f"{prefix}-{n.upper()}", criterion]
            assert ours.to_numpy() == pytest.approx(theirs.to_numpy(), abs=0.0005 + 1e-9), (table, family, n)


def test_wang_table2_at_four_references_is_table1():
    for metric in ("AncR-1", "AncR-2"):
        for tac in ("TAC 2008", "TAC 2009"):
            row = WANG_2020_TABLE2.loc[(metric, 4)]
            assert row[f"{tac} r"] == WANG_2020_TABLE1.loc[(tac, "pearson"), metric]
            assert row[f"{tac} ρ"] == WANG_2020_TABLE1.loc[(tac, "spearman"), metric]


def test_shapes():
    assert NG_ABRECHT_2015.shape == (18, 3) and SHAFIEIBAVANI_2018_TABLE1.shape == (9, 9)
    assert WANG_2020_TABLE1.shape == (6, 10) and WANG_2020_TABLE2.shape == (8, 4)
