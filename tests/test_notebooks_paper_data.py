"""Notebooks 01, 02, 03 and 05 with ``paper_data`` set: a generated release in NIST's layout (DUC 2002's SEE
results, TAC 2011 and TAC 2008 evaluation files, TAC 2008 source documents) is added to a temporary cache,
and the notebook's opening, parameters and paper-data cells run under papermill; the paper's table must render
beside ours (every row of the paper, finite numbers of ours) under the protocol line. Only those cells run:
the rest of each notebook runs in ``test_notebooks.py``'s smoke test, which leaves ``paper_data`` None."""
import io
import random
import tarfile

import nbformat
import pytest

from rougelab.data import nist
from rougelab.paths import cache_dir
from rougelab.workbook import run_notebook

NOTEBOOKS = __import__("pathlib").Path(__file__).resolve().parents[1] / "notebooks"
WORDS = ("storm coast power city officials rain wind flood homes roads schools river bridge police "
         "rescue crews damage families shelter water").split()
PEERS, TOPICS = ("1", "2", "3", "4", "5"), ("D1101-A", "D1102-A", "D1103-A")


def sentence(rng, n=9):
    return "the " + " ".join(rng.choice(WORDS) for _ in range(n)) + " ."


def write_tac(base, *, year_columns):
    """A TAC evaluation release: ROUGE/models, ROUGE/peers, manual/manual.peer[.A] (9 or 10 columns)."""
    rng = random.Random(7)
    lines = []
    for topic in TOPICS:
        for m in "ABCD":
            path = base / "ROUGE" / "models" / f"{topic}.M.100.A.{m}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{sentence(rng)}\n{sentence(rng)}\n")
        for p in PEERS:
            path = base / "ROUGE" / "peers" / f"{topic}.M.100.A.{p}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{sentence(rng)}\n{sentence(rng, 6)}\n")
            middle = " 1" if year_columns == 9 else " 1 9"
            lines.append(f"{topic} {p} {rng.random():.3f} 5 0{middle} {rng.random():.3f} {rng.randint(1, 5)} "
                         f"{rng.randint(1, 5)}")
    (base / "manual").mkdir()
    name = "manual.peer" if year_columns == 9 else "manual.peer.A"
    (base / "manual" / name).write_text("\n".join(lines) + "\n")
    return base


def write_tac_documents(path):
    rng = random.Random(3)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for topic in TOPICS:
            for k in range(2):
                docid = f"AFP_ENG_2005010{k}.00{topic[3:5]}"
                body = "".join(f"<P>\n{sentence(rng)} {sentence(rng)}\n</P>\n" for _ in range(3))
                text = f'<DOC id="{docid}" type="story">\n<TEXT>\n{body}</TEXT>\n</DOC>\n'.encode()
                info = tarfile.TarInfo(f"docs/{topic[:5]}A/{topic[:5]}A-A/{docid}")
                info.size = len(text)
                tar.addfile(info, io.BytesIO(text))
    path.write_bytes(buffer.getvalue())
    return path


def write_duc2002(base):
    """DUC 2002's SEE results: SEEpeers/*.tar.gz of 100-word single-document summaries and the results table."""
    rng = random.Random(11)
    phase1 = base / "abstracts" / "phase1"
    (phase1 / "SEEpeers").mkdir(parents=True)
    files, lines = {}, []
    for d, doc in enumerate(("AP880911-0016", "WSJ880912-0064", "FT923-5089")):
        for summarizer in ("G", "H", *PEERS):
            units = "".join(f'<a name="{i}" id="{i}">{sentence(rng)}</a><br>\n' for i in range(1, 4))
            files[f"peers/D06{d}.P.100.G.{summarizer}.{doc}.html"] = f"<html><body>\n{units}</body></html>\n"
            if summarizer in PEERS:
                lines.append(" ".join([f"D06{d}", "P", doc, "100", "47", "G", "H", "H", summarizer, "2"]
                                      + ["0"] * 12 + ["0.00", "5", "5", "0", "7", f"{rng.random():.3f}", "0.6",
                                                      "0.4", f"{rng.random():.3f}", "0.4", "0.2"]))
    with tarfile.open(phase1 / "SEEpeers" / "submittedpeers.tar.gz", "w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    (phase1 / "short.results.table").write_text("header\n\n" + "\n".join(lines) + "\n")
    return base


@pytest.fixture
def nist_cache(tmp_path, monkeypatch):
    """A temporary cache for the releases; the real cache's WordNet, embeddings and vectors linked in."""
    real = cache_dir()
    cache = tmp_path / "cache"
    cache.mkdir()
    for sub in ("wordnet", "embeddings", "word_vectors"):
        if (real / sub).is_dir():
            (cache / sub).symlink_to(real / sub)
    monkeypatch.setenv("ROUGELAB_CACHE", str(cache))
    return tmp_path


def run_paper_cells(stem, paper_data, tmp_path):
    """Run the opening, parameters and paper-data cells of notebook ``stem``; the paper cell's outputs."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    paper_cells = [c for c in nb.cells if c.cell_type == "code" and "for_paper(" in c.source]
    assert len(paper_cells) == 1, f"{stem}: one paper-data cell"
    nb.cells = nb.cells[:2] + paper_cells
    trimmed = tmp_path / "nb" / f"{stem}.ipynb"
    trimmed.parent.mkdir()
    nbformat.write(nb, trimmed)
    out = run_notebook(trimmed, tmp_path / "build", smoke=True, figures_dir=tmp_path / "figures",
                       parameters={"paper_data": paper_data})
    return nbformat.read(out, as_version=4).cells[-1].outputs


def check_rendered(outputs, paper_rows, protocol_words):
    """The protocol line, then the table with the paper's and our columns; ``paper_rows`` there with finite values
    of ours (rows whose metric is constant on the tiny fixture, e.g. ROUGE-9, may be NaN with a warning)."""
    shown = [o["data"] for o in outputs if o["output_type"] == "display_data"]
    protocol = next(d["text/markdown"] for d in shown if "text/markdown" in d)
    table = next(d for d in shown if "text/html" in d)
    assert all(w in protocol for w in protocol_words), protocol
    assert "pearson (paper)" in table["text/html"] and "pearson (ours)" in table["text/html"]
    lines = table["text/plain"].splitlines()
    for row in paper_rows:
        found = [line for line in lines if f" {row} " in f" {line} "]
        assert found and all("NaN" not in line for line in found), (row, table["text/plain"])


CASES = {
    "01_rouge_lin2004": ("duc2002", ["R-1", "R-SU4", "R-W-1.2"], ["Lin (2004)", "2 REFS", "recall",
                                                                  "jackknife", "coverage"]),
    "02_rouge_we_ng2015": ("tac2011", ["rouge-we-1", "rouge-su4"], ["Ng & Abrecht", "system level", "pooled"]),
    "03_rouge_g_shafieibavani2018": ("tac2011", ["ROUGE-G-1", "ROUGE-WE-SU4"], ["ROUGE-G recall (Eq. 4)"]),
    "05_anchored_rouge": ("tac2008", ["R-1", "BERTScore", "AncR-1", "AncR-2"], ["summary level", "TAC 2008"]),
}


@pytest.mark.parametrize("stem", list(CASES))
def test_paper_table_renders_beside_ours_on_the_papers_release(stem, nist_cache):
    release, rows, protocol_words = CASES[stem]
    raw = nist_cache / "raw"
    if release == "duc2002":
        nist.add("duc2002", write_duc2002(raw))
    elif release == "tac2011":
        nist.add("tac2011", write_tac(raw, year_columns=10))
    else:
        nist.add("tac2008", write_tac(raw, year_columns=9), documents=write_tac_documents(nist_cache / "docs.tgz"))
    check_rendered(run_paper_cells(stem, release, nist_cache), rows, protocol_words)


def test_without_the_release_the_cell_names_it_in_one_line(tmp_path):
    outputs = run_paper_cells("02_rouge_we_ng2015", None, tmp_path)
    line = next(o["data"]["text/markdown"] for o in outputs if o["output_type"] == "display_data")
    assert "rougelab data add tac2011 PATH" in line and "\n" not in line.strip()
