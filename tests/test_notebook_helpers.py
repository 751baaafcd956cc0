"""The notebooks' shared helpers: document slices, figure files, rendered and checked prose."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from rougelab.notebook import (ClaimFailed, describe_figure, first_documents, holds, prose, render, save_figure,
                               show_whole_tables)


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


def _demo_figure():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0], label="a line")
    ax.fill_between([0, 1], [0, 0], [1, 0.5], alpha=0.2)   # a clip path: a random id unless seeded
    ax.legend()
    return fig


def test_the_same_figure_saves_to_the_same_bytes(tmp_path, monkeypatch):
    first = save_figure(_demo_figure(), tmp_path / "one", "demo")
    # another process would draw another random salt and a later date: make both differ here too
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "2000000000")
    plt.rcParams["svg.hashsalt"] = "another salt"
    try:
        second = save_figure(_demo_figure(), tmp_path / "two", "demo")
    finally:
        plt.rcdefaults()
    plt.close("all")
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name
    svg, png = first[1].read_text(), first[0].read_bytes()
    assert "<dc:date>" not in svg and "clipPath" in svg and "Matplotlib v" not in svg
    assert b"Software" not in png and b"tIME" not in png


def test_describe_figure_uses_the_figure_titles_and_labels():
    fig, axes = plt.subplots(1, 2)
    fig.suptitle("Figure 3 redone")
    axes[0].set_title("system level\nPearson")
    axes[1].set_xlabel("k")
    axes[1].set_ylabel("r")
    assert describe_figure(fig) == "Figure 3 redone; system level Pearson; r against k"
    plt.close(fig)
    bare = plt.figure()
    assert describe_figure(bare) == ""
    plt.close(bare)


def test_render_writes_floats_to_three_decimals_unless_told():
    assert render("tau {a} vs {b:+.2f}, {n} docs", a=0.12345, b=0.5, n=3) == "tau 0.123 vs +0.50, 3 docs"


def test_prose_is_markdown_with_the_values_filled_in():
    shown = prose("gap {gap}", gap=0.0175)
    assert shown.data == "gap 0.018"


def test_holds_passes_silently_and_fails_with_the_sentence():
    holds(0.01 < 0.015, "within 0.015")
    with pytest.raises(ClaimFailed, match="within 0.015 of the paper, 0.020 here"):
        holds(0.02 < 0.015, "within 0.015 of the paper, {gap} here", gap=0.02)


def test_a_notebook_shows_its_tables_whole_and_ranks_without_decimals():
    table = pd.DataFrame({f"c{j}": [i + j / 7 for i in range(200)] for j in range(30)})
    table["rank"] = [float(i % 5 + 1) for i in range(200)]
    table["claim"] = "a sentence longer than pandas' fifty characters, which it would cut short"
    try:
        show_whole_tables()
        html = table._repr_html_()
    finally:
        pd.reset_option("display")
    assert html.count("<tr") == 201 and "<th>c29</th>" in html and "..." not in html
    assert "<td>0.143</td>" in html and "<td>2.0</td>" in html and "<td>2.000</td>" not in html
    assert "which it would cut short" in html
