"""What the workbook's notebooks share: a slice of a dataset, saved figures, and prose that cannot drift.

Every number a notebook's text states is either rendered from the computed result (``prose``) or
checked against it (``holds``), so a full run that moves a number changes or fails the text instead of
leaving it stale. Imported in a notebook, it sets how tables show (``TABLE_DISPLAY``): whole, floats to
three decimals.
"""
from __future__ import annotations

import numbers
import string
from pathlib import Path

import pandas as pd

from rougelab.validation import check_int


# A table a notebook displays is shown whole (every row, column and full cell text: take .head() to show
# less); floats to three decimals, trailing zeros trimmed per column (a rank stays 2, not 2.000).
TABLE_DISPLAY = {"display.max_rows": None, "display.max_columns": None, "display.max_colwidth": None,
                 "display.precision": 3}


def show_whole_tables() -> None:
    """Set pandas' display options to ``TABLE_DISPLAY`` (done on import in a notebook)."""
    for option, value in TABLE_DISPLAY.items():
        pd.set_option(option, value)


def first_documents(table: pd.DataFrame, n: int | None, *, systems: int | None = None) -> pd.DataFrame:
    """The rows of the first ``n`` documents (in order of first appearance), optionally of the first
    ``systems`` systems only; ``None`` keeps all. The index is reset."""
    n = check_int(n, "n", minimum=1, none=True)
    systems = check_int(systems, "systems", minimum=1, none=True)
    keep = pd.Series(True, index=table.index)
    if n is not None:
        keep &= table["doc_id"].isin(table["doc_id"].drop_duplicates().iloc[:n])
    if systems is not None:
        keep &= table["system_id"].isin(table["system_id"].drop_duplicates().iloc[:systems])
    return table[keep].reset_index(drop=True)


# Metadata that would make a rerun's files differ: matplotlib's version, and the SVG's date
_NO_STAMPS = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}
# The seed of the SVG's element ids (random otherwise); any fixed string will do
_SVG_HASHSALT = "rougelab"


def save_figure(fig, figures_dir: str | Path, stem: str, *, dpi: int = 150, alt: str | None = None,
                show: bool = True) -> list[Path]:
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.svg`` in ``figures_dir`` (created); put the parameters
    that made the figure in ``stem``. Returns the two paths.

    The files hold no date, version or random id, so the same figure saves to the same bytes on every
    run. In a notebook (``show``), the saved PNG is displayed with ``alt`` (default: the figure's own
    titles, see ``describe_figure``) as its alt text, and the figure is closed so it is not shown twice.
    """
    import matplotlib

    folder = Path(figures_dir)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.{ext}" for ext in ("png", "svg")]
    with matplotlib.rc_context({"svg.hashsalt": _SVG_HASHSALT}):
        for path in paths:
            fig.savefig(path, dpi=dpi, bbox_inches="tight", metadata=_NO_STAMPS[path.suffix[1:]])
    if show and _in_notebook():
        import matplotlib.pyplot as plt
        from IPython.display import Image, display

        text = alt or describe_figure(fig) or stem.replace("_", " ")
        display(Image(data=paths[0].read_bytes(), format="png", metadata={"alt": text}))
        plt.close(fig)
    return paths


def describe_figure(fig) -> str:
    """A one-line description of ``fig`` from its own words: the overall title, then each panel's title
    (or, for a panel without one, its axis labels). Empty when the figure has no words."""
    parts = [fig.get_suptitle()]
    for ax in fig.axes:
        title = " ".join(ax.get_title(loc).replace("\n", " ") for loc in ("left", "center", "right")).strip()
        labels = " against ".join(label for label in (ax.get_ylabel(), ax.get_xlabel()) if label)
        parts.append(title or labels)
    return "; ".join(dict.fromkeys(p for p in parts if p))


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (whose displays a notebook keeps)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and shell.__class__.__name__ == "ZMQInteractiveShell"


class _Numbers(string.Formatter):
    """``str.format`` with floats written to three decimals unless the field gives its own format."""

    def format_field(self, value, format_spec):
        if not format_spec and isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
            format_spec = ".3f"
        return super().format_field(value, format_spec)


def render(template: str, **values) -> str:
    """``template.format(**values)``, floats to three decimals by default (``{gap:+.3f}`` to choose)."""
    return _Numbers().format(template, **values)


def prose(template: str, **values):
    """A Markdown display of ``template`` with the computed ``values`` filled in (see ``render``)."""
    from IPython.display import Markdown

    return Markdown(render(template, **values))


class ClaimFailed(AssertionError):
    """A sentence of a notebook's text no longer holds for the numbers the run computed."""


def holds(condition: bool, claim: str, **values) -> None:
    """Fail the run with the notebook's own sentence when ``condition`` is false.

    ``claim`` is the sentence as the text states it (with ``{name}`` fields for ``values``), so the
    error says which statement the new numbers broke.
    """
    if not bool(condition):
        raise ClaimFailed(f"the notebook says: {render(claim, **values)!r}, which this run's numbers contradict")


if _in_notebook():
    show_whole_tables()
