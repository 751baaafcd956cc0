"""The NIST summarization releases the papers used (DUC 2001-2003, 2007; TAC 2008-2011), from a local copy.

NIST licenses these data for research, so nothing here downloads them: whoever holds a release runs
``rougelab data add tac2008 PATH`` (``add``), which reads it, checks it, converts it to the table every
other dataset has (``rougelab.data.loaders``: ``dataset, doc_id, system_id, source, references, summary``
and one float column per manual score) and stores that table in the cache (``cache_dir("nist", name)``),
never in the repository. ``load_dataset("tac2008")`` then reads it back (``load``).

Four layouts are read (``rougelab.data.nist_duc`` reads DUC's own two):

``tac``
    TAC's evaluation release as NIST distributes it (``UpdateSumm08_eval``, ``UpdateSumm09_eval``,
    ``GuidedSumm2010_eval``, ``GuidedSumm2011_eval``; the folder or its ``.tar.gz``/``.tgz``):
    ``ROUGE/models/`` and ``ROUGE/peers/`` hold one summary per file, named
    ``D0801-A.M.100.A.<summarizer>`` (topic and document set, then the summarizer: a letter for a
    NIST assessor's model summary, a number for a peer); ``manual/manual.peer`` (TAC 2008) or
    ``manual/manual.peer.A`` / ``.B`` (TAC 2009-2011) hold one line per peer summary: topic-set,
    summarizer, modified pyramid score, number of SCUs, repetitions, then (TAC 2008) one column,
    (TAC 2009-2011) two columns, then the jackknifed pyramid score, linguistic quality and overall
    responsiveness. Every peer summary becomes a row whose references are the set's model summaries.
``sacrerouge``
    The JSONL that ``sacrerouge setup-dataset`` prepares from the same releases (any year): a
    ``*summaries.jsonl`` (per line ``instance_id``, ``summarizer_id``, ``summarizer_type``, ``summary``
    and ``references``, each ``{"summarizer_id", "summarizer_type", "text": [sentences]}``) and the
    ``*metrics.jsonl`` beside it (per line ``instance_id``, ``summarizer_id``, ``summarizer_type`` and
    ``metrics``, nested dicts of scores). Peer rows are kept; the manual scores among the metrics
    (``MANUAL``; nested keys joined by ``_``, e.g. ``coverage_mean``) become the score columns.
``see`` (DUC 2002, 2003) and ``duc2007``
    NIST's DUC results as distributed: see ``rougelab.data.nist_duc``. DUC 2002 and 2003 come as one
    release name per task and summary size (``duc2002`` single-document, ``duc2002-multi-10`` ...
    ``duc2003-task4``), each read from the same results folder.
DUC 2001 is read only from sacrerouge-style JSONL (``Release.unread`` says why): the file layout of its raw
results (the SEE peer files and judgment tables NIST hands out) is documented nowhere we found (NIST's results
page names no files or columns; sacrerouge reads only the documents and model summaries), and sacrerouge's
own DUC 2001 set-up writes no judgments, so its ``*metrics.jsonl`` must come from elsewhere.

Text keeps the release's lines (one sentence per line). Source documents come apart from the evaluation
files: ``add(..., documents=DOCS)`` reads them (``rougelab.data.nist_sources``); without them ``source``
is None.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from rougelab.data.nist_files import lines, peer_row, release_files
from rougelab.data.registry import DataError, entry
from rougelab.paths import cache_dir
from rougelab.safe_write import write_atomic


@dataclass(frozen=True)
class Release:
    """One NIST release: its title, the paper(s) whose tables it holds, the layouts ``add`` reads, and what of
    NIST's own files is not read, and why (``unread``: said when other files are given)."""

    name: str
    title: str
    papers: str
    layouts: tuple[str, ...]
    unread: str = ""


RELEASES: dict[str, Release] = {r.name: r for r in [
    Release("duc2001", "DUC 2001 (NIST)", "Lin 2004 (ROUGE)", ("sacrerouge",),
            unread="DUC 2001's raw results (SEE peer files and judgment tables) are not read: their file layout is "
                   "documented nowhere we found"),
    Release("duc2002", "DUC 2002 (NIST)", "Lin 2004 (ROUGE)", ("see", "sacrerouge")),
    *(Release(f"duc2002-multi-{size}", f"DUC 2002 multi-document abstracts, {size} words (NIST)",
              "Lin 2004 (ROUGE), Table 3", ("see", "sacrerouge")) for size in (10, 50, 100, 200)),
    Release("duc2003", "DUC 2003 (NIST)", "Lin 2004 (ROUGE)", ("see", "sacrerouge")),
    *(Release(f"duc2003-task{task}", f"DUC 2003 task {task}: 100-word multi-document summaries, {what} (NIST)",
              "Lin 2004 (ROUGE), Table 3", ("see", "sacrerouge"))
      for task, what in ((2, "TDT clusters"), (3, "TREC clusters, a viewpoint"), (4, "Novelty clusters, a question"))),
    Release("duc2007", "DUC 2007 (NIST)", "Wang et al. 2020 (Anchored ROUGE: tuning k)", ("duc2007", "sacrerouge")),
    Release("tac2008", "TAC 2008 Update Summarization (NIST)", "Wang et al. 2020 (Anchored ROUGE)",
            ("tac", "sacrerouge")),
    Release("tac2009", "TAC 2009 Update Summarization (NIST)", "Wang et al. 2020 (Anchored ROUGE)",
            ("tac", "sacrerouge")),
    Release("tac2010", "TAC 2010 Guided Summarization (NIST)", "ShafieiBavani et al. 2018 (ROUGE-G: tuning)",
            ("tac", "sacrerouge")),
    Release("tac2011", "TAC 2011 Guided Summarization / AESOP (NIST)",
            "Ng & Abrecht 2015 (ROUGE-WE); ShafieiBavani et al. 2018 (ROUGE-G)", ("tac", "sacrerouge")),
]}

# Manual scores, by the names the table gives them (sacrerouge's nested keys joined by "_").
MANUAL = ("modified_pyramid_score", "modified_pyramid_score_jk", "num_scus", "num_repetitions",
          "linguistic_quality", "overall_responsiveness", "content_responsiveness", "responsiveness",
          "coverage_mean", "length_adjusted_coverage_mean",
          *(f"peer_quality_Q{i}" for i in range(1, 13)))
_TAC_NAME = re.compile(r"^(?P<topic>D\d+)-(?P<set>[A-Z])\.M\.\d+\.[A-Z]\.(?P<summarizer>[A-Za-z0-9]+)$")
_TABLE, _META = "table.jsonl", "meta.json"


def release(name: str) -> Release:
    """The release called ``name``; ``DataError`` listing the known ones otherwise."""
    return entry(RELEASES, name, "NIST release")


def _folder(name: str) -> Path:
    return cache_dir("nist", name)


def is_added(name: str) -> bool:
    """Whether ``add`` has stored release ``name`` in the cache."""
    return (_folder(release(name).name) / _META).is_file()


# --- the TAC layout -------------------------------------------------------------------------------------

_TAC_FILES = re.compile(r"(^|/)(ROUGE/(models|peers)/[^/]+|manual/manual\.peer(\.[AB])?)$")


def _manual_peer_scores(line: str, where: str) -> tuple[str, str, dict[str, float]]:
    columns = line.split()
    if len(columns) not in (9, 10):
        raise DataError(f"{where}: a manual.peer line has {len(columns)} columns, expected 9 (TAC 2008) "
                        f"or 10 (TAC 2009-2011): {line!r}")
    values = [float(c) for c in columns[2:]]
    jk, lq, resp = values[-3:]
    return columns[0], columns[1], {"modified_pyramid_score": values[0], "num_scus": values[1],
                                    "num_repetitions": values[2], "modified_pyramid_score_jk": jk,
                                    "linguistic_quality": lq, "overall_responsiveness": resp}


def read_tac(path: Path) -> list[dict]:
    """Rows of a TAC evaluation release (see the module docstring)."""
    files = release_files(path, _TAC_FILES)
    summaries: dict[tuple[str, str], dict[str, str]] = {}
    for name, data in files.items():
        if "/manual/" in f"/{name}":
            continue
        match = _TAC_NAME.match(name.rsplit("/", 1)[-1])
        if not match:
            raise DataError(f"{path}: {name}: not a TAC summary file name (expected like D0801-A.M.100.A.3)")
        topic_set = f"{match['topic']}-{match['set']}"
        summaries.setdefault(topic_set, {})[match["summarizer"]] = "\n".join(lines(data))
    manual = [n for n in files if "manual/" in n]
    if not summaries or not manual:
        raise DataError(f"{path}: no TAC evaluation release here (expected ROUGE/models/, ROUGE/peers/ and "
                        f"manual/manual.peer*, as in NIST's UpdateSumm08_eval ... GuidedSumm2011_eval)")
    rows = []
    for name in manual:
        for line in files[name].decode("utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            topic_set, summarizer, scores = _manual_peer_scores(line, f"{path}: {name}")
            rows.append({**peer_row(summaries.get(topic_set, {}), topic_set, summarizer,
                                    scored_in=f"{path}: {name}", summaries_in="ROUGE/models/ and ROUGE/peers/"),
                         **scores})
    return rows


# --- sacrerouge's JSONL ---------------------------------------------------------------------------------

def _jsonl(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not readable JSON lines ({exc})") from None


def _flat(metrics: dict, prefix: str = "") -> dict[str, float]:
    out = {}
    for key, value in metrics.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flat(value, name + "_"))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = float(value)
    return out


def _sentences(summary, where: str) -> str:
    text = summary.get("text") if isinstance(summary, dict) else None
    if isinstance(text, str):
        return text.strip()
    if not isinstance(text, list):
        raise DataError(f"{where}: a summary without a 'text' list of sentences")
    return "\n".join(s.strip() for s in text if s.strip())


def _sacrerouge_pair(path: Path) -> tuple[Path, Path]:
    if path.is_file() and path.name.endswith("summaries.jsonl"):
        summaries = path
    else:
        found = sorted(path.glob("*summaries.jsonl")) if path.is_dir() else []
        if len(found) != 1:
            raise DataError(f"{path}: expected one sacrerouge *summaries.jsonl (found {len(found)}); "
                            f"name the file itself")
        summaries = found[0]
    metrics = summaries.with_name(summaries.name[:-len("summaries.jsonl")] + "metrics.jsonl")
    if not metrics.is_file():
        raise DataError(f"{summaries}: its metrics file {metrics.name} is missing beside it")
    return summaries, metrics


def read_sacrerouge(path: Path) -> list[dict]:
    """Peer rows of sacrerouge's prepared ``*summaries.jsonl`` and ``*metrics.jsonl`` (see the module docstring)."""
    summaries_path, metrics_path = _sacrerouge_pair(path)
    scores = {}
    for entry in _jsonl(metrics_path):
        flat = _flat(entry.get("metrics", {}))
        scores[(entry["instance_id"], entry["summarizer_id"])] = {k: v for k, v in flat.items() if k in MANUAL}
    rows = []
    for entry in _jsonl(summaries_path):
        if entry.get("summarizer_type") != "peer":
            continue
        key = (entry["instance_id"], entry["summarizer_id"])
        where = f"{summaries_path}: {key[0]}/{key[1]}"
        if key not in scores:
            raise DataError(f"{where}: no line in {metrics_path.name}")
        references = [_sentences(r, where) for r in entry.get("references", [])]
        if not references:
            raise DataError(f"{where}: no references")
        rows.append({"doc_id": str(key[0]), "system_id": str(key[1]), "source": None,
                     "references": references, "summary": _sentences(entry.get("summary"), where),
                     **scores[key]})
    return rows


# --- add / load -----------------------------------------------------------------------------------------

def _layout(path: Path, info: Release) -> str:
    if path.is_file() and path.name.endswith(".jsonl") or path.is_dir() and any(path.glob("*summaries.jsonl")):
        return "sacrerouge"
    return info.layouts[0] if info.layouts[0] != "sacrerouge" else "NIST's own files"


def _read(layout: str, path: Path, name: str) -> list[dict]:
    from rougelab.data import nist_duc

    if layout == "sacrerouge":
        return read_sacrerouge(path)
    if layout == "see":
        return nist_duc.read_see(path, name)
    if layout == "duc2007":
        return nist_duc.read_duc2007(path)
    return read_tac(path)


def add(name: str, path: str | Path, documents: str | Path | None = None) -> Path:
    """Read release ``name`` from ``path`` (any of its layouts), check it and store its table in the cache.

    ``documents``: the release's source documents (``rougelab.data.nist_sources``), which become the
    ``source`` column; without them ``source`` is None. Raises ``DataError`` naming what is wrong: an
    unknown name, a missing path, a layout this release does not come in, files that do not parse, a
    peer without references, a summary without scores or an input without its documents.
    Returns the cache folder.
    """
    info = release(name)
    path = Path(path)
    for given in (path, documents):
        if given is not None and not Path(given).exists():
            raise DataError(f"{given} does not exist: name the folder, archive or JSONL file of the {info.title}")
    layout = _layout(path, info)
    if layout not in info.layouts:
        raise DataError(f"{name} is read from {' or '.join(info.layouts)} files; {path} looks like {layout}"
                        + (f" ({info.unread})" if info.unread else ""))
    rows = _read(layout, path, name)
    if not rows:
        raise DataError(f"{path}: no peer summaries found")
    if documents is not None:
        from rougelab.data.nist_sources import attach_sources

        attach_sources(rows, Path(documents))
    columns = [c for c in MANUAL if any(c in r for r in rows)]
    if not columns:
        raise DataError(f"{path}: no manual scores ({', '.join(MANUAL[:6])}, ...) found")
    missing = [r for r in rows if any(c not in r for c in columns)]
    if missing:
        r = missing[0]
        raise DataError(f"{path}: {len(missing)} summaries lack some manual scores, e.g. "
                        f"{r['doc_id']}/{r['system_id']}: {[c for c in columns if c not in r]}")
    table = "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows).encode()
    folder = _folder(name)
    write_atomic(folder / _TABLE, table)
    meta = {"release": name, "layout": layout, "from": str(path.resolve()), "rows": len(rows),
            "sources": str(Path(documents).resolve()) if documents is not None else None,
            "human_columns": columns, "sha256": hashlib.sha256(table).hexdigest()}
    write_atomic(folder / _META, (json.dumps(meta, indent=1) + "\n").encode())
    return folder


def load(name: str) -> pd.DataFrame:
    """The table ``add`` stored for release ``name`` (columns as every dataset's, then its manual scores)."""
    from rougelab.data.loaders import BASE_COLUMNS

    info = release(name)
    folder = _folder(name)
    if not is_added(name):
        raise DataError(f"{name} ({info.title}) is licensed by NIST and not fetched: if you hold it, run "
                        f"`rougelab data add {name} PATH` (the {' or '.join(info.layouts)} files)")
    meta = json.loads((folder / _META).read_text())
    data = (folder / _TABLE).read_bytes()
    if hashlib.sha256(data).hexdigest() != meta["sha256"]:
        raise DataError(f"{folder / _TABLE} does not match its recorded SHA-256: run `rougelab data add {name} "
                        f"PATH` again")
    rows = [json.loads(line) for line in data.decode().splitlines()]
    humans = list(meta["human_columns"])
    frame = pd.DataFrame(rows, columns=BASE_COLUMNS[1:] + humans)
    frame.insert(0, "dataset", name)
    frame = frame.sort_values(["doc_id", "system_id"], kind="stable").reset_index(drop=True)
    return frame.astype({h: float for h in humans})


def human_columns(name: str) -> tuple[str, ...]:
    """The manual scores of an added release (empty if it is not added)."""
    if not is_added(name):
        return ()
    return tuple(json.loads((_folder(name) / _META).read_text())["human_columns"])


def describe() -> str:
    """One block per NIST release for ``rougelab data list``: added or not, and how to add it."""
    blocks = []
    for info in RELEASES.values():
        if is_added(info.name):
            meta = json.loads((_folder(info.name) / _META).read_text())
            sources = f"sources from {meta['sources']}" if meta.get("sources") else "no source documents"
            state = (f"added from {meta['from']} ({meta['layout']} layout; {sources}): {meta['rows']:,} peer "
                     f"summaries; manual scores: {', '.join(meta['human_columns'])}")
        else:
            state = f"not present (licensed by NIST): `rougelab data add {info.name} PATH` ({' or '.join(info.layouts)})"
        blocks.append(f"{info.name}: {info.title}\n  papers   {info.papers}\n  state    {state}")
    return "\n\n".join(blocks)
