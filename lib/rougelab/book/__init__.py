"""The workbook as a book: the executed notebooks rendered by Sphinx, MyST-NB and the book theme.

``build_book`` reruns the notebooks whose executed copy is missing or older than its source or the
library (papermill, through the workbook runner), refuses any notebook with an error output, and renders
the executed copies as they are (MyST-NB's own execution is off): a landing page (the tour, the pages, the
papers from ``CITATION.cff``, each notebook's headline table: the output of its cell tagged ``headline``,
and the claims scorecards: the outputs of the cells tagged ``scorecard``) and one page per notebook, with
a sidebar of pages, the page's contents, search, and downloads of the executed notebook and its source.
The site reads from disk and loads nothing from the network (``extension.py``: formulas as MathML).
"""
from __future__ import annotations

import copy
import io
import re
import shutil
import tempfile
from pathlib import Path

from rougelab.extras import require
from rougelab.paths import checkout_root
from rougelab.workbook import notebook_paths, run_workbook

HEADLINE_TAG = "headline"
SCORECARD_TAG = "scorecard"
PACKAGE = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
SOURCES = "notebooks"   # the folder of the site that holds the source notebooks (without outputs)
EXTRA = "_extra"        # copied as it is into the site (Sphinx's html_extra_path): holds SOURCES


class BookError(RuntimeError):
    """The book cannot be built as it stands (a failed run, an error output, a missing headline cell)."""


def _newest_library_file() -> float:
    """The newest library file a notebook's results can depend on (the book and the runner cannot)."""
    return max(p.stat().st_mtime for p in PACKAGE.rglob("*.py")
               if HERE not in p.parents and p.name != "workbook.py")


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


def with_alt_text(nb):
    """A copy of ``nb`` whose figure cells carry, where MyST-NB reads it (``mystnb.image.alt``), the alt
    text their image output was displayed with (``rougelab.notebook.save_figure``)."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        alts = [o.get("metadata", {}).get("image/png", {}).get("alt") for o in cell.get("outputs", [])]
        alts = [a for a in alts if a]
        if alts:
            cell.metadata.setdefault("mystnb", {}).setdefault("image", {})["alt"] = "; ".join(dict.fromkeys(alts))
    return nb


def _shown_outputs(outputs: list[dict], origin: str):
    """A code cell showing ``outputs`` without its source (which names where they come from: MyST-NB
    skips a cell with no source)."""
    from nbformat import v4

    cell = v4.new_code_cell(f"# {origin}", metadata={"tags": ["remove-input"]})
    cell.outputs = outputs
    return cell


def landing_notebook(names: list[str], notebooks: dict, tour_intro: str):
    """The landing page as a notebook: the tour, the pages, the papers, then each headline table and
    each scorecard (their outputs as the notebooks showed them)."""
    from nbformat import v4

    titles = {name: title_of(notebooks[name], name) for name in names}
    contents = "\n".join(f"| [{name.split('_')[0]}]({name}.ipynb) | {titles[name]} |" for name in names)
    toctree = "```{toctree}\n:hidden:\n:maxdepth: 1\n\n" + "\n".join(names) + "\n```"
    cells = [
        v4.new_markdown_cell("# rougelab: the executed workbook\n\nROUGE and its successors, implemented, "
                             "tested and reproduced: each page is one notebook as it ran, with our numbers "
                             "beside the paper's.\n\n## The tour\n\n" + tour_intro
                             + f"\n\n## The pages\n\n| page | what |\n|---|---|\n{contents}\n\n{toctree}"),
        v4.new_markdown_cell("## The papers\n\n" + "\n".join(f"* {line}" for line in papers())),
        v4.new_markdown_cell("## Ours vs the paper, notebook by notebook\n\nEach table is the output of the "
                             f"notebook's cell tagged `{HEADLINE_TAG}`; the page has the rest."),
    ]
    for name in names:
        cells.append(v4.new_markdown_cell(f"### [{titles[name]}]({name}.ipynb)"))
        cells.append(_shown_outputs(headline_outputs(notebooks[name], f"{name}.ipynb"), f"{name}: {HEADLINE_TAG}"))
    cards = [(name, scorecard_outputs(notebooks[name])) for name in names]
    if any(outputs for _, outputs in cards):
        cells.append(v4.new_markdown_cell("## Which claims held: the scorecards\n\nEach paper notebook opens with "
                                          "its claims, the tests run on them and the verdict the one rule gives; "
                                          "here they are together."))
    for name, outputs in cards:
        if outputs:
            cells.append(v4.new_markdown_cell(f"### [{titles[name]}]({name}.ipynb)"))
            cells.append(_shown_outputs(outputs, f"{name}: {SCORECARD_TAG}"))
    landing = v4.new_notebook(cells=cells)
    landing.metadata = {k: v for k, v in notebooks[names[0]].metadata.items() if k in ("kernelspec", "language_info")}
    return landing


def _tour_intro(tour_nb) -> str:
    """The tour notebook's opening cell without its heading."""
    text = tour_nb.cells[0].source
    return re.sub(r"^#\s+.*\n*", "", text, count=1)


def sphinx_config(runs: dict[str, str], sources: dict[str, str]) -> dict:
    """Sphinx's settings for the book (there is no ``conf.py``): ``runs`` and ``sources`` map each page
    to its run facts and to its source notebook's place in the site."""
    import rougelab

    return {
        "project": "rougelab", "author": "the rougelab authors", "html_title": "rougelab book",
        "extensions": ["myst_nb", "rougelab.book.extension"],
        "html_theme": "sphinx_book_theme",
        # a second build in one process registers Sphinx's nodes again: not a problem of the book
        "suppress_warnings": ["app.add_node", "app.add_directive", "app.add_role"],
        "nb_execution_mode": "off",          # the workbook runner executed every notebook already
        "nb_ipywidgets_js": {},              # no widget scripts from a CDN
        "nb_merge_streams": True,
        "nb_render_markdown_format": "myst",  # Markdown outputs (the scorecards) with tables and formulas
        "myst_enable_extensions": ["dollarmath", "amsmath"],
        "html_math_renderer": "mathml",      # extension.py: formulas as MathML, no MathJax from the network
        "exclude_patterns": [EXTRA],
        "html_extra_path": [EXTRA],
        "html_static_path": [str(HERE / "static")], "html_css_files": ["book.css"],
        "templates_path": [str(HERE / "templates")],
        "html_copy_source": True, "html_sourcelink_suffix": "", "html_show_sourcelink": False,
        "html_last_updated_fmt": None,
        "html_show_search_summary": False,   # a snippet would be fetched from the page, which file:// refuses
        "html_context": {"default_mode": "light"},
        "html_theme_options": {"home_page_in_toc": True, "show_toc_level": 2, "use_fullscreen_button": False,
                               "navbar_persistent": [],   # search lives in the sidebar; not twice
                               "footer_content_items": ["run-facts.html"]},
        "rougelab_runs": runs, "rougelab_sources": sources,
        "rougelab_version": rougelab.__version__, "rougelab_data": data_pins(),
    }


def build_book(executed_dir: str | Path = "build", output_dir: str | Path = "build/book", *,
               smoke: bool = False, sources: list[Path] | None = None) -> Path:
    """Write the site of ``sources`` (default: the workbook's notebooks) into ``output_dir`` and return
    its ``index.html``; the first notebook is the tour."""
    require("nbformat", "yaml", "latex2mathml", "myst_nb", "sphinx_book_theme", extra="book", needed_for="the book")
    import nbformat

    executed_dir, output_dir = Path(executed_dir).resolve(), Path(output_dir).resolve()
    sources = notebook_paths() if sources is None else sources
    executed = ensure_executed(executed_dir, smoke=smoke, sources=sources)
    notebooks, problems = {}, []
    for path in executed:
        nb = nbformat.read(path, as_version=4)
        problems += [f"{path.name}: {e}" for e in error_outputs(nb)]
        notebooks[path.stem] = nb
    if problems:
        raise BookError("error outputs in the executed notebooks (the book shows none):\n  " + "\n  ".join(problems))

    names = [p.stem for p in executed]
    landing = landing_notebook(names, notebooks, _tour_intro(notebooks[names[0]]))
    runs = {name: run_facts(notebooks[name]) for name in names} | {"index": run_facts(notebooks[names[0]])}
    with tempfile.TemporaryDirectory(prefix="rougelab-book-") as work:
        work = Path(work)
        site = work / "site"
        (site / EXTRA / SOURCES).mkdir(parents=True)
        nbformat.write(landing, site / "index.ipynb")
        for name, source in zip(names, sources):
            nbformat.write(with_alt_text(notebooks[name]), site / f"{name}.ipynb")
            shutil.copyfile(source, site / EXTRA / SOURCES / source.name)
        _sphinx(site, work / "html", work / "doctrees",
                sphinx_config(runs, {name: f"{SOURCES}/{source.name}" for name, source in zip(names, sources)}))
        output_dir.mkdir(parents=True, exist_ok=True)
        shutil.copytree(work / "html", output_dir, dirs_exist_ok=True)
    return output_dir / "index.html"


def _sphinx(site: Path, html: Path, doctrees: Path, config: dict) -> None:
    """Build ``site`` into ``html``; a Sphinx warning (a broken link, an output it cannot show) is an error."""
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor

    nocolor()
    warnings = io.StringIO()
    app = Sphinx(str(site), None, str(html), str(doctrees), "html", confoverrides=config,
                 status=None, warning=warnings, freshenv=True)
    app.build()
    if warnings.getvalue().strip():
        raise BookError("Sphinx warned while building the book:\n"
                        + warnings.getvalue().strip().replace(str(site) + "/", ""))
