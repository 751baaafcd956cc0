"""rougelab.rouge against ROUGE-1.5.5.pl on real data: SummEval summaries, 11 references each.

Every (R, P, F) the Perl script prints per summary with ``-d`` must equal ours. Default run: the first
30 summaries (330 pairs) under the benchmark setting; ``-m slow``: all 1,600 summaries under the
benchmark setting and the first 400 under two more.
"""
from __future__ import annotations

import pytest

from perl_oracle import perl_available, run_perl
from rougelab.rouge import rouge
from rougelab.text.tokenize import perl_bytes

pytestmark = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))

SETTINGS = {
    "benchmark": (["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m"],
                  dict(measures=["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-s4",
                                 "rouge-su4"], stem=True)),
    "stop-best": (["-n", "2", "-2", "-1", "-u", "-m", "-s", "-f", "B"],
                  dict(measures=["rouge-1", "rouge-2", "rouge-l", "rouge-su*"], stem=True, stopwords=True,
                       multiref="B")),
    "nostem-l100-alpha": (["-n", "3", "-2", "9", "-U", "-l", "100", "-p", "0.2"],
                          dict(measures=["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-s9", "rouge-su9"],
                               stem=False, word_limit=100, alpha=0.2)),
}


@pytest.fixture(scope="module")
def summeval(summeval_table):
    return summeval_table["summary"].tolist(), [list(r) for r in summeval_table["references"]]


def check(summeval, setting, n):
    summaries, references = summeval[0][:n], summeval[1][:n]
    args, kwargs = SETTINGS[setting]
    ours = rouge(summaries, references, **kwargs)
    perl = run_perl([[perl_bytes(s)] for s in summaries], [[[perl_bytes(r)] for r in refs] for refs in references],
                    args)
    compared = 0
    for i, row in enumerate(perl):
        assert len(row) == len(kwargs["measures"])
        for key, values in row.items():
            prefix = key.lower().replace("-", "")
            assert tuple(ours.loc[i, [f"{prefix}_{x}" for x in "rpf"]]) == values, (setting, i, key)
            compared += 1
    assert compared == n * len(kwargs["measures"])


def test_summeval_first_30_equal_perl(summeval):
    check(summeval, "benchmark", 30)


@pytest.mark.slow
@pytest.mark.parametrize("setting, n", [("benchmark", 1600), ("stop-best", 400), ("nostem-l100-alpha", 400)])
def test_summeval_equal_perl(summeval, setting, n):
    check(summeval, setting, n)
