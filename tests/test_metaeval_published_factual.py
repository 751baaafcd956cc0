"""ROUGE on the factual-consistency sets against the BARTScore authors' printed factuality results."""
import pytest

from rougelab.data import fetch, load_dataset
from rougelab.evaluate import add_metric_scores
from rougelab.metaeval import correlate
from rougelab.metaeval.published import BARTSCORE_FACTUALITY
from mirror import MIRROR


@pytest.mark.parametrize("dataset", list(BARTSCORE_FACTUALITY.columns))
def test_rouge_rows_within_0_01_of_yuan_et_al_2021(dataset):
    fetch([dataset], mirror=MIRROR if MIRROR.is_dir() else None, progress=False)
    metrics = list(BARTSCORE_FACTUALITY.index)
    scored = add_metric_scores(load_dataset(dataset), metrics, progress=False)
    coef = BARTSCORE_FACTUALITY.attrs["coef"][dataset]
    level = "summary" if coef == "accuracy" else "global"
    for metric in metrics:
        ours = correlate(scored, metric, "fact", level, coef)
        assert ours == pytest.approx(BARTSCORE_FACTUALITY.loc[metric, dataset], abs=0.01), metric
