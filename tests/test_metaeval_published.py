"""A published correlation table reproduced with ``correlation_table`` on the real SummEval data.

Jain et al. (2022), WIDAR, Table 6: Kendall's tau between SummEval's four expert criteria,
over all 1,600 summaries (global level; the mean of the three expert scores per summary).
"""

import pytest

from rougelab.data import fetch, load_dataset
from rougelab.metaeval import correlation_table
from mirror import MIRROR

CRITERIA = ["coherence", "consistency", "fluency", "relevance"]
WIDAR_TABLE_6 = {  # upper triangle of the paper's table, two decimals
    ("coherence", "consistency"): 0.25, ("coherence", "fluency"): 0.27,
    ("coherence", "relevance"): 0.53, ("consistency", "fluency"): 0.38,
    ("consistency", "relevance"): 0.27, ("fluency", "relevance"): 0.23,
}


@pytest.fixture(scope="module")
def summeval():
    fetch(mirror=MIRROR if MIRROR.is_dir() else None, progress=False)
    return load_dataset("summeval")


def test_widar_table_6_kendall_between_human_criteria(summeval):
    out = correlation_table(summeval, CRITERIA, CRITERIA, "global", "kendall")
    ours = {(r.metric, r.criterion): r.value for r in out.itertuples()}
    for pair, published in WIDAR_TABLE_6.items():
        assert round(ours[pair], 2) == published, pair
        assert ours[pair] == pytest.approx(ours[pair[::-1]], abs=1e-12)  # symmetric
    assert all(ours[(c, c)] == pytest.approx(1.0) for c in CRITERIA)
