"""The workbook as a static HTML site: nbconvert's lab pages plus a landing page, readable from disk.

``build_book`` reruns the notebooks whose executed copy is missing or older than its source or the
library, refuses any notebook with an error output, and writes ``index.html`` (the tour, the papers
from ``CITATION.cff``, each notebook's headline table: the output of its cell tagged ``headline``, and
the claims scorecards: the outputs of the cells tagged ``scorecard``) and one page per notebook, each with navigation and the run's facts (rougelab version, run date, the
data commits of the dataset registry). Figures are embedded in the pages, so nothing loads from a server.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rougelab.extras import require
from rougelab.paths import checkout_root
from rougelab.workbook import notebook_paths, run_workbook

HEADLINE_TAG = "headline"
SCORECARD_TAG = "scorecard"
TEMPLATE_DIR = Path(__file__).with_name("book_template")
LIBRARY = Path(__file__).resolve().parent


class BookError(RuntimeError):
    """The book cannot be built as it stands (a failed run, an error output, a missing headline cell)."""


@dataclass
class Page:
    """One notebook page: its file, title and short name for the navigation bar."""
    notebook: Path
    href: str
    title: str
    short: str


def _newest_library_file() -> float:
    """The newest library file a notebook's results can depend on (this renderer and the runner cannot)."""
    return max(p.stat().st_mtime for p in LIBRARY.rglob("*.py") if p.name not in ("book.py", "workbook.py"))


def _ran_to_the_end(executed: Path) -> bool:
    """Whether papermill finished this copy without an exception (an interrupted run leaves no end time)."""
    import json

    meta = json.loads(executed.read_text()).get("metadata", {}).get("papermill", {})
    return bool(meta.get("end_time")) and not meta.get("exception")


def stale_notebooks(executed_dir: Path, sources: list[Path]) -> list[Path]:
    """The sources whose executed copy in ``executed_dir`` is missing, unfinished, or older than the
    source or the newest library file."""
    newest_lib = _newest_library_file()
    stale = []
    for source in sources:
        executed = executed_dir / source.name
        if (not executed.exists() or executed.stat().st_mtime < max(source.stat().st_mtime, newest_lib)
                or not _ran_to_the_end(executed)):
            stale.append(source)
    return stale


def ensure_executed(executed_dir: Path, *, smoke: bool = False, sources: list[Path] | None = None) -> list[Path]:
    """Rerun what is stale (figures beside the executed copies); raise ``BookError`` if a run fails."""
    sources = notebook_paths() if sources is None else sources
    stale = stale_notebooks(executed_dir, sources)
    if stale:
        runs = run_workbook([p.name for p in stale], smoke=smoke, output_dir=executed_dir,
                            figures_dir=executed_dir / "figures", folder=stale[0].parent)
        failed = [f"{r.name}: {r.error}" for r in runs if not r.ok]
        if failed:
            raise BookError("cannot build the book, notebook runs failed:\n  " + "\n  ".join(failed))
    return [executed_dir / p.name for p in sources]


def error_outputs(nb) -> list[str]:
    """``cell N: ename: evalue`` for every error output of an executed notebook."""
    return [f"cell {i}: {o.get('ename')}: {o.get('evalue')}" for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code" for o in cell.get("outputs", []) if o.output_type == "error"]


def headline_outputs(nb, name: str) -> list[dict]:
    """The outputs of the notebook's one cell tagged ``headline``, which must show a table."""
    cells = [c for c in nb.cells if HEADLINE_TAG in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise BookError(f"{name}: {len(cells)} cells tagged {HEADLINE_TAG!r}; tag exactly one, "
                        "the cell whose output is the notebook's 'ours vs the paper' table")
    outputs = [o for o in cells[0].get("outputs", []) if "<table" in o.get("data", {}).get("text/html", "")]
    if not outputs:
        raise BookError(f"{name}: the cell tagged {HEADLINE_TAG!r} shows no table")
    return outputs


def scorecard_outputs(nb) -> list[dict]:
    """The outputs of the notebook's cells tagged ``scorecard`` (none for a notebook without claims)."""
    return [o for c in nb.cells if SCORECARD_TAG in c.get("metadata", {}).get("tags", []) for o in c.get("outputs", [])]


def title_of(nb, fallback: str) -> str:
    """The first Markdown heading of the notebook."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, flags=re.MULTILINE)
            if match:
                return match.group(1).strip()
    return fallback


def run_facts(nb) -> str:
    """When the notebook ran and whether it was a smoke run (from papermill's metadata)."""
    meta = nb.metadata.get("papermill", {})
    when = (meta.get("end_time") or "unknown date")[:16].replace("T", " ")
    kind = "smoke run (a small slice)" if meta.get("parameters", {}).get("smoke") else "full run"
    return f"{kind}, {when} UTC"


def data_pins() -> list[tuple[str, str]]:
    """(dataset, ``owner/repo@commit``) for every registered dataset."""
    from rougelab.data.registry import DATASETS

    return [(name, f"{d.repo}@{d.commit[:12]}") for name, d in DATASETS.items()]


def papers() -> list[str]:
    """The papers cited in ``CITATION.cff``, one bibliographic line each (Markdown)."""
    import yaml

    refs = yaml.safe_load((checkout_root() / "CITATION.cff").read_text())["references"]
    lines = []
    for ref in refs:
        authors = ", ".join(a.get("name") or f"{a['given-names']} {a['family-names']}" for a in ref["authors"])
        where = ref.get("collection-title", "")
        pages = f", pages {ref['start']}-{ref['end']}" if "start" in ref else ""
        year = f" ({ref['year']})" if "year" in ref else ""
        lines.append(f"{authors}{year}. *{ref['title']}*. {where}{pages}".rstrip(". ") + ".")
    return lines


# $...$ and $$...$$ outside code spans: TeX that the pages show as MathML (no MathJax from the network)
_CODE_OR_MATH = re.compile(r"(`+)(?:.|\n)*?\1|\$\$(.+?)\$\$|\$(?!\s)([^$]+?)(?<!\s)\$", flags=re.DOTALL)


def tex_to_mathml(markdown: str) -> str:
    """Markdown with its inline and display TeX replaced by MathML, which browsers render natively."""
    from latex2mathml.converter import convert

    def replace(match):
        if match.group(2) is not None:
            return convert(match.group(2).strip(), display="block")
        if match.group(3) is not None:
            return convert(match.group(3).replace("\n", " "))
        return match.group(0)  # a code span stays as it is

    return _CODE_OR_MATH.sub(replace, markdown)


def _with_mathml(nb):
    copy = nb.copy()
    copy.cells = [c.copy() for c in nb.cells]
    for cell in copy.cells:
        if cell.cell_type == "markdown":
            cell.source = tex_to_mathml(cell.source)
    return copy


def _exporter(**options):
    require("nbconvert", "latex2mathml", extra="lab", needed_for="the book")
    from nbconvert import HTMLExporter

    return HTMLExporter(template_name="lab", template_file=str(TEMPLATE_DIR / "book.html.j2"), **options)


def _landing_notebook(pages: list[Page], notebooks: dict, tour_intro: str):
    """The landing page as a notebook: the tour, the pages, the papers, then each headline table."""
    from nbformat import v4

    contents = "\n".join(f"| [{p.short}]({p.href}) | {p.title} |" for p in pages)
    cells = [
        v4.new_markdown_cell("# rougelab: the executed workbook\n\nROUGE and its successors, implemented, "
                             "tested and reproduced: each page is one notebook as it ran, with our numbers "
                             "beside the paper's.\n\n## The tour\n\n" + tour_intro
                             + f"\n\n## The pages\n\n| page | what |\n|---|---|\n{contents}"),
        v4.new_markdown_cell("## The papers\n\n" + "\n".join(f"* {line}" for line in papers())),
        v4.new_markdown_cell("## Ours vs the paper, notebook by notebook\n\nEach table is the output of the "
                             f"notebook's cell tagged `{HEADLINE_TAG}`; the page has the rest."),
    ]
    for page in pages:
        cells.append(v4.new_markdown_cell(f"### [{page.title}]({page.href})"))
        cell = v4.new_code_cell("")
        cell.outputs = headline_outputs(notebooks[page.href], page.notebook.name)
        cells.append(cell)
    cards = [(page, scorecard_outputs(notebooks[page.href])) for page in pages]
    if any(outputs for _, outputs in cards):
        cells.append(v4.new_markdown_cell("## Which claims held: the scorecards\n\nEach paper notebook opens with "
                                          "its claims, the tests run on them and the verdict the one rule gives; "
                                          "here they are together."))
    for page, outputs in cards:
        if outputs:
            cells.append(v4.new_markdown_cell(f"### [{page.title}]({page.href})"))
            cell = v4.new_code_cell("")
            cell.outputs = outputs
            cells.append(cell)
    return v4.new_notebook(cells=cells)


def _tour_intro(tour_nb) -> str:
    """The tour notebook's opening cell without its heading."""
    text = tour_nb.cells[0].source
    return re.sub(r"^#\s+.*\n*", "", text, count=1)


def build_book(executed_dir: str | Path = "build", output_dir: str | Path = "build/book", *,
               smoke: bool = False, sources: list[Path] | None = None) -> Path:
    """Write the site of ``sources`` (default: the workbook's notebooks) into ``output_dir`` and return
    its ``index.html``; the first notebook is the tour."""
    require("nbformat", "nbconvert", "yaml", "latex2mathml", extra="lab", needed_for="the book")
    import nbformat

    import rougelab

    executed_dir, output_dir = Path(executed_dir).resolve(), Path(output_dir).resolve()
    executed = ensure_executed(executed_dir, smoke=smoke, sources=sources)
    notebooks, pages, problems = {}, [], []
    for path in executed:
        nb = nbformat.read(path, as_version=4)
        problems += [f"{path.name}: {e}" for e in error_outputs(nb)]
        page = Page(path, f"{path.stem}.html", title_of(nb, path.stem), path.stem.split("_")[0])
        notebooks[page.href] = nb
        pages.append(page)
    if problems:
        raise BookError("error outputs in the executed notebooks (the book shows none):\n  " + "\n  ".join(problems))

    output_dir.mkdir(parents=True, exist_ok=True)
    exporter, pins = _exporter(), data_pins()
    landing_exporter = _exporter(exclude_input=True, exclude_output_prompt=True)  # tables without code
    nav = [{"href": p.href, "title": p.title, "short": p.short} for p in pages]
    tour = notebooks[pages[0].href]
    landing = _landing_notebook(pages, notebooks, _tour_intro(tour))
    documents = [("index.html", landing, run_facts(tour))] + [(p.href, notebooks[p.href], run_facts(notebooks[p.href]))
                                                              for p in pages]
    for k, (href, nb, facts) in enumerate(documents):
        book = {"here": href, "pages": nav, "version": rougelab.__version__, "run": facts, "data": pins,
                "prev": _step(documents, k - 1), "next": _step(documents, k + 1)}
        title = "rougelab book" if href == "index.html" else f"{title_of(nb, href)} · rougelab book"
        body, _ = (landing_exporter if k == 0 else exporter).from_notebook_node(_with_mathml(nb), resources={"book": book, "metadata": {"name": title}})
        (output_dir / href).write_text(body, encoding="utf-8")
    return output_dir / "index.html"


def _step(documents, k: int) -> dict | None:
    if not 0 <= k < len(documents):
        return None
    href = documents[k][0]
    return {"href": href, "short": "home" if href == "index.html" else Path(href).stem.split("_")[0]}
