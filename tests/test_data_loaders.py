"""Tidy loaders, checked against the raw upstream files (read here independently of the loaders)."""
import pickle
import re

import numpy as np
import pandas as pd
import pytest

from rougelab.data import DataError, dataset_path, fetch, load_dataset
from rougelab.data.fetch import read_verified
from rougelab.data.loaders import sentences_from_markers
from rougelab.data.safe_pickle import safe_loads
from mirror import MIRROR

BASE = ["dataset", "doc_id", "system_id", "source", "references", "summary"]
# name: (rows, docs, systems, references per doc, human columns), from issue 2 and the data README
SHAPES = {
    "summeval": (1600, 100, 16, 11, ["coherence", "consistency", "fluency", "relevance"]),
    "realsumm": (2500, 100, 25, 1, ["litepyramid_recall"]),
    "realsumm-bartscore": (2400, 100, 24, 1, ["litepyramid_recall"]),
    "realsumm-original": (2500, 100, 25, 1, ["litepyramid_recall"]),
    "newsroom": (420, 60, 7, 1, ["coherence", "fluency", "informativeness", "relevance"]),
    "pyrxsum": (1000, 100, 10, 1, ["litepyramid_recall"]),
    "qags-cnndm": (235, 235, 1, 1, ["fact"]),
    "qags-xsum": (239, 239, 1, 1, ["fact"]),
    "rank19": (746, 373, 2, 1, ["fact"]),
}


@pytest.fixture(scope="module", autouse=True)
def fetched():
    fetch(mirror=MIRROR if MIRROR.is_dir() else None, progress=False)


@pytest.fixture(scope="module")
def tables():
    return {name: load_dataset(name) for name in SHAPES}


def _norm(text):
    return re.sub(r"[^a-z0-9]", "", text.lower())


@pytest.mark.parametrize("name", SHAPES)
def test_shape_columns_and_order(tables, name):
    rows, docs, systems, refs, humans = SHAPES[name]
    table = tables[name]
    assert list(table.columns) == BASE + humans
    assert len(table) == rows
    assert table["doc_id"].nunique() == docs and table["system_id"].nunique() == systems
    assert table.groupby("doc_id")["system_id"].nunique().eq(systems).all()  # a full grid
    assert not table.duplicated(["doc_id", "system_id"]).any()
    assert set(table["references"].map(len)) == {refs}
    assert (table["dataset"] == name).all()
    keys = list(zip(table["doc_id"], table["system_id"]))
    assert keys == sorted(keys)


@pytest.mark.parametrize("name", SHAPES)
def test_no_empty_text_and_no_nan_score(tables, name):
    table = tables[name]
    humans = SHAPES[name][4]
    assert all(table[h].dtype == np.float64 for h in humans)
    assert not table[humans].isna().any().any()
    assert table["summary"].str.strip().ne("").all()
    assert table["references"].map(lambda refs: all(r.strip() for r in refs)).all()
    if name == "realsumm-original":  # documented: the authors' pickles hold no sources
        assert table["source"].isna().all()
    else:
        assert table["source"].str.strip().ne("").all()


@pytest.mark.parametrize("name, low, high", [("summeval", 1, 5), ("newsroom", 1, 5)])
def test_likert_scores_are_means_of_three_raters(tables, name, low, high):
    scores = tables[name][SHAPES[name][4]].to_numpy()
    assert scores.min() >= low and scores.max() <= high
    np.testing.assert_allclose(scores * 3, np.round(scores * 3), atol=1e-9)


def test_summeval_first_reference_is_the_original_highlight(tables):
    raw = safe_loads(read_verified("summeval", "SUM/SummEval/data.pkl"))
    first = tables["summeval"].groupby("doc_id")["references"].first()
    assert len(first) == 100
    for doc_id, refs in first.items():
        assert refs[0] == raw[doc_id]["ref_summ"]  # BARTScore's field for the CNN/DM highlight
        assert refs[1:] == raw[doc_id]["ref_summs"][1:]
    assert first.map(lambda refs: refs[0] != refs[1]).all()


def test_summeval_values_match_the_raw_pickle(tables):
    raw = safe_loads(read_verified("summeval", "SUM/SummEval/data.pkl"))
    row = tables["summeval"].set_index(["doc_id", "system_id"]).loc[
        ("dm-test-8764fb95bfad8ee849274873a92fb8d6b400eee2", "M11")]
    entry = raw["dm-test-8764fb95bfad8ee849274873a92fb8d6b400eee2"]["sys_summs"]["M11"]
    assert row["summary"] == entry["sys_summ"]
    assert row["coherence"] == pytest.approx(4 / 3) and row["consistency"] == 1.0
    assert row["fluency"] == 3.0 and row["relevance"] == pytest.approx(5 / 3)


@pytest.mark.parametrize("name, folder", [("realsumm", "REALSumm"), ("pyrxsum", "PyrXSum")])
def test_litepyramid_recall_recomputed_from_label_files(tables, name, folder):
    root = dataset_path(name)
    ids = (root / "ids.txt").read_text().split("\n")
    table = tables[name].set_index(["doc_id", "system_id"])["litepyramid_recall"]
    checked = 0
    for label_file in sorted((root / "labels").glob("*.label")):
        lines = label_file.read_text().split("\n")
        for doc_id, line in zip(ids, lines, strict=True):
            expected = np.array(line.split(), dtype=float).mean()
            assert table[(doc_id, label_file.stem)] == pytest.approx(expected, abs=1e-12)
            checked += 1
    assert checked == len(table)


@pytest.mark.parametrize("name", ["realsumm", "pyrxsum"])
def test_litepyramid_labels_align_with_scus(name):
    """The recall's denominator is the number of the reference's SCUs (SCUs.txt, tab separated)."""
    root = dataset_path(name)
    scu_lines = (root / "SCUs.txt").read_text().split("\n")
    n_scus = [len([u for u in line.split("\t") if u.strip()]) for line in scu_lines]
    for label_file in (root / "labels").glob("*.label"):
        label_lines = label_file.read_text().split("\n")
        assert [len(line.split()) for line in label_lines] == n_scus, label_file.name


def test_realsumm_reference_sentence_markers_become_lines(tables):
    raw = (dataset_path("realsumm") / "references.txt").read_text().split("\n")
    ids = (dataset_path("realsumm") / "ids.txt").read_text().split("\n")
    refs = tables["realsumm"].groupby("doc_id")["references"].first()
    for doc_id, line in zip(ids, raw):
        sentences = refs[doc_id][0].split("\n")
        assert len(sentences) == line.count("<t>") and "<t>" not in refs[doc_id][0]
        assert _norm("".join(sentences)) == _norm(line.replace("<t>", "").replace("</t>", ""))


def test_sentences_from_markers():
    assert sentences_from_markers("<t> a b . </t>  <t> c . </t>") == "a b .\nc ."
    assert sentences_from_markers("  plain text . ") == "plain text ."
    assert sentences_from_markers("<t> </t> <t> x </t>") == "x"


def test_realsumm_copies_agree_except_bart(tables):
    """Cross-check of the three REALSumm copies (documents matched by reference text)."""
    lite, bart, orig = (tables[n].assign(key=tables[n]["references"].map(lambda r: _norm(r[0])))
                        for n in ("realsumm", "realsumm-bartscore", "realsumm-original"))
    assert lite["key"].nunique() == bart["key"].nunique() == orig["key"].nunique() == 100

    def recall(table):
        return table.set_index(["key", "system_id"])["litepyramid_recall"]

    lite_r, orig_r = recall(lite), recall(orig)
    # The original release agrees with Lite2-3Pyramid on 24 systems x 100 documents ...
    agree = (orig_r - lite_r.reindex(orig_r.index)).abs().drop("abs_bart_out", level="system_id")
    assert len(agree) == 2400 and agree.max() < 1e-12
    # ... but its abs bart_out is a copy of its ext bart_out, so 75 abstractive scores differ.
    o_abs, o_ext = (orig.set_index(["key", "system_id"]).xs(s, level="system_id")
                    for s in ("abs_bart_out", "ext_bart_out"))
    assert o_abs["summary"].equals(o_ext["summary"].reindex(o_abs.index))
    abs_diff = (o_abs["litepyramid_recall"] - lite_r.xs("abs_bart_out", level="system_id")).abs()
    assert (abs_diff > 1e-9).sum() == 75
    # BARTScore's copy lost the abs_/ext_ prefix; its one bart_out.txt is the extractive BART.
    names = {s[4:]: s for s in lite["system_id"].unique() if s != "abs_bart_out"}
    bart_r = recall(bart.assign(system_id=bart["system_id"].str.removesuffix(".txt").map(names)))
    assert len(bart_r) == 2400 and bart_r.index.isin(lite_r.index).all()
    assert (bart_r - lite_r.reindex(bart_r.index)).abs().max() < 1e-12
    bart_bart = bart_r.xs("ext_bart_out", level="system_id")
    lite_abs = lite_r.xs("abs_bart_out", level="system_id").reindex(bart_bart.index)
    assert not np.allclose(bart_bart, lite_abs)


def test_restricted_unpickler_equals_pickle_on_the_released_files():
    """Oracle: the standard unpickler, on files whose SHA-256 has just been verified."""
    for name, path, numpy_scalars in [("summeval", "SUM/SummEval/data.pkl", False),
                                      ("newsroom", "SUM/Newsroom/data.pkl", False),
                                      ("realsumm-bartscore", "SUM/REALSumm/data.pkl", False),
                                      ("qags-cnndm", "SUM/QAGS_CNN/data.pkl", False),
                                      ("qags-xsum", "SUM/QAGS_XSUM/data.pkl", False),
                                      ("rank19", "SUM/Rank19/data.pkl", False),
                                      ("realsumm-original", "scores_dicts/abs.pkl", True),
                                      ("realsumm-original", "scores_dicts/ext.pkl", True)]:
        data = read_verified(name, path)
        ours = safe_loads(data, numpy_scalars=numpy_scalars)
        assert ours == pickle.loads(data)  # numpy scalars compare equal to the floats we decode


def test_rouge155_sample_is_not_a_table():
    with pytest.raises(DataError, match=r"dataset_path\('rouge155-sample'\)"):
        load_dataset("rouge155-sample")


def test_unknown_dataset():
    with pytest.raises(DataError, match="unknown dataset 'sumeval'; known: summeval, realsumm"):
        load_dataset("sumeval")


def test_loads_are_independent(tables):
    first = load_dataset("newsroom")
    first.loc[0, "summary"] = "changed"
    first.loc[0, "references"].append("extra")
    again = load_dataset("newsroom")
    pd.testing.assert_frame_equal(again, tables["newsroom"])


@pytest.mark.parametrize("name, path", [("qags-cnndm", "SUM/QAGS_CNN/data.pkl"),
                                        ("qags-xsum", "SUM/QAGS_XSUM/data.pkl"),
                                        ("rank19", "SUM/Rank19/data.pkl")])
def test_factual_sets_match_the_raw_pickle_and_the_reference_is_the_article(tables, name, path):
    raw = pickle.loads(read_verified(name, path))  # files just verified: the standard unpickler
    table = tables[name]
    assert (table["references"].map(lambda r: r[0]) == table["source"]).all()
    for doc_id, doc in raw.items():
        for system_id, entry in doc["sys_summs"].items():
            row = table.set_index(["doc_id", "system_id"]).loc[(str(doc_id), str(system_id))]
            assert row["summary"] == entry["sys_summ"] and row["fact"] == entry["scores"]["fact"]
            assert row["source"] == doc["src"] == doc["ref_summ"]


def test_rank19_pairs_one_correct_one_incorrect_summary(tables):
    table = tables["rank19"]
    pairs = table.groupby("doc_id")["system_id"].agg(lambda s: tuple(sorted(s)))
    assert set(pairs) == {("correct", "incorrect")}
    assert (table["fact"] == (table["system_id"] == "correct")).all()
