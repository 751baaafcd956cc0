"""WIDAR's weighted-ROUGE stemmer is the option ``stemmer`` (named like ``rouge()``'s), pinned in the signature."""
import pytest

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.metrics.widar import weighted_rouge

SOURCE = "The runners were running. Dogs bark loudly"
SUMMARY = "The runner runs. A dog barks"
REFERENCE = "Runners ran. The dogs barked"


def test_signature_names_the_stemmer_option():
    signature = get_metric("widar-1").signature
    assert "stemmer:snowball" in signature and "rouge_score_stemmer:porter-nltk" in signature


def test_unknown_stemmer_is_a_clear_error():
    with pytest.raises(InputError, match="stemmer"):
        weighted_rouge([SUMMARY], [[REFERENCE]], [SOURCE], k="1", stemmer="lancaster", cache=False)


def test_every_stemmer_rouge_takes_is_accepted():
    """ROUGE-1.5.5's stemmer maps "better" to "good" (WordNet's adj.exc); Snowball and Porter do not."""
    args = (["better results"], [["good results"]], ["good results follow"])
    ours = {stemmer: weighted_rouge(*args, k="1", weights="none", stemmer=stemmer, cache=False)["rouge1sl_r"][0]
            for stemmer in ("rouge155", "porter", "snowball:english", "snowball", None)}
    assert ours == {"rouge155": 1.0, "porter": 0.5, "snowball:english": 0.5, "snowball": 0.5, None: 0.5}


def test_no_stemming_matches_fewer_unigrams():
    """Snowball makes 'dogs'/'dog' and 'barks'/'barked' one word each; without stemming only 'the' ... match."""
    stemmed = weighted_rouge([SUMMARY], [[REFERENCE]], [SOURCE], k="1", weights="none", cache=False)
    plain = weighted_rouge([SUMMARY], [[REFERENCE]], [SOURCE], k="1", weights="none", stemmer=None, cache=False)
    assert plain["rouge1sl_r"][0] < stemmed["rouge1sl_r"][0]
