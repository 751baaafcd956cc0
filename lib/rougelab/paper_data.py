"""Each paper's own table on its own data, for whoever holds the NIST release (``rougelab.data.nist``).

The notebooks take a ``paper_data`` parameter: None (the default) keeps the public substitutes and
``paper_comparison`` returns the one line saying which release would give the paper's table; the name
of an added release (``rougelab data add tac2011 PATH``) scores the paper's metrics on it with the
paper's protocol (its level, coefficients, score and reference handling) and returns ours beside the
paper's numbers, the protocol in one line in the table's ``attrs["protocol"]``.
"""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from rougelab.data import nist
from rougelab.scoring import InputError

# Manual scores of the NIST releases, by the names the papers give them.
CRITERIA = {"Pyramid": "modified_pyramid_score", "Responsiveness": "overall_responsiveness",
            "Readability": "linguistic_quality", "Coverage": "coverage_mean"}
SCORES = {"r": "recall", "p": "precision", "f": "F"}


class Row(NamedTuple):
    """One row of a paper's table: the registry metric and which of its R / P / F (None: its primary)."""

    metric: str
    score: str | None = None


def _criterion(label: str) -> str:
    """The release's column for a paper's criterion label ("Pyramid", "Pyramid (Table 1)")."""
    return CRITERIA[label.split(" ")[0]]


def release_line(releases: tuple[str, ...]) -> str:
    """One line: which NIST release(s) would turn the substitute into the paper's table, and how (more than two
    releases: their titles, then the command once with the other names)."""
    if len(releases) > 2:
        first, *rest = releases
        titles = " or ".join(nist.release(r).title for r in releases)
        return (f"The paper's tables are on {titles}: `rougelab data add {first} PATH` (or {', '.join(rest)}), "
                f"then `paper_data=\"{first}\"` (the name added); without them, the public datasets stand in.")
    names = " or ".join(f"{nist.release(r).title} (`rougelab data add {r} PATH`, then `paper_data=\"{r}\"`)"
                        for r in releases)
    return f"The paper's table is on {names}; without it, the public datasets stand in."


def _score_column(metric, score: str | None) -> str:
    """The column of ``metric``'s output holding ``score`` (r / p / f), or its primary column."""
    if score is None:
        return metric.primary
    return metric.primary.rsplit("_", 1)[0] + "_" + score


def paper_comparison(paper_data: str | None, releases: tuple[str, ...], metrics: dict[str, str | Row],
                     paper: pd.DataFrame, *, level: str = "system",
                     coefs: tuple[str, ...] = ("pearson", "spearman", "kendall")) -> str | pd.DataFrame:
    """The paper's table beside ours on ``paper_data``, or ``release_line`` when it is None.

    Parameters
    ----------
    releases : the releases the paper's table is on (``paper_data`` must be one of them).
    metrics : the paper's row label -> our registry name, or a ``Row`` (name and r / p / f), e.g.
        ``{"ROUGE-G-1": Row("rouge-g-1", "r")}``; a bare name correlates the metric's primary column.
    paper : the paper's numbers, index (criterion, row label) with criterion a key of ``CRITERIA``,
        one column per coefficient.
    level : the paper's level of correlation (``system``: AESOP; ``summary``: per input, averaged).

    Returns a table indexed like ``paper`` with columns ``<coef> (paper)`` and ``<coef> (ours)``.
    """
    rows = {label: row if isinstance(row, Row) else Row(row) for label, row in metrics.items()}
    bad = [row.score for row in rows.values() if row.score is not None and row.score not in SCORES]
    if bad:
        raise InputError(f"score={bad[0]!r}: choose r, p or f")
    if paper_data is None:
        return release_line(releases)
    if paper_data not in releases:
        raise InputError(f"paper_data={paper_data!r}: this paper's table is on {', '.join(releases)}")
    from rougelab.data import load_dataset
    from rougelab.evaluate import add_metric_scores
    from rougelab.metaeval import correlation_table
    from rougelab.metrics.registry import get_metric

    table = load_dataset(paper_data)
    criteria = {label: _criterion(label) for label in paper.index.get_level_values(0).unique()}
    missing = [c for c in criteria.values() if c not in table.columns]
    if missing:
        raise InputError(f"{paper_data} has no {', '.join(missing)} scores (it has: "
                         f"{', '.join(nist.human_columns(paper_data))})")
    names = list(dict.fromkeys(row.metric for row in rows.values()))
    scored = add_metric_scores(table, names, column="all", progress=False)
    for label, row in rows.items():
        scored[label] = scored[f"{row.metric}:{_score_column(get_metric(row.metric), row.score)}"]
    ours = correlation_table(scored, list(rows), list(criteria.values()), levels=level, coefs=list(coefs),
                             progress=False)
    by_name = {(h, m, c): v for h, m, c, v in zip(ours["criterion"], ours["metric"], ours["coef"], ours["value"])}
    out = {}
    for label, values in paper.iterrows():
        criterion, name = label
        out[label] = {**{f"{c} (paper)": values[c] for c in coefs},
                      **{f"{c} (ours)": by_name[(_criterion(criterion), name, c)] for c in coefs}}
    return pd.DataFrame.from_dict(out, orient="index").rename_axis(paper.index.names)


class Setup(NamedTuple):
    """One paper's comparison: its releases, rows (label -> ``Row``), table, level, coefficients and protocol."""

    releases: tuple[str, ...]
    rows: dict[str, Row]
    table: pd.DataFrame
    level: str
    coefs: tuple[str, ...]
    protocol: str


_ALL = ("pearson", "spearman", "kendall")


# Lin (2004)'s table and DUC column on each release (``rougelab.lin2004``); always all references, STEM.
LIN2004_COLUMNS = {"duc2001": ("Table 1", "2001"), "duc2002": ("Table 1", "2002"), "duc2003": ("Table 2", "2003"),
                   **{f"duc2002-multi-{words}": (f"Table 3 ({part})", f"2002 multi {words}")
                      for words, part in ((10, "C"), (50, "D2"), (100, "A2"), (200, "E2"))}}
_ALL_REFS = {"2001": "3 REFS", "2002": "2 REFS", "2003": "4 REFS"}


def _lin2004(paper_data, score: str, multiref: str) -> Setup:
    from rougelab.lin2004 import MEASURES, measure_name, paper_column
    from rougelab.metrics.rouge_metrics import MULTIREF

    suffix = {rule: s for s, rule in MULTIREF.items()}.get(multiref)
    if suffix is None:
        raise InputError(f"multiref={multiref!r}: choose {', '.join(MULTIREF.values())}")
    label, duc = LIN2004_COLUMNS.get(paper_data or "duc2001", ("", ""))
    refs = _ALL_REFS.get(duc[:4], "")
    column = paper_column(duc, refs, "STEM") if duc else pd.Series(dtype=float)
    table = pd.DataFrame({"pearson": column.to_numpy()},
                         index=pd.MultiIndex.from_product([["Coverage"], column.index], names=["table", "metric"]))
    rows = {measure_name(m): Row(f"{m}{suffix}", score) for m in MEASURES}
    protocol = (f"Lin (2004) {label or 'Tables 1-3'}, {refs or 'all references'}, STEM: system-level Pearson of "
                f"ROUGE {SCORES.get(score, score)} (references: {multiref}) with mean SEE coverage")
    return Setup(tuple(LIN2004_COLUMNS), rows, table, "system", ("pearson",), protocol)


def _ng2015(score: str) -> Setup:
    from rougelab.metrics import paper_tables

    table = paper_tables.NG_ABRECHT_2015
    rows = {m: Row(m, score) for m in table.index.get_level_values(1)}
    protocol = (f"Ng & Abrecht (2015) Tables 1-3 (TAC 2011 AESOP): system level, automatic peers; "
                f"{SCORES.get(score, score)} of each metric; the four models pooled (-f A)")
    return Setup(("tac2011",), rows, table, "system", _ALL, protocol)


def _shafieibavani2018(score: str) -> Setup:
    from rougelab.metrics import paper_tables

    wide = paper_tables.SHAFIEIBAVANI_2018_TABLE1
    table = wide.stack(level=0, future_stack=True).swaplevel().sort_index()
    table.index.names = ["table", "metric"]
    rows = {m: Row(m.lower(), "r" if m.startswith("ROUGE-G") else score) for m in wide.index}
    protocol = (f"ShafieiBavani et al. (2018) Table 1 (TAC 2011 AESOP): system level; ROUGE-G recall (Eq. 4), "
                f"ROUGE and ROUGE-WE {SCORES.get(score, score)}; the four models pooled (-f A)")
    return Setup(("tac2011",), rows, table, "system", _ALL, protocol)


def _wang2020(paper_data) -> Setup:
    from rougelab.metrics import paper_tables

    rows = {"R-1": Row("rouge-1"), "R-2": Row("rouge-2"), "R-1-WE": Row("rouge-we-1"), "R-2-WE": Row("rouge-we-2"),
            "BERTScore": Row("bertscore")}
    with_sources = paper_data is not None and nist.is_added(paper_data) and \
        nist.load(paper_data)["source"].notna().all()
    if with_sources:
        rows.update({"AncR-1": Row("anc-rouge-1"), "AncR-2": Row("anc-rouge-2")})
    year = "TAC 2009" if paper_data == "tac2009" else "TAC 2008"
    table = paper_tables.WANG_2020_TABLE1.loc[year, list(rows)].T
    table.index = pd.MultiIndex.from_product([["Pyramid"], table.index], names=["table", "metric"])
    protocol = (f"Wang et al. (2020) Table 1 ({year}): summary level (per topic, averaged) with the modified "
                f"pyramid score; the four models pooled; each metric's primary score (ROUGE, ROUGE-WE, BERTScore "
                f"F; AncR recall, Eq. 1, k = 5)"
                + ("" if with_sources else "; AncR left out: the release was added without --documents"))
    return Setup(("tac2008", "tac2009"), rows, table, "summary", _ALL, protocol)


def setup(paper: str, paper_data: str | None = None, *, score: str = "f", multiref: str = "jackknife") -> Setup:
    """The comparison ``for_paper`` runs for ``paper`` (see there)."""
    if paper == "lin2004":
        return _lin2004(paper_data, score, multiref)
    if paper == "ng2015":
        return _ng2015(score)
    if paper == "shafieibavani2018":
        return _shafieibavani2018(score)
    if paper == "wang2020":
        return _wang2020(paper_data)
    raise InputError(f"no paper {paper!r}; choose lin2004, ng2015, shafieibavani2018 or wang2020")


def for_paper(paper: str, paper_data: str | None, *, score: str = "f",
              multiref: str = "jackknife") -> str | pd.DataFrame:
    """``paper_comparison`` set up for one notebook's paper, with the paper's protocol.

    ``"lin2004"``: Tables 1-2, and Table 3's DUC 2002 multi-document columns (``LIN2004_COLUMNS``; all
    references, STEM, coverage; ``score`` and ``multiref`` as notebook 01's parameters: Lin correlates recall,
    jackknifed); ``"ng2015"``: Tables 1-3 (AESOP: system level; which
    of R / P / F the paper correlates is not said: ``score``, notebook 02's parameter); ``"shafieibavani2018"``:
    Table 1 (ROUGE-G recall, Eq. 4; its ROUGE and ROUGE-WE rows, which are Ng & Abrecht's, with ``score``);
    ``"wang2020"``: Table 1 without the metrics we lack (S3, MoverScore), with AncR when the release has its
    source documents. The table's ``attrs["protocol"]`` says all this in one line.
    """
    plan = setup(paper, paper_data, score=score, multiref=multiref)
    view = paper_comparison(paper_data, plan.releases, plan.rows, plan.table, level=plan.level, coefs=plan.coefs)
    if isinstance(view, pd.DataFrame):
        view.attrs["protocol"] = plan.protocol
    return view
