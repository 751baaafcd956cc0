"""Read a user's own summaries, references and sources for `rougelab score`.

Formats, chosen by file extension:

* plain text (any other extension): one text per line; ``--references`` may be given several
  times, one file per reference, each with as many lines as the summaries file;
* ``.jsonl``: one JSON object per line with keys ``summary``, ``references`` (a list of strings,
  or one string) and optionally ``source``;
* ``.csv``: a header with ``summary``, one or more ``reference...`` columns, optionally ``source``;
* ``.parquet`` (a file, or a folder of such files: a data set as Dask writes it): columns ``summary``,
  ``references`` (a list of strings per row) and optionally ``source``; needs ``pyarrow``, which the
  ``scale`` extra installs. ``rougelab score --dask`` lets its workers read it.

No other key or column is read, so any other (a typo such as ``refrence``) and any name given twice
(a JSON key, or a CSV column whose values would otherwise be silently dropped) is refused, named.

The name ``-`` is standard input, read as plain text (one of the files at most).

Every file is read as UTF-8; a byte-order mark at its start is dropped (spreadsheets write one).
Lines end at LF, CRLF or a lone CR, and nowhere else: U+2028, U+0085 and the other Unicode line
separators stay inside their text (they are valid inside JSON strings). Empty lines are kept as
empty texts (an empty summary scores 0) and reported in a warning; a file with no text at all is
refused. A file that is not UTF-8 (the message gives the line and byte offset), a JSONL line that
is not valid JSON or holds a non-string text (``"summary": null``), or a file whose length differs
from the summaries' raises ``InputError`` naming the file and line (counted from 1).
"""
from __future__ import annotations

import csv
import io
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from rougelab.metrics.base import InputError
from rougelab.warn import warn

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"
STDIN = "-"


@dataclass
class Batch:
    summaries: list[str]
    references: list[list[str]]
    sources: list[str] | None


def read_lines(path: str | Path, sentence_separator: str | None = None) -> list[str]:
    """The lines of a UTF-8 text file, one text each; ``sentence_separator`` becomes a newline."""
    lines = split_lines(_decode(path))
    if not lines:
        raise InputError(f"{path}: the file is empty (expected one text per line)")
    empty = [i + 1 for i, line in enumerate(lines) if not line.strip()]
    if empty:
        warn(f"{path}: {len(empty)} empty line(s) (first: line {empty[0]}) scored as empty texts")
    if sentence_separator:
        lines = [line.replace(sentence_separator, "\n") for line in lines]
    return lines


def split_lines(text: str) -> list[str]:
    """``text`` cut at LF, CRLF and lone CR only (no final empty line after a last line break)."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def read_batch(summaries: str | Path, references: list[str | Path] | None = None,
               sources: str | Path | None = None, sentence_separator: str | None = None) -> Batch:
    """Summaries, references and sources from files in any of the module's formats."""
    if sentence_separator is not None and not (isinstance(sentence_separator, str) and sentence_separator):
        raise InputError(f"sentence separator {sentence_separator!r}: give a non-empty string such as '<q>'")
    named = [str(p) for p in (summaries, *(references or ()), *([sources] if sources else []))]
    if named.count(STDIN) > 1:
        raise InputError("standard input ('-') can be read once: name files for the others")
    suffix = ".parquet" if is_parquet(summaries) else Path(summaries).suffix.lower()
    if suffix in (".jsonl", ".csv", ".parquet"):
        if references or sources:
            raise InputError(f"{summaries}: a {suffix} file holds the references and sources itself; "
                             "do not pass --references/--sources with it")
        batch = {".jsonl": _read_jsonl, ".csv": _read_csv, ".parquet": _read_parquet}[suffix](summaries)
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
    """The text of a UTF-8 file without its byte-order mark; ``InputError`` names what went wrong."""
    try:
        data = sys.stdin.buffer.read() if str(path) == STDIN else Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder: name a file") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read the file ({err.strerror})") from None
    start = len(_BOM) if data.startswith(_BOM) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as err:
        offset = start + err.start
        line = len(_BYTE_LINE_BREAK.findall(data, 0, offset)) + 1
        raise InputError(f"{path}, line {line} (byte offset {offset}): bytes that are not UTF-8 "
                         f"({err.reason}); re-encode the file as UTF-8") from None


def _same_length(summaries_path, summary_lines, other_path, other_lines) -> None:
    if len(other_lines) != len(summary_lines):
        raise InputError(f"{other_path} has {len(other_lines)} lines but {summaries_path} has "
                         f"{len(summary_lines)}: give one line per summary")


def _read_jsonl(path) -> Batch:
    summaries, references, sources, numbers = [], [], [], []
    for number, line in enumerate(split_lines(_decode(path)), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as err:
            raise InputError(f"{path}, line {number}: not valid JSON ({err.msg})") from None
        except RecursionError:
            raise InputError(f"{path}, line {number}: a JSON value nested too deeply to read") from None
        except _DuplicateKey as err:
            raise InputError(f"{path}, line {number}: the key {err.args[0]!r} appears twice in one object") from None
        if not isinstance(record, dict) or "summary" not in record or "references" not in record:
            raise InputError(f"{path}, line {number}: expected an object with 'summary' and 'references'")
        unknown = sorted(set(record) - set(_JSONL_KEYS))
        if unknown:
            raise InputError(f"{path}, line {number}: unknown key {', '.join(map(repr, unknown))} "
                             f"(the keys read: {', '.join(_JSONL_KEYS)})")
        refs = record["references"]
        refs = [refs] if isinstance(refs, str) else refs
        if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
            raise InputError(f"{path}, line {number}: 'references' must be a string or a non-empty list "
                             f"of strings, not {json.dumps(record['references'])[:60]}")
        for key in ("summary", "source"):
            if key in record and not isinstance(record[key], str):
                raise InputError(f"{path}, line {number}: '{key}' must be a string, not "
                                 f"{json.dumps(record[key])[:60]}")
        summaries.append(record["summary"])
        references.append(refs)
        sources.append(record.get("source"))
        numbers.append(number)
    if not summaries:
        raise InputError(f"{path}: no records (expected one JSON object per line)")
    has_source = [s is not None for s in sources]
    if any(has_source) and not all(has_source):
        raise InputError(f"{path}, line {numbers[has_source.index(False)]}: 'source' is missing here but "
                         "present on other lines")
    return Batch(summaries, references, sources if all(has_source) else None)


def _read_csv(path) -> Batch:
    # A source document may exceed the csv module's default field limit (131,072 characters).
    csv.field_size_limit(max(csv.field_size_limit(), 2**31 - 1))
    # newline="": the csv module itself ends rows at LF, CRLF or CR (and keeps line breaks in quotes).
    reader = csv.DictReader(io.StringIO(_decode(path), newline=""))
    fields = reader.fieldnames or []
    twice = sorted({f for f in fields if fields.count(f) > 1})
    if twice:
        raise InputError(f"{path}: the header names the column {', '.join(map(repr, twice))} twice; "
                         "give each column its own name (reference1, reference2, ...)")
    ref_fields = [f for f in fields if f.startswith("reference")]
    if "summary" not in fields or not ref_fields:
        raise InputError(f"{path}: the header needs a 'summary' column and at least one "
                         f"'reference...' column (found: {', '.join(fields) or 'nothing'})")
    unknown = [f for f in fields if f not in ("summary", "source") and not f.startswith("reference")]
    if unknown:
        raise InputError(f"{path}: unknown column {', '.join(map(repr, unknown))} in the header (the columns "
                         "read: summary, reference..., source)")
    rows = []
    for row in reader:
        if None in row or any(row[f] is None for f in fields):
            raise InputError(f"{path}, line {reader.line_num}: {len(fields)} columns expected")
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no rows after the header")
    return Batch([row["summary"] for row in rows], [[row[f] for f in ref_fields] for row in rows],
                 [row["source"] for row in rows] if "source" in fields else None)


_JSONL_KEYS = ("summary", "references", "source")


def is_parquet(path: str | Path) -> bool:
    """A ``.parquet`` file, or a folder of them."""
    path = Path(path)
    return path.suffix.lower() == ".parquet" or (path.is_dir() and any(path.glob("*.parquet")))


def check_parquet_columns(path, columns) -> None:
    """Refuse Parquet data without ``summary`` and ``references`` or with a column not read."""
    missing = [c for c in ("summary", "references") if c not in columns]
    unknown = [c for c in columns if c not in _JSONL_KEYS]
    if missing or unknown:
        raise InputError(f"{path}: Parquet data needs the columns summary, references (a list of strings) "
                         f"and optionally source; {'missing: ' + ', '.join(missing) if missing else ''}"
                         f"{'; ' if missing and unknown else ''}{'not read: ' + ', '.join(unknown) if unknown else ''}")


def _read_parquet(path) -> Batch:
    from rougelab.extras import require

    require("pyarrow", extra="scale", needed_for="reading Parquet")
    import pandas as pd

    frame = pd.read_parquet(path)
    check_parquet_columns(path, list(frame.columns))
    if frame.empty:
        raise InputError(f"{path}: no rows")
    references = [[refs] if isinstance(refs, str) else list(refs) for refs in frame["references"]]
    return Batch(frame["summary"].tolist(), references,
                 frame["source"].tolist() if "source" in frame.columns else None)


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list) -> dict:
    """A JSON object as a dict, refusing a key given twice (``json`` would keep the last silently)."""
    record = dict(pairs)
    if len(record) < len(pairs):
        raise _DuplicateKey(next(k for i, (k, _) in enumerate(pairs) if any(k == p[0] for p in pairs[:i])))
    return record


def _split_all(texts: list[str], separator: str) -> list[str]:
    return [t.replace(separator, "\n") for t in texts]
