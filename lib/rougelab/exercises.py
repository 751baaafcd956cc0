"""Checks for the exercises of notebook 07: a student's function against the library, case by case.

Each ``check_*`` runs the student's function on fixed cases (the paper's worked examples and edge
cases) and on seeded random cases with repeated words, compares every answer with what
``rougelab.rouge.rouge`` (which reproduces ROUGE-1.5.5) computes, and returns a :class:`CheckResult`
that names the first case that differs and, where the failures share a cause, a hint. A function
that raises ``NotImplementedError`` (the notebook's unsolved stub), or ``None``, is reported as
"not attempted yet" rather than as a failure.

Expected values are unrounded (``perl_round_before_f=False``): ROUGE-1.5.5 rounds R and P to five
decimals before F, which a hand-written solution has no reason to copy.

Also here, for prototyping metrics in the notebook: :func:`source_fingerprint`
(``rougelab.fingerprint``), to pin the code of a metric by hand into its signature.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from rougelab.fingerprint import source_fingerprint  # noqa: F401 - notebook 07 imports it from here

PASSED, FAILED, NOT_ATTEMPTED = "passed", "failed", "not attempted yet"
TOLERANCE = 1e-9

# Lin (2004), section 3.1: S1 is the reference of the worked examples.
S1, S2, S3, S4 = ("police killed the gunman", "police kill the gunman", "the gunman kill police",
                  "the gunman police killed")
_WORDS = ["police", "killed", "the", "gunman", "kill", "a", "man"]  # few words: repeats are frequent


@dataclass(frozen=True)
class CheckResult:
    """Outcome of one exercise check: ``status`` is "passed", "failed" or "not attempted yet";
    ``checked`` cases were compared and ``failures`` of them differ; ``message`` says what differs."""

    exercise: str
    status: str
    checked: int
    failures: int
    message: str

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def __repr__(self) -> str:
        return f"{self.exercise}: {self.status}. {self.message}".rstrip()


@dataclass(frozen=True)
class _Case:
    name: str
    args: tuple
    expected: object


def _random_tokens(rng: np.random.Generator, low: int = 0, high: int = 10) -> list[str]:
    return [str(w) for w in rng.choice(_WORDS, size=int(rng.integers(low, high + 1)))]


def _text(tokens: Sequence[str]) -> str:
    return " ".join(tokens)


def _has_repeat(tokens: Sequence, n: int = 1) -> bool:
    grams = [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
    return len(grams) != len(set(grams))


def _close(got, expected) -> bool:
    try:
        return all(math.isclose(float(g), float(e), rel_tol=0.0, abs_tol=TOLERANCE)
                   for g, e in zip(got, expected, strict=True))
    except (TypeError, ValueError):
        return False


def _not_attempted(exercise: str, message: str) -> CheckResult:
    return CheckResult(exercise, NOT_ATTEMPTED, 0, 0, message)


_STUB = "The function still raises NotImplementedError: replace it by your solution."


def _run(exercise: str, student: Callable | None, cases: list[_Case], *,
         compare: Callable = _close, hints: Sequence[tuple[Callable[[_Case], bool], str]] = ()) -> CheckResult:
    """Call ``student(*case.args)`` on every case and compare with ``case.expected``."""
    if student is None:
        return _not_attempted(exercise, "Define the function, then run this cell again.")
    failed: list[tuple[_Case, str]] = []
    for case in cases:
        try:
            got = student(*case.args)
        except NotImplementedError:
            return _not_attempted(exercise, _STUB)
        except Exception as err:  # a student's bug is a result to report, not a crash of the check
            failed.append((case, f"raised {type(err).__name__}: {err}"))
            continue
        if not compare(got, case.expected):
            failed.append((case, f"expected {_show(case.expected)}, got {_show(got)}"))
    return _report(exercise, len(cases), failed, hints)


def _report(exercise: str, n_cases: int, failed: list[tuple[_Case, str]],
            hints: Sequence[tuple[Callable[[_Case], bool], str]]) -> CheckResult:
    """Passed, or the first differing case and the first hint that fits every failure."""
    if not failed:
        return CheckResult(exercise, PASSED, n_cases, 0,
                           f"All {n_cases} cases agree with the library (to {TOLERANCE:g}).")
    first, detail = failed[0]
    where = f"{first.name} {_show_args(first.args)}" if first.args else first.name
    lines = [f"{len(failed)} of {n_cases} cases differ. First: {where}: {detail}."]
    for applies, hint in hints:
        if all(applies(case) for case, _ in failed):
            lines.append(f"Hint: {hint}")
            break
    return CheckResult(exercise, FAILED, n_cases, len(failed), "\n".join(lines))


def _show(value) -> str:
    if isinstance(value, (tuple, list, np.ndarray)):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    try:
        return f"{float(value):.5f}"
    except (TypeError, ValueError):
        return repr(value)


def _show_args(args: tuple) -> str:
    return "with " + ", ".join(repr(a) for a in args)


# --- Exercise 1: ROUGE-N recall (Lin 2004, Eq. 1) -------------------------------------------------

def check_rouge_n_recall(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """Check ``student(candidate, references, n) -> recall`` against the library's ROUGE-N recall.

    ``candidate`` is a list of tokens, ``references`` a list of token lists, pooled as in Eq. 1:
    sum over references of clipped matches / sum over references of reference n-grams (ROUGE-1.5.5
    ``-f A``). Cases: the paper's S2/S3 against S1 (section 3.1), empty texts, and ``n_random``
    seeded random cases with 1-3 references, n in {1, 2, 3}.
    """
    from rougelab.rouge import rouge

    rng = np.random.default_rng(seed)
    inputs = [("S2 vs S1 (Lin 2004, 3.1)", S2.split(), [S1.split()], 2),
              ("S3 vs S1 (Lin 2004, 3.1)", S3.split(), [S1.split()], 2),
              ("two references", "the gunman".split(), [S1.split(), "a gunman".split()], 1),
              ("empty candidate", [], [S1.split()], 1),
              ("reference shorter than n", S1.split(), [["police"]], 2)]
    inputs += [(f"random case {i}", _random_tokens(rng), [_random_tokens(rng, 1) for _ in range(rng.integers(1, 4))],
                int(rng.integers(1, 4))) for i in range(n_random)]
    cases = []
    for n in sorted({case[3] for case in inputs}):
        batch = [case for case in inputs if case[3] == n]
        table = rouge([_text(c) for _, c, _, _ in batch], [[_text(r) for r in refs] for _, _, refs, _ in batch],
                      [f"rouge-{n}"], stem=False, perl_round_before_f=False)
        cases += [_Case(name, (cand, refs, n), float(r)) for (name, cand, refs, _), r in zip(batch, table[f"rouge{n}_r"])]
    hints = [(lambda c: len(c.args[1]) > 1,
              "every failing case has several references: pool them as in Eq. 1, summing matches and reference "
              "n-gram counts over all references before dividing (not a mean or a max of per-reference recalls)."),
             (lambda c: _has_repeat(c.args[0], c.args[2]) or any(_has_repeat(r, c.args[2]) for r in c.args[1]),
              "every failing case repeats an n-gram: Count_match(g) is min(count in candidate, count in reference), "
              "so an n-gram is never matched more often than it occurs on either side."),
             (lambda c: c.args[2] > 1, "every failing case has n > 1: check how you form n-grams (consecutive tokens, "
              "len - n + 1 of them).")]
    return _run("Exercise 1, ROUGE-N recall", student, sorted(cases, key=_is_random),
                compare=lambda got, exp: _close((got,), (exp,)), hints=hints)


def _is_random(case: _Case) -> int:
    return int(case.name.startswith("random"))


# --- Exercise 2: ROUGE-S (Lin 2004, Eq. 16-18) -----------------------------------------------------

def check_rouge_s(student: Callable | None, *, n_random: int = 200, seed: int = 0) -> CheckResult:
    """Check ``student(candidate, reference) -> (recall, precision, f)``, ROUGE-S* with beta = 1.

    Skip-bigrams are ordered word pairs at any distance (Eq. 16-18: R = SKIP2 / C(m, 2), P = SKIP2 / C(n, 2),
    F = 2PR / (P + R)); SKIP2 counts each skip-bigram at most as often as it occurs on either side.
    Compared with the library's ``rouge-s*`` (ROUGE-1.5.5 ``-2 -1``) on the paper's S2/S3/S4 against S1
    (0.5, 0.167, 0.333), short texts, and ``n_random`` seeded random pairs.
    """
    from rougelab.rouge import rouge

    rng = np.random.default_rng(seed)
    inputs = [("S2 vs S1 (Lin 2004, 5: 0.5)", S2.split(), S1.split()),
              ("S3 vs S1 (Lin 2004, 5: 0.167)", S3.split(), S1.split()),
              ("S4 vs S1 (Lin 2004, 5: 0.333)", S4.split(), S1.split()),
              ("one-word candidate", ["police"], S1.split()),
              ("empty candidate", [], S1.split())]
    inputs += [(f"random case {i}", _random_tokens(rng), _random_tokens(rng, 1)) for i in range(n_random)]
    table = rouge([_text(c) for _, c, _ in inputs], [[_text(r)] for _, _, r in inputs], ["rouge-s*"],
                  stem=False, perl_round_before_f=False)
    cases = [_Case(name, (cand, ref), tuple(row)) for (name, cand, ref), row
             in zip(inputs, table[["rouges*_r", "rouges*_p", "rouges*_f"]].itertuples(index=False))]
    hints = [(lambda c: _has_repeat(c.args[0]) or _has_repeat(c.args[1]),
              "every failing case repeats a word, so some skip-bigram occurs twice: count skip-bigrams as a "
              "multiset and clip, SKIP2 = sum over pairs of min(count in candidate, count in reference)."),
             (lambda c: len(c.args[0]) < 2 or len(c.args[1]) < 2,
              "every failing case has a text of fewer than two words: it has no skip-bigram, C(n, 2) = 0; "
              "score it 0 rather than dividing by zero.")]
    return _run("Exercise 2, ROUGE-S", student, cases, compare=_close_triple, hints=hints)


def _close_triple(got, expected) -> bool:
    return isinstance(got, (tuple, list, np.ndarray)) and len(got) == 3 and _close(got, expected)


# --- Exercise 3: classic ROUGE through the soft-matching core --------------------------------------

_SOFT_MEASURES = {"rouge-1": dict(n=1), "rouge-2": dict(n=2), "rouge-su4": dict(skip=4, unigrams=True)}


def check_exact_similarity(student: Callable | None, *, n_random: int = 100, seed: int = 0) -> CheckResult:
    """Check a gram similarity ``student(ref_keys, cand_keys) -> (m, c) matrix`` that makes the soft core
    reproduce classic ROUGE: 1 where two grams (rows of token ids) are identical, 0 elsewhere (``f_R``,
    Ng & Abrecht 2015, Eq. 1).

    For ROUGE-1, ROUGE-2 and ROUGE-SU4 (whose unigrams are padded with ``rouge.grams.PAD``) on the paper's
    sentences and ``n_random`` seeded random pairs (1-2 references, stemmed like ROUGE-1.5.5 ``-m``),
    ``soft_rouge`` with the student's similarity must give the library's R, P and F.
    """
    from rougelab.metrics.soft_rouge import GramSpec, soft_rouge
    from rougelab.text.token_ids import TokenIndex
    from rougelab.rouge import rouge
    from rougelab.text import tokenize

    exercise = "Exercise 3, exact match through the soft core"
    if student is None:
        return _not_attempted(exercise, "Define the function, then run this cell again.")
    rng = np.random.default_rng(seed)
    pairs = [("S2 vs S1", S2, [S1]), ("S3 vs S1", S3, [S1]), ("S4 vs S1, S2", S4, [S1, S2])]
    pairs += [(f"random case {i}", _text(_random_tokens(rng, 1)),
               [_text(_random_tokens(rng, 1)) for _ in range(rng.integers(1, 3))]) for i in range(n_random)]
    index = TokenIndex()
    cands = [index.ids(tokenize(c, stem=True)) for _, c, _ in pairs]
    refs = [[index.ids(tokenize(r, stem=True)) for r in rs] for _, _, rs in pairs]
    expected = rouge([c for _, c, _ in pairs], [rs for _, _, rs in pairs], list(_SOFT_MEASURES), stem=True,
                     perl_round_before_f=False)
    failed: list[tuple[_Case, str]] = []
    for measure, spec in _SOFT_MEASURES.items():
        prefix = measure.replace("-", "")
        want = expected[[f"{prefix}_r", f"{prefix}_p", f"{prefix}_f"]].to_numpy()
        try:
            got = soft_rouge(cands, refs, GramSpec(**spec), _shape_checked(student)).to_numpy()
        except NotImplementedError:
            return _not_attempted(exercise, _STUB)
        except Exception as err:  # reported, like a wrong number
            failed.append((_Case(measure, (), None), f"raised {type(err).__name__}: {err}"))
            continue
        failed += [(_Case(f"{measure}, {name}", (cand, rs), tuple(w)), f"expected {_show(w)}, got {_show(g)} (R, P, F)")
                   for (name, cand, rs), w, g in zip(pairs, want, got) if not _close(g, w)]
    hints = [(lambda c: not c.name.startswith("rouge-1"),
              "only multi-word grams fail: two grams are equal only if *all* their token ids are equal "
              "(compare whole rows, e.g. (a[:, None, :] == b[None, :, :]).all(-1)).")]
    return _report(exercise, len(_SOFT_MEASURES) * len(pairs), failed, hints)


def _shape_checked(sim: Callable) -> Callable:
    def checked(ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        out = np.asarray(sim(ref_keys, cand_keys), dtype=float)
        if out.shape != (len(ref_keys), len(cand_keys)):
            raise ValueError(f"for {len(ref_keys)} reference grams and {len(cand_keys)} candidate grams the "
                             f"similarity must be a ({len(ref_keys)}, {len(cand_keys)}) matrix, got shape {out.shape}")
        return out
    return checked
