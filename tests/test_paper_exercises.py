"""The exercise checks of notebooks 01-05: a solution written from the paper passes, a wrong one fails with its hint.

The solutions below follow the papers' equations in plain Python / NumPy, independently of the library, so a pass
also cross-checks the library on hundreds of random cases.
"""
import numpy as np
import pytest

from rougelab import paper_exercises as pe
from rougelab.exercises import FAILED, NOT_ATTEMPTED


def lcs(x, y):
    c = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            c[i][j] = c[i - 1][j - 1] + 1 if x[i - 1] == y[j - 1] else max(c[i - 1][j], c[i][j - 1])
    return c[len(x)][len(y)]


def longest_common_substring(x, y):
    return max([0] + [k for i in range(len(x)) for j in range(len(y))
                      for k in range(1, min(len(x) - i, len(y) - j) + 1) if x[i:i + k] == y[j:j + k]])


def wlcs(x, y, w, *, reset=True):
    c = np.zeros((len(x) + 1, len(y) + 1))
    run = np.zeros((len(x) + 1, len(y) + 1), dtype=int)
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                k = run[i - 1, j - 1]
                c[i, j], run[i, j] = c[i - 1, j - 1] + (k + 1) ** w - k ** w, k + 1
            else:
                c[i, j] = max(c[i - 1, j], c[i, j - 1])
                run[i, j] = 0 if reset else max(run[i - 1, j], run[i, j - 1])
    return c[len(x), len(y)]


def jackknife(scores):
    if len(scores) == 1:
        return scores[0]
    chosen = [max((s for i, s in enumerate(scores) if i != out), key=lambda s: s[0]) for out in range(len(scores))]
    return tuple(np.mean(chosen, axis=0))


def best_reference(scores):
    return max(scores, key=lambda s: s[0])


def bigram_similarity(u1, u2, v1, v2):
    a, b = u1 * u2, v1 * v2
    norms = np.linalg.norm(a) * np.linalg.norm(b)
    return float(a @ b / norms) if norms else 0.0


def _r(x, y):
    return np.corrcoef(x, y)[0, 1]


def permutation_pvalue(a, b, human, n, seed, *, standardise=True):
    if standardise:
        a, b = (a - a.mean()) / a.std(), (b - b.mean()) / b.std()
    observed, rng, k = _r(a, human) - _r(b, human), np.random.default_rng(seed), 0
    for _ in range(n):
        swap = rng.random(len(a)) < 0.5
        k += _r(np.where(swap, b, a), human) - _r(np.where(swap, a, b), human) >= observed
    return (1 + k) / (1 + n)


def paired_bootstrap(a, b, human, n, seed):
    rng = np.random.default_rng(seed)
    d = [_r(a[i], human[i]) - _r(b[i], human[i]) for i in (rng.integers(0, len(a), len(a)) for _ in range(n))]
    return tuple(np.percentile(d, [2.5, 97.5]))


def bootstrap_interval(x, human, n, seed, *, paired=True):
    rng = np.random.default_rng(seed)
    rs = []
    for _ in range(n):
        i = rng.integers(0, len(x), len(x))
        rs.append(_r(x[i], human[i if paired else rng.integers(0, len(x), len(x))]))
    return tuple(np.percentile(rs, [2.5, 97.5]))


def rank_and_weight(y, z):
    def ranks(v):
        return {h: r for r, h in enumerate(sorted(np.flatnonzero(v > 0), key=lambda h: (-v[h], h)), 1)}
    ry, rz = ranks(y), ranks(z)
    common = set(ry) & set(rz)
    return (sum(1 / (ry[h] + rz[h]) for h in common) / sum(1 / (2 * i) for i in range(1, len(common) + 1))
            if common else 0.0)


def path_similarity(path_y, path_z, c, *, normalise=True):
    w = c ** np.arange(len(path_y))
    total = float(w @ [rank_and_weight(y, z) for y, z in zip(path_y, path_z)])
    return total / w.sum() if normalise else total


def coverage_weights(recall, theta1):
    return (recall >= theta1).mean(axis=1)


def redundancy_weights(recall, theta2):
    n = len(recall)
    return np.ones(1) if n == 1 else 1 - ((recall >= theta2) & ~np.eye(n, dtype=bool)).sum(axis=1) / (n - 1)


def widar_weights(w_cov, w_red):
    return (np.asarray(w_cov) + np.asarray(w_red)) / 2 * len(w_cov)


def anchors(cosine, k):
    return np.argsort(-cosine, axis=1, kind="stable")[:, :k]


def transfer(weights, index, strength, n_source):
    t = np.zeros(n_source)
    np.add.at(t, index.ravel(), (weights[:, None] * strength).ravel())
    return t


def transfer_by_assignment(weights, index, strength, n_source):
    t = np.zeros(n_source)
    t[index.ravel()] += (weights[:, None] * strength).ravel()   # keeps one contribution per repeated index
    return t


def anchored_recall(t_peer, t_refs):
    matched = sum(min(t_peer.get(d, 0.0), t) for ref in t_refs for d, t in ref.items())
    total = sum(t for ref in t_refs for t in ref.values())
    return matched / total if total else 0.0


def anchored_recall_mean(t_peer, t_refs):
    return float(np.mean([anchored_recall(t_peer, [ref]) for ref in t_refs]))


CORRECT = [(pe.check_lcs, lcs), (pe.check_wlcs, wlcs), (pe.check_jackknife, jackknife),
           (pe.check_bigram_similarity, bigram_similarity), (pe.check_permutation_test, permutation_pvalue),
           (pe.check_paired_bootstrap, paired_bootstrap), (pe.check_bootstrap_interval, bootstrap_interval),
           (pe.check_rank_and_weight, rank_and_weight), (pe.check_path_similarity, path_similarity),
           (pe.check_coverage_weights, coverage_weights), (pe.check_redundancy_weights, redundancy_weights),
           (pe.check_widar_weights, widar_weights), (pe.check_anchors, anchors), (pe.check_transfer, transfer),
           (pe.check_anchored_recall, anchored_recall)]


@pytest.mark.parametrize("check, solution", CORRECT, ids=lambda f: f.__name__)
def test_a_solution_from_the_paper_passes(check, solution):
    result = check(solution)
    assert result.passed, result.message
    assert result.checked >= 4 and result.failures == 0


WRONG = [(pe.check_lcs, longest_common_substring, "longest common *substring*"),
         (pe.check_wlcs, lambda x, y, w: wlcs(x, y, w, reset=False), "reset the run length"),
         (pe.check_jackknife, best_reference, "the best of all M"),
         (pe.check_bigram_similarity, lambda u1, u2, v1, v2: bigram_similarity(u1 + u2, 1, v1 + v2, 1), "element-wise product"),
         (pe.check_permutation_test, lambda *a: permutation_pvalue(*a, standardise=False), "standardise a and b"),
         (pe.check_bootstrap_interval, lambda *a: bootstrap_interval(*a, paired=False), "*pairs*"),
         (pe.check_path_similarity, lambda *a: path_similarity(*a, normalise=False), "divide by sum_x c^x"),
         (pe.check_coverage_weights, lambda r, t: (r > t).mean(axis=1), "recall >= theta1"),
         (pe.check_redundancy_weights, lambda r, t: 1 - (r >= t).sum(axis=1) / max(len(r) - 1, 1), "leave out the diagonal"),
         (pe.check_widar_weights, lambda c, r: (np.asarray(c) + r) / 2, "multiply by the number of reference sentences"),
         (pe.check_anchors, lambda c, k: anchors(c, k) if k <= c.shape[1] else np.zeros((len(c), k), dtype=int),
          "fewer than k source particles"),
         (pe.check_transfer, transfer_by_assignment, "np.add.at"),
         (pe.check_anchored_recall, anchored_recall_mean, "sum numerators and denominators")]


@pytest.mark.parametrize("check, wrong, hint", WRONG, ids=lambda f: getattr(f, "__name__", "x"))
def test_a_wrong_solution_fails_with_its_hint(check, wrong, hint):
    result = check(wrong)
    assert result.status == FAILED and 0 < result.failures <= result.checked
    assert "expected" in result.message and hint in result.message, result.message


def test_a_stub_is_not_attempted():
    def stub(*args):
        raise NotImplementedError
    assert pe.check_rank_and_weight(stub).status == NOT_ATTEMPTED
    assert pe.check_paired_bootstrap(None).status == NOT_ATTEMPTED


def test_the_worked_examples_of_the_papers_are_among_the_cases():
    # Lin (2004) 3.1: LCS(S2, S1) = 3; section 4: WLCS(X, Y2) = 4 with f(k) = k^2 (each match a run of one)
    def only_paper(x, y):
        return 3 if (x, y) == ("police kill the gunman".split(), "police killed the gunman".split()) else -1
    assert "First: S3 vs S1" in pe.check_lcs(only_paper).message
    result = pe.check_wlcs(lambda x, y, w: 4.0 if y == "A H B K C I D".split() and w == 2.0 else -1.0)
    assert "First: Y1 vs X (section 4: 16)" in result.message
