"""Multi-reference rules of ``rougelab.rouge.rouge`` (``multiref=``): a hand-worked example for each rule,
and ROUGE-1.5.5.pl itself on SummEval (11 references per summary), where each rule is a mean of scores
the Perl script prints: ``-f A`` or ``-f B`` on each leave-one-out reference set (the two jackknifes),
or each reference alone (``mean``)."""
from __future__ import annotations

import numpy as np
import pytest

from perl_oracle import perl_available, run_perl
from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.text.tokenize import perl_bytes

# Summary "a b c" (3 words); references "a b c" (3), "a b d e" (4), "x y" (2); ROUGE-1 hits 3, 2, 0.
SUMMARY, REFS = ["a b c"], [["a b c", "a b d e", "x y"]]
# ROUGE-1.5.5's per-pair (R, P, F), rounded to 5 decimals, F from the rounded R and P:
ALONE = [(1.0, 1.0, 1.0), (0.5, 0.66667, 0.57143), (0.0, 0.0, 0.0)]
# -f A on the leave-one-out sets {2,3}: 2 hits / 6 model words / 6 peer words (3 per reference);
# {1,3}: 3 / 5 / 6; {1,2}: 5 / 7 / 6.
POOLED_SETS = [(0.33333, 0.33333, 0.33333), (0.6, 0.5, 0.54545), (0.71429, 0.83333, 0.76923)]
# -f B on the same sets keeps the best recall: reference 2, then reference 1 twice.
BEST_SETS = [ALONE[1], ALONE[0], ALONE[0]]


def _one(multiref):
    return rouge(SUMMARY, REFS, ["rouge-1"], stem=False, multiref=multiref).iloc[0].tolist()


@pytest.mark.parametrize("multiref, expected", [
    ("A", [0.55556] * 3),                       # 5 hits / 9 model words; P: 5 / (3 summary words x 3)
    ("B", list(ALONE[0])),
    ("mean", list(np.mean(ALONE, axis=0))),     # (0.5, 0.55556, 0.52381)
    ("jackknife-A", list(np.mean(POOLED_SETS, axis=0))),
    ("jackknife-B", list(np.mean(BEST_SETS, axis=0))),
    ("jackknife", list(np.mean(BEST_SETS, axis=0))),  # Lin (2004)'s name for jackknife-B
])
def test_rules_by_hand(multiref, expected):
    assert _one(multiref) == pytest.approx(expected, abs=1e-12)


def test_one_reference_every_rule_is_that_reference():
    scores = {rule: rouge(["a b c"], [["a b d e"]], ["rouge-1", "rouge-l"], stem=False, multiref=rule).iloc[0].tolist()
              for rule in ("A", "B", "mean", "jackknife-A", "jackknife-B")}
    assert all(v == scores["A"] for v in scores.values())


def test_unknown_rule_is_named():
    with pytest.raises(InputError, match="jackknife-A"):
        rouge(["a"], [["a"]], multiref="jack")


@pytest.fixture(scope="module")
def summeval(summeval_table):
    return summeval_table["summary"].tolist()[:4], [list(r) for r in summeval_table["references"]][:4]


ARGS = ["-n", "2", "-w", "1.2", "-2", "4", "-U", "-m"]
MEASURES = ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4"]


def _perl_means(summaries, reference_sets, args):
    """Per summary, the mean over its reference sets of what the Perl script prints for each set."""
    peers, models, owner = [], [], []
    for i, (summary, sets) in enumerate(zip(summaries, reference_sets)):
        for refs in sets:
            peers.append([perl_bytes(summary)])
            models.append([[perl_bytes(r)] for r in refs])
            owner.append(i)
    printed = run_perl(peers, models, args)
    out = []
    for i in range(len(summaries)):
        rows = [printed[q] for q in range(len(peers)) if owner[q] == i]
        out.append({key: np.mean([row[key] for row in rows], axis=0) for key in rows[0]})
    return out


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
@pytest.mark.parametrize("multiref, letter, sets", [
    ("jackknife-A", "A", lambda refs: [refs[:k] + refs[k + 1:] for k in range(len(refs))]),
    ("jackknife-B", "B", lambda refs: [refs[:k] + refs[k + 1:] for k in range(len(refs))]),
    ("mean", "A", lambda refs: [[r] for r in refs]),
])
def test_rules_equal_means_of_perl_scores_on_summeval(summeval, multiref, letter, sets):
    summaries, references = summeval
    ours = rouge(summaries, references, MEASURES, stem=True, multiref=multiref)
    perl = _perl_means(summaries, [sets(refs) for refs in references], [*ARGS, "-f", letter])
    for i, row in enumerate(perl):
        assert len(row) == len(MEASURES)
        for key, values in row.items():
            prefix = key.lower().replace("-", "")
            assert ours.loc[i, [f"{prefix}_{x}" for x in "rpf"]].tolist() == pytest.approx(list(values), abs=1e-12)
