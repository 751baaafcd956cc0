"""Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries" (ACL Workshop on Text
Summarization Branches Out): the paper's evaluation tables and the builders that set ours beside them
(notebook 01).

``TABLE1`` and ``TABLE2`` are the paper's system-level Pearson correlations, transcribed from the paper:
Table 1, DUC 2001 and 2002 100-word single-document summaries (1 reference and 3 / 2 references);
Table 2, DUC 2003 10-word very short summaries (1 and 4 references); each under CASE (original text),
STEM (Porter stemming) and STOP (stopwords removed). Table 2's cells come out of the PDF's text layer as
one run of numbers; we read them row by row (17 rows x CASE 1/4 REFS, STEM 1/4, STOP 1/4), which agrees
with every statement the paper makes about that table. ``TABLE3`` is Table 3, the multi-document tasks, its
DUC column ``"<year> multi <words>"``: A1-A3 (100 words; 1 reference and all), then, with all references
(the paper: "using multiple references"; 3, 2 and 4 sets of manual summaries for DUC 2001, 2002 and 2003),
C (DUC 2002, 10 words), D1 / D2 (DUC 2001 / 2002, 50), E1 / E2 (200) and F (DUC 2001, 400). Its sub-tables
come out of the text layer interleaved; read in the order the layer gives them, ROUGE-L's and ROUGE-W's
cells are equal across CASE, STEM and STOP in every sub-table, as in Tables 1 and 2.

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

_TABLE3 = """measure 2001_multi_100|1_REF|CASE 2001_multi_100|1_REF|STEM 2001_multi_100|1_REF|STOP 2001_multi_100|3_REFS|CASE 2001_multi_100|3_REFS|STEM 2001_multi_100|3_REFS|STOP 2002_multi_100|1_REF|CASE 2002_multi_100|1_REF|STEM 2002_multi_100|1_REF|STOP 2002_multi_100|2_REFS|CASE 2002_multi_100|2_REFS|STEM 2002_multi_100|2_REFS|STOP 2003_multi_100|1_REF|CASE 2003_multi_100|1_REF|STEM 2003_multi_100|1_REF|STOP 2003_multi_100|4_REFS|CASE 2003_multi_100|4_REFS|STEM 2003_multi_100|4_REFS|STOP 2002_multi_10|2_REFS|CASE 2002_multi_10|2_REFS|STEM 2002_multi_10|2_REFS|STOP 2001_multi_50|3_REFS|CASE 2001_multi_50|3_REFS|STEM 2001_multi_50|3_REFS|STOP 2002_multi_50|2_REFS|CASE 2002_multi_50|2_REFS|STEM 2002_multi_50|2_REFS|STOP 2001_multi_200|3_REFS|CASE 2001_multi_200|3_REFS|STEM 2001_multi_200|3_REFS|STOP 2002_multi_200|2_REFS|CASE 2002_multi_200|2_REFS|STEM 2002_multi_200|2_REFS|STOP 2001_multi_400|3_REFS|CASE 2001_multi_400|3_REFS|STEM 2001_multi_400|3_REFS|STOP
R-1 0.48 0.56 0.86 0.53 0.57 0.87 0.66 0.66 0.77 0.71 0.71 0.78 0.58 0.57 0.71 0.58 0.57 0.71 0.71 0.68 0.49 0.49 0.49 0.73 0.44 0.48 0.80 0.81 0.81 0.90 0.84 0.84 0.91 0.74 0.73 0.90
R-2 0.55 0.57 0.64 0.59 0.61 0.71 0.83 0.83 0.80 0.88 0.87 0.85 0.69 0.67 0.71 0.79 0.79 0.81 0.82 0.85 0.80 0.43 0.45 0.59 0.47 0.49 0.62 0.84 0.85 0.86 0.93 0.93 0.94 0.88 0.88 0.87
R-3 0.46 0.45 0.47 0.53 0.53 0.55 0.85 0.84 0.76 0.89 0.88 0.83 0.54 0.51 0.48 0.76 0.75 0.74 0.59 0.74 0.75 0.32 0.33 0.39 0.36 0.36 0.45 0.80 0.80 0.81 0.90 0.91 0.91 0.84 0.84 0.82
R-4 0.39 0.39 0.43 0.48 0.49 0.47 0.80 0.80 0.63 0.83 0.82 0.75 0.37 0.36 0.36 0.62 0.61 0.52 0.25 0.36 0.16 0.28 0.26 0.36 0.28 0.28 0.39 0.77 0.78 0.78 0.87 0.88 0.88 0.80 0.80 0.75
R-5 0.38 0.39 0.33 0.47 0.48 0.43 0.73 0.73 0.45 0.73 0.73 0.62 0.25 0.25 0.27 0.45 0.44 0.38 -0.25 -0.25 -0.24 0.30 0.29 0.31 0.28 0.30 0.49 0.77 0.76 0.72 0.82 0.83 0.84 0.77 0.77 0.70
R-6 0.39 0.39 0.20 0.45 0.46 0.39 0.71 0.72 0.38 0.66 0.64 0.46 0.21 0.21 0.26 0.34 0.31 0.29 0.00 0.00 0.00 0.22 0.23 0.41 0.18 0.21 -0.17 0.75 0.75 0.67 0.78 0.79 0.77 0.74 0.74 0.63
R-7 0.31 0.31 0.17 0.44 0.44 0.36 0.63 0.65 0.33 0.56 0.53 0.44 0.20 0.20 0.23 0.29 0.27 0.25 0.00 0.00 0.00 0.26 0.23 0.50 0.11 0.16 0.00 0.72 0.72 0.62 0.72 0.73 0.74 0.70 0.70 0.58
R-8 0.18 0.19 0.09 0.40 0.40 0.31 0.55 0.55 0.52 0.50 0.46 0.52 0.18 0.18 0.21 0.23 0.22 0.23 0.00 0.00 0.00 0.32 0.32 0.34 -0.11 -0.11 0.00 0.68 0.68 0.54 0.71 0.71 0.70 0.66 0.66 0.52
R-9 0.11 0.12 0.06 0.38 0.38 0.28 0.54 0.54 0.52 0.45 0.42 0.52 0.16 0.16 0.19 0.21 0.21 0.21 0.00 0.00 0.00 0.30 0.30 0.34 -0.14 -0.14 0.00 0.64 0.64 0.48 0.70 0.69 0.59 0.63 0.62 0.46
R-L 0.49 0.49 0.49 0.56 0.56 0.56 0.62 0.62 0.62 0.65 0.65 0.65 0.50 0.50 0.50 0.53 0.53 0.53 0.78 0.78 0.78 0.56 0.56 0.56 0.50 0.50 0.50 0.81 0.81 0.81 0.88 0.88 0.88 0.82 0.82 0.82
R-S* 0.45 0.52 0.84 0.51 0.54 0.86 0.69 0.69 0.77 0.73 0.73 0.79 0.60 0.60 0.67 0.61 0.60 0.70 0.83 0.82 0.69 0.46 0.45 0.74 0.46 0.49 0.80 0.80 0.80 0.90 0.84 0.85 0.93 0.75 0.74 0.89
R-S4 0.46 0.50 0.71 0.54 0.57 0.78 0.79 0.80 0.79 0.84 0.85 0.82 0.63 0.64 0.70 0.73 0.73 0.78 0.85 0.86 0.76 0.40 0.41 0.69 0.42 0.44 0.73 0.82 0.82 0.87 0.91 0.91 0.93 0.85 0.85 0.85
R-S9 0.42 0.49 0.77 0.53 0.56 0.81 0.79 0.80 0.78 0.83 0.84 0.81 0.65 0.65 0.70 0.70 0.70 0.76 0.82 0.81 0.69 0.42 0.41 0.72 0.40 0.43 0.78 0.81 0.82 0.86 0.90 0.90 0.92 0.83 0.83 0.84
R-SU* 0.45 0.52 0.84 0.51 0.54 0.87 0.69 0.69 0.77 0.73 0.73 0.79 0.60 0.59 0.67 0.60 0.60 0.70 0.75 0.74 0.56 0.46 0.46 0.74 0.46 0.49 0.80 0.80 0.80 0.90 0.84 0.85 0.93 0.75 0.74 0.89
R-SU4 0.47 0.53 0.80 0.55 0.58 0.83 0.76 0.76 0.79 0.80 0.81 0.81 0.64 0.64 0.74 0.68 0.68 0.76 0.76 0.75 0.58 0.45 0.45 0.72 0.44 0.46 0.78 0.82 0.83 0.89 0.90 0.90 0.93 0.84 0.84 0.88
R-SU9 0.44 0.50 0.80 0.53 0.57 0.84 0.77 0.78 0.78 0.81 0.82 0.81 0.65 0.65 0.72 0.68 0.68 0.75 0.74 0.73 0.56 0.44 0.44 0.73 0.41 0.45 0.79 0.82 0.82 0.88 0.89 0.89 0.92 0.83 0.82 0.87
R-W-1.2 0.52 0.52 0.52 0.60 0.60 0.60 0.67 0.67 0.67 0.69 0.69 0.69 0.53 0.53 0.53 0.58 0.58 0.58 0.78 0.78 0.78 0.56 0.56 0.56 0.51 0.51 0.51 0.84 0.84 0.84 0.90 0.90 0.90 0.86 0.86 0.86"""


def _paper_table(text: str) -> pd.DataFrame:
    table = pd.read_csv(io.StringIO(text), sep=" ", index_col=0)
    table.columns = pd.MultiIndex.from_tuples([tuple(c.replace("_", " ").split("|")) for c in table.columns],
                                              names=["DUC", "refs", "setting"])
    return table


TABLE1 = _paper_table(_TABLE1)
TABLE2 = _paper_table(_TABLE2)
TABLE3 = _paper_table(_TABLE3)


def measure_name(measure: str) -> str:
    """The paper's row name of a measure: ``"rouge-su4"`` -> ``"R-SU4"``."""
    return "R-" + parse_measure(measure).key.removeprefix("ROUGE-")


def paper(measures=MEASURES) -> pd.DataFrame:
    """Tables 1 and 2 side by side (columns DUC year, refs, setting), rows in the order of ``measures``."""
    return pd.concat([TABLE1, TABLE2], axis=1).loc[[measure_name(m) for m in measures]]


def paper_column(duc: str, refs: str, setting: str, measures=MEASURES) -> pd.Series:
    """One column of Tables 1-3 (``duc``: ``"2002"`` or ``"2002 multi 50"``), rows in the order of ``measures``."""
    tables = pd.concat([TABLE1, TABLE2, TABLE3], axis=1)
    return tables[(duc, refs, setting)].loc[[measure_name(m) for m in measures]]


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
