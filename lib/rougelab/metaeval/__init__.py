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
Coefficients: Pearson, Spearman, Kendall tau-b (tau-c by option), with SciPy's definitions, and
the pairwise accuracies ``accuracy`` (metric ties wrong), ``accuracy-half`` and ``accuracy-eq``
(``pairwise_accuracy``; at system level Kocmi et al. 2021's system-pair accuracy, on Rank19 the
share of correct summaries ranked first).

Public API: ``correlate``, ``bootstrap_ci`` (-> ``CI``), ``permutation_test``
(-> ``PermutationResult``), ``williams_test`` and ``williams_metrics`` (-> ``WilliamsResult``),
``fisher_z`` and ``fisher_ci`` (-> ``FisherResult``), ``bootstrap_difference``
(-> ``DifferenceResult``), ``pairwise_accuracy``, ``correlation_table``.
"""
from __future__ import annotations

import importlib

# ``pairwise_accuracy`` is both a module and its function: bound here (numpy only), so that importing
# the module never replaces the function on the package.
from rougelab.metaeval.pairwise_accuracy import ACCURACIES, pairwise_accuracy

# Each public name and the module that defines it, imported on first use (PEP 562), so that a module
# of this package that needs no SciPy (``resampling``) can be imported without the rest.
_HOME = {
    "CI": "bootstrap", "bootstrap_ci": "bootstrap",
    "COEFFICIENTS": "correlations",
    "FisherResult": "fisher", "fisher_ci": "fisher", "fisher_z": "fisher",
    "LEVELS": "levels", "UndefinedCorrelationWarning": "levels", "correlate": "levels",
    "DifferenceResult": "paired_bootstrap", "bootstrap_difference": "paired_bootstrap",
    "PermutationResult": "permutation", "permutation_test": "permutation",
    "correlation_table": "table",
    "WilliamsResult": "williams", "williams_metrics": "williams", "williams_test": "williams",
}

__all__ = ["ACCURACIES", "CI", "COEFFICIENTS", "DifferenceResult", "FisherResult", "LEVELS",
           "PermutationResult", "UndefinedCorrelationWarning", "WilliamsResult", "bootstrap_ci",
           "bootstrap_difference", "correlate", "correlation_table", "fisher_ci", "fisher_z",
           "pairwise_accuracy", "permutation_test", "williams_metrics", "williams_test"]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f"rougelab.metaeval.{_HOME[name]}"), name)
    raise AttributeError(f"module 'rougelab.metaeval' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_HOME))
