"""``stem_exceptions=``: which WordNet-2.0 exception lists ``-m`` consults, in which merge order.

ROUGE-1.5.5.pl itself is the oracle: ``perl_home(exceptions)`` builds its ``WordNet-2.0.exc.db`` from
exactly those lists in that order, or leaves it empty (``()``), and the script's per-summary scores must
equal ours, on hand-written texts whose words sit in the lists and on SummEval."""
from __future__ import annotations

import pytest

from perl_oracle import perl_available, perl_exception, perl_home, run_perl
from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.text import stem_token
from rougelab.text.tokenize import perl_bytes

ORDERS = [(), ("noun", "verb", "adj", "adv"), ("adj", "verb", "adv", "noun")]
TEXTS = (["The geese ran better than the children.", "Testes were the best."],
         [["A goose runs well; a child runs good.", "The testis is good."],
          ["Geese are running and the children ran best."]])


def test_empty_db_is_porter_alone_by_hand():
    # "geese" is an exception (-> goose); Porter alone gives "gees"; "children" -> "child" only through the lists
    assert stem_token("geese") == "goose" and stem_token("geese", ()) == "gees"
    assert stem_token("better") == "good" and stem_token("better", ("noun", "verb", "adj", "adv")) == "well"
    out = rouge(["children"], [["child"]], ["rouge-1"], stem_exceptions=())
    assert out.iloc[0].tolist() == [0.0, 0.0, 0.0]
    assert rouge(["children"], [["child"]], ["rouge-1"]).iloc[0].tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("bad", ["noun", ("noun", "noun"), ("nouns",)])
def test_bad_lists_are_named(bad):
    with pytest.raises(InputError, match="stem_exceptions"):
        rouge(["a"], [["a"]], stem_exceptions=bad)


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(o) or "empty")
def test_perl_db_built_in_that_order_agrees(order):
    perl_home(order)
    for word in ("better", "best", "testes", "geese"):
        ours = stem_token(word, order)
        theirs = perl_exception(word, order)
        assert ours == (theirs if theirs is not None else stem_token(word, ())), word


def _summeval(n):
    import rougelab
    try:
        data = rougelab.load_dataset("summeval")
    except Exception as err:  # the data cache may be empty on a fresh checkout
        pytest.skip(f"SummEval not available: {err}")
    return data["summary"].tolist()[:n], [list(r) for r in data["references"]][:n]


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(o) or "empty")
def test_scores_equal_perl_with_that_db(order):
    summaries, references = TEXTS
    more = _summeval(12)
    summaries, references = summaries + more[0], references + more[1]
    measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-s4", "rouge-su4"]
    ours = rouge(summaries, references, measures, stem_exceptions=order)
    assert not ours.equals(rouge(summaries, references, measures))  # the texts tell the DBs apart
    perl = run_perl([[perl_bytes(s)] for s in summaries], [[[perl_bytes(r)] for r in refs] for refs in references],
                    ["-n", "2", "-2", "4", "-U", "-m"], exceptions=order)
    for i, row in enumerate(perl):
        assert len(row) == len(measures)
        for key, values in row.items():
            prefix = key.lower().replace("-", "")
            assert tuple(ours.loc[i, [f"{prefix}_{x}" for x in "rpf"]]) == values, (order, i, key)
