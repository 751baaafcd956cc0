"""``rougelab.paper_data``: without the release, one line naming it; with a (fixture) release added, the paper's
numbers beside ours, ours equal to system-level correlations written out here with scipy."""
import pandas as pd
import pytest
from scipy import stats

from rougelab.data import nist
from rougelab.paper_data import Row, paper_comparison, release_line
from rougelab.scoring import InputError

PEERS = {"1": "the storm hit the coast and thousands lost power", "2": "officials met on monday",
         "3": "a storm struck the coast"}
MODELS = {"A": "the storm hit the coast on monday", "B": "thousands lost power when a storm struck"}


def write_release(base):
    scores = {"D1101-A": {"1": (0.6, 3, 4), "2": (0.1, 4, 2), "3": (0.4, 2, 3)},
              "D1102-A": {"1": (0.5, 2, 3), "2": (0.2, 3, 1), "3": (0.45, 4, 3)}}
    lines = []
    for topic_set, peers in scores.items():
        for m, text in MODELS.items():
            path = base / "ROUGE" / "models" / f"{topic_set}.M.100.A.{m}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text + "\n")
        for p, (pyramid, lq, resp) in peers.items():
            path = base / "ROUGE" / "peers" / f"{topic_set}.M.100.A.{p}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(PEERS[p] + (" today" if topic_set.endswith("2-A") else "") + "\n")
            lines.append(f"{topic_set} {p} {pyramid} 5 0 1 9 {pyramid} {lq} {resp}")
    (base / "manual").mkdir()
    (base / "manual" / "manual.peer.A").write_text("\n".join(lines) + "\n")
    return base


def test_without_the_release_one_line_names_it():
    line = paper_comparison(None, ("tac2011",), {"ROUGE-1": "rouge-1"}, pd.DataFrame())
    assert line == release_line(("tac2011",)) and "rougelab data add tac2011 PATH" in line
    assert "TAC 2011" in line and line.count("\n") == 0


def test_with_the_release_ours_sit_beside_the_papers(tmp_path, monkeypatch):
    from rougelab.rouge import rouge

    def folder(name):   # the release in tmp_path; scores and compiled kernels stay in the usual cache
        (tmp_path / name).mkdir(exist_ok=True)
        return tmp_path / name
    monkeypatch.setattr(nist, "_folder", folder)
    nist.add("tac2011", write_release(tmp_path / "GuidedSumm2011_eval"))
    paper = pd.DataFrame({"pearson": [0.9, 0.8], "spearman": [0.7, 0.6], "kendall": [0.5, 0.4]},
                         index=pd.MultiIndex.from_tuples([("Pyramid", "ROUGE-1"), ("Responsiveness", "ROUGE-1")],
                                                         names=["table", "metric"]))
    out = paper_comparison("tac2011", ("tac2011",), {"ROUGE-1": "rouge-1"}, paper)
    assert list(out.index) == list(paper.index) and out.loc[("Pyramid", "ROUGE-1"), "pearson (paper)"] == 0.9
    table = nist.load("tac2011")
    table["r1"] = rouge(list(table.summary), [list(r) for r in table.references], measures=["rouge-1"])["rouge1_f"]
    systems = table.groupby("system_id")[["r1", "modified_pyramid_score", "overall_responsiveness"]].mean()
    for criterion, column in (("Pyramid", "modified_pyramid_score"), ("Responsiveness", "overall_responsiveness")):
        row = out.loc[(criterion, "ROUGE-1")]
        assert row["pearson (ours)"] == pytest.approx(stats.pearsonr(systems.r1, systems[column])[0])
        assert row["spearman (ours)"] == pytest.approx(stats.spearmanr(systems.r1, systems[column])[0])
        assert row["kendall (ours)"] == pytest.approx(stats.kendalltau(systems.r1, systems[column])[0])
    with pytest.raises(InputError, match="this paper's table is on tac2008"):
        paper_comparison("tac2011", ("tac2008",), {"ROUGE-1": "rouge-1"}, paper)
    # a Row names which of R / P / F is correlated (the paper's score), not the registry's primary F
    recall = paper_comparison("tac2011", ("tac2011",), {"ROUGE-1": Row("rouge-1", "r")}, paper)
    table["r1_recall"] = rouge(list(table.summary), [list(r) for r in table.references],
                               measures=["rouge-1"])["rouge1_r"]
    systems = table.groupby("system_id")[["r1_recall", "modified_pyramid_score"]].mean()
    assert recall.loc[("Pyramid", "ROUGE-1"), "pearson (ours)"] == pytest.approx(
        stats.pearsonr(systems.r1_recall, systems.modified_pyramid_score)[0])
    assert recall.loc[("Pyramid", "ROUGE-1"), "pearson (ours)"] != pytest.approx(out.loc[("Pyramid", "ROUGE-1"),
                                                                                         "pearson (ours)"])
    with pytest.raises(InputError, match="score='x': choose r, p or f"):
        paper_comparison("tac2011", ("tac2011",), {"ROUGE-1": Row("rouge-1", "x")}, paper)


def test_each_notebook_paper_names_its_release_without_it():
    from rougelab.paper_data import for_paper

    for paper, release in (("lin2004", "duc2001"), ("ng2015", "tac2011"), ("shafieibavani2018", "tac2011"),
                           ("wang2020", "tac2008")):
        line = for_paper(paper, None)
        assert f"rougelab data add {release} PATH" in line and "\n" not in line
    with pytest.raises(InputError, match="no paper"):
        for_paper("lin2005", None)
    with pytest.raises(InputError, match="this paper's table is on tac2011"):
        for_paper("ng2015", "tac2008")


def test_lin2004_table3_on_duc2002_multi_document_abstracts(tmp_path, monkeypatch):
    """``paper_data="duc2002-multi-50"``: Table 3 (D2)'s STEM column beside ours, ours the system-level Pearson of
    jackknifed, stemmed ROUGE recall with mean SEE coverage, written out here with scipy."""
    from test_data_nist_duc import see_html, see_line, write_tar

    from rougelab.paper_data import for_paper
    from rougelab.rouge import rouge

    def folder(name):
        (tmp_path / name).mkdir(exist_ok=True)
        return tmp_path / name
    monkeypatch.setattr(nist, "_folder", folder)
    texts = {"I": "the storm hit the coast on monday", "J": "thousands lost power when a storm struck", **PEERS}
    coverage = {("D061", "1"): 0.6, ("D061", "2"): 0.1, ("D061", "3"): 0.35, ("D062", "1"): 0.5, ("D062", "2"): 0.2,
                ("D062", "3"): 0.3}
    phase1 = tmp_path / "results" / "abstracts" / "phase1"
    (phase1 / "SEEpeers").mkdir(parents=True)
    write_tar(phase1 / "SEEpeers" / "peers.tar.gz",
              {f"peers/{docset}.M.050.J.{s}.html": see_html([text + (" today" if docset == "D062" else "")])
               for docset in ("D061", "D062") for s, text in texts.items()})
    (phase1 / "short.results.table").write_text("header\n\n" + "\n".join(
        see_line(peer, value, value, kind="M", size="050").replace("D061", docset, 1)
        for (docset, peer), value in coverage.items()) + "\n")
    nist.add("duc2002-multi-50", tmp_path / "results")
    out = for_paper("lin2004", "duc2002-multi-50", score="r", multiref="jackknife")
    assert "Lin (2004) Table 3 (D2), 2 REFS, STEM" in out.attrs["protocol"]
    assert out.loc[("Coverage", "R-1"), "pearson (paper)"] == 0.48                 # Table 3 D2, STEM, R-1
    assert out.loc[("Coverage", "R-SU4"), "pearson (paper)"] == 0.46
    table = nist.load("duc2002-multi-50")
    table["r1"] = rouge(list(table.summary), [list(r) for r in table.references], measures=["rouge-1"], stem=True,
                        multiref="jackknife")["rouge1_r"]
    systems = table.groupby("system_id")[["r1", "coverage_mean"]].mean()
    assert out.loc[("Coverage", "R-1"), "pearson (ours)"] == pytest.approx(
        stats.pearsonr(systems.r1, systems.coverage_mean)[0])
    with pytest.raises(InputError, match="this paper's table is on duc2001, duc2002, duc2003, duc2002-multi-10"):
        for_paper("lin2004", "duc2003-task2")
