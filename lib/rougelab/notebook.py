"""What the workbook's notebooks share: a slice of a dataset, saved figures, and prose that cannot drift.

Every number a notebook's text states is either rendered from the computed result (``prose``) or
checked against it (``holds``), so a full run that moves a number changes or fails the text instead of
leaving it stale.
"""
from __future__ import annotations

import numbers
import string
from pathlib import Path

import pandas as pd

from rougelab.validation import check_int


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


def save_figure(fig, figures_dir: str | Path, stem: str, *, dpi: int = 150) -> list[Path]:
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.svg`` in ``figures_dir`` (created); put the parameters
    that made the figure in ``stem``. Returns the two paths."""
    folder = Path(figures_dir)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.{ext}" for ext in ("png", "svg")]
    for path in paths:
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    return paths


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
