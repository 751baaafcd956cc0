"""A call compiles only the kernels of the measures it asks for (a fresh environment's first call pays for every
kernel it compiles: ``benchmarks/bench_distinct.py``'s cold-start rows)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from rougelab import _jit
from rougelab.rouge import batch
from rougelab.rouge.api import parse_measure
from rougelab.rouge.options import RougeOptions

LOADED = f"""
import json
from rougelab.rouge import batch, grams, lcs, rouge
rouge(*json.loads(input()))
print(json.dumps(sorted(f"{{m.__name__}}.{{n}}" for m in (batch, grams, lcs) for n, v in vars(m).items()
                        if getattr(v, "signatures", None))))
"""


def _loaded_kernels(summaries, references, measures):
    """The compiled functions of the ROUGE modules that a fresh process loads (from the kernel cache) or compiles
    for one call: the kernels it calls from Python, and the ``jit`` helpers compiled with them (``jitable``
    helpers are compiled into them, with no compiled function of their own)."""
    done = subprocess.run([sys.executable, "-c", LOADED], input=json.dumps([summaries, references, measures]),
                          capture_output=True, text=True, env=os.environ, check=True)
    return {name.rsplit(".", 1)[1] for name in json.loads(done.stdout)}


@pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")
def test_rouge_1_2_l_of_one_sentence_each_compiles_no_skip_bigram_nor_union_lcs_code():
    loaded = _loaded_kernels(["a b c"], [["a b d"]], ["rouge-1", "rouge-2", "rouge-l"])
    assert {"batch_pair_stats", "sentence_lcs_pair_stats", "pooled_rpf"} <= loaded
    assert not loaded & {"skip_pair_stats", "lcs_pair_stats"}  # nor their helpers (sorted_hits, union_lcs_hits)
    several = _loaded_kernels(["a b c\nd e"], [["a b d"]], ["rouge-l", "rouge-su4"])
    assert {"skip_pair_stats", "lcs_pair_stats"} <= several
    assert "batch_pair_stats" not in several and "sentence_lcs_pair_stats" not in several


def test_the_one_sentence_shortcut_gives_the_union_lcs_numbers():
    """``lcs_stats`` of pairs of one sentence each (``sentence_lcs_pair_stats``), ROUGE-L and ROUGE-W with weight 1,
    against ``lcs_pair_stats`` (the union LCS)."""
    texts = ["a b c a", "b a c c a b", "a a b", "c b a b c a", "b c", "d"]
    encoded = batch.EncodedBatch(texts, "newline", RougeOptions(stem=False))
    peers, models = (np.array(x, dtype=np.int64) for x in np.triu_indices(len(texts)))
    weights = np.array([parse_measure(m).weight for m in ("rouge-l", "rouge-w-1")])
    is_w = np.array([False, True])
    union = batch.lcs_pair_stats(peers, models, weights, is_w, encoded.vocabulary, encoded.ids, encoded.start,
                                 encoded.end, encoded.unit_offsets, encoded.unit_start)
    assert batch.one_sentence_pairs(encoded, peers, models, weights)
    assert batch.lcs_stats(encoded, peers, models, weights, is_w, True).tolist() == union.tolist()
    assert union[:, :, 1].max() > 0
