"""Readers for ROUGE-1.5.5's summary file formats: SEE, ISI and SPL (one sentence per line).

Each reader returns the summary's sentences as ROUGE-1.5.5's ``readText`` collects them, before any
length limit, tokenisation or lower-casing (those happen in ``rougelab.rouge.core.score_peer``).
Files are read as bytes and decoded as Latin-1, so that one character is one byte: ROUGE-1.5.5
counts ``-b`` limits in bytes and treats every byte above 127 as a non-alphanumeric.
"""
from __future__ import annotations

import re
from pathlib import Path

# ROUGE-1.5.5 readText: a SEE sentence is the text of the second anchor on a line that opens with
# the first one, up to the next '<' (or the end of the line, newline included).
_SEE = (re.compile(r'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)', re.ASCII),
        re.compile(r'<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)', re.ASCII))
_ISI = re.compile(r'<S SNTNO="[0-9a-z,]+">([^<]+)</S>', re.ASCII)
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")

FORMATS = ("SEE", "ISI", "SPL")


class FormatError(ValueError):
    """A summary file or its declared format cannot be read the way ROUGE-1.5.5 reads it."""


def _lines(path: Path) -> list[str]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(f"Cannot open {path}: {exc.strerror}") from exc
    # Perl's <FH> splits after each "\n" (only there) and keeps it.
    return _LINE.findall(data.decode("latin-1"))


def read_see(path) -> list[str]:
    """Sentences of a SEE (HTML) summary: one per ``<a name=..>[k]</a> <a href=..>text`` line."""
    out = []
    for line in _lines(path):
        for pattern in _SEE:
            m = pattern.match(line)
            if m:
                out.append(m.group(2))
                break
    return out


def read_isi(path) -> list[str]:
    """Sentences of an ISI summary: one per ``<S SNTNO="..">text</S>`` line."""
    return [m.group(1) for m in map(_ISI.match, _lines(path)) if m]


def read_spl(path) -> list[str]:
    """Sentences of an SPL summary: every non-empty line (after removing its newline)."""
    out = []
    for line in _lines(path):
        if line.endswith("\n"):             # Perl chomp removes one trailing "\n" only
            line = line[:-1]
        if line:
            out.append(line)
    return out


_READERS = {"SEE": read_see, "ISI": read_isi, "SPL": read_spl}


def read_sentences(path, input_format: str) -> list[str]:
    """Read one peer or model summary in ``input_format`` (SEE, ISI or SPL; case-insensitive)."""
    fmt = input_format.upper()
    if fmt == "SIMPLE":
        raise FormatError(f"{path}: input format SIMPLE holds Basic Element triples, which only -3 "
                          "(ROUGE-BE) scores")
    if fmt not in _READERS:
        raise FormatError(f"Unknown input format: {input_format} (expected one of {', '.join(FORMATS)})")
    return _READERS[fmt](path)
