"""Read a user's own summaries, references and sources for `rougelab score`.

Formats, chosen by file extension:

* plain text (any other extension): one text per line; ``--references`` may be given several
  times, one file per reference, each with as many lines as the summaries file;
* ``.jsonl``: one JSON object per line with keys ``summary``, ``references`` (a list of strings,
  or one string) and optionally ``source``;
* ``.csv``: a header with ``summary``, one or more ``reference...`` columns, optionally ``source``.

Empty lines are kept as empty texts (an empty summary scores 0) and reported in a warning. A line
that is not UTF-8, not valid JSON, or a file whose length differs from the summaries' raises
``InputError`` naming the file and line.
"""
from __future__ import annotations

import csv
import io
import json
import warnings
from dataclasses import dataclass
from pathlib import Path

from rougelab.metrics.base import InputError


@dataclass
class Batch:
    summaries: list[str]
    references: list[list[str]]
    sources: list[str] | None


def read_lines(path: str | Path, sentence_separator: str | None = None) -> list[str]:
    """The lines of a UTF-8 text file, one text each; ``sentence_separator`` becomes a newline."""
    lines = _decode(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.rstrip("\r") for line in lines]
    empty = [i + 1 for i, line in enumerate(lines) if not line.strip()]
    if empty:
        warnings.warn(f"{path}: {len(empty)} empty line(s) (first: line {empty[0]}) scored as empty texts")
    if sentence_separator:
        lines = [line.replace(sentence_separator, "\n") for line in lines]
    return lines


def read_batch(summaries: str | Path, references: list[str | Path] | None = None,
               sources: str | Path | None = None, sentence_separator: str | None = None) -> Batch:
    """Summaries, references and sources from files in any of the module's formats."""
    suffix = Path(summaries).suffix.lower()
    if suffix in (".jsonl", ".csv"):
        if references or sources:
            raise InputError(f"{summaries}: a {suffix} file holds the references and sources itself; "
                             "do not pass --references/--sources with it")
        batch = _read_jsonl(summaries) if suffix == ".jsonl" else _read_csv(summaries)
        if sentence_separator:
            batch = Batch(_split_all(batch.summaries, sentence_separator),
                          [_split_all(r, sentence_separator) for r in batch.references],
                          _split_all(batch.sources, sentence_separator) if batch.sources else None)
        return batch
    if not references:
        raise InputError("pass at least one --references file (one reference per line)")
    summary_lines = read_lines(summaries, sentence_separator)
    columns = []
    for ref_path in references:
        lines = read_lines(ref_path, sentence_separator)
        _same_length(summaries, summary_lines, ref_path, lines)
        columns.append(lines)
    source_lines = None
    if sources:
        source_lines = read_lines(sources, sentence_separator)
        _same_length(summaries, summary_lines, sources, source_lines)
    return Batch(summary_lines, [list(refs) for refs in zip(*columns)], source_lines)


def _decode(path: str | Path) -> str:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise InputError(f"{path}, line {line}: bytes that are not UTF-8 ({err.reason}); "
                         "re-encode the file as UTF-8") from None


def _same_length(summaries_path, summary_lines, other_path, other_lines) -> None:
    if len(other_lines) != len(summary_lines):
        raise InputError(f"{other_path} has {len(other_lines)} lines but {summaries_path} has "
                         f"{len(summary_lines)}: give one line per summary")


def _read_jsonl(path) -> Batch:
    summaries, references, sources = [], [], []
    for number, line in enumerate(_decode(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"{path}, line {number}: not valid JSON ({err.msg})") from None
        if not isinstance(record, dict) or "summary" not in record or "references" not in record:
            raise InputError(f"{path}, line {number}: expected an object with 'summary' and 'references'")
        refs = record["references"]
        refs = [refs] if isinstance(refs, str) else refs
        if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
            raise InputError(f"{path}, line {number}: 'references' must be a string or a list of strings")
        summaries.append(str(record["summary"]))
        references.append(refs)
        sources.append(record.get("source"))
    has_source = [s is not None for s in sources]
    if any(has_source) and not all(has_source):
        raise InputError(f"{path}, line {has_source.index(False) + 1}: 'source' is missing here but "
                         "present on other lines")
    return Batch(summaries, references, sources if all(has_source) and sources else None)


def _read_csv(path) -> Batch:
    reader = csv.DictReader(io.StringIO(_decode(path)))
    fields = reader.fieldnames or []
    ref_fields = [f for f in fields if f.startswith("reference")]
    if "summary" not in fields or not ref_fields:
        raise InputError(f"{path}: the header needs a 'summary' column and at least one 'reference...' "
                         f"column (found: {', '.join(fields) or 'nothing'})")
    rows = list(reader)
    for number, row in enumerate(rows, start=2):
        if None in row or any(row[f] is None for f in fields):
            raise InputError(f"{path}, line {number}: {len(fields)} columns expected")
    return Batch([row["summary"] for row in rows], [[row[f] for f in ref_fields] for row in rows],
                 [row["source"] for row in rows] if "source" in fields else None)


def _split_all(texts: list[str], separator: str) -> list[str]:
    return [t.replace(separator, "\n") for t in texts]
