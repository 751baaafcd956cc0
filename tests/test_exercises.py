"""The exercise checks of notebook 07: a correct solution passes, a wrong one fails with a useful message.

The correct solutions below are written from Lin (2004)'s equations (Eq. 1; Eq. 16-18) with
``collections.Counter``, independently of the library, so a pass also cross-checks the library on
hundreds of random cases; the paper's own worked numbers (section 5: 0.5, 1/6, 1/3) are pinned separately.
"""
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from rougelab import exercises as ex
from rougelab.metrics.soft_rouge import exact_similarity


def _grams(tokens, n):
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def rouge_n_recall(candidate, references, n):
    """Lin (2004) Eq. 1: clipped matches over reference n-grams, summed over the references."""
    cand = _grams(candidate, n)
    hit = sum(min(count, cand[g]) for r in references for g, count in _grams(r, n).items())
    total = sum(sum(_grams(r, n).values()) for r in references)
    return hit / total if total else 0.0


def rouge_n_recall_unclipped(candidate, references, n):
    cand = _grams(candidate, n)
    hit = sum(count for r in references for g, count in _grams(r, n).items() if g in cand)
    total = sum(sum(_grams(r, n).values()) for r in references)
    return hit / total if total else 0.0


def rouge_n_recall_mean_over_references(candidate, references, n):
    return float(np.mean([rouge_n_recall(candidate, [r], n) for r in references]))


def _rouge_s(candidate, reference, bag):
    cand, ref = bag(combinations(candidate, 2)), bag(combinations(reference, 2))
    hit = sum(min(count, cand[g]) for g, count in ref.items()) if isinstance(ref, Counter) else len(ref & cand)
    r = hit / len(list(combinations(reference, 2))) if len(reference) > 1 else 0.0
    p = hit / len(list(combinations(candidate, 2))) if len(candidate) > 1 else 0.0
    return r, p, (2 * p * r / (p + r) if p + r else 0.0)


def rouge_s(candidate, reference):
    """Lin (2004) Eq. 16-18 with beta = 1."""
    return _rouge_s(candidate, reference, Counter)


def rouge_s_with_sets(candidate, reference):
    return _rouge_s(candidate, reference, set)


def stub(*args):
    raise NotImplementedError("write your solution here")


# --- Exercise 1 ----------------------------------------------------------------------------------

def test_rouge_n_recall_correct_solution_passes():
    result = ex.check_rouge_n_recall(rouge_n_recall)
    assert result.passed and result.failures == 0 and result.checked == 205


@pytest.mark.parametrize("wrong, hint", [(rouge_n_recall_unclipped, "min(count in candidate"),
                                         (rouge_n_recall_mean_over_references, "pool them as in Eq. 1")])
def test_rouge_n_recall_wrong_solutions_fail_with_their_hint(wrong, hint):
    result = ex.check_rouge_n_recall(wrong)
    assert result.status == ex.FAILED and 0 < result.failures < result.checked
    assert "expected" in result.message and hint in result.message


def test_rouge_n_recall_fixed_cases_are_the_papers():
    # Lin (2004) 3.1: S2 and S3 each share one bigram ("the gunman") with S1's three: recall 1/3.
    def paper_only(candidate, references, n):
        if references == [ex.S1.split()] and n == 2 and " ".join(candidate) in (ex.S2, ex.S3):
            return 1 / 3
        raise ValueError("not a paper case")

    result = ex.check_rouge_n_recall(paper_only)
    assert result.failures == result.checked - 2


# --- Exercise 2 ----------------------------------------------------------------------------------

def test_rouge_s_correct_solution_passes():
    result = ex.check_rouge_s(rouge_s)
    assert result.passed and result.checked == 205


def test_rouge_s_fixed_cases_are_the_papers():
    # Lin (2004) section 5, beta = 1, S1 the reference: S2 0.5, S3 0.167 (1/6), S4 0.333 (1/3).
    paper = {ex.S2: 1 / 2, ex.S3: 1 / 6, ex.S4: 1 / 3}

    def paper_only(candidate, reference):
        if reference == ex.S1.split() and " ".join(candidate) in paper:
            return (paper[" ".join(candidate)],) * 3
        raise ValueError("not a paper case")

    result = ex.check_rouge_s(paper_only)
    assert result.failures == result.checked - 3


def test_rouge_s_with_sets_fails_on_repeated_words():
    result = ex.check_rouge_s(rouge_s_with_sets)
    assert result.status == ex.FAILED and "count skip-bigrams as a multiset" in result.message


def test_rouge_s_swapped_recall_and_precision_fails():
    result = ex.check_rouge_s(lambda c, r: (rouge_s(c, r)[1], rouge_s(c, r)[0], rouge_s(c, r)[2]))
    assert result.status == ex.FAILED and result.failures > 50


def test_rouge_s_wrong_return_type_is_a_failure_not_a_crash():
    result = ex.check_rouge_s(lambda c, r: rouge_s(c, r)[0])
    assert result.status == ex.FAILED and result.failures == result.checked


# --- Exercise 3 ----------------------------------------------------------------------------------

def test_exact_similarity_reproduces_rouge_through_the_soft_core():
    result = ex.check_exact_similarity(exact_similarity)
    assert result.passed and result.checked == 3 * 103


def test_first_token_only_similarity_fails_on_bigrams():
    def any_token(a, b):
        return (a[:, None, :] == b[None, :, :]).any(-1).astype(float)

    result = ex.check_exact_similarity(any_token)
    assert result.status == ex.FAILED and "only multi-word grams fail" in result.message
    assert "rouge-2" in result.message


def test_transposed_similarity_is_reported_with_the_expected_shape():
    result = ex.check_exact_similarity(lambda a, b: exact_similarity(b, a))
    assert result.status == ex.FAILED and "must be a" in result.message and "matrix" in result.message


# --- not attempted -------------------------------------------------------------------------------

@pytest.mark.parametrize("check", [ex.check_rouge_n_recall, ex.check_rouge_s, ex.check_exact_similarity])
@pytest.mark.parametrize("unsolved", [stub, None])
def test_unsolved_exercise_is_not_attempted_rather_than_failed(check, unsolved):
    result = check(unsolved)
    assert result.status == ex.NOT_ATTEMPTED and not result.passed
    assert repr(result).endswith(result.message)


def test_source_fingerprint_follows_the_code():
    def f(x):
        return x + 1

    first = ex.source_fingerprint(f)

    def f(x):  # noqa: F811 - redefined on purpose
        return x + 2

    assert len(first) == 12 and ex.source_fingerprint(f) != first
    assert ex.source_fingerprint(rouge_s) == ex.source_fingerprint(rouge_s)


def _run_cell(source, name, namespace):
    """Execute ``source`` as IPython runs a cell: the code is in linecache, the class has no module file."""
    import linecache
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    exec(compile(source, name, "exec"), namespace)


def test_source_fingerprint_of_a_class_typed_into_a_cell():
    namespace = {"__name__": "__main__"}
    _run_cell("class Sim:\n    def __call__(self, a, b):\n        return a\n", "<cell-1>", namespace)
    first = ex.source_fingerprint(namespace["Sim"])
    _run_cell("class Sim:\n    def __call__(self, a, b):\n        return b\n", "<cell-2>", namespace)
    assert ex.source_fingerprint(namespace["Sim"]) != first
