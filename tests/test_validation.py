"""Every numeric, flag and list parameter is checked, with the parameter named (``rougelab.validation``)."""
import math

import numpy as np
import pandas as pd
import pytest

from rougelab.rouge import rouge
from rougelab.scoring import InputError
from rougelab.validation import (MIN_TEST_RESAMPLES, check_bool, check_float, check_int, check_interval_resamples,
                                 check_names, check_test_resamples)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 2.5, -1, True, "3", None, [3]])
def test_a_whole_number_is_refused_naming_the_parameter(value):
    with pytest.raises(InputError, match=r"^count=.*: must be a whole number >= 0"):
        check_int(value, "count", minimum=0)


def test_integral_floats_and_numpy_integers_are_whole_numbers():
    assert check_int(1e3, "n") == 1000 and type(check_int(1e3, "n")) is int
    assert check_int(np.int64(7), "n") == 7 and check_int(None, "n", none=True) is None


@pytest.mark.parametrize("value", [math.nan, math.inf, 1.5, -0.1, "0.5", True])
def test_a_number_in_a_range_is_finite_and_inside(value):
    with pytest.raises(InputError, match=r"^alpha=.*: must be a finite number in \[0, 1\]"):
        check_float(value, "alpha", low=0, high=1)
    assert check_float(np.float32(0.25), "alpha", low=0, high=1) == 0.25


def test_flags_are_only_true_or_false():
    assert check_bool(np.bool_(True), "stem") is True
    for value in ("no", 0, 1, None):
        with pytest.raises(InputError, match="must be True or False"):
            check_bool(value, "stem")


def test_a_string_is_not_a_list_of_names():
    with pytest.raises(InputError, match=r"datasets='summeval': must be a list of names, not one string: "
                                         r"write \['summeval'\]"):
        check_names("summeval", "datasets")
    with pytest.raises(InputError, match="holds 3"):
        check_names(["a", 3], "metrics")
    with pytest.raises(InputError, match="must name at least one"):
        check_names([], "metrics")
    assert check_names(("a", "b"), "metrics") == ["a", "b"]


def test_resample_minimums_follow_from_what_they_serve():
    assert check_test_resamples(MIN_TEST_RESAMPLES) == 99  # the least with a p-value able to reach 0.01
    with pytest.raises(InputError, match=">= 999"):  # 1 / (1 + n) must reach the significance level
        check_test_resamples(500, significance=0.001)
    assert check_interval_resamples(40, 0.95) == 40  # 2 / (1 - 0.95): a draw beyond each end
    with pytest.raises(InputError, match=">= 200"):
        check_interval_resamples(100, 0.99)
    assert check_interval_resamples(0, 0.95, optional=True) == 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(byte_limit=math.nan), r"byte_limit=nan: must be a whole number >= 0 \(0 or None: no limit\)"),
    (dict(word_limit=2.5), r"word_limit=2.5: must be a whole number >= 0"),
    (dict(word_limit="10"), r"word_limit='10': must be a whole number"),
    (dict(word_limit=True), r"word_limit=True: must be a whole number"),
    (dict(byte_limit=-1), r"byte_limit=-1: must be a whole number >= 0"),
    (dict(alpha=math.nan), r"alpha=nan: must be a finite number in \[0, 1\]"),
    (dict(alpha=math.inf), r"alpha=inf: must be a finite number in \[0, 1\]"),
    (dict(stopwords="yes"), r"stopwords='yes': must be True or False"),
    (dict(stem="no"), r"stem='no': must be True or False"),
    (dict(perl_wlcs=None), r"perl_wlcs=None: must be True or False"),
])
def test_rouge_refuses_bad_numbers_and_flags_naming_them(kwargs, message):
    with pytest.raises(InputError, match=message):
        rouge(["a b c"], [["a b"]], ["rouge-1"], **kwargs)


def test_rouge_takes_a_whole_float_limit_as_its_integer():
    assert rouge(["a b c"], [["a b"]], ["rouge-1"], word_limit=2.0).equals(
        rouge(["a b c"], [["a b"]], ["rouge-1"], word_limit=2))


def test_an_empty_batch_is_an_empty_table_with_the_columns():
    table = rouge([], [], ["rouge-1", "rouge-l"])
    assert table.shape == (0, 6) and list(table.columns)[:3] == ["rouge1_r", "rouge1_p", "rouge1_f"]
    assert rouge([], [], ["rouge-2"], word_limit=5).shape == (0, 3)


def test_load_dataset_names_one_dataset():
    from rougelab.data import load_dataset

    with pytest.raises(InputError, match=r"dataset=\['summeval'\]: must be one name \(a string\)"):
        load_dataset(["summeval"])


def _toy_table(seed=0, systems=6, docs=12):
    rng = np.random.default_rng(seed)
    rows = [dict(doc_id=d, system_id=s, h=rng.random()) for s in range(systems) for d in range(docs)]
    table = pd.DataFrame(rows)
    table["a"] = table["h"] + rng.normal(0, 0.3, len(table))
    table["b"] = rng.random(len(table))
    return table


@pytest.mark.parametrize("kwargs, message", [
    (dict(seed=-1), r"seed=-1: must be a whole number >= 0"),
    (dict(seed=1.5), r"seed=1.5: must be a whole number >= 0"),
    (dict(n_resamples=math.inf), r"n_resamples=inf: must be a whole number >= 40"),
    (dict(n_resamples=10), r"n_resamples=10: must be a whole number >= 40"),
    (dict(confidence=math.nan), r"confidence=nan: must be a finite number in \(0, 1\)"),
])
def test_bootstrap_ci_refuses_meaningless_parameters(kwargs, message):
    from rougelab.metaeval import bootstrap_ci

    with pytest.raises(InputError, match=message):
        bootstrap_ci(_toy_table(), "a", "h", "system", **kwargs)


@pytest.mark.parametrize("test", ["permutation_test", "bootstrap_difference"])
@pytest.mark.parametrize("kwargs, message", [
    (dict(n_resamples=50), r"n_resamples=50: must be a whole number >= 99 and <= 100000 \(a permutation or bootstrap p-value"),
    (dict(n_resamples=math.nan), r"n_resamples=nan"),
    (dict(seed=-1), r"seed=-1: must be a whole number >= 0"),
])
def test_p_values_need_enough_resamples(test, kwargs, message):
    from rougelab import metaeval

    with pytest.raises(InputError, match=message):
        getattr(metaeval, test)(_toy_table(), "a", "b", "h", "summary", **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(n_resamples=0), r"n_resamples=0: must be a whole number >= 99"),
    (dict(n_resamples=math.inf), r"n_resamples=inf"),
    (dict(significance=math.nan), r"significance=nan: must be a finite number in \(0, 1\)"),
    (dict(significance=0), r"significance=0: must be a finite number in \(0, 1\)"),
    (dict(significance=1.5), r"significance=1.5"),
    (dict(significance=0.001, n_resamples=500), r"n_resamples=500: must be a whole number >= 999"),
    (dict(docs=2.5), r"docs=2.5: must be a whole number >= 1"),
    (dict(docs=0), r"docs=0: must be a whole number >= 1"),
    (dict(seed=-3), r"seed=-3"),
    (dict(datasets="summeval"), r"datasets='summeval': must be a list of names, not one string"),
    (dict(metrics="rouge-1"), r"metrics='rouge-1': must be a list of names, not one string"),
])
def test_leaderboard_refuses_meaningless_parameters_before_any_work(kwargs, message, monkeypatch):
    from rougelab import leaderboard as lb

    monkeypatch.setattr(lb, "_scored", lambda *a: pytest.fail("scored before the parameters were checked"))
    args = dict(datasets=["summeval"], metrics=["length"]) | kwargs
    with pytest.raises(InputError, match=message):
        lb.leaderboard(args.pop("datasets"), args.pop("metrics"), **args)


def test_versus_refuses_too_few_resamples_before_any_work(monkeypatch):
    from rougelab import leaderboard as lb

    monkeypatch.setattr(lb, "_scored", lambda *a: pytest.fail("scored before the parameters were checked"))
    with pytest.raises(InputError, match=r"n_resamples=1: must be a whole number >= 99"):
        lb.versus(["summeval"], "length", n_resamples=1)


def test_evaluate_refuses_one_string_for_the_metric_list(monkeypatch):
    from rougelab.evaluate import evaluate

    with pytest.raises(InputError, match=r"metric names='length': must be a list of names, not one string"):
        evaluate("summeval", "length")


@pytest.mark.parametrize("measure, message", [
    ("rouge-99999999", r"N of 'rouge-99999999'=99999999: must be a whole number <= 1000"),
    ("rouge-s99999999999999999999", r"the skip distance of .*: must be a whole number <= 1000000000 \(rouge-s\*"),
    ("rouge-w-99999", r"the weight of 'rouge-w-99999'=99999.0: must be a finite number in \[1, 50.0\]"),
    ("rouge-w-0.5", r"the weight of 'rouge-w-0.5'=0.5: .*else the recall can exceed 1"),
])
def test_measure_names_beyond_their_bounds_are_refused(measure, message):
    # before: rouge-99999999 ran for ever, the huge skip distance was a numba typing traceback,
    # rouge-w-99999 gave R = P = nan and rouge-w-0.5 a recall of 4.0
    with pytest.raises(InputError, match=message):
        rouge(["a b c d"], [["a b c d e"]], [measure])


@pytest.mark.parametrize("option, message", [
    (["-n", "99999999999"], "-n 99999999999: the largest n-gram size is at most 1000"),
    (["-w", "1e300"], "-w 1e300: the ROUGE-W weight is at most 50"),
    (["-r", "99999999999999999999"], "-r 99999999999999999999: at most 100,000 resamples"),
    (["-2", "99999999999"], "-2 99999999999: the skip distance is at most 1,000,000,000"),
])
def test_rouge155_refuses_extreme_option_values(option, message):
    from rougelab.rouge.rouge155.commandline import UsageError, parse_command

    with pytest.raises(UsageError, match=message):
        parse_command([*option, "-a", "config.xml"])


@pytest.mark.parametrize("kwargs, message", [
    (dict(n_resamples=math.nan), r"n_resamples=nan: must be a whole number >= 1"),
    (dict(confidence=math.nan), r"confidence=nan: must be a finite number in \[0, 100\]"),
    (dict(seed=-1), r"seed=-1: must be a whole number >= 0"),
])
def test_aggregate_checks_its_numbers(kwargs, message):
    from rougelab.rouge import aggregate

    with pytest.raises(InputError, match=message):
        aggregate(rouge(["a b"], [["a c"]], ["rouge-1"]), "rouge-score", **kwargs)


SUMMARY, REFERENCES, SOURCE = ["the cat sat on the mat. it was happy."], [["a cat sat on a mat. it was glad."]], \
    ["the cat sat on the mat. the dog barked. it was happy."]


@pytest.mark.parametrize("name, options, message", [
    ("rouge-we-1", dict(alpha=math.nan), r"alpha=nan: must be a finite number in \[0, 1\]"),  # before: F = 0
    ("rouge-we-1", dict(alpha=2), r"alpha=2: must be a finite number in \[0, 1\]"),  # before: F = R
    ("rouge-we-1-s3", dict(threshold=math.nan), r"threshold=nan: must be a finite number in \[-1, 1\]"),
    ("widar-1", dict(theta1=math.nan, cache=False), r"theta1=nan: must be a finite number in \[0, 1\]"),
    ("widar-1", dict(theta2=-1, cache=False), r"theta2=-1: must be a finite number in \[0, 1\]"),
    ("widar-1", dict(lam=math.nan, cache=False), r"lam=nan: must be a finite number in \[0, 1\], 'max' or 'mean'"),
])
def test_metric_options_are_checked(name, options, message):
    from rougelab.metrics.registry import get_metric

    with pytest.raises(InputError, match=message):
        get_metric(name, **options).score(SUMMARY, REFERENCES, SOURCE)


@pytest.mark.parametrize("k", [2.5, math.nan, [5, 0], []])
def test_anchored_rouge_checks_its_anchor_set_sizes(k):
    from rougelab.metrics.anchored import anchored_rouge

    with pytest.raises(InputError, match=r"^k="):
        anchored_rouge(SUMMARY, REFERENCES, SOURCE, k=k, encoder=object())


@pytest.mark.parametrize("days", ["nan", "inf", "-1"])
def test_cache_clear_refuses_a_meaningless_age(days, capsys, monkeypatch, tmp_path):
    from rougelab.cli import main

    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path))  # nothing of the shared cache at stake
    assert main(["cache", "clear", "--older-than", days]) == 2
    assert f"--older-than={float(days)!r}: must be a finite number >= 0 (days)" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["rouge-1", "rouge1", "rouge-we-1", "bleu", "length"])
def test_an_empty_batch_gives_an_empty_table(name):
    from rougelab.metrics.registry import get_metric

    assert len(get_metric(name).score([], [])) == 0


@pytest.mark.parametrize("call, message", [
    (lambda: __import__("rougelab.metaeval", fromlist=["x"]).fisher_z(0.5, math.inf), r"n=inf: must be a whole number >= 4"),
    (lambda: __import__("rougelab.metaeval", fromlist=["x"]).fisher_z(0.5, 30, confidence=math.nan),
     r"confidence=nan: must be a finite number in \(0, 1\)"),
    (lambda: __import__("rougelab.metaeval", fromlist=["x"]).williams_test(0.5, 0.4, 0.3, 2.5),
     r"n=2.5: must be a whole number >= 4"),
    (lambda: __import__("rougelab.metaeval", fromlist=["x"]).williams_test(math.nan, 0.4, 0.3, 30),
     r"r12=nan: must be a finite number in \[-1, 1\]"),
    (lambda: rouge(["a"], [["a"]], None), r"measures=None: must be a list of names"),
])
def test_statistics_and_measures_check_their_inputs(call, message):
    with pytest.raises(InputError, match=message):
        call()


@pytest.mark.parametrize("n", [-1, 0, 2.5, math.nan])
def test_first_documents_refuses_a_count_that_is_no_count(n):
    # before: n=-1 silently dropped the last document (a slice [:-1])
    from rougelab.notebook import first_documents

    table = pd.DataFrame({"doc_id": [1, 1, 2, 2, 3], "system_id": [1, 2, 1, 2, 1]})
    with pytest.raises(InputError, match=r"^n=.*: must be a whole number >= 1"):
        first_documents(table, n)
