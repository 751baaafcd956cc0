"""DUC 2002, 2003 and 2007 in NIST's own layouts (``rougelab.data.nist_duc``) and source documents
(``rougelab.data.nist_sources``): fixtures written here with the documented file names and columns, added to
a temporary cache, read back through ``load_dataset``; bad files refused with the file and line named."""
import io
import tarfile

import pytest

from rougelab.data import DataError, load_dataset
from rougelab.data import nist
from rougelab.data.loaders import BASE_COLUMNS

DOC = "AP880911-0016"
HUMANS = {"I": "Hurricane Gilbert hit Jamaica.\nThousands fled.", "J": "A hurricane struck Jamaica on Sunday."}
PEERS = {"19": "Gilbert swept into Jamaica.\nWinds rose.", "27": "Officials met on Sunday."}


def see_html(units):
    body = "".join(f'<a name="{i}" id="{i}">{u}</a><br>\n' for i, u in enumerate(units, 1))
    return f"<html><head><title>x</title></head><body bgcolor=white>\n{body}</body></html>\n"


def see_line(summarizer, coverage, adjusted, *, kind="P", doc=DOC, size="100", year=2002):
    """One judgment: 33 columns (DUC 2002) or 34 (DUC 2003: one more before the 12 quality answers)."""
    lead = ["D061", kind, doc if kind == "P" else "---------------", size, "47", "J", "I", "I", summarizer, "2"]
    lead += ["0"] * (year == 2003)
    return " ".join(lead + ["0"] * 12 + ["0.00", "5", "5", "0", "7", f"{coverage:.3f}", "0.6", "0.4",
                                          f"{adjusted:.3f}", "0.420", "0.267"])


def write_tar(path, files):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            data = data if isinstance(data, bytes) else data.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def tar_bytes(files):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    return buffer.getvalue()


def duc2002(base, table_lines):
    phase1 = base / "results" / "abstracts" / "phase1"
    (phase1 / "SEEpeers").mkdir(parents=True)
    name = "D061.P.100.J.{}." + DOC + ".html"
    write_tar(phase1 / "SEEpeers" / "submittedpeers.tar.gz",
              {f"submittedpeers/{name.format(p)}": see_html(t.split("\n")) for p, t in PEERS.items()}
              | {"submittedpeers/D061.M.050.J.19.html": see_html(["a multi-document summary"])})
    write_tar(phase1 / "SEEpeers" / "manualpeers.tar.gz",
              {f"manualpeers/{name.format(h)}": see_html(t.split("\n")) for h, t in HUMANS.items()})
    header = "DUC 2002 phase 1 results\ncolumns: docset type doc size ...\n\n"
    (phase1 / "short.results.table").write_text(header + "\n".join(table_lines) + "\n")
    return base / "results"


DUC2002_LINES = [see_line("19", 0.6, 0.5), see_line("19", 0.4, 0.3), see_line("27", 0.2, 0.1),
                 see_line("I", 0.9, 0.8), see_line("19", 0.1, 0.1, kind="M", size="050")]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_duc2002_see_results_give_lins_single_document_rows(cache):
    nist.add("duc2002", duc2002(cache, DUC2002_LINES))
    table = load_dataset("duc2002")
    assert list(table.columns) == BASE_COLUMNS + ["coverage_mean", "length_adjusted_coverage_mean"]
    assert list(table.system_id) == ["19", "27"] and (table.doc_id == DOC).all()   # humans and M lines left out
    assert table.references.tolist() == [[HUMANS["I"], HUMANS["J"]]] * 2
    assert table.summary.tolist() == [PEERS["19"], PEERS["27"]]
    assert table.coverage_mean.tolist() == pytest.approx([0.5, 0.2])   # two judgments of 19: their mean
    assert table.length_adjusted_coverage_mean.tolist() == pytest.approx([0.4, 0.1])
    assert table.source.isna().all()


def test_duc2003_task1_archive_with_html_and_plain_summaries(cache):
    doc = "APW19981016.0240"
    results = cache / "results"
    results.mkdir()
    write_tar(results / "detagged.duc2003.abstracts.tar.gz", {
        f"duc2003/peer1.1/D30001.P.10.T.13.{doc}.html": "Storm hits Jamaica\n",
        f"duc2003/peer7.1/D30001.P.10.T.A.{doc}.html": see_html(["Hurricane batters Jamaica"]),
        f"duc2003/peer7.1/D30001.P.10.T.B.{doc}.html": see_html(["Jamaica storm"]),
        f"duc2003/peer2.2/D30001.M.100.T.13.html": "not task 1\n"})
    table = results / "original.results.corrected.improved.withPenaltyForExcess"
    table.mkdir()
    (table / "short.results.table1").write_text(
        see_line("13", 0.25, 0.2, doc=doc, size="10", year=2003) + "\n"
        + see_line("A", 1.0, 1.0, doc=doc, size="10", year=2003) + "\n")
    nist.add("duc2003", results)
    got = load_dataset("duc2003")
    assert got.system_id.tolist() == ["13"] and got.doc_id.tolist() == [doc]
    assert got.summary[0] == "Storm hits Jamaica" and got.references[0] == ["Hurricane batters Jamaica", "Jamaica storm"]
    assert got.coverage_mean[0] == 0.25 and got.length_adjusted_coverage_mean[0] == 0.2


def test_see_bad_input_names_the_file_and_line(cache):
    with pytest.raises(DataError, match=r"data line 2 has 5 columns, expected 33"):
        nist.add("duc2002", duc2002(cache / "a", [DUC2002_LINES[0], "D061 P x 100 47"]))
    with pytest.raises(DataError, match=r"data line 1: coverage 'n/a'"):
        nist.add("duc2002", duc2002(cache / "b", [see_line("19", 0.5, 0.5).replace("0.500", "n/a", 1)]))
    with pytest.raises(DataError, match="peer 31 of AP880911-0016, whose summary is not in the SEE summaries"):
        nist.add("duc2002", duc2002(cache / "c", [see_line("31", 0.5, 0.5)]))
    missing_table = duc2002(cache / "d", DUC2002_LINES)
    (missing_table / "abstracts" / "phase1" / "short.results.table").unlink()
    with pytest.raises(DataError, match=r"no duc2002 SEE results here .* found 0 table\(s\) and 4 summaries"):
        nist.add("duc2002", missing_table)
    assert not nist.is_added("duc2002")


CONTENT = "DUC 2007 content responsiveness\n" + "header\n" * 5   # 6 header lines
QUALITY = "DUC 2007 linguistic quality\n" + "header\n" * 6         # 7 header lines


def duc2007(base, *, content_lines=None, pyramid=True):
    files = {}
    for topic in ("D0701", "D0702"):
        for m in ("A", "B"):
            files[f"mainEval/ROUGE/models/{topic}.M.250.A.{m}"] = f"{topic} model {m} sentence one.\nTwo.\n"
        for p in ("1", "2"):
            files[f"mainEval/ROUGE/peers/{topic}.M.250.A.{p}"] = f"{topic} peer {p} says this.\n"
    content_lines = content_lines or [f"{t} A NIST {p} {s}" for t, p, s in
                                      (("D0701", "1", 4), ("D0701", "2", 2), ("D0702", "1", 3), ("D0702", "2", 1),
                                       ("D0701", "A", 5))]
    files["mainEval/manual/content.table"] = CONTENT + "\n".join(content_lines) + "\n"
    files["mainEval/manual/linguistic_quality.table"] = QUALITY + "".join(
        f"{t} A NIST {p} {q} {s}\n" for t, p, q, s in
        (("D0701", "1", 1, 4), ("D0701", "1", 2, 2), ("D0701", "2", 1, 3), ("D0702", "1", 1, 5), ("D0702", "2", 1, 1)))
    base.mkdir(parents=True)
    write_tar(base / "mainEval.tar.gz", files)
    if pyramid:
        write_tar(base / "mainPyramidEval.tar.gz", {"mainPyramidEval/scoring/2007_modified_scores.txt":
                                                    "D0701 1 0.512 7 1\nD0701 2 0.104 2 0\n"})
    return base


def test_duc2007_main_task_with_pyramid_where_present(cache):
    nist.add("duc2007", duc2007(cache / "duc2007"))
    table = load_dataset("duc2007")
    assert table[["doc_id", "system_id"]].values.tolist() == [["D0701", "1"], ["D0701", "2"], ["D0702", "1"],
                                                              ["D0702", "2"]]
    assert table.references[0] == ["D0701 model A sentence one.\nTwo.", "D0701 model B sentence one.\nTwo."]
    assert table.content_responsiveness.tolist() == [4, 2, 3, 1]
    assert table.linguistic_quality.tolist() == [3, 3, 5, 1]          # mean of the questions answered
    assert table.modified_pyramid_score[:2].tolist() == [0.512, 0.104] and table.modified_pyramid_score[2:].isna().all()
    assert table.num_scus[0] == 7 and table.num_repetitions[0] == 1
    with pytest.raises(DataError, match=r"content\.table: line 7: score 'x' is not a number"):
        nist.add("duc2007", duc2007(cache / "bad", content_lines=["D0701 A NIST 1 x"]))
    with pytest.raises(DataError, match=r"content\.table: line 7 has 3 columns, expected at least 5"):
        nist.add("duc2007", duc2007(cache / "short", content_lines=["D0701 A NIST"]))
    with pytest.raises(DataError, match="no DUC 2007 main evaluation here"):
        nist.add("duc2007", cache / "duc2007" / "mainPyramidEval.tar.gz")


def tac_document(docid, paragraphs):
    body = "".join(f"<P>\n{p}\n</P>\n" for p in paragraphs)
    return f'<DOC id="{docid}" type="story">\n<HEADLINE>\nHeadline\n</HEADLINE>\n<TEXT>\n{body}</TEXT>\n</DOC>\n'


def test_source_documents_become_the_source_column(cache, capsys):
    from test_data_nist import MANUAL_2008, tac_files, write_folder

    evaluation = write_folder(cache / "raw", tac_files("UpdateSumm08_eval", "D0801", "manual.peer", MANUAL_2008))
    inner = tar_bytes({"UpdateSumm08_test_docs_files/D0801A/D0801A-A/XIN_ENG_20050101.0002":
                       tac_document("XIN_ENG_20050101.0002", ["Second &amp; last."]),
                       "UpdateSumm08_test_docs_files/D0801A/D0801A-A/AFP_ENG_20050101.0001":
                       tac_document("AFP_ENG_20050101.0001", ["First paragraph.", "Second  one."]),
                       "UpdateSumm08_test_docs_files/D0801A/D0801A-B/AFP_ENG_20050102.0001":
                       tac_document("AFP_ENG_20050102.0001", ["Later news."])})
    documents = write_tar(cache / "TAC2008_Summarization_Documents.tgz",
                          {"TAC2008_Summarization_Documents/UpdateSumm08_test_docs_files.tar.gz": inner})
    from rougelab.cli import main

    assert main(["data", "add", "tac2008", str(evaluation / "UpdateSumm08_eval"), "--documents", str(documents)]) == 0
    assert f"no source documents" not in nist.describe() and f"sources from {documents}" in nist.describe()
    table = load_dataset("tac2008")
    assert (table.source == "First paragraph.\nSecond one.\n\nSecond & last.").all()
    # DUC 2002: a single-document summary's source is the document whose DOCNO is its doc_id
    docs = cache / "duc2002docs" / "d061j"
    docs.mkdir(parents=True)
    (docs / f"{DOC}.S").write_text(f"<DOC>\n<DOCNO> {DOC} </DOCNO>\n<TEXT>\n<s docid=\"{DOC}\" num=\"1\"> "
                                   f"Gilbert hit. </s>\n<s num=\"2\">It rained.</s>\n</TEXT>\n</DOC>\n")
    nist.add("duc2002", duc2002(cache / "d2", DUC2002_LINES), documents=cache / "duc2002docs")
    assert (load_dataset("duc2002").source == "Gilbert hit.\nIt rained.").all()
    (docs / f"{DOC}.S").write_text("<DOC>\n<DOCNO> AP000000-0000 </DOCNO>\n<TEXT>x</TEXT>\n</DOC>\n")
    with pytest.raises(DataError, match=f"no source document for {DOC}"):
        nist.add("duc2002", cache / "d2" / "results", documents=cache / "duc2002docs")
    with pytest.raises(DataError, match="does not exist"):
        nist.add("duc2002", cache / "d2" / "results", documents=cache / "nowhere")


# --- DUC 2002 multi-document abstracts, DUC 2003 tasks 2-4 (one release name per task and size) --------------

def multi_text(size, summarizer):
    return f"The {size}-word summary by {summarizer}.\nIts second unit."


def duc2002_multi(base, table_lines, *, humans=("I", "J")):
    """DUC 2002's results folder with multi-document SEE files (sizes 010 ... 200, zero-padded as NIST names
    them) for document set D061, its 100-word single-document files, and ``table_lines`` after the header."""
    phase1 = base / "results" / "abstracts" / "phase1"
    (phase1 / "SEEpeers").mkdir(parents=True)
    sizes = ("010", "050", "100", "200")

    def files(folder, summarizers):
        return {f"{folder}/D061.M.{size}.J.{s}.html": see_html(multi_text(int(size), s).split("\n"))
                for size in sizes for s in summarizers}
    write_tar(phase1 / "SEEpeers" / "submittedpeers.tar.gz", files("submittedpeers", ("19", "27"))
              | {f"submittedpeers/D061.P.100.J.19.{DOC}.html": see_html(["a single-document summary"])})
    write_tar(phase1 / "SEEpeers" / "baseline2peers.tar.gz", files("baseline2peers", ("2",)))
    write_tar(phase1 / "SEEpeers" / "manualpeers.tar.gz", files("manualpeers", humans)
              | {f"manualpeers/D061.P.100.J.I.{DOC}.html": see_html(["a human single-document summary"])})
    (phase1 / "short.results.table").write_text("DUC 2002 phase 1 results\n\n" + "\n".join(table_lines) + "\n")
    return base / "results"


MULTI_LINES = [see_line("19", 0.3, 0.25, kind="M", size="050"), see_line("27", 0.1, 0.05, kind="M", size="050"),
               see_line("2", 0.2, 0.2, kind="M", size="050"), see_line("I", 0.8, 0.8, kind="M", size="050"),
               see_line("19", 0.7, 0.6, kind="M", size="010"), see_line("19", 0.5, 0.4, kind="M", size="010"),
               see_line("19", 0.4, 0.4, kind="M", size="200"), see_line("19", 0.9, 0.9)]


def test_duc2002_multi_document_abstracts_one_release_per_size(cache, capsys):
    from rougelab.cli import main

    results = duc2002_multi(cache, MULTI_LINES)
    assert main(["data", "add", "duc2002-multi-50", str(results)]) == 0
    assert "duc2002-multi-50: 3 peer summaries, 1 inputs x 3 systems" in capsys.readouterr().out
    table = load_dataset("duc2002-multi-50")
    assert list(table.columns) == BASE_COLUMNS + ["coverage_mean", "length_adjusted_coverage_mean"]
    assert table[["doc_id", "system_id"]].values.tolist() == [["D061", "19"], ["D061", "2"], ["D061", "27"]]
    assert table.summary.tolist() == [multi_text(50, "19"), multi_text(50, "2"), multi_text(50, "27")]
    assert table.references[0] == [multi_text(50, "I"), multi_text(50, "J")]   # the 50-word abstracts only
    assert table.coverage_mean.tolist() == pytest.approx([0.3, 0.2, 0.1])
    assert table.length_adjusted_coverage_mean.tolist() == pytest.approx([0.25, 0.2, 0.05])
    nist.add("duc2002-multi-10", results)                 # the same folder: another size
    ten = load_dataset("duc2002-multi-10")
    assert ten.system_id.tolist() == ["19"] and ten.summary[0] == multi_text(10, "19")
    assert ten.references[0] == [multi_text(10, "I"), multi_text(10, "J")]
    assert ten.coverage_mean[0] == pytest.approx(0.6) and ten.length_adjusted_coverage_mean[0] == pytest.approx(0.5)
    nist.add("duc2002", results)                          # and the single-document task, untouched by M lines
    single = load_dataset("duc2002")
    assert single.system_id.tolist() == ["19"] and single.coverage_mean.tolist() == [0.9]
    assert "duc2002-multi-50: DUC 2002 multi-document abstracts, 50 words" in nist.describe()
    docs = cache / "duc2002docs" / "d061j"                # the document set's folder: its documents are the source
    docs.mkdir(parents=True)
    for docno, text in (("WSJ880912-0064", "Later."), ("AP880911-0016", "Earlier.")):
        (docs / f"{docno}.S").write_text(f"<DOC>\n<DOCNO> {docno} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n")
    nist.add("duc2002-multi-50", results, documents=cache / "duc2002docs")
    assert (load_dataset("duc2002-multi-50").source == "Earlier.\n\nLater.").all()
    assert not nist.is_added("duc2002-multi-200") and not nist.is_added("duc2002-multi-100")


def test_duc2002_multi_partial_release_names_the_missing_part(cache):
    with pytest.raises(DataError, match=r"short\.results\.table has no judgments of 100-word multi-document "
                                        r"summaries \(M lines\): a partial release\?"):
        nist.add("duc2002-multi-100", duc2002_multi(cache / "a", MULTI_LINES))
    with pytest.raises(DataError, match="D061 has no human summary in the SEE summaries"):
        nist.add("duc2002-multi-50", duc2002_multi(cache / "b", MULTI_LINES, humans=()))
    no_table = duc2002_multi(cache / "c", MULTI_LINES)
    (no_table / "abstracts" / "phase1" / "short.results.table").unlink()
    with pytest.raises(DataError, match=r"no duc2002-multi-200 SEE results here \(expected the 200-word "
                                        r"multi-document summaries .* found 0 table\(s\) and 5 summaries\)"):
        nist.add("duc2002-multi-200", no_table)
    bad_name = duc2002_multi(cache / "d", MULTI_LINES)
    write_tar(bad_name / "abstracts" / "phase1" / "SEEpeers" / "extra.tar.gz",
              {"extra/D061.M.050.J.19.x.html": see_html(["seven parts"])})
    with pytest.raises(DataError, match=r"D061\.M\.050\.J\.19\.x\.html: not a SEE summary file name "
                                        r"\(expected like D061\.M\.050\.J\.19\.html\)"):
        nist.add("duc2002-multi-50", bad_name)
    assert not any(nist.is_added(n) for n in ("duc2002-multi-50", "duc2002-multi-100", "duc2002-multi-200"))


DUC2003_TABLES = "original.results.corrected.improved.withPenaltyForExcess"
CLUSTERS = {2: "D30001", 3: "D31001", 4: "D40001"}   # one cluster per task; the tables judge 100-word M lines


def duc2003_results(base, *, tables=(2, 3, 4)):
    results = base / "results"
    (results / DUC2003_TABLES).mkdir(parents=True)
    files = {f"duc2003/peer1.1/D30001.P.10.T.13.APW19981016.0240.html": "a task 1 headline\n"}
    for task, cluster in CLUSTERS.items():
        files[f"duc2003/peer2.{task}/{cluster}.M.100.T.13.html"] = f"Task {task} peer 13 says this.\nAnd that.\n"
        files[f"duc2003/peer3.{task}/{cluster}.M.100.T.16.html"] = see_html([f"Task {task} peer 16."])
        for human in ("A", "B"):
            files[f"duc2003/peer7.{task}/{cluster}.M.100.T.{human}.html"] = see_html([f"Task {task} model {human}."])
    write_tar(results / "detagged.duc2003.abstracts.tar.gz", files)
    for task in tables:
        cluster = CLUSTERS[task]
        (results / DUC2003_TABLES / f"short.results.table{task}").write_text("".join(
            see_line(peer, cov, cov / 2, kind="M", size="100", year=2003).replace("D061", cluster, 1) + "\n"
            for peer, cov in (("13", 0.1 * task), ("16", 0.05 * task), ("A", 1.0))))
    return results


def test_duc2003_tasks_2_to_4_each_from_its_folders_and_table(cache, capsys):
    from rougelab.cli import main

    results = duc2003_results(cache)
    for task in (2, 3, 4):
        assert main(["data", "add", f"duc2003-task{task}", str(results)]) == 0
        got = load_dataset(f"duc2003-task{task}")
        assert got[["doc_id", "system_id"]].values.tolist() == [[CLUSTERS[task], "13"], [CLUSTERS[task], "16"]]
        assert got.summary.tolist() == [f"Task {task} peer 13 says this.\nAnd that.", f"Task {task} peer 16."]
        assert got.references[0] == [f"Task {task} model A.", f"Task {task} model B."]
        assert got.coverage_mean.tolist() == pytest.approx([0.1 * task, 0.05 * task])
        assert got.length_adjusted_coverage_mean.tolist() == pytest.approx([0.05 * task, 0.025 * task])
    assert "duc2003-task3: 2 peer summaries, 1 inputs x 2 systems" in capsys.readouterr().out
    # a multi-document summary's source: its set's documents (folder d30001t: document set D30001), DOCNO order
    docs = write_tar(cache / "task2.docs.tar.gz", {
        f"duc2003_testdata/task2/d30001t/{docno}": f"<DOC>\n<DOCNO> {docno} </DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"
        for docno, text in (("NYT19981002.0001", "Second story."), ("APW19981001.0001", "First story."))})
    nist.add("duc2003-task2", results, documents=docs)
    assert (load_dataset("duc2003-task2").source == "First story.\n\nSecond story.").all()


def test_duc2003_task_without_its_table_is_refused(cache):
    results = duc2003_results(cache, tables=(2, 3))
    with pytest.raises(DataError, match=r"no duc2003-task4 SEE results here .*short\\\.results\\\.table4\$; "
                                        r"found 0 table\(s\) and 4 summaries\)"):
        nist.add("duc2003-task4", results)
    assert not nist.is_added("duc2003-task4")


def test_duc2001_raw_files_are_refused_saying_why(cache):
    raw = duc2002_multi(cache, MULTI_LINES)
    with pytest.raises(DataError, match="is read from sacrerouge files; .* their file layout is documented nowhere"):
        nist.add("duc2001", raw)
