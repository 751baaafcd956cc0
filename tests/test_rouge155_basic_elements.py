"""ROUGE-BE inputs: ROUGE-1.5.5's readBE/createBE rules (scores themselves: test_rouge155_perl.py)."""
import pytest

from rougelab.rouge.rouge155.basic_elements import be_counts, read_be
from rougelab.rouge.rouge155.commandline import parse_command
from rougelab.rouge.rouge155.formats import FormatError


def test_read_be_keeps_every_line_but_the_empty_tail(tmp_path):
    path = tmp_path / "x.be"
    path.write_bytes(b"a|b|c\n\nd|e|f")
    assert read_be(path) == ["a|b|c", "", "d|e|f"]


@pytest.mark.parametrize("line", ["", "a|b", "a|b|c|d", "a|b|"])
def test_a_line_that_is_not_a_triple_is_refused(line):
    # Perl's split drops trailing empty fields, so "a|b|" has two fields: ROUGE-1.5.5 dies on it too
    with pytest.raises(FormatError, match="Basic Element"):
        be_counts([line], "HM", stem=False, path="x.be")


def test_modes_select_units_as_createBE_does():
    lines = ["Dog|NIL|NIL", "dog|big|nn", "dog|big|NIL", "cat|nil|subj"]
    assert be_counts(lines, "H", stem=False) == ({"dog": 1, "cat": 1}, 2)  # heads without modifier
    assert be_counts(lines, "HM", stem=False)[1] == 2                      # pairs with a modifier
    assert be_counts(lines, "HM1", stem=False)[1] == 4                     # every pair
    assert be_counts(lines, "HMR", stem=False)[0] == {"dog|big|nn": 1, "cat|nil|subj": 1}
    assert be_counts(lines, "HMR1", stem=False)[1] == 2                    # triples with a modifier
    assert be_counts(lines, "HMR2", stem=False)[1] == 4


def test_be_mode_turns_rouge_l_off_as_in_perl():
    command = parse_command(["-3", "HM", "-z", "SIMPLE", "list.lst"])
    assert command.be_mode == "HM" and not command.rouge.rouge_l and command.rouge.max_n == 0
