"""The files of a NIST release as it is handed out: a folder, a ``.tar``/``.tar.gz``/``.tgz`` archive, or a folder
holding such archives, with archives nested in archives (DUC 2002's ``SEEpeers/*.tar.gz``, the documents'
``*_test_docs_files.tar.gz`` inside ``TAC2008_Summarization_Documents.tgz``) opened in place."""
from __future__ import annotations

import html
import io
import re
import tarfile
from pathlib import Path

from rougelab.data.registry import DataError

_ARCHIVE = re.compile(r"\.(tar|tar\.gz|tgz)$")
_TAG = re.compile(r"<[^>]+>")
_NESTING = 3   # archives inside archives inside archives at most


def _from_tar(tar: tarfile.TarFile, prefix: str, wanted: re.Pattern, depth: int, out: dict[str, bytes]) -> None:
    for member in tar.getmembers():
        name = f"{prefix}{member.name.lstrip('./')}"
        if not member.isfile():
            continue
        if _ARCHIVE.search(name) and depth < _NESTING:
            data = tar.extractfile(member).read()
            try:
                with tarfile.open(fileobj=io.BytesIO(data)) as inner:
                    _from_tar(inner, name + "/", wanted, depth + 1, out)
            except tarfile.TarError as exc:
                raise DataError(f"{name}: not a readable tar archive ({exc})") from None
        elif wanted.search(name):
            out[name] = tar.extractfile(member).read()


def release_files(path: Path, wanted: re.Pattern) -> dict[str, bytes]:
    """``{path inside the release: bytes}`` of every file whose path matches ``wanted`` (``re.search``).

    Paths use ``/``; a file inside an archive is named ``<archive path>/<member path>``.
    """
    out: dict[str, bytes] = {}
    try:
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                name = file.relative_to(path).as_posix()
                if _ARCHIVE.search(name):
                    with tarfile.open(file) as tar:
                        _from_tar(tar, name + "/", wanted, 1, out)
                elif wanted.search(name):
                    out[name] = file.read_bytes()
        else:
            with tarfile.open(path) as tar:
                _from_tar(tar, "", wanted, 0, out)
    except (tarfile.TarError, OSError) as exc:
        raise DataError(f"{path}: not a folder or a readable tar archive ({exc})") from None
    return out


def lines(data: bytes) -> list[str]:
    """The non-blank lines of a text file, stripped (bytes that are not UTF-8 replaced)."""
    return [line.strip() for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]


def untagged(markup: str) -> str:
    """SGML/HTML text without its tags and entities, one stripped non-blank line per line."""
    text = html.unescape(_TAG.sub(" ", markup))
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def peer_row(texts: dict[str, str], input_id: str, summarizer: str, *, scored_in: str, summaries_in: str) -> dict:
    """The row of peer ``summarizer`` on input ``input_id`` (``texts``: that input's ``{summarizer: text}``): its
    summary, and as references the input's human summaries (lettered summarizers, NIST's convention).

    ``DataError`` naming ``scored_in`` (the scores' file) and ``summaries_in`` when either is missing.
    """
    if summarizer not in texts:
        raise DataError(f"{scored_in} scores peer {summarizer} of {input_id}, whose summary is not in {summaries_in}")
    models = [texts[s] for s in sorted(texts) if s.isalpha()]
    if not models:
        raise DataError(f"{scored_in}: {input_id} has no human summary in {summaries_in}")
    return {"doc_id": input_id, "system_id": summarizer, "source": None, "references": models,
            "summary": texts[summarizer]}
