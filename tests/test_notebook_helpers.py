"""The notebooks' shared helpers: document slices, figure files, rendered and checked prose."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from rougelab.notebook import ClaimFailed, first_documents, holds, prose, render, save_figure


def _table():
    return pd.DataFrame({"doc_id": ["d2", "d2", "d1", "d1", "d3", "d3"],
                         "system_id": ["A", "B", "A", "B", "A", "B"], "x": range(6)})


def test_first_documents_keeps_the_first_n_in_order_of_appearance():
    kept = first_documents(_table(), 2)
    assert list(kept.doc_id) == ["d2", "d2", "d1", "d1"]
    assert list(kept.index) == [0, 1, 2, 3]


def test_first_documents_can_also_keep_the_first_systems_and_none_keeps_all():
    assert list(first_documents(_table(), None, systems=1).x) == [0, 2, 4]
    assert len(first_documents(_table(), None)) == 6


def test_save_figure_writes_png_and_svg(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    paths = save_figure(fig, tmp_path / "figs", "01_demo_n10")
    plt.close(fig)
    assert [p.name for p in paths] == ["01_demo_n10.png", "01_demo_n10.svg"]
    assert all(p.stat().st_size > 0 for p in paths)


def test_render_writes_floats_to_three_decimals_unless_told():
    assert render("tau {a} vs {b:+.2f}, {n} docs", a=0.12345, b=0.5, n=3) == "tau 0.123 vs +0.50, 3 docs"


def test_prose_is_markdown_with_the_values_filled_in():
    shown = prose("gap {gap}", gap=0.0175)
    assert shown.data == "gap 0.018"


def test_holds_passes_silently_and_fails_with_the_sentence():
    holds(0.01 < 0.015, "within 0.015")
    with pytest.raises(ClaimFailed, match="within 0.015 of the paper, 0.020 here"):
        holds(0.02 < 0.015, "within 0.015 of the paper, {gap} here", gap=0.02)
