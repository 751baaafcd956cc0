"""Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries" (ACL Workshop on Text
Summarization Branches Out): the paper's evaluation tables and the builders that set ours beside them
(notebook 01).

``TABLE1`` and ``TABLE2`` are the paper's system-level Pearson correlations, transcribed from the paper:
Table 1, DUC 2001 and 2002 100-word single-document summaries (1 reference and 3 / 2 references);
Table 2, DUC 2003 10-word very short summaries (1 and 4 references); each under CASE (original text),
STEM (Porter stemming) and STOP (stopwords removed). Table 2's cells come out of the PDF's text layer as
one run of numbers; we read them row by row (17 rows x CASE 1/4 REFS, STEM 1/4, STOP 1/4), which agrees
with every statement the paper makes about that table.

The builders take a long correlation table (``rougelab.metaeval.correlation_table`` output with extra
columns ``dataset``, ``measure`` in the paper's row names, ``setting`` CASE/STEM/STOP and ``refs``).
"""
from __future__ import annotations

import io

import pandas as pd

from rougelab.rouge.api import parse_measure

MEASURES = ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-6", "rouge-7", "rouge-8", "rouge-9",
            "rouge-l", "rouge-s*", "rouge-s4", "rouge-s9", "rouge-su*", "rouge-su4", "rouge-su9", "rouge-w-1.2")

_TABLE1 = """measure 2001|1_REF|CASE 2001|1_REF|STEM 2001|1_REF|STOP 2001|3_REFS|CASE 2001|3_REFS|STEM 2001|3_REFS|STOP 2002|1_REF|CASE 2002|1_REF|STEM 2002|1_REF|STOP 2002|2_REFS|CASE 2002|2_REFS|STEM 2002|2_REFS|STOP
R-1 0.76 0.76 0.84 0.80 0.78 0.84 0.98 0.98 0.99 0.98 0.98 0.99
R-2 0.84 0.84 0.83 0.87 0.87 0.86 0.99 0.99 0.99 0.99 0.99 0.99
R-3 0.82 0.83 0.80 0.86 0.86 0.85 0.99 0.99 0.99 0.99 0.99 0.99
R-4 0.81 0.81 0.77 0.84 0.84 0.83 0.99 0.99 0.98 0.99 0.99 0.99
R-5 0.79 0.79 0.75 0.83 0.83 0.81 0.99 0.99 0.98 0.99 0.99 0.98
R-6 0.76 0.77 0.71 0.81 0.81 0.79 0.98 0.99 0.97 0.99 0.99 0.98
R-7 0.73 0.74 0.65 0.79 0.80 0.76 0.98 0.98 0.97 0.99 0.99 0.97
R-8 0.69 0.71 0.61 0.78 0.78 0.72 0.98 0.98 0.96 0.99 0.99 0.97
R-9 0.65 0.67 0.59 0.76 0.76 0.69 0.97 0.97 0.95 0.98 0.98 0.96
R-L 0.83 0.83 0.83 0.86 0.86 0.86 0.99 0.99 0.99 0.99 0.99 0.99
R-S* 0.74 0.74 0.80 0.78 0.77 0.82 0.98 0.98 0.98 0.98 0.97 0.98
R-S4 0.84 0.85 0.84 0.87 0.88 0.87 0.99 0.99 0.99 0.99 0.99 0.99
R-S9 0.84 0.85 0.84 0.87 0.88 0.87 0.99 0.99 0.99 0.99 0.99 0.99
R-SU* 0.74 0.74 0.81 0.78 0.77 0.83 0.98 0.98 0.98 0.98 0.98 0.98
R-SU4 0.84 0.84 0.85 0.87 0.87 0.87 0.99 0.99 0.99 0.99 0.99 0.99
R-SU9 0.84 0.84 0.85 0.87 0.87 0.87 0.99 0.99 0.99 0.99 0.99 0.99
R-W-1.2 0.85 0.85 0.85 0.87 0.87 0.87 0.99 0.99 0.99 0.99 0.99 0.99"""

_TABLE2 = """measure 2003|1_REF|CASE 2003|4_REFS|CASE 2003|1_REF|STEM 2003|4_REFS|STEM 2003|1_REF|STOP 2003|4_REFS|STOP
R-1 0.96 0.95 0.95 0.95 0.90 0.90
R-2 0.75 0.76 0.75 0.75 0.76 0.77
R-3 0.71 0.70 0.70 0.68 0.73 0.70
R-4 0.64 0.65 0.62 0.63 0.69 0.66
R-5 0.62 0.64 0.60 0.63 0.63 0.60
R-6 0.57 0.62 0.55 0.61 0.46 0.54
R-7 0.56 0.56 0.58 0.60 0.46 0.44
R-8 0.55 0.53 0.54 0.55 0.00 0.24
R-9 0.51 0.47 0.51 0.49 0.00 0.14
R-L 0.97 0.96 0.97 0.96 0.97 0.96
R-S* 0.89 0.87 0.88 0.85 0.95 0.92
R-S4 0.88 0.89 0.88 0.88 0.95 0.96
R-S9 0.92 0.92 0.92 0.91 0.97 0.95
R-SU* 0.93 0.90 0.91 0.89 0.96 0.94
R-SU4 0.97 0.96 0.96 0.95 0.98 0.97
R-SU9 0.97 0.95 0.96 0.94 0.97 0.95
R-W-1.2 0.96 0.96 0.96 0.96 0.96 0.96"""


def _paper_table(text: str) -> pd.DataFrame:
    table = pd.read_csv(io.StringIO(text), sep=" ", index_col=0)
    table.columns = pd.MultiIndex.from_tuples([tuple(c.replace("_", " ").split("|")) for c in table.columns],
                                              names=["DUC", "refs", "setting"])
    return table


TABLE1 = _paper_table(_TABLE1)
TABLE2 = _paper_table(_TABLE2)


def measure_name(measure: str) -> str:
    """The paper's row name of a measure: ``"rouge-su4"`` -> ``"R-SU4"``."""
    return "R-" + parse_measure(measure).key.removeprefix("ROUGE-")


def paper(measures=MEASURES) -> pd.DataFrame:
    """Tables 1 and 2 side by side (columns DUC year, refs, setting), rows in the order of ``measures``."""
    return pd.concat([TABLE1, TABLE2], axis=1).loc[[measure_name(m) for m in measures]]


def layout(corr: pd.DataFrame, measures, datasets, *, level: str = "system", coef: str = "pearson",
           value: str = "value") -> pd.DataFrame:
    """Our correlations in the paper's layout: rows the measures, columns (dataset, refs, setting)."""
    rows = corr[(corr.level == level) & (corr.coef == coef)]
    table = rows.pivot_table(index="measure", columns=["dataset", "refs", "setting"], values=value, sort=False)
    return table.loc[[measure_name(m) for m in measures], list(datasets)]


def with_interval(corr: pd.DataFrame, measures, datasets, *, level: str = "system", coef: str = "pearson",
                  setting: str = "STEM") -> pd.DataFrame:
    """``"value [low, high]"`` cells (two decimals) of ``setting``: rows the measures, columns (dataset, refs)."""
    rows = corr[(corr.level == level) & (corr.coef == coef) & (corr.setting == setting)].copy()
    rows["cell"] = [f"{v:.2f} [{lo:.2f}, {hi:.2f}]" for v, lo, hi in zip(rows.value, rows.ci_low, rows.ci_high)]
    table = rows.pivot(index="measure", columns=["dataset", "refs"], values="cell")
    return table.loc[[measure_name(m) for m in measures], list(datasets)]


def coefficient_agreement(corr: pd.DataFrame, *, setting: str = "STEM", refs: str = "1 REF") -> pd.DataFrame:
    """Per (dataset, level): Spearman's rank correlation, over the measures, of Pearson with Spearman and
    with Kendall (the paper: the coefficients "are tracking Pearson's very closely")."""
    rows = corr[(corr.setting == setting) & (corr.refs == refs)]
    agreement = {}
    for key, part in rows.groupby(["dataset", "level"]):
        wide = part.pivot(index="measure", columns="coef", values="value")
        agreement[key] = {"pearson~spearman": wide.pearson.corr(wide.spearman, method="spearman"),
                          "pearson~kendall": wide.pearson.corr(wide.kendall, method="spearman")}
    return pd.DataFrame(agreement).T


def conclusions(corr: pd.DataFrame, datasets, *, refs: str = "1 REF", top: int = 4) -> pd.DataFrame:
    """The evidence for the paper's conclusions (section 7), per dataset, system-level Pearson, ``refs``:
    the ``top`` best measures under STEM; whether ROUGE-2 is the best ROUGE-N; ROUGE-1 minus ROUGE-9;
    how many STEM intervals reach the best value; mean STEM - CASE and STOP - STEM over the measures;
    the number of measures STOP improves."""
    system = corr[(corr.level == "system") & (corr.coef == "pearson") & (corr.refs == refs)]
    out = {}
    for name in datasets:
        rows = system[system.dataset == name]
        stem = rows[rows.setting == "STEM"].set_index("measure")
        by_setting = rows.pivot(index="measure", columns="setting", values="value")
        ngrams = stem.loc[[f"R-{n}" for n in range(1, 10)], "value"]
        out[name] = {
            f"best {top} (STEM)": ", ".join(stem.value.sort_values(ascending=False).index[:top]),
            "R-2 best of R-1..R-9": ngrams.idxmax() == "R-2",
            "R-1 minus R-9": stem.value["R-1"] - stem.value["R-9"],
            "# measures whose CI reaches the best": int((stem.ci_high >= stem.value.max()).sum()),
            "mean STEM - CASE": (by_setting.STEM - by_setting.CASE).mean(),
            "mean STOP - STEM": (by_setting.STOP - by_setting.STEM).mean(),
            "STOP better (# of measures)": int((by_setting.STOP > by_setting.STEM).sum()),
        }
    return pd.DataFrame(out).T
