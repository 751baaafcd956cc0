"""split_sentences(..., "nltk") splits exactly as NLTK's untrained ``PunktSentenceTokenizer`` does.

rougelab replaces Punkt's per-candidate decision with an equivalent rule (``rougelab.text.sentences``);
NLTK's own class is the reference here: on hand-made cases that reach every branch of the rule, on a
sample of SummEval, and (``-m slow``) on every summary, reference and source of every dataset we fetch.
"""
from __future__ import annotations

import pytest
from nltk.tokenize.punkt import PunktSentenceTokenizer

import rougelab
from rougelab.data import names
from rougelab.text.sentences import split_sentences

NLTK = PunktSentenceTokenizer()


def nltk_split(text: str) -> list[str]:
    """What ``split_sentences(text, "nltk")`` promises: NLTK's Punkt on each line, empty pieces dropped."""
    return [s for line in text.split("\n") for s in NLTK.tokenize(line) if s]


CASES = [
    "The cat sat. The dog ran! Did it? Yes.",
    "J. Bach wrote it. j. bach too. J. 2 and J. (x) and J. , and J. ; end",
    "In 2015. Then in 2016. now 2017. , 3.5. Next 1,000. \"Quoted\" 12. (a) -3. x",
    "Wait... What... he said... and.. so. Ellipsis ... Then",
    "\"Stop.\" He left. (Yes.) No. 'Fine.' [Done.] {Ok.} End.\u201d Curly.\u2019 next",
    "He said:\"go.\"Now. It's 5 p.m. today. U.S. troops. e.g. this. Mr. Smith.",
    "What?! Really!? No!!! Maybe?? ok . . . fine",
    "_. x. \u00c9t\u00e9. \u00e9t\u00e9. \u0416. \u0436. 1. 2. a. B. \u00df. 3.\tTab.\u00a0Nbsp. end",
    "Numbers -1. ,5. .5. 5.5.5. 5-5. 5a. a5. end.",
    "", " ", ".", "a.", ". .", "?", "word", "  leading. trailing.  ",
]


@pytest.mark.parametrize("text", CASES)
def test_hand_made_cases_split_as_nltk(text):
    assert split_sentences(text, "nltk") == nltk_split(text)


def test_summeval_sample_splits_as_nltk(summeval_table):
    texts = list(dict.fromkeys([*summeval_table["summary"][:300], *summeval_table["references"][0],
                                *summeval_table.drop_duplicates("doc_id")["source"][:20]]))
    assert all(split_sentences(t, "nltk") == nltk_split(t) for t in texts)
    # the sample reaches breaks and non-breaks alike
    assert sum(len(nltk_split(t)) > len(t.split("\n")) for t in texts) > 100


def every_text():
    for name in names():
        try:
            table = rougelab.load_dataset(name)
        except rougelab.data.DataError:  # a folder of files, not a table
            continue
        for column in ("summary", "source", "references"):
            if column in table:
                for value in table[column]:
                    yield from ([value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
                                if value is not None else [])


@pytest.mark.slow
def test_every_dataset_text_splits_as_nltk():
    texts = list(dict.fromkeys(every_text()))
    assert len(texts) > 8000
    different = [t for t in texts if split_sentences(t, "nltk") != nltk_split(t)]
    assert not different, different[:3]
