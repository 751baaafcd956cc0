"""``rouge()`` remembers its checked options (``rougelab.rouge.api._plan``): a call with the same option values
gives the numbers of a fresh check, and a value the checks refuse is refused even after an equal value that
they accept (``True == 1``, ``1 == 1.0``)."""
from __future__ import annotations

import numpy as np
import pytest

from rougelab.rouge import api, rouge
from rougelab.scoring import InputError
from rougelab.text.preprocessing import Preprocessing

SUMMARIES = ["the cat sat on the mat\nit purred", "a dog barked"]
REFERENCES = [["the cat lay on the mat\nit slept"], ["the dog barked loudly", "a dog was barking"]]
MEASURES = ["rouge-1", "rouge-2", "rouge-l"]


def _fresh(**options):
    """``rouge()`` with its remembered plans forgotten first: the options checked afresh."""
    api._PLANS.clear()
    return rouge(SUMMARIES, REFERENCES, MEASURES, **options)


@pytest.mark.parametrize("options", [dict(stem=False), dict(alpha=0.25, multiref="B"), dict(multiref="mean"),
                                     dict(preprocessing=Preprocessing(stemmer=None, splitter="none")),
                                     dict(stem_exceptions=["verb", "noun"]), dict(word_limit=3)])
def test_a_remembered_plan_gives_the_fresh_numbers(options):
    fresh = _fresh(**options)
    assert api._PLANS  # the call left its plan behind ...
    remembered = rouge(SUMMARIES, REFERENCES, MEASURES, **options)
    assert remembered.equals(fresh)  # ... and the next call, served by it, gives the same table


def test_other_option_values_get_their_own_plan():
    high, low = _fresh(alpha=0.9), rouge(SUMMARIES, REFERENCES, MEASURES, alpha=0.1)
    assert not np.allclose(high["rouge1_f"], low["rouge1_f"])
    assert low.equals(_fresh(alpha=0.1))


@pytest.mark.parametrize("accepted, refused, message", [
    (dict(stem=True), dict(stem=1), "stem=1: must be True or False"),
    (dict(stopwords=False), dict(stopwords=0), "stopwords=0: must be True or False"),
    (dict(perl_wlcs=True), dict(perl_wlcs=1.0), "perl_wlcs=1.0: must be True or False"),
    (dict(alpha=1), dict(alpha=True), "alpha=True: must be a finite number"),
    (dict(word_limit=1), dict(word_limit=True), "word_limit=True: must be a whole number"),
    (dict(alpha=0.5), dict(alpha=float("nan")), "alpha=nan: must be a finite number"),
])
def test_a_refused_value_is_refused_after_an_equal_accepted_one(accepted, refused, message):
    """Each pair compares equal (``True == 1``), but NaN, which equals nothing, not even its own key."""
    api._PLANS.clear()
    rouge(SUMMARIES, REFERENCES, MEASURES, **accepted)
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        rouge(SUMMARIES, REFERENCES, MEASURES, **refused)


def test_values_without_a_memo_key_are_checked_each_call():
    """numpy scalars and a callable splitter are checked afresh (no memo key tells them apart safely)."""
    assert rouge(SUMMARIES, REFERENCES, MEASURES, alpha=np.float64(0.25)).equals(_fresh(alpha=0.25))
    with pytest.raises(InputError, match="stem=array"):
        rouge(SUMMARIES, REFERENCES, MEASURES, stem=np.array([True]))

    def lines(text):
        return text.splitlines()

    assert rouge(SUMMARIES, REFERENCES, MEASURES, splitter=lines).equals(_fresh(splitter="newline"))


def test_measures_given_as_an_iterator_are_read_once():
    """The memo's key never reads an iterator of measures (the checks and the scoring read it)."""
    assert rouge(SUMMARIES, REFERENCES, iter(MEASURES)).equals(_fresh())


def test_alpha_zero_of_either_sign_shares_one_plan_with_the_same_numbers():
    """0.0 == -0.0 and the key holds floats as they are: the plan holds alpha + 0.0, so it is the same for both."""
    negative = _fresh(alpha=-0.0)
    assert rouge(SUMMARIES, REFERENCES, MEASURES, alpha=0.0).equals(negative)
    assert len(api._PLANS) == 1 and str(next(iter(api._PLANS.values())).options.alpha) == "0.0"
