"""ROUGE-1.5.5's official sample test: its 17 runs, as the release documents them.

Each run is an output file of the release's ``sample-output/`` and the options that produce it from
inside ``sample-test/`` (``official_sample.tsv`` beside this module says where each row comes from).
"""
from __future__ import annotations

from importlib import resources


def official_runs() -> list[tuple[str, str]]:
    """``(output file, options)`` of every official sample run, in the release's order."""
    text = resources.files(__package__).joinpath("official_sample.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [(name, options) for name, options in rows]
