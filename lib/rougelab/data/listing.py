"""The text of ``rougelab data list``: each dataset's size, shape, licence and caveats."""
from __future__ import annotations

import textwrap

from rougelab.data.fetch import dataset_path
from rougelab.data.loaders import has_table, load_dataset
from rougelab.data.registry import DATASETS, DataError, Dataset


def _shape(dataset: Dataset) -> str:
    """Rows, documents, systems and references per document, measured on the loaded table."""
    if not has_table(dataset.name):
        dataset_path(dataset.name)  # raises if not fetched
        return "a folder (see dataset_path), not a table"
    table = load_dataset(dataset.name)
    refs = sorted(set(table["references"].map(len)))
    return (f"{len(table):,} rows = {table['doc_id'].nunique()} docs x "
            f"{table['system_id'].nunique()} systems; references per doc: "
            f"{'/'.join(map(str, refs))}; human columns: {', '.join(dataset.human_columns)}")


def _field(label: str, text: str) -> str:
    return textwrap.fill(text, 96, initial_indent=f"  {label:<9}", subsequent_indent=" " * 11,
                         break_long_words=False, break_on_hyphens=False)


def describe() -> str:
    """One block per registered dataset: title, upstream, files and size, shape, licence, caveats.

    A dataset not fetched (or corrupt) shows why instead of its shape; nothing is downloaded.
    """
    blocks = []
    for dataset in DATASETS.values():
        files = dataset.files
        size = sum(f.size for f in files) / 1e6
        try:
            shape = _shape(dataset)
        except DataError as err:  # not fetched, or a corrupt cache: the message says what to do
            shape = str(err)
        blocks.append("\n".join([
            f"{dataset.name}: {dataset.title}",
            _field("upstream", f"{dataset.url_prefix}{dataset.root + '/' if dataset.root else ''} ({len(files)} files, "
                               f"{size:.1f} MB, SHA-256 pinned)"),
            _field("shape", shape),
            *([_field("evaluate", f"levels {', '.join(dataset.levels)}; coefficients "
                                  f"{', '.join(dataset.coefs)}")] if has_table(dataset.name) else []),
            _field("licence", dataset.licence),
            _field("caveats", dataset.caveats)]))
    from rougelab.data import nist

    return "\n\n".join(blocks) + "\n\n" + nist.describe()
