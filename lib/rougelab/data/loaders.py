"""Loaders: each registered dataset as one tidy DataFrame.

Columns: ``dataset, doc_id, system_id, source, references`` (list of str), ``summary``,
then one float column per human judgment. Rows sorted by (doc_id, system_id). Text is
as released; only explicit sentence markers (``<t> ... </t>``) are turned into one
sentence per line, so sentence-level metrics (ROUGE-L) see the released boundaries.
"""
from __future__ import annotations

import re

import pandas as pd

from rougelab.data.fetch import read_verified
from rougelab.data.registry import DataError, get
from rougelab.data.safe_pickle import safe_loads

BASE_COLUMNS = ["dataset", "doc_id", "system_id", "source", "references", "summary"]
_SENTENCE = re.compile(r"<t>(.*?)</t>", re.S)


def sentences_from_markers(text: str) -> str:
    """``<t> a . </t> <t> b . </t>`` -> ``"a .\\nb ."`` (one stripped sentence per line).

    Text without markers is returned stripped and otherwise unchanged.
    """
    found = [s.strip() for s in _SENTENCE.findall(text)]
    return "\n".join(s for s in found if s) if found else text.strip()


def _table(name: str, rows: list[dict]) -> pd.DataFrame:
    humans = list(get(name).human_columns)
    frame = pd.DataFrame(rows, columns=BASE_COLUMNS[1:] + humans)
    frame.insert(0, "dataset", name)
    frame = frame.sort_values(["doc_id", "system_id"], kind="stable").reset_index(drop=True)
    for col in humans:
        frame[col] = frame[col].astype(float)
    return frame


def _bartscore_rows(name: str, path: str) -> list[dict]:
    """Rows of BARTScore's ``SUM/<X>/data.pkl``: {doc: {src, ref_summ(s), sys_summs}}."""
    humans = get(name).human_columns
    data = safe_loads(read_verified(name, path), source=path)
    rows = []
    for doc_id, doc in data.items():
        references = list(doc["ref_summs"]) if "ref_summs" in doc else [doc["ref_summ"]]
        for system_id, entry in doc["sys_summs"].items():
            scores = entry["scores"]
            rows.append({"doc_id": str(doc_id), "system_id": str(system_id), "source": doc["src"],
                         "references": list(references), "summary": entry["sys_summ"],
                         **{h: scores[h] for h in humans}})
    return rows


def litepyramid_recall(label_line: str) -> float:
    """LitePyramid recall of one summary: the mean of its tab-separated 0/1 SCU-presence labels
    (Zhang & Bansal 2021; blank fields from trailing tabs are ignored)."""
    labels = [float(x) for x in label_line.split("\t") if x.strip()]
    if not labels:
        raise DataError(f"empty SCU label line {label_line!r}")
    return sum(labels) / len(labels)


def _litepyramid_rows(name: str) -> list[dict]:
    """Rows of the Lite2-3Pyramid layout: ids/documents/references.txt, summaries/, labels/."""
    dataset = get(name)
    root = dataset.root + "/"

    def lines(rel: str) -> list[str]:
        text = read_verified(name, root + rel).decode("utf-8")
        return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")

    ids, documents, references = lines("ids.txt"), lines("documents.txt"), lines("references.txt")
    systems = sorted(e.path[len(root + "summaries/"):-len(".summary")] for e in dataset.files
                     if e.path.startswith(root + "summaries/") and e.path.endswith(".summary"))
    rows = []
    for system_id in systems:
        summaries = lines(f"summaries/{system_id}.summary")
        labels = lines(f"labels/{system_id}.label")
        if not len(ids) == len(documents) == len(references) == len(summaries) == len(labels):
            raise DataError(f"{name}: line counts differ for system {system_id}")
        for doc_id, doc, ref, summ, lab in zip(ids, documents, references, summaries, labels):
            rows.append({"doc_id": doc_id, "system_id": system_id, "source": doc.strip(),
                         "references": [sentences_from_markers(ref)], "summary": summ.strip(),
                         "litepyramid_recall": litepyramid_recall(lab)})
    return rows


def _realsumm_original_rows(name: str) -> list[dict]:
    """Rows of REALSumm's own ``scores_dicts/{abs,ext}.pkl`` (system ids get an abs_/ext_ prefix,
    with the ``.txt`` suffix dropped, matching the Lite2-3Pyramid names)."""
    rows = []
    for kind in ("abs", "ext"):
        path = f"scores_dicts/{kind}.pkl"
        data = safe_loads(read_verified(name, path), source=path, numpy_scalars=True)
        for doc_id, doc in data.items():
            reference = sentences_from_markers(doc["ref_summ"])
            for system, entry in doc["system_summaries"].items():
                system_id = f"{kind}_{system.removesuffix('.txt')}"
                rows.append({"doc_id": str(doc_id), "system_id": system_id,
                             "source": None, "references": [reference],
                             "summary": sentences_from_markers(entry["system_summary"]),
                             "litepyramid_recall": entry["scores"]["litepyramid_recall"]})
    return rows


_LOADERS = {
    "summeval": lambda: _bartscore_rows("summeval", "SUM/SummEval/data.pkl"),
    "realsumm-bartscore": lambda: _bartscore_rows("realsumm-bartscore", "SUM/REALSumm/data.pkl"),
    "newsroom": lambda: _bartscore_rows("newsroom", "SUM/Newsroom/data.pkl"),
    "qags-cnndm": lambda: _bartscore_rows("qags-cnndm", "SUM/QAGS_CNN/data.pkl"),
    "qags-xsum": lambda: _bartscore_rows("qags-xsum", "SUM/QAGS_XSUM/data.pkl"),
    "rank19": lambda: _bartscore_rows("rank19", "SUM/Rank19/data.pkl"),
    "realsumm": lambda: _litepyramid_rows("realsumm"),
    "pyrxsum": lambda: _litepyramid_rows("pyrxsum"),
    "realsumm-original": lambda: _realsumm_original_rows("realsumm-original"),
}


def has_table(name: str) -> bool:
    """Whether ``load_dataset(name)`` gives a table (``rouge155-sample`` is a folder only)."""
    return name in _LOADERS


def load_dataset(name: str) -> pd.DataFrame:
    """Dataset ``name`` as one tidy DataFrame (see the module docstring for the columns).

    Raises ``DataError`` for an unknown name, a dataset without a table (``rouge155-sample``:
    use ``dataset_path``), or files not fetched or corrupt (run ``rougelab data fetch``). The NIST
    releases (``tac2008`` ...) come from the cache once ``rougelab data add`` has stored them
    (``rougelab.data.nist``).
    """
    from rougelab.data import nist
    from rougelab.validation import check_name

    check_name(name, "dataset")
    if name in nist.RELEASES:
        return nist.load(name)
    get(name)
    if not has_table(name):
        raise DataError(f"dataset {name!r} is a folder, not a table: use dataset_path({name!r})")
    return _table(name, _LOADERS[name]())
