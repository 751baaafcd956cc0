"""DUC 2002, 2003 and 2007 as NIST distributes them: the rows ``rougelab.data.nist.add`` stores.

``see`` (DUC 2002, DUC 2003): the summaries Lin (2004) correlated, judged with SEE; one release name per task
    and target size (``SEE``), all read from the same results folder or archive.
    DUC 2002 (``results/``): ``abstracts/phase1/SEEpeers/*.tar.gz`` (``baseline1peers`` ... ``submittedpeers``,
    ``manualpeers``) hold each judged summary as ``<docset>.<P|M>.<size>.<assessor>.<summarizer>[.<document>].html``
    (size zero-padded: ``010``, ``050``), one SEE peer unit per ``<a id=...>`` element;
    ``abstracts/phase1/short.results.table`` has a header ended by a blank line, then one line per judgment of
    33 columns: document set, ``P``/``M``, document (``P``) or dashes (``M``), size, ..., summarizer (9th), 12
    quality answers, ..., mean / median / std coverage (28th-30th) and mean / median / std length-adjusted
    coverage (31st-33rd). ``duc2002``: the 100-word single-document summaries (Lin's Table 1);
    ``duc2002-multi-10`` / ``-50`` / ``-100`` / ``-200``: the multi-document abstracts of that size (Table 3),
    one row per peer and document set. The 200- and 400-word multi-document extracts are not read: they were
    judged by sentence precision / recall (``extracts/extracts.results.table``), not coverage, and the file
    layout of the peers' extracts (``extracts/*.extracts.tar``) is documented nowhere we found.
    DUC 2003 (``results/``): ``detagged.duc2003.abstracts.tar.gz`` holds task ``k``'s summaries under
    ``peer<j>.<k>/`` (the same names; a single-document summary's document is ``<source>.<number>``, e.g.
    ``APW19981016.0240``; HTML units or plain lines);
    ``original.results.corrected.improved.withPenaltyForExcess/short.results.table<k>`` has one line per
    judgment of 34 columns (no header; one more column than DUC 2002's before the quality answers: coverage
    from the 29th, length-adjusted coverage from the 32nd). ``duc2003``: task 1, 10-word single-document
    summaries (Lin's Table 2); ``duc2003-task2`` / ``-task3`` / ``-task4``: the ~100-word multi-document
    summaries of task 2 (TDT clusters), 3 (TREC clusters, a viewpoint) and 4 (Novelty track clusters, a
    question). The responsiveness and usefulness tables beside them are not read.
    Sources of these facts: NIST's DUC 2002 and 2003 task pages (tasks, sizes) and the file names and column
    positions sacrerouge's DUC 2002 / 2003 readers use (``sacrerouge/datasets/duc_tac/duc200[23]/metrics.py``).
    A row is a system or baseline summary (a numeric summarizer) of one document or document set, its
    references all the human summaries (lettered summarizers) of that input and size, its scores the mean
    coverage of its units (``coverage_mean``) and ``length_adjusted_coverage_mean`` (the mean over its
    judgments if it was judged more than once).
``duc2007`` (DUC 2007 main task): ``mainEval/ROUGE/models/`` and ``mainEval/ROUGE/peers/``, one summary
    per file named ``<topic>.M.250.<selector>.<summarizer>``; ``mainEval/manual/content.table`` (6 header
    lines; topic, ..., summarizer in the 4th column, content responsiveness in the 5th),
    ``mainEval/manual/linguistic_quality.table`` (7 header lines; topic, ..., summarizer, question,
    score), and where the pyramid release is beside it ``mainPyramidEval/scoring/2007_modified_scores.txt``
    (topic, summarizer, modified pyramid score, SCUs, repetitions; only the topics that had a pyramid:
    the others get no pyramid score). ``linguistic_quality`` is the mean of the five questions' scores.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from rougelab.data.nist_files import lines, peer_row, release_files, untagged
from rougelab.data.registry import DataError

_UNIT = re.compile(r"<a\b[^>]*\bid\s*=[^>]*>(.*?)</a>", re.S | re.I)


@dataclass(frozen=True)
class SeeLayout:
    """One SEE-judged task: where its summaries and results table are, which judgments are its own (``kind``
    ``P`` single-document or ``M`` multi-document, target ``size`` in words) and the table's columns (0-based)."""

    summaries: re.Pattern
    table: re.Pattern
    kind: str
    size: int
    columns: int
    coverage: int
    header: bool   # the table opens with a header that a blank line ends

    @property
    def what(self) -> str:
        return f"{self.size}-word {'single' if self.kind == 'P' else 'multi'}-document summaries ({self.kind} lines)"


def _duc2002(kind: str, size: int) -> SeeLayout:
    return SeeLayout(re.compile(rf"(^|/)abstracts/phase1/SEEpeers/(.*/)?[^/]+\.{kind}\.[^/]+\.html$"),
                     re.compile(r"(^|/)abstracts/phase1/short\.results\.table$"), kind, size, 33, 27, True)


def _duc2003(task: int, kind: str, size: int) -> SeeLayout:
    return SeeLayout(re.compile(rf"(^|/)peer\d+\.{task}/[^/]+\.{kind}\.[^/]+\.html$"),
                     re.compile(rf"(^|/)original\.results\.corrected\.improved\.withPenaltyForExcess/"
                                rf"short\.results\.table{task}$"), kind, size, 34, 28, False)


SEE = {"duc2002": _duc2002("P", 100), **{f"duc2002-multi-{size}": _duc2002("M", size) for size in (10, 50, 100, 200)},
       "duc2003": _duc2003(1, "P", 10), **{f"duc2003-task{task}": _duc2003(task, "M", 100) for task in (2, 3, 4)}}
_SUMMARIZER = 8


def _units(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace")
    found = [untagged(u).replace("\n", " ") for u in _UNIT.findall(text)]
    return "\n".join(u for u in found if u) if found else untagged(text)


def _see_summaries(files: dict[str, bytes], layout: SeeLayout) -> dict[str, dict[str, str]]:
    """``{document or document set: {summarizer: text}}`` of ``layout``'s summaries (its kind and size)."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    single = layout.kind == "P"
    for name, data in files.items():
        if not layout.summaries.search(name):
            continue
        parts = name.rsplit("/", 1)[-1].split(".")
        if (len(parts) < 7 if single else len(parts) != 6) or not parts[2].isdigit():
            raise DataError(f"{name}: not a SEE summary file name (expected like "
                            f"{'D061.P.100.J.19.AP880911-0016.html' if single else 'D061.M.050.J.19.html'})")
        if int(parts[2]) == layout.size:
            out[".".join(parts[5:-1]) if single else parts[0].upper()][parts[4]] = _units(data)
    return out


def _see_judgments(name: str, data: bytes, layout: SeeLayout) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """``{(input, summarizer): [(coverage, length-adjusted coverage), ...]}`` of ``layout``'s lines; the input is
    the document (single-document lines) or the document set (multi-document lines)."""
    rows = data.decode("utf-8", errors="replace").splitlines()
    if layout.header:
        blank = next((i for i, line in enumerate(rows) if not line.strip()), None)
        if blank is None:
            raise DataError(f"{name}: no blank line ending the header")
        rows = rows[blank + 1:]
    out: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for number, line in enumerate(rows, 1):
        columns = line.split()
        if not columns:
            continue
        where = f"{name}: data line {number}"
        if len(columns) != layout.columns:
            raise DataError(f"{where} has {len(columns)} columns, expected {layout.columns}: {line.strip()!r}")
        if columns[1] != layout.kind or not columns[3].isdigit() or int(columns[3]) != layout.size:
            continue
        try:
            scores = (float(columns[layout.coverage]), float(columns[layout.coverage + 3]))
        except ValueError:
            raise DataError(f"{where}: coverage {columns[layout.coverage]!r} / "
                            f"{columns[layout.coverage + 3]!r} is not a number") from None
        out[(columns[2] if layout.kind == "P" else columns[0].upper(), columns[_SUMMARIZER])].append(scores)
    return out


def read_see(path: Path, name: str) -> list[dict]:
    """Rows of the DUC 2002 or 2003 task ``name`` (a key of ``SEE``) from NIST's results folder or archive."""
    layout = SEE[name]
    files = release_files(path, re.compile(f"{layout.summaries.pattern}|{layout.table.pattern}"))
    tables = [n for n in files if layout.table.search(n)]
    summaries = _see_summaries(files, layout)
    if len(tables) != 1 or not summaries:
        raise DataError(f"{path}: no {name} SEE results here (expected the {layout.what} and the results table "
                        f"matching {layout.summaries.pattern} and {layout.table.pattern}; found "
                        f"{len(tables)} table(s) and {sum(map(len, summaries.values()))} summaries)")
    judgments = _see_judgments(tables[0], files[tables[0]], layout)
    if not judgments:
        raise DataError(f"{path}: {tables[0]} has no judgments of {layout.what}: a partial release?")
    rows = []
    for (document, summarizer), judged in sorted(judgments.items()):
        if summarizer.isalpha():
            continue   # a human summary: it is among the references
        row = peer_row(summaries.get(document, {}), document, summarizer, scored_in=f"{path}: {tables[0]}",
                       summaries_in="the SEE summaries")
        rows.append({**row,
                     "coverage_mean": sum(c for c, _ in judged) / len(judged),
                     "length_adjusted_coverage_mean": sum(a for _, a in judged) / len(judged)})
    return rows


# --- DUC 2007 -------------------------------------------------------------------------------------------

_DUC2007 = re.compile(r"(^|/)(mainEval/ROUGE/(models|peers)/[^/]+|mainEval/manual/(content|linguistic_quality)"
                      r"\.table|mainPyramidEval/scoring/2007_modified_scores\.txt)$")


def _table_lines(files: dict[str, bytes], suffix: str, header: int, columns: int) -> list[tuple[str, list[str]]]:
    found = [n for n in files if n.endswith(suffix)]
    out = []
    for name in found:
        rows = files[name].decode("utf-8", errors="replace").splitlines()[header:]
        for number, line in enumerate(rows, header + 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < columns:
                raise DataError(f"{name}: line {number} has {len(fields)} columns, expected at least {columns}: "
                                f"{line.strip()!r}")
            out.append((f"{name}: line {number}", fields))
    return out


def _number(value: str, where: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise DataError(f"{where}: score {value!r} is not a number") from None


def read_duc2007(path: Path) -> list[dict]:
    """Rows of the DUC 2007 main task from NIST's ``mainEval`` (and ``mainPyramidEval``) files."""
    files = release_files(path, _DUC2007)
    summaries: dict[str, dict[str, str]] = defaultdict(dict)
    for name, data in files.items():
        if "/ROUGE/" in f"/{name}":
            parts = name.rsplit("/", 1)[-1].split(".")
            if len(parts) != 5:
                raise DataError(f"{name}: not a DUC 2007 summary file name (expected like D0701.M.250.A.A)")
            summaries[parts[0].upper()][parts[-1]] = "\n".join(lines(data))
    content = _table_lines(files, "/content.table", 6, 5)
    if not summaries or not content:
        raise DataError(f"{path}: no DUC 2007 main evaluation here (expected mainEval/ROUGE/models/, "
                        f"mainEval/ROUGE/peers/ and mainEval/manual/content.table)")
    scores: dict[tuple[str, str], dict] = defaultdict(dict)
    for where, f in content:
        scores[(f[0].upper(), f[3])]["content_responsiveness"] = _number(f[4], where)
    quality: dict[tuple[str, str], list[float]] = defaultdict(list)
    for where, f in _table_lines(files, "/linguistic_quality.table", 7, 6):
        quality[(f[0].upper(), f[3])].append(_number(f[5], where))
    pyramid = {(f[0].upper(), f[1]): (_number(f[2], where), _number(f[3], where), _number(f[4], where))
               for where, f in _table_lines(files, "/2007_modified_scores.txt", 0, 5)}
    pyramid_topics = {topic for topic, _ in pyramid}
    rows = []
    for (topic, summarizer), judged in sorted(scores.items()):
        if summarizer.isalpha():
            continue
        row = {**peer_row(summaries.get(topic, {}), topic, summarizer, scored_in=f"{path}: content.table",
                          summaries_in="mainEval/ROUGE/"), **judged}
        if quality:
            answers = quality.get((topic, summarizer))
            if not answers:
                raise DataError(f"{path}: linguistic_quality.table has no line for peer {summarizer} of {topic}")
            row["linguistic_quality"] = sum(answers) / len(answers)
        if pyramid:
            judged_pyramid = pyramid.get((topic, summarizer))
            if topic in pyramid_topics and judged_pyramid is None:
                raise DataError(f"{path}: 2007_modified_scores.txt has topic {topic} but not peer {summarizer}")
            values = judged_pyramid or (None, None, None)
            row.update(zip(("modified_pyramid_score", "num_scus", "num_repetitions"), values))
        rows.append(row)
    return rows
