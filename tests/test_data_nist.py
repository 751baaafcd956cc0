"""NIST releases (``rougelab.data.nist``): fixtures written here in each documented layout (TAC's evaluation
release as a folder and as a tar, sacrerouge's prepared JSONL), added to a temporary cache and read back
through ``load_dataset`` with the columns every dataset has."""
import io
import json
import tarfile

import pytest

from rougelab.data import DataError, load_dataset
from rougelab.data import nist
from rougelab.data.loaders import BASE_COLUMNS

MODELS = {"A": "The storm hit the coast.\nThousands lost power.", "B": "A storm struck the coast on Monday."}
PEERS = {"3": "Storm hits coast.\nPower lost.", "12": "Officials met on Monday."}
# TAC 2008 manual.peer: topic-set, peer, pyramid, SCUs, repetitions, one column, pyramid jk, LQ, responsiveness.
MANUAL_2008 = "D0801-A 3 0.412 5 0 1 0.398 3 4\nD0801-A 12 0.000 0 1 0 0.000 2 1\n"
# TAC 2009-2011: two columns before the jackknifed pyramid.
MANUAL_2009 = "D0901-A 3 0.412 5 0 1 9 0.398 3 4\nD0901-A 12 0.000 0 1 0 9 0.000 2 1\n"


def tac_files(root: str, topic: str, manual_name: str, manual: str) -> dict[str, str]:
    files = {f"{root}/ROUGE/models/{topic}-A.M.100.A.{m}": text for m, text in MODELS.items()}
    files.update({f"{root}/ROUGE/peers/{topic}-A.M.100.A.{p}": text for p, text in PEERS.items()})
    files[f"{root}/manual/{manual_name}"] = manual
    return files


def write_folder(base, files):
    for name, text in files.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(text + "\n")
    return base


def write_tar(path, files):
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = (text + "\n").encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path


def check_table(table, name, doc_id):
    assert list(table.columns[:6]) == BASE_COLUMNS and (table["dataset"] == name).all()
    assert list(table["system_id"]) == ["12", "3"] and (table["doc_id"] == doc_id).all()
    assert table["references"].tolist() == [[MODELS["A"], MODELS["B"]]] * 2
    assert table.loc[1, "summary"] == PEERS["3"] and table["source"].isna().all()
    row = table.loc[1]
    assert (row["modified_pyramid_score"], row["modified_pyramid_score_jk"], row["linguistic_quality"],
            row["overall_responsiveness"], row["num_scus"]) == (0.412, 0.398, 3.0, 4.0, 5.0)
    assert table["overall_responsiveness"].dtype == float


def test_tac2008_folder_and_tac2009_tar_are_added_and_loaded(cache):
    folder = write_folder(cache / "raw", tac_files("UpdateSumm08_eval", "D0801", "manual.peer", MANUAL_2008))
    assert not nist.is_added("tac2008")
    with pytest.raises(DataError, match="rougelab data add tac2008 PATH"):
        load_dataset("tac2008")
    nist.add("tac2008", folder / "UpdateSumm08_eval")
    check_table(load_dataset("tac2008"), "tac2008", "D0801-A")
    archive = write_tar(cache / "UpdateSumm09_eval.tar.gz",
                        tac_files("UpdateSumm09_eval", "D0901", "manual.peer.A", MANUAL_2009))
    nist.add("tac2009", archive)
    check_table(load_dataset("tac2009"), "tac2009", "D0901-A")
    assert "tac2009: TAC 2009" in nist.describe() and "2 peer summaries" in nist.describe()


def test_sacrerouge_jsonl_is_added_for_any_year(cache):
    def summary(sid, text):
        return {"summarizer_id": sid, "summarizer_type": "reference" if sid.isalpha() else "peer",
                "text": text.split("\n")}
    refs = [summary(m, t) for m, t in MODELS.items()]
    lines, metrics = [], []
    for sid, text in [*PEERS.items(), ("A", MODELS["A"])]:
        kind = "reference" if sid.isalpha() else "peer"
        lines.append({"instance_id": "d0801-A", "summarizer_id": sid, "summarizer_type": kind,
                      "summary": summary(sid, text), "references": refs})
        scores = {"3": (0.412, 5, 3, 4), "12": (0.0, 0, 2, 1), "A": (0.9, 9, 5, 5)}[sid]
        metrics.append({"instance_id": "d0801-A", "summarizer_id": sid, "summarizer_type": kind,
                        "metrics": {"modified_pyramid_score": scores[0], "modified_pyramid_score_jk": 0.398,
                                    "num_scus": scores[1], "linguistic_quality": scores[2],
                                    "overall_responsiveness": scores[3], "rouge-2": {"recall": 9.1},
                                    "coverage": {"mean": 0.5}}})
    folder = cache / "prepared"
    folder.mkdir()
    (folder / "task1.A.summaries.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (folder / "task1.A.metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in metrics))
    nist.add("duc2007", folder / "task1.A.summaries.jsonl")
    table = load_dataset("duc2007")
    assert len(table) == 2 and "rouge-2_recall" not in table.columns and "coverage_mean" in table.columns
    assert table.loc[1, "references"] == [MODELS["A"], MODELS["B"]] and table.loc[1, "summary"] == PEERS["3"]
    assert table.loc[1, "modified_pyramid_score"] == 0.412 and nist.human_columns("duc2007")[0] == "modified_pyramid_score"


def test_bad_inputs_are_refused_with_the_reason(cache):
    with pytest.raises(DataError, match="unknown NIST release 'tac2012'"):
        nist.add("tac2012", cache)
    with pytest.raises(DataError, match="does not exist"):
        nist.add("tac2008", cache / "nowhere")
    with pytest.raises(DataError, match="is read from sacrerouge files"):
        nist.add("duc2001", write_folder(cache / "t", tac_files("X", "D0801", "manual.peer", MANUAL_2008)))
    empty = cache / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="no TAC evaluation release here"):
        nist.add("tac2008", empty)
    bad = write_folder(cache / "bad", tac_files("X", "D0801", "manual.peer", "D0801-A 3 0.4 5\n"))
    with pytest.raises(DataError, match="has 4 columns"):
        nist.add("tac2008", bad)
    orphan = write_folder(cache / "orphan", tac_files("X", "D0801", "manual.peer", MANUAL_2008.replace(" 12 ", " 99 ")))
    with pytest.raises(DataError, match="peer 99 of D0801-A"):
        nist.add("tac2008", orphan)
    nist.add("tac2008", write_folder(cache / "ok", tac_files("X", "D0801", "manual.peer", MANUAL_2008)))
    stored = nist._folder("tac2008") / "table.jsonl"
    stored.write_text(stored.read_text().replace("Storm", "Storms"))
    with pytest.raises(DataError, match="SHA-256"):
        load_dataset("tac2008")


def test_cli_adds_a_release_and_lists_which_are_present(cache, capsys):
    from rougelab.cli import main

    folder = write_folder(cache / "raw", tac_files("GuidedSumm2011_eval", "D1101", "manual.peer.A",
                                                    MANUAL_2009.replace("D0901", "D1101")))
    assert main(["data", "add", "tac2011", str(folder)]) == 0
    assert "tac2011: 2 peer summaries, 1 inputs x 2 systems" in capsys.readouterr().out
    assert main(["data", "add", "tac2011", str(cache / "nowhere")]) == 1
    assert "rougelab data add: error:" in capsys.readouterr().err
    assert main(["data", "list"]) == 0
    listing = capsys.readouterr().out
    assert "tac2011: TAC 2011" in listing and "added from" in listing
    assert "tac2010: TAC 2010" in listing and "not present (licensed by NIST)" in listing
