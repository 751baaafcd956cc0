"""The rouge155 command line: Getopt::Std parsing and the checks ROUGE-1.5.5.pl makes on its options."""
import pytest

from rougelab.rouge.options import RougeOptions
from rougelab.rouge.rouge155.cli import main, measures
from rougelab.rouge.rouge155.commandline import HelpRequested, UsageError, getopts, parse_command


def test_getopts_bundles_flags_and_attached_values():
    opts, args = getopts(["-am", "-n4", "-2", "-1", "-U", "-c", "95", "conf.xml", "-x"])
    assert opts == {"a": True, "m": True, "n": "4", "2": "-1", "U": True, "c": "95"}
    assert args == ["conf.xml", "-x"]          # options stop at the first non-option


def test_getopts_double_dash_ends_options():
    opts, args = getopts(["-m", "--", "-weird-name.xml"])
    assert opts == {"m": True} and args == ["-weird-name.xml"]


def test_official_sample_command_line():
    command = parse_command("-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -l 10 -a -m -s ROUGE-test.xml".split())
    assert command.rouge == RougeOptions(max_n=4, rouge_l=True, wlcs_weight=1.2, skip_distance=-1,
                                         skip_unigrams=True, stem=True, stopwords=True, word_limit=10)
    assert command.system_id is None and command.config == "ROUGE-test.xml"
    assert [tag for tag, _ in measures(command)] == [
        "ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*"]


def test_printed_tags_keep_the_users_spelling():
    command = parse_command("-n 2 -x -w 1.20 -2 04 -u conf.xml 11".split())
    assert [tag for tag, _ in measures(command)] == ["ROUGE-1", "ROUGE-2", "ROUGE-W-1.20", "ROUGE-SU04"]
    assert [key for _, key in measures(command)][-1] == "ROUGE-SU4"
    assert command.system_id == "11"


def test_without_u_or_U_only_skip_bigrams_are_reported():
    command = parse_command("-2 4 conf.xml 1".split())
    assert [tag for tag, _ in measures(command)] == ["ROUGE-L", "ROUGE-S4"]


def test_file_list_defaults_to_system_X_and_ignores_a():
    command = parse_command("-a -n 4 -z SPL list.lst".split())
    assert command.system_id == "X" and command.file_list_format == "SPL"
    assert parse_command("-n 4 -z SPL list.lst 26".split()).system_id == "26"


@pytest.mark.parametrize("argv, message", [
    (["-n", "4", "conf.xml"], "Please specify a system ID"),
    (["-a"], "Please specify the ROUGE configuration file"),
    (["-l", "10", "-b", "75", "-a", "c.xml"], "not both"),
    (["-c", "101", "-a", "c.xml"], "within 0 and 100"),
    (["-w", "0", "-a", "c.xml"], "must greater than 0"),
    (["-p", "1.5", "-a", "c.xml"], "between 0 and 1"),
    (["-f", "C", "-a", "c.xml"], "scoring formula is A"),
    (["-r", "0", "-a", "c.xml"], "at least one resample"),
    (["-n", "four", "-a", "c.xml"], "whole number"),
    (["-3", "HMX", "-a", "c.xml"], "Basic Element mode is one of"),
    (["-M", "-a", "c.xml"], "-M"),
    (["-q", "-a", "c.xml"], "Unknown option: q"),
    (["-a", "-n"], "needs a value"),
    (["-z", "TXT", "list.lst"], "SEE, ISI, SPL or SIMPLE"),
    (["-a", "c.xml", "1", "2"], "too many arguments"),
])
def test_bad_command_lines_are_refused_with_a_reason(argv, message):
    with pytest.raises(UsageError, match=message):
        parse_command(argv)


def test_help_and_exit_codes(capsys):
    with pytest.raises(HelpRequested):
        parse_command(["-h"])
    assert main(["-H"]) == 0
    assert "ROUGE-1.5.5 compatible" in capsys.readouterr().out
    assert main(["-n", "4", "conf.xml"]) == 2
    assert "system ID" in capsys.readouterr().err
    assert main(["-a", "-n", "1", "/nonexistent/conf.xml"]) == 1
    assert "cannot parse ROUGE configuration" in capsys.readouterr().err


def test_e_must_hold_the_bundled_stopword_list(tmp_path, capsys):
    (tmp_path / "smart_common_words.txt").write_text("a\nthe\n")
    assert main(["-e", str(tmp_path), "-a", "-n", "1", "c.xml"]) == 2
    assert "differs" in capsys.readouterr().err
    assert main(["-e", str(tmp_path / "missing"), "-a", "-n", "1", "c.xml"]) == 2
    assert "Cannot open" in capsys.readouterr().err


def _config(tmp_path, fmt='<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>', peer="p.spl", model="m.spl"):
    (tmp_path / "p.spl").write_text("a cat sat\n")
    (tmp_path / "m.spl").write_text("the cat sat\n")
    (tmp_path / "c.xml").write_text(
        f'<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>{tmp_path}</PEER-ROOT><MODEL-ROOT>{tmp_path}</MODEL-ROOT>{fmt}'
        f'<PEERS><P ID="s">{peer}</P></PEERS><MODELS><M ID="A">{model}</M></MODELS></EVAL></ROUGE-EVAL>')
    return str(tmp_path / "c.xml")


@pytest.mark.parametrize("kwargs, message", [
    (dict(model="missing.spl"), "Cannot find model summary: .*missing.spl"),
    (dict(peer="missing.spl"), "Cannot open .*missing.spl"),
    (dict(fmt=""), "has no <INPUT-FORMAT"),
])
def test_unreadable_inputs_fail_with_a_message_and_status_1(tmp_path, capsys, kwargs, message):
    import re
    assert main(["-n", "1", "-a", _config(tmp_path, **kwargs)]) == 1
    assert re.search(message, capsys.readouterr().err)


def test_a_single_summary_prints_a_degenerate_interval(tmp_path, capsys):
    # one evaluation: every resample draws it, so the interval collapses onto the score.
    # "a cat sat" vs "the cat sat": 2 of 3 unigrams match -> R = P = F = 0.66667
    assert main(["-n", "1", "-x", "-a", _config(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"s ROUGE-1 Average_{x}: 0.66667 (95%-conf.int. 0.66667 - 0.66667)" for x in "RPF"]


# Issue 14: values outside an option's documented range are refused (ROUGE-1.5.5.pl reads them silently).

@pytest.mark.parametrize("argv, message", [
    (["-t", "3"], r"-t 3: expected 0 \(per summary\), 1 \(per token\) or 2"),
    (["-t", "-1"], "-t -1: expected 0"),
    (["-t", "x"], "-t x: expected 0, 1 or 2"),
    (["-n", "-3"], "-n -3: the largest n-gram size is a whole number >= 0"),
    (["-n", "2.5"], "-n 2.5: the n-gram size is a whole number"),
    (["-l", "-1"], "-l -1: a length limit is a whole number >= 0"),
    (["-b", "-75"], "-b -75: a length limit"),
    (["-c", "abc"], "-c abc: not a number"),
    (["-c", "nan"], "within 0 and 100"),
    (["-p", "2"], "between 0 and 1"),
    (["-p", "nan"], "between 0 and 1"),
    (["-w", "nan"], "must greater than 0"),
    (["-r", "-5"], "at least one resample"),
    (["-2", "x"], "-2 x: the skip distance is a whole number"),
    (["-f", "C"], "-f C: the scoring formula is A"),
])
def test_values_outside_the_documented_range_are_usage_errors(argv, message, capsys):
    import re

    assert main([*argv, "-a", "c.xml"]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err)
    assert "usage: rougelab rouge155 [options] ROUGE-eval-config-file [systemID]" in err


@pytest.mark.parametrize("argv", [["-t", "0"], ["-t", "2"], ["-n", "0"], ["-n", "1"], ["-l", "0"], ["-b", "0"],
                                  ["-2", "-1"]])
def test_documented_values_are_accepted(argv):
    parse_command([*argv, "-a", "c.xml"])


def test_t_0_and_no_t_are_the_same_command():
    assert parse_command(["-t", "0", "-a", "c.xml"]) == parse_command(["-a", "c.xml"])
