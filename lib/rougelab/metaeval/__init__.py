"""Meta-evaluation: how well a metric's scores agree with human judgments.

The data convention (every function here follows it)
----------------------------------------------------
A *table* is a pandas DataFrame with one row per summary: an input (document) id column
(``doc_col``, default ``doc_id``), a system id column (``system_col``, default ``system_id``) and
float score columns, metric and human alike. It is read as score matrices, one per column:
``X[i][j]`` is the score of system ``i`` on input ``j``. A (system, input) pair with no row is
NaN, so missing entries sit in the same places in every matrix; a NaN *value* in a score column
is an error (drop or fill those rows first). Each (system, input) pair may occur once. Rows and
columns follow the order in which systems and inputs first appear in the table.

Levels (as in Deutsch, Dror & Roth 2021): summary level correlates X[:, j] with Z[:, j]
for each input j and averages over inputs (inputs whose correlation is undefined -- constant
scores, or fewer than two systems -- are skipped, with an ``UndefinedCorrelationWarning``);
system level correlates the per-system means over the inputs present; global level pools all
summaries. Summary and system level need at least 3 systems, global level 3 summaries.
Coefficients: Pearson, Spearman, Kendall tau-b (tau-c by option), with SciPy's definitions.

Public API: ``correlate``, ``bootstrap_ci`` (-> ``CI``), ``permutation_test``
(-> ``PermutationResult``), ``williams_test`` and ``williams_metrics`` (-> ``WilliamsResult``),
``correlation_table``.
"""
from __future__ import annotations

from rougelab.metaeval.bootstrap import CI, bootstrap_ci
from rougelab.metaeval.correlations import COEFFICIENTS
from rougelab.metaeval.levels import LEVELS, UndefinedCorrelationWarning, correlate
from rougelab.metaeval.permutation import PermutationResult, permutation_test
from rougelab.metaeval.table import correlation_table
from rougelab.metaeval.williams import WilliamsResult, williams_metrics, williams_test

__all__ = ["CI", "COEFFICIENTS", "LEVELS", "PermutationResult", "UndefinedCorrelationWarning",
           "WilliamsResult", "bootstrap_ci", "correlate", "correlation_table", "permutation_test",
           "williams_metrics", "williams_test"]
