"""Checks for the exercises of the paper notebooks (01-05): a student's function against the library.

As in ``rougelab.exercises`` (notebook 07), each ``check_*`` runs the student's function on the paper's
worked examples, edge cases and seeded random cases, compares every answer with what the library computes
(the code the notebook reads along), and returns a ``CheckResult`` naming the first differing case and, where
the failures share a cause, a hint. The statistical exercises (permutation test, bootstrap intervals) are
compared with the library's own test on the same data within a Monte-Carlo tolerance, since a student's
resamples are not ours. Every check runs in seconds.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np
import pandas as pd

from rougelab.exercises import CheckResult, _Case, _close_triple, _random_tokens, _run, _text

MONTE_CARLO = 0.04   # allowed difference of a p-value or an interval end between two sets of 2,000 resamples
RESAMPLES = 2000


def _scalar(got, expected, tolerance: float = 1e-9) -> bool:
    try:
        return math.isclose(float(got), float(expected), rel_tol=0.0, abs_tol=tolerance)
    except (TypeError, ValueError):
        return False


def _vector(got, expected) -> bool:
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return False
    return got.shape == np.shape(expected) and np.allclose(got, expected, rtol=0.0, atol=1e-9)


# --- 01 · Lin (2004) ---------------------------------------------------------------------------------

def _longest_common_substring(x, y) -> int:
    best = 0
    for i in range(len(x)):
        for j in range(len(y)):
            k = 0
            while i + k < len(x) and j + k < len(y) and x[i + k] == y[j + k]:
                k += 1
            best = max(best, k)
    return best


def check_lcs(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(x, y) -> int``: the length of the longest common subsequence (Lin 2004, Eqs. 2-4)."""
    from rougelab.rouge.lcs import lcs_length

    rng = np.random.default_rng(seed)
    inputs = [("S2 vs S1 (Lin 2004, 3.1: 3)", "police kill the gunman".split(), "police killed the gunman".split()),
              ("S3 vs S1 (3.1: 2)", "the gunman kill police".split(), "police killed the gunman".split()),
              ("S4 vs S1 (3.1: 2)", "the gunman police killed".split(), "police killed the gunman".split()),
              ("empty candidate", [], "police killed".split())]
    inputs += [(f"random case {i}", _random_tokens(rng), _random_tokens(rng)) for i in range(n_random)]
    cases = [_Case(name, (x, y), lcs_length(x, y)) for name, x, y in inputs]
    hints = [(lambda c: lcs_length(*c.args) != _longest_common_substring(*c.args),
              "in every failing case the longest common *substring* is shorter than the LCS: a subsequence keeps "
              "the order but may skip words (Lin's S2 vs S1: police ... the gunman, 3 words)."),
             (lambda c: len(c.args[0]) != len(c.args[1]),
              "every failing case has texts of different lengths: the table has (m + 1) x (n + 1) cells, one row per "
              "word of x, one column per word of y.")]
    return _run("LCS length (Eqs. 2-4)", student, cases, compare=_scalar, hints=hints)


def check_wlcs(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(x, y, w) -> float``: WLCS(X, Y) by the dynamic program of section 4 with f(k) = k**w."""
    from rougelab.rouge.lcs import wlcs

    rng = np.random.default_rng(seed)
    X = "A B C D E F G".split()
    inputs = [("Y1 vs X (section 4: 16)", X, "A B C D H I K".split(), 2.0),
              ("Y2 vs X (section 4: 4)", X, "A H B K C I D".split(), 2.0),
              ("w = 1 is the LCS", X, "A H B K C I D".split(), 1.0)]
    inputs += [(f"random case {i}", _random_tokens(rng), _random_tokens(rng), float(rng.choice([1.2, 1.5, 2.0])))
               for i in range(n_random)]
    cases = [_Case(name, (x, y, w), wlcs(x, y, w)) for name, x, y, w in inputs]
    hints = [(lambda c: c.args[2] != 1.0,
              "only weights w != 1 fail, so the run bookkeeping is off: on a match add f(k + 1) - f(k), where "
              "k = w(i-1, j-1) is the length of the run of consecutive matches ending just before (f(k + 1) alone counts "
              "the run's earlier words again); on a mismatch reset the run length w(i, j) to 0."),
             (lambda c: True, "on a mismatch copy the larger of c(i-1, j) and c(i, j-1) (section 4's step 2).")]
    return _run("ROUGE-W's weighted LCS (section 4)", student, cases, compare=_scalar, hints=hints)


def check_jackknife(student: Callable | None, *, n_random: int = 100, seed: int = 0) -> CheckResult:
    """``student(scores) -> (r, p, f)``: Lin's jackknife (section 2.1) from each reference's (r, p, f).

    For each of the M sets of M - 1 references, take the reference with the best recall (the first on ties, as
    ROUGE-1.5.5's ``-f B``); average the M chosen (r, p, f). Checked against ``rouge(..., multiref="jackknife")``.
    """
    from rougelab.rouge import rouge

    rng = np.random.default_rng(seed)
    pairs = [(f"random case {i}", _text(_random_tokens(rng, 1)),
              [_text(_random_tokens(rng, 1)) for _ in range(int(rng.integers(1, 5)))]) for i in range(n_random)]
    pairs.insert(0, ("one reference", "police killed the gunman", ["the gunman was killed"]))
    cols = ["rouge1_r", "rouge1_p", "rouge1_f"]
    options = dict(measures=["rouge-1"], stem=False, perl_round_before_f=False)
    want = rouge([c for _, c, _ in pairs], [r for _, _, r in pairs], multiref="jackknife", **options)[cols].to_numpy()
    single = rouge([c for _, c, refs in pairs for _ in refs], [[r] for _, _, refs in pairs for r in refs],
                   **options)[cols].to_numpy()
    cases, k = [], 0
    for (name, _, refs), expected in zip(pairs, want):
        scores = [tuple(map(float, row)) for row in single[k:k + len(refs)]]
        k += len(refs)
        cases.append(_Case(name, (scores,), tuple(expected)))
    hints = [(lambda c: len(c.args[0]) == 1,
              "with one reference there is no set of M - 1 to choose from: ROUGE-1.5.5 returns that reference's score."),
             (lambda c: True, "average over the M leave-one-out sets the scores of the best reference *of each set* "
              "(by recall, the first on ties), all three of r, p and f from that same reference; the best of all M "
              "is ROUGE-1.5.5's -f B, not the jackknife.")]
    return _run("Jackknifing (section 2.1)", student, cases, compare=_close_triple, hints=hints)


# --- 02 · Ng & Abrecht (2015) and the statistics of every notebook --------------------------------------

def check_bigram_similarity(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(u1, u2, v1, v2) -> float``: the cosine of the bigram vectors u1 * u2 and v1 * v2 (element-wise
    product, Eqs. 3-4), the similarity the bare ROUGE-WE names use; 0 when either composed vector is zero."""
    from rougelab.metrics.soft_rouge import VectorSimilarity

    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(4 * n_random + 4, 8))
    vectors[:4] = [[1, 2, 0, 0, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0]]
    sim = VectorSimilarity(vectors, np.ones(len(vectors), dtype=bool), composition="product", measure="cosine")
    ids = np.arange(len(vectors)).reshape(-1, 4)
    expected = [float(sim(np.array([[a, b]]), np.array([[c, d]]))[0, 0]) for a, b, c, d in ids]
    names = ["orthogonal products (0)"] + [f"random case {i}" for i in range(n_random)]
    cases = [_Case(name, tuple(vectors[i] for i in row), e) for name, row, e in zip(names, ids, expected)]
    hints = [(lambda c: True, "compose each bigram by the element-wise product (u1 * u2, not a dot product or a sum), "
              "then take the cosine of the two composed vectors: their dot product over the product of their norms.")]
    return _run("Bigram similarity (Eqs. 2-4)", student, cases, compare=lambda g, e: _scalar(g, e, 1e-7), hints=hints)


def _toy_table(seed: int, n: int, gain: float) -> pd.DataFrame:
    """One system, ``n`` summaries: a human score, metric b (noisy) and metric a (``gain`` more signal)."""
    rng = np.random.default_rng(seed)
    human = rng.normal(size=n)
    return pd.DataFrame({"doc_id": np.arange(n), "system_id": 0, "human": human,
                         "a": (1 + gain) * human + 3 * rng.normal(size=n) + 10,   # a larger scale than b
                         "b": human + 1.5 * rng.normal(size=n)})


class _Toy:
    """A toy table as a check's argument (shown by its size in a failure message, not printed whole)."""

    def __init__(self, table: pd.DataFrame):
        self.table = table

    def __repr__(self) -> str:
        return f"a toy table of {len(self.table)} summaries"


_STATS_CASES = [("a clearly better", 1, 120, 2.0), ("a and b alike", 2, 120, 0.0), ("a worse", 3, 120, -0.6),
                ("a little better, few summaries", 4, 40, 0.5)]


def _statistical(exercise: str, student: Callable | None, expected: Callable, call: Callable,
                 hints) -> CheckResult:
    """Run ``call(student, table)`` on the toy tables and compare with ``expected(table)`` within ``MONTE_CARLO``."""
    cases = []
    for name, seed, n, gain in _STATS_CASES:
        table = _toy_table(seed, n, gain)
        cases.append(_Case(f"{name} (seed {seed})", (_Toy(table),), expected(table)))

    def compare(got, want) -> bool:
        try:
            got = np.atleast_1d(np.asarray(got, dtype=float))
        except (TypeError, ValueError):
            return False
        return got.shape == np.atleast_1d(want).shape and bool(np.all(np.abs(got - want) <= MONTE_CARLO))

    result = _run(exercise, (lambda toy: call(student, toy.table)) if student is not None else None, cases,
                  compare=compare, hints=hints)
    if result.passed:
        return replace(result, message=f"All {len(cases)} cases agree with the library's test within {MONTE_CARLO} "
                                       "(two sets of resamples never agree exactly).")
    return result


def check_permutation_test(student: Callable | None) -> CheckResult:
    """``student(a, b, human, n_resamples, seed) -> p``: the one-sided paired permutation test of H1: Pearson
    r(a, human) > r(b, human) over all summaries (Deutsch et al. 2021), compared with
    ``rougelab.metaeval.permutation_test`` within ``MONTE_CARLO``."""
    from rougelab.metaeval import permutation_test

    def expected(table):
        return permutation_test(table, "a", "b", "human", level="global", coef="pearson", n_resamples=RESAMPLES).pvalue

    hints = [(lambda c: True, "standardise a and b first (z-scores over all summaries): a is on a larger scale, and "
              "swapping raw scores mixes scales. Then, under H0, swap the two scores of each summary with probability "
              "1/2, recompute r(a*, human) - r(b*, human), and report (1 + k) / (1 + n) with k the resamples whose "
              "difference is at least the observed one.")]
    return _statistical("Paired permutation test", student, expected,
                        lambda f, t: f(t["a"].to_numpy(), t["b"].to_numpy(), t["human"].to_numpy(), RESAMPLES, 0),
                        hints)


def check_paired_bootstrap(student: Callable | None) -> CheckResult:
    """``student(a, b, human, n_resamples, seed) -> (low, high)``: the 95% percentile interval of
    r(a, human) - r(b, human) (Pearson, all summaries) over resamples of the summaries, the same resample for
    both metrics; compared with ``rougelab.metaeval.bootstrap_difference`` within ``MONTE_CARLO``."""
    from rougelab.metaeval import bootstrap_difference

    def expected(table):
        d = bootstrap_difference(table, "a", "b", "human", level="global", coef="pearson", n_resamples=RESAMPLES,
                                 resample="inputs")
        return np.array([d.low, d.high])

    hints = [(lambda c: c.name.startswith("a clearly"),
              "draw one set of summary indices per resample and use it for a, b and the human score alike: the "
              "interval is of a *paired* difference."),
             (lambda c: True, "resample the n summaries with replacement, compute the difference of the two "
              "correlations on each resample, and take the 2.5th and 97.5th percentiles of those differences.")]
    return _statistical("Paired bootstrap interval", student, expected,
                        lambda f, t: f(t["a"].to_numpy(), t["b"].to_numpy(), t["human"].to_numpy(), RESAMPLES, 0),
                        hints)


def check_bootstrap_interval(student: Callable | None) -> CheckResult:
    """``student(x, human, n_resamples, seed) -> (low, high)``: the 95% percentile bootstrap interval of the
    Pearson correlation over all summaries, compared with ``rougelab.metaeval.bootstrap_ci`` within
    ``MONTE_CARLO``."""
    from rougelab.metaeval import bootstrap_ci

    def expected(table):
        ci = bootstrap_ci(table, "a", "human", level="global", coef="pearson", n_resamples=RESAMPLES, resample="inputs")
        return np.array([ci.low, ci.high])

    hints = [(lambda c: True, "resample (score, human) *pairs* with replacement (the same index for both), compute "
              "Pearson's r on each resample and take the 2.5th and 97.5th percentiles; resampling the two columns "
              "separately destroys the correlation you are measuring.")]
    return _statistical("Bootstrap interval of a correlation", student, expected,
                        lambda f, t: f(t["a"].to_numpy(), t["human"].to_numpy(), RESAMPLES, 0), hints)


# --- 03 · ShafieiBavani et al. (2018) ------------------------------------------------------------------

def _ppr_like(rng, width: int = 12) -> np.ndarray:
    v = np.where(rng.random(width) < 0.5, rng.random(width), 0.0)
    v[rng.integers(width)] = max(v.max(), 0.5)   # never all zero
    return v


def check_rank_and_weight(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(y, z) -> float``: Rank and Weight (Eq. 3) of two non-negative vectors: the sum over the nodes H
    positive in both of 1 / (r_h(y) + r_h(z)), ranks from 1 by mass (ties: the smaller node first), divided
    by sum_{i=1}^{|H|} 1 / (2i); 0 when H is empty."""
    from rougelab.semantic.semantic_similarity import rank_and_weight

    rng = np.random.default_rng(seed)
    same = _ppr_like(rng)
    inputs = [("a vector with itself (1)", same, same.copy()),
              ("no common node (0)", np.array([1.0, 0, 0, 0]), np.array([0, 0.5, 0.5, 0]))]
    inputs += [(f"random case {i}", _ppr_like(rng), _ppr_like(rng)) for i in range(n_random)]
    cases = [_Case(name, (y, z), rank_and_weight(y, z)) for name, y, z in inputs]
    hints = [(lambda c: True, "rank each vector's positive entries from 1 (largest mass) among *all* its positive "
              "entries, not only those in H; then normalise by sum_{i=1}^{|H|} 1/(2i), the value of the sum when "
              "both vectors rank H alike, so that RW(y, y) = 1.")]
    return _run("Rank and Weight (Eq. 3)", student, cases, compare=lambda g, e: _scalar(g, e, 1e-9), hints=hints)


def check_path_similarity(student: Callable | None, *, n_random: int = 100, seed: int = 0) -> CheckResult:
    """``student(path_y, path_z, c) -> float``: Eq. 2, sum_x c^x RW(p(x)(I), p(x)(J)) over the iterations
    x = 0..k (rows of the two (k + 1, n) arrays), divided by sum_x c^x so that identical walks score 1."""
    from rougelab.semantic.semantic_similarity import iteration_weights, rank_and_weight

    rng = np.random.default_rng(seed)

    def eq2(y, z, c):
        return float(iteration_weights(len(y) - 1, c) @ [rank_and_weight(a, b) for a, b in zip(y, z)])

    walk = np.array([_ppr_like(rng) for _ in range(4)])
    inputs = [("a walk with itself (1)", walk, walk.copy(), 0.7)]
    inputs += [(f"random case {i}", np.array([_ppr_like(rng) for _ in range(k)]),
                np.array([_ppr_like(rng) for _ in range(k)]), float(rng.choice([0.5, 0.7, 0.9])))
               for i, k in enumerate(rng.integers(1, 6, size=n_random))]
    cases = [_Case(name, (y, z, c), eq2(y, z, c)) for name, y, z, c in inputs]
    hints = [(lambda c: len(c.args[0]) > 1, "only walks of several iterations fail: divide by sum_x c^x, so that "
              "identical walks score 1."),
             (lambda c: True, "weight iteration x (from 0, the seed vector) by c^x: early meetings of the walks "
              "count most.")]
    return _run("Path-based similarity (Eq. 2)", student, cases, compare=lambda g, e: _scalar(g, e, 1e-9), hints=hints)


# --- 04 · Jain et al. (2022) ---------------------------------------------------------------------------

def _recalls(rng, rows: int, cols: int) -> np.ndarray:
    return np.round(rng.random((rows, cols)) * rng.choice([0.5, 1.0]), 2)   # rounded: values on the thresholds


def check_coverage_weights(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(recall, theta1) -> w_cov``: for each reference sentence i (row), the share of source sentences j
    (columns) with ROUGE-L recall[i, j] >= theta1 (Algorithm 1, first loop)."""
    from rougelab.metrics.widar.weights import coverage_weights

    rng = np.random.default_rng(seed)
    inputs = [("a recall equal to theta1 counts", np.array([[0.1, 0.05], [0.2, 0.3]]), 0.1)]
    inputs += [(f"random case {i}", _recalls(rng, int(rng.integers(1, 6)), int(rng.integers(1, 9))),
                float(rng.choice([0.0, 0.1, 0.2, 0.3]))) for i in range(n_random)]
    # recall over the source sentence: LCS / |d_j|; with |d_j| = 100 the LCS is 100 x recall
    cases = [_Case(name, (recall, theta), coverage_weights(recall * 100, np.full(len(recall), 100),
                                                           np.full(recall.shape[1], 100), theta))
             for name, recall, theta in inputs]
    hints = [(lambda c: np.isclose(c.args[0], c.args[1]).any(),
              "every failing case has a recall exactly at the threshold: Algorithm 1 counts recall >= theta1."),
             (lambda c: True, "divide the count by the number of source sentences |D| (a share in [0, 1]).")]
    return _run("Coverage weights (Algorithm 1)", student, cases, compare=_vector, hints=hints)


def check_redundancy_weights(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(recall, theta2) -> w_red``: for each reference sentence i, 1 minus the share of the *other*
    sentences j != i with recall[i, j] >= theta2, over |R| - 1 (the authors' code); 1 for a one-sentence reference."""
    from rougelab.metrics.widar.weights import redundancy_weights

    rng = np.random.default_rng(seed)
    inputs = [("one sentence", np.array([[1.0]]), 0.3)]
    inputs += [(f"random case {i}", _recalls(rng, n, n), float(rng.choice([0.2, 0.3, 0.4])))
               for i, n in enumerate(rng.integers(2, 7, size=n_random))]
    for _, recall, _ in inputs:
        np.fill_diagonal(recall, 1.0)   # a sentence against itself
    cases = [_Case(name, (recall, theta), redundancy_weights(recall * 100, np.full(len(recall), 100), theta))
             for name, recall, theta in inputs]
    hints = [(lambda c: len(c.args[0]) == 1, "a reference of one sentence has no other sentence: its weight is 1."),
             (lambda c: True, "leave out the diagonal (a sentence is always similar to itself) and divide by the "
              "|R| - 1 other sentences.")]
    return _run("Redundancy weights (Algorithm 1)", student, cases, compare=_vector, hints=hints)


def check_widar_weights(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(w_cov, w_red) -> w``: Eq. 1, w_i = (w_cov_i + w_red_i) / 2 x |R| (so the weights sum to |R|
    when both kinds are 1)."""
    from rougelab.metrics.widar.weights import combined_weights

    rng = np.random.default_rng(seed)
    inputs = [("all ones", np.ones(3), np.ones(3))]
    inputs += [(f"random case {i}", rng.random(n), rng.random(n)) for i, n in enumerate(rng.integers(1, 8, size=n_random))]
    cases = [_Case(name, (cov, red), combined_weights(cov, red)) for name, cov, red in inputs]
    hints = [(lambda c: True, "average the two weights, then multiply by the number of reference sentences |R| "
              "(Eq. 1): a reference whose sentences all get weight 1 scores like plain sentence-level ROUGE.")]
    return _run("WIDAR's weights (Eq. 1)", student, cases, compare=_vector, hints=hints)


# --- 05 · Anchored ROUGE (Wang et al. 2020) ------------------------------------------------------------

def check_anchors(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(cosine, k) -> index``: for each summary particle (row), the columns of its k most similar
    source particles, best first, ties to the particle that comes first in the source (section 2, steps 1-2)."""
    from rougelab.metrics.anchored.anchors import top_k

    rng = np.random.default_rng(seed)
    inputs = [("ties go to the first source particle", np.array([[0.5, 0.9, 0.5, 0.9]]), 3),
              ("k larger than the source", np.array([[0.2, 0.1]]), 5)]
    inputs += [(f"random case {i}", np.round(rng.random((int(rng.integers(1, 5)), int(rng.integers(1, 12)))), 1),
                int(rng.integers(1, 7))) for i in range(n_random)]
    cases = [_Case(name, (cos, k), top_k(cos, min(k, cos.shape[1]))) for name, cos, k in inputs]
    hints = [(lambda c: c.args[1] > c.args[0].shape[1],
              "with fewer than k source particles the anchor set is all of them: return min(k, columns) columns."),
             (lambda c: True, "sort each row by similarity, largest first, and break ties by column order "
              "(np.argsort(-row, kind='stable') does both).")]
    return _run("Anchor sets (section 2)", student, cases, compare=_vector, hints=hints)


def check_transfer(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(weights, index, strength, n_source) -> T``: Eq. 2, T(d) = sum over summary particles s and their
    anchors i of delta(d, d_si) x w_s x q_si, as a length-``n_source`` array."""
    from rougelab.metrics.anchored.anchors import AnchorSets, transfer
    from rougelab.metrics.anchored.particles import Particles

    rng = np.random.default_rng(seed)
    inputs = []
    for i in range(n_random):
        n_sum, n_src = int(rng.integers(1, 6)), int(rng.integers(1, 9))
        k = int(rng.integers(1, n_src + 1))
        index = np.array([rng.permutation(n_src)[:k] for _ in range(n_sum)])
        strength = -np.sort(-rng.random((n_sum, k)), axis=1)
        inputs.append((f"random case {i}", rng.integers(1, 4, n_sum).astype(float), index, strength, n_src))
    cases = []
    for name, weights, index, strength, n_src in inputs:
        source = Particles(tuple(range(n_src)), np.ones(n_src), np.eye(n_src))
        summary = Particles(tuple(range(len(weights))), weights, np.zeros((len(weights), n_src)))
        bag = transfer(summary, AnchorSets(index, strength), source)
        cases.append(_Case(name, (weights, index, strength, n_src), np.array([bag.get(d, 0.0) for d in range(n_src)])))
    hints = [(lambda c: (np.unique(c.args[1]).size < c.args[1].size),
              "in every failing case a source particle anchors several summary particles: add their contributions "
              "(np.add.at, not fancy-index assignment, which keeps only the last)."),
             (lambda c: True, "each contribution is w_s x q_si: the summary particle's weight times the anchor's "
              "strength.")]
    return _run("The function T (Eq. 2)", student, cases, compare=_vector, hints=hints)


def check_anchored_recall(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """``student(t_peer, t_refs) -> recall``: Eq. 1 from T-bags (dicts source particle -> T): the sum over the
    references and their particles d of min(T(d, peer), T(d, ref)), over the sum of T(d, ref); 0 if that is 0."""
    from rougelab.metrics.anchored.anchors import anchored_overlap

    rng = np.random.default_rng(seed)

    def bag():
        return {f"d{j}": float(rng.integers(1, 5) * rng.random()) for j in rng.choice(8, int(rng.integers(0, 6)),
                                                                                        replace=False)}

    inputs = [("empty references", {"d1": 1.0}, [{}])]
    inputs += [(f"random case {i}", bag(), [bag() for _ in range(int(rng.integers(1, 4)))]) for i in range(n_random)]
    cases = [_Case(name, (peer, refs), anchored_overlap(peer, refs)["r"]) for name, peer, refs in inputs]
    hints = [(lambda c: len(c.args[1]) > 1, "with several references, sum numerators and denominators over all of "
              "them before dividing (Eq. 1 sums over ref), not an average of per-reference recalls."),
             (lambda c: True, "take min(T(d, peer), T(d, ref)) over the reference's particles d (a particle missing "
              "from the peer has T = 0 there).")]
    return _run("Anchored recall (Eq. 1)", student, cases, compare=lambda g, e: _scalar(g, e, 1e-9), hints=hints)

