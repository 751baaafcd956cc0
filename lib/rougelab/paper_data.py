"""Each paper's own table on its own data, for whoever holds the NIST release (``rougelab.data.nist``).

The notebooks take a ``paper_data`` parameter: None (the default) keeps the public substitutes and
``paper_comparison`` returns the one line saying which release would give the paper's table; the name
of an added release (``rougelab data add tac2011 PATH``) scores the paper's metrics on it with the
paper's protocol (its level and coefficients, all references pooled as the release gives them) and
returns ours beside the paper's numbers.
"""
from __future__ import annotations

import pandas as pd

from rougelab.data import nist
from rougelab.scoring import InputError

# Manual scores of the NIST releases, by the names the papers give them.
CRITERIA = {"Pyramid": "modified_pyramid_score", "Responsiveness": "overall_responsiveness",
            "Readability": "linguistic_quality", "Coverage": "coverage_mean"}


def _criterion(label: str) -> str:
    """The release's column for a paper's criterion label ("Pyramid", "Pyramid (Table 1)")."""
    return CRITERIA[label.split(" ")[0]]


def release_line(releases: tuple[str, ...]) -> str:
    """One line: which NIST release(s) would turn the substitute into the paper's table, and how."""
    names = " or ".join(f"{nist.release(r).title} (`rougelab data add {r} PATH`, then `paper_data=\"{r}\"`)"
                        for r in releases)
    return f"The paper's table is on {names}; without it, the public datasets stand in."


def paper_comparison(paper_data: str | None, releases: tuple[str, ...], metrics: dict[str, str],
                     paper: pd.DataFrame, *, level: str = "system",
                     coefs: tuple[str, ...] = ("pearson", "spearman", "kendall")) -> str | pd.DataFrame:
    """The paper's table beside ours on ``paper_data``, or ``release_line`` when it is None.

    Parameters
    ----------
    releases : the releases the paper's table is on (``paper_data`` must be one of them).
    metrics : the paper's row label -> our registry name, e.g. ``{"ROUGE-WE-1": "rouge-we-1"}``.
    paper : the paper's numbers, index (criterion, row label) with criterion a key of ``CRITERIA``,
        one column per coefficient.
    level : the paper's level of correlation (``system``: AESOP; ``summary``: per input, averaged).

    Returns a table indexed like ``paper`` with columns ``<coef> (paper)`` and ``<coef> (ours)``.
    """
    if paper_data is None:
        return release_line(releases)
    if paper_data not in releases:
        raise InputError(f"paper_data={paper_data!r}: this paper's table is on {', '.join(releases)}")
    from rougelab.data import load_dataset
    from rougelab.evaluate import add_metric_scores
    from rougelab.metaeval import correlation_table

    table = load_dataset(paper_data)
    criteria = {label: _criterion(label) for label in paper.index.get_level_values(0).unique()}
    missing = [c for c in criteria.values() if c not in table.columns]
    if missing:
        raise InputError(f"{paper_data} has no {', '.join(missing)} scores (it has: "
                         f"{', '.join(nist.human_columns(paper_data))})")
    scored = add_metric_scores(table, list(dict.fromkeys(metrics.values())), progress=False)
    ours = correlation_table(scored, list(dict.fromkeys(metrics.values())), list(criteria.values()),
                             levels=level, coefs=list(coefs))
    by_name = {(h, m, c): v for h, m, c, v in zip(ours["criterion"], ours["metric"], ours["coef"], ours["value"])}
    rows = {}
    for label, row in paper.iterrows():
        criterion, name = label
        rows[label] = {**{f"{c} (paper)": row[c] for c in coefs},
                       **{f"{c} (ours)": by_name[(_criterion(criterion), metrics[name], c)] for c in coefs}}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(paper.index.names)


def for_paper(paper: str, paper_data: str | None) -> str | pd.DataFrame:
    """``paper_comparison`` set up for one notebook's paper: ``"lin2004"`` (Table 1/2, STEM, all references,
    coverage), ``"ng2015"`` (Tables 1-3), ``"shafieibavani2018"`` (Table 1) or ``"wang2020"`` (Table 1,
    without the metrics we lack, and without AncR, whose source documents the readers do not read)."""
    from rougelab.metrics import paper_tables

    if paper == "lin2004":
        from rougelab.lin2004 import MEASURES, measure_name, paper as lin_table

        releases = ("duc2001", "duc2002", "duc2003")
        year = (paper_data or "duc2001")[-4:]
        refs = {"2001": "3 REFS", "2002": "2 REFS", "2003": "4 REFS"}.get(year, "")
        column = lin_table()[(year, refs, "STEM")] if refs else pd.Series(dtype=float)
        table = pd.DataFrame({"pearson": column.to_numpy()},
                             index=pd.MultiIndex.from_product([["Coverage"], column.index], names=["table", "metric"]))
        return paper_comparison(paper_data, releases, {measure_name(m): m for m in MEASURES}, table,
                                coefs=("pearson",))
    if paper == "ng2015":
        table = paper_tables.NG_ABRECHT_2015
        return paper_comparison(paper_data, ("tac2011",), {m: m for m in table.index.get_level_values(1)}, table)
    if paper == "shafieibavani2018":
        wide = paper_tables.SHAFIEIBAVANI_2018_TABLE1
        table = wide.stack(level=0, future_stack=True).swaplevel().sort_index()
        table.index.names = ["table", "metric"]
        return paper_comparison(paper_data, ("tac2011",), {m: m.lower() for m in wide.index}, table)
    if paper == "wang2020":
        names = {"R-1": "rouge-1", "R-2": "rouge-2", "R-1-WE": "rouge-we-1", "R-2-WE": "rouge-we-2",
                 "BERTScore": "bertscore"}
        year = "TAC 2009" if paper_data == "tac2009" else "TAC 2008"
        table = paper_tables.WANG_2020_TABLE1.loc[year, list(names)].T
        table.index = pd.MultiIndex.from_product([["Pyramid"], table.index], names=["table", "metric"])
        return paper_comparison(paper_data, ("tac2008", "tac2009"), names, table, level="summary")
    raise InputError(f"no paper {paper!r}; choose lin2004, ng2015, shafieibavani2018 or wang2020")
