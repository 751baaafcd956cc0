"""The score cache: same inputs and options -> reused; anything else -> recomputed; corruption -> recomputed with a warning."""
import io
import re

import numpy as np
import pandas as pd
import pytest

from rougelab import score_cache
from rougelab.metrics.base import Metric


@pytest.fixture
def counting_metric():
    calls = []

    def scorer(summaries, references, scale=1.0):
        calls.append(len(summaries))
        return pd.DataFrame({"n": [scale * len(s) for s in summaries]})

    return Metric("count", scorer, primary="n", options={"scale": 1.0}), calls


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))


def test_second_call_reads_the_cache(counting_metric):
    metric, calls = counting_metric
    first = score_cache.cached_score(metric, ["ab", "abc"], [["x"], ["y"]])
    second = score_cache.cached_score(metric, ["ab", "abc"], [["x"], ["y"]])
    assert calls == [2]
    pd.testing.assert_frame_equal(first, second)
    assert list(second["n"]) == [2.0, 3.0]


def test_changed_text_or_option_is_a_new_key(counting_metric):
    metric, calls = counting_metric
    score_cache.cached_score(metric, ["ab"], [["x"]])
    score_cache.cached_score(metric, ["ab"], [["z"]])
    other = Metric("count", metric.scorer, primary="n", options={"scale": 2.0})
    assert score_cache.cached_score(other, ["ab"], [["x"]])["n"].tolist() == [4.0]
    assert calls == [1, 1, 1]


def test_separators_keep_batches_apart():
    assert score_cache.content_digest(["a", "b"], [["c"], ["d"]]) != score_cache.content_digest(["ab"], [["cd"]])
    assert score_cache.content_digest(["a"], [["b", "c"]]) != score_cache.content_digest(["a"], [["bc"]])
    assert score_cache.content_digest(["a", "b"], [["c", "d"], ["e"]]) != \
        score_cache.content_digest(["a", "b", "c"], [["d"], ["e"]])  # the same texts in the same order


def test_a_text_cannot_pass_for_a_separator():
    """Texts holding control characters (the separators of an earlier key, \\x1d-\\x1f) or anything else
    are told apart from the batches they would imitate, and the cache does not serve one batch's numbers
    for the other (the earlier key gave the first table, R = P = 1, for the second batch)."""
    from rougelab.metrics.registry import get_metric

    pairs = [((["a"], [["b\x1ec"]]), (["a"], [["b", "c"]])),
             ((["a\x1eb"], [["c"]]), (["a"], [["b", "c"]])),
             ((["a\x1db"], [["c"]]), (["a", "b"], [["c"], ["c"]])),
             ((["a"], [["b\x1fc"]]), (["a"], [["b"]]))]
    for one, other in pairs:
        assert score_cache.content_digest(*one) != score_cache.content_digest(*other)
    assert score_cache.content_digest(["a"], [["b"]], ["c"]) != score_cache.content_digest(["a"], [["b\xfdc"]])
    metric = get_metric("rouge-2")
    summaries = ["the cat sat on the mat"]
    score_cache.cached_score(metric, summaries, [["the cat\x1esat on the mat"]])
    apart = [["the cat", "sat on the mat"]]
    pd.testing.assert_frame_equal(score_cache.cached_score(metric, summaries, apart), metric.score(summaries, apart))


def test_the_digest_is_blake3_of_the_documented_pickles():
    """The key's bytes, written out by hand: the pickles (protocol 5, without a memo) of the list of every text,
    the summaries then each summary's references; of the number of references of each summary (of the number of
    summaries when each has one); then of the sources. A text repeated pickles in full, whether or not it is the
    same object; a str subclass's text as the plain str it equals."""
    import io
    import pickle

    from blake3 import blake3

    class Text(str):
        pass

    def pickles(*objects):
        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=5)
        pickler.fast = True
        for obj in objects:
            pickler.dump(obj)
        return out.getvalue()

    summaries = [f"s{i} \u00e9 \u4e2d" if i % 7 else "" for i in range(5000)]  # empty texts too
    sources = [f"doc {i}" for i in range(5000)]
    for references in ([[f"r{i}"] * (i % 3 + 1) for i in range(5000)], [[f"r{i} \u00fd"] for i in range(5000)]):
        texts = [*summaries, *(r for refs in references for r in refs)]
        sizes = [len(refs) for refs in references] if len(texts) > 2 * len(summaries) else len(summaries)
        for given, data in ((None, pickles(texts, sizes)), (sources, pickles(texts, sizes, sources))):
            assert score_cache.content_digest(summaries, references, given) == blake3(data).hexdigest()
    same = ["the same text"] * 3  # one object, three times: pickled three times in full
    copies = ["the same text" + s for s in ("", "", "")]
    assert score_cache.content_digest(same[:1], [same[1:]]) == score_cache.content_digest(copies[:1], [copies[1:]])
    assert score_cache.content_digest([Text("a")], [[Text("b")]], [Text("c")]) == \
        score_cache.content_digest(["a"], [["b"]], ["c"]) == blake3(pickles(["a", "b"], 1, ["c"])).hexdigest()


def test_reference_rows_of_any_sequence_type_get_one_key(counting_metric):
    """A reference row may be any sequence ``check_batch`` accepts: a tuple, a numpy array, a pandas Series
    with labels of its own (a DataFrame row's reference columns). Each gets the key of the same texts in
    lists; a Series row of one reference labelled other than 0 raised KeyError (its first text read by label 0)."""
    import numpy as np

    metric, calls = counting_metric
    summaries = ["ab", "abc"]
    lists = [["x"], ["y"]]
    digest, expected = score_cache.content_digest(summaries, lists), metric.score(summaries, lists)
    score_cache.cached_score(metric, summaries, lists)
    rows = [[("x",), ("y",)], [np.array(["x"]), np.array(["y"])],
            [pd.Series(["x"], index=["reference"]), pd.Series(["y"], index=["reference"])]]
    for references in rows:
        assert score_cache.content_digest(summaries, references) == digest
        pd.testing.assert_frame_equal(score_cache.cached_score(metric, summaries, references), expected)
    assert calls == [2, 2]  # scored, then once into the cache, then read from it for every row type


def test_corrupt_file_is_reported_and_recomputed(counting_metric):
    metric, calls = counting_metric
    score_cache.cached_score(metric, ["ab"], [["x"]])
    path = score_cache.cache_path(metric, ["ab"], [["x"]])
    path.write_bytes(b"not a numpy archive")
    with pytest.warns(UserWarning, match="corrupt"):
        table = score_cache.cached_score(metric, ["ab"], [["x"]])
    assert table["n"].tolist() == [2.0] and calls == [1, 1]
    assert score_cache.cached_score(metric, ["ab"], [["x"]])["n"].tolist() == [2.0]
    assert calls == [1, 1]


def test_an_entry_is_a_structured_npy_of_the_table(counting_metric):
    """One ``.npy`` file: a structured array, one float64 field per column, named as the column; a file of another
    array (a plain 2-D one, an ``.npz`` archive) is corrupt."""
    import numpy as np

    metric, calls = counting_metric
    table = score_cache.cached_score(metric, ["ab", "abc"], [["x"], ["y"]])
    path = score_cache.cache_path(metric, ["ab", "abc"], [["x"], ["y"]])
    stored = np.load(path, allow_pickle=False)
    assert path.suffix == ".npy" and stored.dtype == np.dtype([("n", np.float64)]) and stored["n"].tolist() == [2, 3]
    np.save(path, np.array([[2.0], [3.0]]))
    with pytest.warns(UserWarning, match="corrupt"):
        pd.testing.assert_frame_equal(score_cache.cached_score(metric, ["ab", "abc"], [["x"], ["y"]]), table)
    np.savez(path.with_suffix(".npz"), values=np.array([[2.0], [3.0]]))
    path.write_bytes(path.with_suffix(".npz").read_bytes())
    with pytest.warns(UserWarning, match="corrupt"):
        score_cache.cached_score(metric, ["ab", "abc"], [["x"], ["y"]])
    assert calls == [2, 2, 2]


def test_a_table_whose_columns_cannot_name_fields_is_scored_but_not_stored():
    """Columns that are not distinct and non-empty names cannot name a structured array's fields: the table is
    returned as scored, with a warning, and nothing is written."""
    from rougelab.paths import cache_dir

    for columns in (["a", "a"], ["", "b"]):
        metric = Metric("odd", lambda summaries, references, columns=columns: pd.DataFrame([[1.0, 2.0]], columns=columns),
                        primary="b")
        with pytest.warns(UserWarning, match="not cached"):
            table = score_cache.cached_score(metric, ["a"], [["b"]])
        assert table.columns.tolist() == columns and table.to_numpy().tolist() == [[1.0, 2.0]]
    assert list(cache_dir("scores").iterdir()) == []


def test_metrics_that_differ_only_in_their_measures_are_scored_in_one_call(monkeypatch):
    """ROUGE-1, -2, -L and -SU4 missing from the cache: one ``rouge`` call, each table equal to the metric
    scored alone (and then cached under its own signature); a metric with other options is its own call."""
    from rougelab.metrics.registry import get_metric

    summaries = ["the cat sat on the mat. it slept.", "a dog barked at the cat", ""]
    references = [["the cat lay on a mat", "a cat sat"], ["the dog barked"], ["nothing here"]]
    names = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-1-nostem"]
    alone = [get_metric(n).score(summaries, references) for n in names]
    calls = []
    monkeypatch.setattr(Metric, "_call", _counting(calls, Metric._call))  # a scorer's call, DataFrame or not
    tables = score_cache.cached_scores([get_metric(n) for n in names], summaries, references)
    assert sorted(len(c) for c in calls) == [1, 4]           # the four defaults together, -nostem alone
    for table, want in zip(tables, alone):
        pd.testing.assert_frame_equal(table, want, check_exact=True)
    again = score_cache.cached_scores([get_metric(n) for n in names], summaries, references)
    assert len(calls) == 2 and all(a.equals(b) for a, b in zip(again, tables))  # all read from the cache


def _counting(calls, score):
    def counted(self, scorer, summaries, references, sources=None):
        calls.append(list(self.options.get("measures", ())))
        return score(self, scorer, summaries, references, sources)
    return counted


def test_the_key_checks_the_texts_as_check_batch_does():
    """A bad text, row or batch gets the error ``check_batch`` gives (the same message), before any key is made
    (a key's pickle checks nothing), and nothing is cached."""
    import numpy as np

    from rougelab.metrics.registry import get_metric
    from rougelab.paths import cache_dir
    from rougelab.scoring import InputError, check_batch

    batches = [(["a\ud800"], [["b"]], None), (["a"], [["b", "\udfff"]], None), ([5], [["b"]], None),
               (["a"], [[b"x"]], None), (["a", "b"], [["c"], []], None), (["a"], ["abc"], None),
               (["a"], [np.array(["x", "\ud800"], dtype=object)], None), (["a"], [pd.Series(["x", 3])], None),
               (["a", "\ud801"], [["b"], []], None), (["a"], [["b"]], ["\ud800"]), (["a"], [["b"]], [4]),
               (["é\ud800"], [["b"]], None), (["a"], [("b", None)], None)]
    reading = Metric("reads-source", lambda summaries, references, sources: pd.DataFrame({"n": [1.0] * len(sources)}),
                     primary="n", needs_source=True)
    for metrics in ([get_metric("rouge-1"), get_metric("rouge-2")], [get_metric("rouge-1"), reading]):
        for summaries, references, sources in batches:
            if sources is None and reading in metrics:
                sources = [""] * len(summaries)
            with pytest.raises(InputError) as expected:
                check_batch(summaries, references, sources)
            with pytest.raises(InputError) as got:
                score_cache.cached_scores(metrics, summaries, references, sources)
            assert str(got.value) == str(expected.value)
    assert not any(cache_dir("scores").iterdir())


def test_the_tables_of_a_miss_share_no_numbers():
    """The tables a miss returns (each metric's columns of one joint call) hold their own numbers: changing one
    changes neither another nor what the cache stored."""
    import numpy as np

    from rougelab.metrics.registry import get_metric

    summaries, references = ["the cat sat on the mat", "a dog"], [["the cat lay on a mat"], ["the dog barked"]]
    metrics = [get_metric(n) for n in ("rouge-1", "rouge-2", "rouge-l")]
    tables = score_cache.cached_scores(metrics, summaries, references)
    kept = [table.copy() for table in tables]
    tables[0].iloc[0, 0] = 99.0
    for table, want in zip(tables[1:], kept[1:]):
        pd.testing.assert_frame_equal(table, want)
    assert not any(np.shares_memory(tables[0].to_numpy(), t.to_numpy()) for t in tables[1:])
    pd.testing.assert_frame_equal(score_cache.cached_scores(metrics, summaries, references)[0], kept[0])


def test_a_miss_no_entry_can_hold_is_scored_before_its_key_is_made(monkeypatch):
    """Where the scores folder holds no entry of the metrics with the batch's outline (among the names it reads:
    ``TEXTS_PER_NAME``), the batch is scored first and keyed after (``tail_work``: on a thread out of items); the
    entry is then read as any other. Where it may hold one, the key comes first."""
    order = []

    def scorer(summaries, references):
        order.append("score")
        return pd.DataFrame({"n": [float(len(s)) for s in summaries]})

    digests = score_cache._both_digests
    monkeypatch.setattr(score_cache, "_both_digests", lambda *batch: (order.append("key"), digests(*batch))[1])
    count, other, third = (Metric(name, scorer, primary="n") for name in ("count", "other", "third"))
    summaries, references = [f"text {i}" for i in range(100)], [[f"reference {i}"] for i in range(100)]

    def keyed(metric, *batch):
        order.clear()
        table = score_cache.cached_score(metric, *batch)
        return order, table

    monkeypatch.setattr(score_cache, "TEXTS_PER_NAME", 10)  # 200 texts: 20 names read at most
    first = keyed(count, summaries, references)
    assert first[0] == ["score", "key"]  # the folder is empty
    assert keyed(count, summaries, references)[0] == ["key"]  # read from the cache
    assert keyed(count, summaries[::-1], references[::-1])[0] == ["score", "key"]  # count's, of another outline
    assert keyed(count, summaries[:1] + ["new"] + summaries[2:], references)[0] == ["key", "score"]  # same outline
    assert keyed(other, summaries, references)[0] == ["score", "key"]  # none of other's among its names
    monkeypatch.setattr(score_cache, "TEXTS_PER_NAME", 1_000)  # 200 texts: no name read
    assert keyed(third, summaries, references)[0] == ["key", "score"]
    pd.testing.assert_frame_equal(score_cache.cached_score(count, summaries, references), first[1])


def test_an_entry_is_named_by_its_metric_outline_and_key():
    """``<metric>-<outline>-<key>.npy``; the outline reads a batch's plain texts (a ``str`` subclass's as the ``str`` it
    equals, as the key does) and its number of texts, and OUTLINE_TEXTS of them."""
    metric = Metric("count", lambda s, r: pd.DataFrame({"n": [1.0] * len(s)}), primary="n")
    texts = [f"text {i}" for i in range(40)]
    summaries, references = texts[:20], [[t] for t in texts[20:]]
    name = score_cache.cache_path(metric, summaries, references).name
    outline = score_cache._outline(texts)
    assert re.fullmatch(rf"count-{outline}-[0-9a-f]+\.npy", name) and len(outline) == 8
    assert score_cache.cache_path(metric, list(np.array(summaries)), references).name == name
    assert score_cache._outline(texts[:1] + ["other"] + texts[2:]) == outline  # text 1 is not read
    assert score_cache._outline(texts[:-1]) != outline
    assert score_cache._outline(texts[:5] + ["other"] + texts[6:]) != outline  # text 5 is


def _run_tail_jobs():
    """What a threaded map's thread that runs out of pieces does (``rougelab._jit.map_threads``)."""
    from rougelab.tail_work import pending_jobs, run_jobs

    run_jobs(pending_jobs())


def test_a_miss_written_in_two_steps_stores_the_bytes_np_save_writes(monkeypatch):
    """A miss on an empty cache opens each entry's file on the tail thread with its header and record, and writes
    only the numbers after the scoring: the files hold the bytes ``np.save`` writes, and are read back."""
    from rougelab.paths import cache_dir

    def scorer(summaries, references):
        _run_tail_jobs()
        return pd.DataFrame({"r": [float(len(s)) for s in summaries], "f": [0.5] * len(summaries)})

    metric = Metric("two", scorer, primary="f", columns=("r", "f"))
    summaries, references = ["ab", "abc", "d"], [["x"], ["y"], ["z"]]
    saved = np.save
    monkeypatch.setattr(np, "save", lambda *args: pytest.fail("the entry was written whole"))
    first = score_cache.cached_score(metric, summaries, references)
    monkeypatch.setattr(np, "save", saved)
    path = score_cache.cache_path(metric, summaries, references)
    rows = first.to_numpy().copy().view(np.dtype([("r", np.float64), ("f", np.float64)])).reshape(-1)
    expected = io.BytesIO()
    np.save(expected, rows)
    assert path.read_bytes() == expected.getvalue()
    assert sorted(p.name for p in cache_dir("scores").iterdir()) == [path.name, path.name + ".meta"]
    pd.testing.assert_frame_equal(score_cache.cached_score(metric, summaries, references), first)


def test_a_failed_scoring_after_the_tail_job_leaves_no_file():
    """The files the tail job opened are deleted when the scoring fails after it ran."""
    from rougelab.paths import cache_dir

    def scorer(summaries, references):
        _run_tail_jobs()
        raise RuntimeError("scorer failed")

    metric = Metric("fails", scorer, primary="f", columns=("r", "f"))
    with pytest.raises(RuntimeError, match="scorer failed"):
        score_cache.cached_score(metric, ["ab"], [["x"]])
    assert list(cache_dir("scores").iterdir()) == []


def test_a_table_unlike_its_declared_columns_is_stored_whole():
    """A table whose columns are not those the metric declares (the header the tail job wrote) is stored by
    ``np.save`` instead, with its own columns, and read back as scored."""
    from rougelab.paths import cache_dir

    calls = []

    def scorer(summaries, references):
        calls.append(len(summaries))
        _run_tail_jobs()
        return pd.DataFrame({"f": [1.0] * len(summaries), "r": [2.0] * len(summaries), "p": [3.0] * len(summaries)})

    metric = Metric("unlike", scorer, primary="f", columns=("r", "f"))
    first = score_cache.cached_score(metric, ["ab", "c"], [["x"], ["y"]])
    assert len(list(cache_dir("scores").iterdir())) == 2
    again = score_cache.cached_score(metric, ["ab", "c"], [["x"], ["y"]])
    assert calls == [2] and again.columns.tolist() == ["f", "r", "p"]
    pd.testing.assert_frame_equal(again, first)
