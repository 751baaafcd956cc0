"""Very long texts: ROUGE-S with a wide skip distance and ROUGE-L/W are refused above documented sizes
with an InputError before anything is allocated (issue 14), and shorter texts are let through."""
import itertools

import pytest

from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.rouge.api import parse_measure
from rougelab.rouge.limits import MAX_LCS_CELLS, MAX_SKIP_BIGRAMS, check_sizes, skip_bigram_count, token_bound


@pytest.mark.parametrize("n", range(0, 9))
@pytest.mark.parametrize("distance", [-1, 0, 1, 4, 10])
def test_skip_bigram_count_matches_enumeration(n, distance):
    # ROUGE-1.5.5.pl pairs token i with every j > i such that $j<=$i+$skipDistance+1 (d < 0: no limit)
    pairs = [(i, j) for i, j in itertools.combinations(range(n), 2) if distance < 0 or j - i - 1 <= distance]
    assert skip_bigram_count(n, distance) == len(pairs)


def test_token_bound_counts_words_and_each_non_ascii_character():
    assert token_bound("The cat's 2 mats, well-worn.") == 7
    assert token_bound("東京 café") == 2 + 1 + 1


def _words(n):
    return " ".join(f"w{i % 997}" for i in range(n))


def test_unlimited_skip_distance_on_a_long_text_is_an_input_error_naming_it():
    long = _words(7_000)  # 24.5 million skip-bigrams
    with pytest.raises(InputError, match=r"reference 0 of summary 1 has ~7,000 words: too long for ROUGE-S "
                                         r"with skip distance unlimited.*rouge-su4"):
        rouge(["a b", "c d"], [["a b"], [long]], ["rouge-1", "rouge-su*"])


def test_limits_let_through_what_fits():
    text = _words(6_000)
    check_sizes([text], [[text]], [parse_measure("rouge-s*"), parse_measure("rouge-l")])
    check_sizes([_words(100_000)], [["a"]], [parse_measure("rouge-su4"), parse_measure("rouge-l")])
    assert skip_bigram_count(6_000, -1) <= MAX_SKIP_BIGRAMS < skip_bigram_count(7_000, -1)


def test_union_lcs_on_two_long_texts_is_an_input_error():
    long = _words(40_000)
    assert 40_000 ** 2 > MAX_LCS_CELLS
    with pytest.raises(InputError, match=r"summary 0 \(~40,000 words\) and its reference 0 .* too long for ROUGE-L/W"):
        rouge([long], [[long]], ["rouge-l"])


def test_cli_reports_a_too_long_line_in_one_line(tmp_path, capsys):
    from rougelab.cli import main

    path = tmp_path / "long.txt"
    path.write_text(_words(40_000) + "\n")
    assert main(["score", "--metric", "rouge-l", "--summaries", str(path), "--references", str(path)]) == 2
    err = capsys.readouterr().err
    assert "too long for ROUGE-L/W" in err and err.count("\n") == 1


@pytest.mark.parametrize("names", [["rouge-l"], ["rouge-s*"], ["rouge-su4", "rouge-w-1.2"], ["rouge-s9"],
                                   ["rouge-s*", "rouge-l"]])
def test_the_longest_text_let_through_at_once_is_where_two_such_texts_stop_fitting(names):
    """``quadratic``'s last field: two texts of that many characters fit both limits, one character more does not
    (the limits by the counts above), so a batch of no longer texts needs no other check."""
    from rougelab.rouge.limits import quadratic

    measures = tuple(parse_measure(name) for name in names)
    distances, widest, lcs, longest = quadratic(measures)

    def fits(n):
        return not ((distances and skip_bigram_count(n, widest) > MAX_SKIP_BIGRAMS) or (lcs and n * n > MAX_LCS_CELLS))

    assert fits(longest) and not fits(longest + 1)
