"""The dataset registry: upstream location, files with SHA-256, licence and caveats of each dataset.

The file lists and hashes are in ``manifest.json`` next to this module (written by
``python -m rougelab.data.make_manifest MIRROR``); everything a person wrote by hand
(licence, caveats, which files make up a dataset) is here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, TypeVar

MANIFEST = Path(__file__).with_name("manifest.json")
UPSTREAM = "https://raw.githubusercontent.com/"
T = TypeVar("T")


class DataError(RuntimeError):
    """A dataset is unknown, missing, corrupt or cannot be fetched; the message says what to do."""


@dataclass(frozen=True)
class FileEntry:
    """One upstream file: its path inside the repository, SHA-256 and size in bytes."""

    path: str
    sha256: str
    size: int


@dataclass(frozen=True)
class Dataset:
    """A registry entry.

    ``repo``/``commit`` pin the GitHub repository; ``root`` is the folder (inside the
    repository) that ``dataset_path`` returns; ``include`` lists the repository paths
    (files or folders) whose files make up the dataset. ``levels`` and ``coefs`` are the
    meta-evaluation levels and coefficients its design supports (``rougelab evaluate`` refuses
    the others): one system leaves only the global level; a set of pairs (Rank19) is judged by
    pairwise accuracy within each document.
    """

    name: str
    title: str
    repo: str
    commit: str
    root: str
    include: tuple[str, ...]
    licence: str
    caveats: str
    human_columns: tuple[str, ...] = ()
    levels: tuple[str, ...] = ("summary", "system", "global")
    coefs: tuple[str, ...] = ("pearson", "spearman", "kendall", "accuracy", "accuracy-half",
                              "accuracy-eq")

    @property
    def url_prefix(self) -> str:
        """``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/``."""
        return f"{UPSTREAM}{self.repo}/{self.commit}/"

    @property
    def relative_root(self) -> str:
        """``<owner>/<repo>/<commit>``: the same layout in a mirror and in the cache."""
        return f"{self.repo}/{self.commit}"

    @property
    def files(self) -> tuple[FileEntry, ...]:
        """The dataset's files, as recorded in ``manifest.json``."""
        entries = _manifest().get(self.name)
        if entries is None:
            raise DataError(f"dataset {self.name!r} has no entry in {MANIFEST}; "
                            "regenerate it with `python -m rougelab.data.make_manifest MIRROR`")
        return tuple(FileEntry(**e) for e in entries)


_BARTSCORE = ("neulab/BARTScore", "248f511cb34ae3753fc81f7d7a945de5bfe33458")
_LITEPYRAMID = ("ZhangShiyue/Lite2-3Pyramid", "cfa581a587d5441ee2d84e77c8602c83ec36ffd5")
_REALSUMM = ("neulab/REALSumm", "a5900e3e36c66ab064823831f7496c2d449a5545")
_ROUGE = ("summanlp/evaluation", "d4b74f6312beea06537b4666499f277798f3bf01")
_ROUGE_WE = ("ng-j-p/rouge-we", "0c09808b2387e69d1b7fba74591ebd8f332a431e")
_FACTUAL = ("the reference field repeats the article (`references == [source]`): these sets judge "
            "factual consistency with the source, so a reference-based metric is used "
            "reference-free, the article playing the reference; ")
_PTB = ("text is PTB-tokenised as released (`team 's`, `do n't`); sentences are not marked, "
        "so sentence-level metrics must split them (e.g. on ' . ')")

DATASETS: dict[str, Dataset] = {d.name: d for d in [
    Dataset(
        "summeval", "SummEval (Fabbri et al. 2021), BARTScore's copy", *_BARTSCORE,
        root="SUM/SummEval", include=("SUM/SummEval/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0; SummEval annotations MIT",
        caveats=_PTB + "; many system outputs are lower-cased, as in the original release; "
        "references[0] is the original CNN/DM highlight, then 10 crowd-written references; "
        "scores are the mean of 3 expert annotators (1-5)",
        human_columns=("coherence", "consistency", "fluency", "relevance")),
    Dataset(
        "realsumm", "REALSumm (Bhandari et al. 2020), Lite2-3Pyramid text layout", *_LITEPYRAMID,
        root="data/REALSumm", include=("data/REALSumm",),
        licence="no licence file upstream (REALSumm data CC BY 4.0): research use",
        caveats="25 systems (14 abstractive `abs_*`, 11 extractive `ext_*`); references carry "
        "<t> ... </t> sentence markers, converted here to one sentence per line; summaries and "
        "sources are plain single-line text kept as released (no sentence marks; sources "
        "lower-cased; 8 extractive systems lower-cased, the other 17 cased; 82 summaries keep PTB "
        "bracket tokens -lrb-/-rrb- where BARTScore's copy has ( )); "
        "litepyramid_recall = mean of the summary's 0/1 SCU-presence labels",
        human_columns=("litepyramid_recall",)),
    Dataset(
        "realsumm-bartscore", "REALSumm (Bhandari et al. 2020), BARTScore's copy", *_BARTSCORE,
        root="SUM/REALSumm", include=("SUM/REALSumm/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0; REALSumm data CC BY 4.0",
        caveats="24 systems, not 25: system names lost their abs_/ext_ prefix, so the "
        "abstractive and extractive `bart_out` collide; the `bart_out.txt` kept is the extractive "
        "one (its labels equal realsumm's ext_bart_out on all 100 documents); use `realsumm` for "
        "all 25 systems; " + _PTB,
        human_columns=("litepyramid_recall",)),
    Dataset(
        "realsumm-original", "REALSumm (Bhandari et al. 2020), original scores_dicts", *_REALSUMM,
        root="scores_dicts", include=("scores_dicts", "README.md", "LICENSE.txt",
                                      "selected_docs_for_human_eval"),
        licence="CC BY 4.0",
        caveats="for cross-checks only: abs.pkl's `bart_out` is a copy of ext.pkl's (same "
        "summaries and labels on all 100 documents), so the abstractive BART is only right in "
        "`realsumm`; no source documents (source is missing, NaN); numeric doc ids; "
        "sentences wrapped in <t> ... </t>, converted here to one sentence per line; the "
        "authors' own ROUGE and other metric scores are not loaded",
        human_columns=("litepyramid_recall",)),
    Dataset(
        "newsroom", "Newsroom human evaluation (Grusky et al. 2018), BARTScore's copy", *_BARTSCORE,
        root="SUM/Newsroom", include=("SUM/Newsroom/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0",
        caveats=_PTB + "; one reference per document; scores are the mean of 3 raters (1-5)",
        human_columns=("coherence", "fluency", "informativeness", "relevance")),
    Dataset(
        "pyrxsum", "PyrXSum (Zhang & Bansal 2021), Lite2-3Pyramid text layout", *_LITEPYRAMID,
        root="data/PyrXSum", include=("data/PyrXSum",),
        licence="no licence file upstream: research use",
        caveats="100 XSum documents x 10 systems, one single-sentence reference each; text kept "
        "as released (references cased; 7 of 10 systems lower-cased and PTB-tokenised, "
        "facebook-bart-large, google-pegasus and t5-large cased); "
        "litepyramid_recall = mean of the summary's 0/1 SCU-presence labels",
        human_columns=("litepyramid_recall",)),
    Dataset(
        "qags-cnndm", "QAGS-CNN/DM (Wang et al. 2020), BARTScore's copy", *_BARTSCORE,
        root="SUM/QAGS_CNN", include=("SUM/QAGS_CNN/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0; QAGS annotations released for research",
        caveats=_FACTUAL + "one summary per article from one system (id `0`, as released), so "
        "only the global level (all summaries pooled) is defined; `fact` = share of the "
        "summary's sentences that annotators judged consistent with the article (0-1)",
        human_columns=("fact",), levels=("global",), coefs=("pearson", "spearman", "kendall")),
    Dataset(
        "qags-xsum", "QAGS-XSum (Wang et al. 2020), BARTScore's copy", *_BARTSCORE,
        root="SUM/QAGS_XSUM", include=("SUM/QAGS_XSUM/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0; QAGS annotations released for research",
        caveats=_FACTUAL + "one single-sentence summary per article from one system (id `0`, as "
        "released), so only the global level is defined; `fact` is 0 or 1 on every summary",
        human_columns=("fact",), levels=("global",), coefs=("pearson", "spearman", "kendall")),
    Dataset(
        "rank19", "Rank19 (Falke et al. 2019), BARTScore's copy", *_BARTSCORE,
        root="SUM/Rank19", include=("SUM/Rank19/data.pkl", "SUM/README.md", "LICENSE"),
        licence="repository Apache-2.0; Rank19 annotations released for research",
        caveats=_FACTUAL + "two summaries per article, systems `correct` and `incorrect` "
        "(`fact` 1 and 0): not two summarizers, so no system level; a metric is judged by "
        "pairwise ranking accuracy, the share of articles whose correct summary it scores "
        "higher (`--level summary --coef accuracy`: ties count as wrong, as published; "
        "`accuracy-half` counts them as half)",
        human_columns=("fact",), levels=("summary",),
        coefs=("accuracy", "accuracy-half", "accuracy-eq")),
    Dataset(
        "rouge155-sample", "ROUGE-1.5.5 official sample test (Lin 2004)", *_ROUGE,
        root="ROUGE-RELEASE-1.5.5", include=("ROUGE-RELEASE-1.5.5",),
        licence="USC/ISI ROUGE research licence; WordNet 2.0 licence for the exception lists",
        caveats="not a table: dataset_path() gives the folder holding sample-test/, "
        "sample-output/ and data/; the Perl script itself is not included"),
    Dataset(
        "rouge-we-release", "ROUGE-WE authors' release (Ng & Abrecht 2015)", *_ROUGE_WE,
        root="", include=("ROUGE-WE-1.0.0.pl", "word2vec_server.m.py", "sample-config.xml",
                          "sample-data", "rouge_1.5.5_data", "README.md", "LICENSE"),
        licence="MIT",
        caveats="not a table: dataset_path() gives the folder holding ROUGE-WE-1.0.0.pl (ROUGE-1.5.5 "
        "extended to ask an HTTP server at 127.0.0.1:8888/word2vecdiff for the cosine of two grams' "
        "product-composed vectors) and the authors' server; the GoogleNews vectors it served are not "
        "included; the WordNet exception DB may be unreadable by a current Perl (rebuild it from the "
        ".exc files); the tests run the script against a local server answering from our vectors"),
]}


@lru_cache(maxsize=1)
def _manifest() -> dict:
    try:
        return json.loads(MANIFEST.read_text())["datasets"]
    except (OSError, ValueError, KeyError) as exc:
        raise DataError(f"cannot read the dataset manifest {MANIFEST} ({exc}); "
                        "reinstall rougelab") from exc


def get(name: str) -> Dataset:
    """The registry entry ``name``; an unknown name raises ``DataError`` listing the known ones."""
    return entry(DATASETS, name, "dataset")


def entry(table: Mapping[str, T], name: str, kind: str) -> T:
    """``table[name]`` for the ``dataset`` argument; an unknown name raises ``DataError`` naming ``kind``
    and listing the known ones."""
    from rougelab.validation import check_name

    check_name(name, "dataset")
    try:
        return table[name]
    except KeyError:
        raise DataError(f"unknown {kind} {name!r}; known: {', '.join(table)}") from None


def names() -> list[str]:
    """Every registered dataset name, in registry order."""
    return list(DATASETS)
