"""The compiled byte tokeniser (``TokenEncoder`` over ``byte_tokens.scan_tokens``) against the Python tokeniser.

``tokenize`` (one sentence at a time, regular expressions; checked against ROUGE-1.5.5.pl in
test_text_tokenize.py and test_rouge_perl_diff.py) is the reference: the encoder must give the same tokens,
in the same sentence units, numbered in order of first occurrence, compiled and as pure Python.
"""
from __future__ import annotations

import numpy as np
import pytest

import rougelab
import rougelab.text.byte_tokens as byte_tokens
from rougelab import _jit
from rougelab._jit import NUMBA
from rougelab.text import split_sentences, tokenize
from rougelab.text.tokenize import TokenEncoder


@pytest.fixture(params=["numba", "python", "numba-parts", "python-parts"])
def scan(request, monkeypatch):
    """The compiled scanner, or its pure-Python source; "-parts": every batch of two texts or more cut
    into parts scanned apart (on two threads) and numbered together."""
    if request.param.startswith("python"):
        for name, value in list(vars(byte_tokens).items()):  # the ``jit`` kernels (a ``jitable`` helper is Python)
            if hasattr(value, "py_func") and value.py_func is not value:
                monkeypatch.setattr(byte_tokens, name, value.py_func)
    if request.param.endswith("parts"):
        monkeypatch.setattr(byte_tokens, "SPLIT_BYTES", 0)
        monkeypatch.setattr(_jit, "get_num_threads", lambda: 2)
    return request.param


def _check(texts, stem=False, stopwords=False):
    encoder = TokenEncoder(stem=stem, stopwords=stopwords)
    ids, lengths, units = encoder.encode_many(texts)
    sentences = [split_sentences(t) for t in texts]
    want = [tokenize(s, stem=stem, stopwords=stopwords) for text in sentences for s in text]
    assert units.tolist() == [len(s) for s in sentences]
    assert lengths.tolist() == [len(w) for w in want]
    assert [encoder.vocabulary[i] for i in ids.tolist()] == [t for w in want for t in w]
    assert list(dict.fromkeys(ids.tolist())) == list(range(len(encoder.vocabulary)))  # first-occurrence order


def _corpus_texts():
    texts = []
    for name in ("summeval", "realsumm"):
        table = rougelab.load_dataset(name)
        texts += table["summary"].tolist() + [r for refs in table["references"] for r in refs]
        texts += table.drop_duplicates("doc_id")["source"].tolist()
    return list(dict.fromkeys(texts))


@pytest.mark.skipif(not NUMBA, reason="numba disabled: the Python path is tested below")
@pytest.mark.parametrize("stem, stopwords", [(False, False), (True, False), (False, True)])
def test_every_summeval_and_realsumm_text_compiled(stem, stopwords):
    """Every distinct summary, reference and source of SummEval and REALSumm (5,311 texts, 2.3 MB), in one batch."""
    _check(_corpus_texts(), stem, stopwords)


def test_summeval_and_realsumm_slice_pure_python(scan):
    texts = _corpus_texts()
    _check(texts[::40], stem=True)


ADVERSARIAL = [
    "", " ", "\n", "\n\n\n", " \t\r\f\v ", "a\n\nb\n", "\na", "a\n", "   \n  x  \n   ",
    "Well-known U.S. firms' $5 (3.5%) -- ok!", "---a---b-c-", "-", "$$$ $a a$ $1",
    "CAFÉ naïve Über 東京 — résumé façade", "\u00a0nbsp\u2028line\u2029sep\x85nel\x00nul\x01ctl",
    "e\u0301 é e\u0301e", "ABC abc AbC aBc", "007 0 00 0x1F 1e10 3.14", "a1b2 1a2b 12ab ab12",
    "x" * 10_000 + " " + "x" * 9_999 + " " + "x" * 10_000, "🙂" * 50 + "z", "\ud7ff\ue000\uffff",
    "the the the The THE", "tab\tseparated\tand\vvertical\fform\rreturn",
]


def test_adversarial_texts_one_by_one(scan):
    for text in ADVERSARIAL:
        for stem, stopwords in [(False, False), (True, True)]:
            _check([text], stem, stopwords)


def test_adversarial_texts_together_and_repeated(scan):
    _check(ADVERSARIAL + ADVERSARIAL[::-1], stem=True)
    _check([], stem=True)


def test_hash_table_grows_with_the_distinct_tokens(scan):
    """20,000 distinct tokens (base-36 numbers) grow the table of 4,096 slots three times."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    words = [digits[k // 1296] + digits[k // 36 % 36] + digits[k % 36] for k in range(20_000)]
    text = " ".join(words)
    data = np.frombuffer(text.encode().translate(byte_tokens.TOKEN_BYTES), dtype=np.uint8)
    ends = np.array([len(data)], dtype=np.int64)
    surface, lengths, units, first, size = byte_tokens.scan_tokens(data, ends)
    assert surface.tolist() == list(range(20_000)) and lengths.tolist() == [20_000] and units.tolist() == [1]
    _check([text, text[::-1]])


def test_a_few_bytes_of_many_distinct_tokens_grow_the_small_table(scan):
    """A short text starts with a table of about a slot per 4 bytes (64 at least): 150 distinct one- and
    two-letter tokens in under 512 bytes (128 slots, room for 64) grow it in the middle of the text."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [a + b for a in " " + letters for b in letters][:150]
    text = " ".join(words)
    assert 256 < len(text) < 512
    data = np.frombuffer(text.encode().translate(byte_tokens.TOKEN_BYTES), dtype=np.uint8)
    surface, lengths, units, first, size = byte_tokens.scan_tokens(data, np.array([len(data)], dtype=np.int64))
    assert surface.tolist() == list(range(150)) and lengths.tolist() == [150] and units.tolist() == [1]
    _check([text, " ".join(reversed(words)), "a b\nzz " + text])


def test_tokens_with_equal_keys_stay_distinct(scan):
    """Tokens of over 8 bytes are keyed by their last 8: those sharing them (and their length) keep their
    own numbers and words, since the table then compares bytes; a token equal to the shared 8 bytes, or
    longer, has a number of its own too."""
    text = "abcnational xyznational national abcnational\ninternational xyznational interXnational"
    encoder = TokenEncoder()
    ids, _, _ = encoder.encode_many([text, "national xyznational"])
    assert ids.tolist() == [0, 1, 2, 0, 3, 1, 4, 2, 1]
    assert encoder.vocabulary == ["abcnational", "xyznational", "national", "international", "interxnational"]
    _check([text, "xyznational abcnational", text.upper()], stem=True)


def _tokens_by_split(data: bytes, ends) -> tuple[list, list, list]:
    """``scan_tokens``' three counts from Python's ``bytes.split``: a unit per non-empty line, a token per
    run of bytes other than the space and the newline, numbered in order of first occurrence."""
    numbers: dict = {}
    surface, line_tokens, text_lines, begin = [], [], [], 0
    for end in ends:
        lines = [line for line in data[begin:end].split(b"\n") if line]
        for line in lines:
            words = [w for w in line.split(b" ") if w]
            surface += [numbers.setdefault(w, len(numbers)) for w in words]
            line_tokens.append(len(words))
        text_lines.append(len(lines))
        begin = end + 1
    return surface, line_tokens, text_lines


def test_any_byte_but_the_space_and_newline_is_part_of_a_token(scan):
    """The Unicode tokenizers write tokens holding control bytes (a tab carrying a combining vowel sign is
    a ``unicode-v1`` word) and any non-ASCII byte: each such byte belongs to its token. (A token starting
    with a byte below the space once made the scan read a token of no bytes forever, writing past its
    arrays: a crash compiled, an IndexError in Python.) Tokens of 8 bytes that differ only in the top bit
    of their first byte (0x7f / 0xff) are distinct too."""
    rng = np.random.default_rng(7)
    alphabet = np.frombuffer(b"  \n\x00\x01\t\r\x1f\x7f\x80\xff\xe0ab", dtype=np.uint8)
    texts = [b"\tab\x01 x\x00\n\x1f", b"\x7faaaaaaa \xffaaaaaaa \x7faaaaaaa", b"\x01", b"\x00\x00 \n \x00"]
    texts += [alphabet[rng.integers(0, len(alphabet), size=rng.integers(0, 40))].tobytes() for _ in range(300)]
    for chosen in [[t] for t in texts[:4]] + [texts]:
        data = b"\n".join(chosen)
        ends = np.cumsum([len(t) + 1 for t in chosen], dtype=np.int64) - 1
        surface, line_tokens, text_lines, first, size = byte_tokens.scan_tokens(np.frombuffer(data, dtype=np.uint8),
                                                                                ends)
        assert (surface.tolist(), line_tokens.tolist(), text_lines.tolist()) == _tokens_by_split(data, ends)
        words = [data[a:a + n] for a, n in zip(first.tolist(), size.tolist())]
        assert len(set(words)) == len(words)
    assert words[:4] == [b"\tab\x01", b"x\x00", b"\x1f", b"\x7faaaaaaa"]


def test_a_thread_keeps_its_scan_table_empty_for_the_next_scan(scan):
    """A scan of enough bytes takes its thread's kept hash table and leaves it all zeros (grown tables too, up to
    ``KEPT_SLOTS``): a scan after a large one numbers its tokens as a first scan does; a small scan takes a new
    table and leaves the kept one alone; a scan stopped half-way keeps no table."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    large = " ".join(digits[k // 1296] + digits[k // 36 % 36] + digits[k % 36] for k in range(20_000))
    medium = [f"the cat {k} sat\non the mat" for k in range(20_000)]  # 540 kB, 20,006 distinct tokens
    small = ["the cat sat\non the mat", "a mat , the cat"]
    vars(byte_tokens._kept).pop("table", None)
    first = [TokenEncoder().encode_many(texts) for texts in (medium, small)]
    _check([large])  # grows a table to 65,536 slots, which the thread keeps
    kept = byte_tokens._kept.table
    assert len(kept) == 2 * byte_tokens.KEPT_SLOTS and not kept.any()
    for texts, before in zip((small, medium, small), (first[1], first[0], first[1])):
        again = TokenEncoder().encode_many(texts)
        assert all(a.tolist() == b.tolist() for a, b in zip(before, again))
        assert not byte_tokens._kept.table.any()
    if not scan.endswith("parts"):  # scanned on this thread: the medium batch used the kept table
        assert byte_tokens._kept.table is kept

    def stopped(data, words, text_ends, surface, table, *reading):
        table[:2] = 7  # the table half filled, then interrupted
        raise KeyboardInterrupt

    data = np.frombuffer(" ".join(medium).encode(), dtype=np.uint8)
    with pytest.raises(KeyboardInterrupt):
        byte_tokens._scanned(stopped, data, np.array([len(data)], dtype=np.int64))
    assert not hasattr(byte_tokens._kept, "table")
    assert all(a.tolist() == b.tolist() for a, b in zip(first[0], TokenEncoder().encode_many(medium)))
