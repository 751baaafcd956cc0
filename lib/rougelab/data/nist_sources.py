"""Source documents of a NIST release (``rougelab data add NAME PATH --documents DOCS``), for the metrics
that read them (WIDAR, Anchored ROUGE).

NIST hands the documents out apart from the evaluation files (``DUC2002_Summarization_Documents.tgz``,
``TAC2008_Summarization_Documents.tgz`` ...: a folder or archive, archives inside it opened in place).
Each file holds one or more documents in the TREC SGML form ``<DOC> <DOCNO> id </DOCNO> ... <TEXT> ...
</TEXT> </DOC>`` (AQUAINT-2, TAC's collection: ``<DOC id="AFP_ENG_20050312.0019" type="story">``); a document's text is its ``<TEXT>`` without tags, one paragraph or sentence per line.
A single-document summary's source is the document whose DOCNO is its ``doc_id`` (DUC 2002, 2003); a
multi-document summary's source is its set's documents in DOCNO order, separated by a blank line. The
set is the folder a document file is in: ``D0801A-A`` (TAC: topic, selector, document set) holds set
``D0801-A``, ``D0701A`` (DUC 2007) topic ``D0701``, ``d061j`` (DUC 2002) and ``d30001t`` (DUC 2003, in
``task<k>.docs.tar.gz``) document sets ``D061`` and ``D30001``.
"""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from rougelab.data.nist_files import release_files, untagged
from rougelab.data.registry import DataError

_DOC = re.compile(r"<DOC\b([^>]*)>(.*?)</DOC>", re.S | re.I)
_DOC_ID = re.compile(r"\bid\s*=\s*[\"']([^\"']+)", re.I)
_DOCNO = re.compile(r"<DOCNO>\s*(.*?)\s*</DOCNO>", re.S | re.I)
_TEXT = re.compile(r"<TEXT>(.*?)</TEXT>", re.S | re.I)
_SET_FOLDER = re.compile(r"^(D\d{3,5})[A-Z]?(-[A-Z])?$", re.I)
_ANY = re.compile(r"[^/]$")


def read_documents(path: Path) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``({DOCNO: text}, {set: [DOCNO, ...]})`` of every document under ``path`` (keys upper-cased)."""
    texts: dict[str, str] = {}
    sets: dict[str, list[str]] = defaultdict(list)
    for name, data in release_files(path, _ANY).items():
        markup = data.decode("utf-8", errors="replace")
        folder = name.rsplit("/", 2)[-2] if "/" in name else ""
        in_set = _SET_FOLDER.match(folder)
        for attributes, doc in _DOC.findall(markup):
            number, body = _DOCNO.search(doc) or _DOC_ID.search(attributes), _TEXT.search(doc)
            if not number or not body:
                raise DataError(f"{path}: {name}: a <DOC> without a <DOCNO> (or id=\"...\") or without <TEXT>")
            docno = number.group(1).strip().upper()
            texts[docno] = untagged(body.group(1))
            if in_set:
                sets[(in_set.group(1) + (in_set.group(2) or "")).upper()].append(docno)
    if not texts:
        raise DataError(f"{path}: no source documents here (files of <DOC> <DOCNO> ... <TEXT> ... </DOC>)")
    return texts, {key: sorted(set(docs)) for key, docs in sets.items()}


def attach_sources(rows: list[dict], path: Path) -> None:
    """Set each row's ``source`` from the documents under ``path``; ``DataError`` naming an input without them."""
    texts, sets = read_documents(path)
    for row in rows:
        key = str(row["doc_id"]).upper()
        if key in sets:
            row["source"] = "\n\n".join(texts[d] for d in sets[key])
        elif key in texts:
            row["source"] = texts[key]
        else:
            raise DataError(f"{path}: no source document for {row['doc_id']} (neither a document set folder "
                            f"like D0801A-A nor a DOCNO)")
