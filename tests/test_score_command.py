"""`rougelab score` on a user's own files: the three formats and every kind of bad input."""
import json

import pytest

from rougelab.cli import main


def _write(path, text, mode="w"):
    if mode == "wb":
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_plain_text_files_one_line_per_summary(tmp_path, capsys):
    summaries = _write(tmp_path / "sys.txt", "the cat sat\none two three four\n")
    ref1 = _write(tmp_path / "r1.txt", "a cat\nb\n")
    ref2 = _write(tmp_path / "r2.txt", "c\nd\n")
    assert main(["score", "--metric", "length", "--summaries", summaries, "--references", ref1,
                 "--references", ref2, "--per-summary"]) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "3.0", "4.0"]


def test_jsonl_and_csv_hold_references_themselves(tmp_path, capsys):
    rows = [{"summary": "a b", "references": ["x", "y"]}, {"summary": "c", "references": "z"}]
    jsonl = _write(tmp_path / "in.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", "--metric", "length", "--summaries", jsonl, "--format", "jsonl", "--out", str(out),
                 "--per-summary"]) == 0
    assert [json.loads(line)["length"] for line in out.read_text().splitlines()] == [2.0, 1.0]
    csv_path = _write(tmp_path / "in.csv", "summary,reference_1,reference_2\na b c,x,y\n")
    assert main(["score", "--metric", "length", "--summaries", csv_path, "--per-summary"]) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "3.0"]


def test_sentence_separator_becomes_newlines(tmp_path):
    from rougelab.user_files import read_batch

    summaries = _write(tmp_path / "s.txt", "first one.<q>second one.\n")
    refs = _write(tmp_path / "r.txt", "a.<q>b.\n")
    batch = read_batch(summaries, [refs], sentence_separator="<q>")
    assert batch.summaries == ["first one.\nsecond one."] and batch.references == [["a.\nb."]]


def test_empty_lines_are_kept_and_reported(tmp_path, capsys):
    summaries = _write(tmp_path / "s.txt", "a b\n\nc\n")
    refs = _write(tmp_path / "r.txt", "x\ny\nz\n")
    with pytest.warns(UserWarning, match="s.txt: 1 empty line.*line 2"):
        assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs,
                     "--per-summary"]) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "2.0", "0.0", "1.0"]


@pytest.mark.parametrize("files, message", [
    ({"s.txt": "a\nb\n", "r.txt": "x\n"}, "r.txt has 1 lines but .*s.txt has 2"),
    ({"s.txt": "a\n"}, "pass at least one --references"),
    ({"s.txt": b"ok\nbad \xff byte\n", "r.txt": "x\ny\n"}, r"s.txt, line 2 \(byte offset 7\): bytes that are not UTF-8"),
    ({"s.jsonl": '{"summary": "a", "references": ["x"]}\n{"summary": \n'}, r"s.jsonl, line 2: not valid JSON"),
    ({"s.jsonl": '{"summary": "a"}\n'}, r"line 1: expected an object with 'summary' and 'references'"),
    ({"s.csv": "text,reference\na,b\n"}, "needs a 'summary' column"),
    ({"s.csv": "summary,reference\na,b,c\n"}, r"s.csv, line 2: 2 columns expected"),
])
def test_bad_input_names_the_file_and_line(tmp_path, files, message, capsys):
    paths = {name: _write(tmp_path / name, body, "wb" if isinstance(body, bytes) else "w")
             for name, body in files.items()}
    argv = ["score", "--metric", "length", "--summaries", next(iter(paths.values()))]
    argv += [a for name, p in list(paths.items())[1:] for a in ("--references", p)]
    assert main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(Exception, match=message):
        from rougelab.user_files import read_batch
        read_batch(argv[4], [p for name, p in list(paths.items())[1:]] or None)


def test_missing_file(tmp_path, capsys):
    assert main(["score", "--metric", "length", "--summaries", str(tmp_path / "nope.txt"),
                 "--references", str(tmp_path / "r.txt")]) == 2
    assert "nope.txt: no such file" in capsys.readouterr().err


# Issue 14: byte-order marks, line endings and JSONL field types.

BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("name, body", [
    ("s.txt", BOM + b"a b c\n"),
    ("s.jsonl", BOM + b'{"summary": "a b c", "references": ["x"]}\n'),
    ("s.csv", BOM + b"summary,reference\na b c,x\n"),
])
def test_a_byte_order_mark_is_not_part_of_the_first_text(tmp_path, name, body):
    from rougelab.user_files import read_batch

    path = _write(tmp_path / name, body, "wb")
    refs = [_write(tmp_path / "r.txt", BOM + b"x\n", "wb")] if name.endswith(".txt") else None
    batch = read_batch(path, refs)
    assert batch.summaries == ["a b c"] and batch.references == [["x"]]


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_cr_and_crlf_line_endings_end_lines(tmp_path, ending):
    from rougelab.user_files import read_batch

    summaries = _write(tmp_path / "s.txt", ending.join(["a", "b c", ""]).encode(), "wb")
    refs = _write(tmp_path / "r.txt", ending.join(["x", "y", ""]).encode(), "wb")
    jsonl = _write(tmp_path / "s.jsonl", ending.join(['{"summary": "a", "references": "x"}',
                                                      '{"summary": "b c", "references": "y"}', ""]).encode(), "wb")
    csv_path = _write(tmp_path / "s.csv", ending.join(["summary,reference", "a,x", '"b c",y', ""]).encode(), "wb")
    for batch in (read_batch(summaries, [refs]), read_batch(jsonl), read_batch(csv_path)):
        assert batch.summaries == ["a", "b c"] and batch.references == [["x"], ["y"]]


def test_unicode_line_separators_stay_inside_texts(tmp_path):
    from rougelab.user_files import read_batch

    text = "one\u2028two\x85three\u2029four\x0cfive"
    jsonl = _write(tmp_path / "s.jsonl", json.dumps({"summary": text, "references": [text]}, ensure_ascii=False) + "\n")
    assert read_batch(jsonl).summaries == [text]
    summaries = _write(tmp_path / "s.txt", text + "\n")
    assert read_batch(summaries, [summaries]).summaries == [text]


@pytest.mark.parametrize("line, field", [
    ('{"summary": null, "references": ["x"]}', "'summary' must be a string, not null"),
    ('{"summary": 3, "references": ["x"]}', "'summary' must be a string, not 3"),
    ('{"summary": "a", "references": ["x", null]}', "'references' must be a string or a non-empty list"),
    ('{"summary": "a", "references": []}', "'references' must be a string or a non-empty list"),
    ('{"summary": "a", "references": "x", "source": null}', "'source' must be a string, not null"),
    ('{"summary": "a", "references": "x", "source": ["s"]}', "'source' must be a string"),
])
def test_jsonl_fields_that_are_not_strings_name_file_and_line(tmp_path, capsys, line, field):
    good = '{"summary": "a", "references": "x"}'
    path = _write(tmp_path / "s.jsonl", f"{good}\n\n{line}\n")
    assert main(["score", "--metric", "length", "--summaries", path]) == 2
    err = capsys.readouterr().err
    assert f"s.jsonl, line 3: {field}" in err and err.count("\n") == 1


def test_non_utf8_names_line_and_byte_offset(tmp_path, capsys):
    summaries = _write(tmp_path / "s.txt", BOM + b"ok\rfine\nbad \xff\n", "wb")
    refs = _write(tmp_path / "r.txt", "x\ny\nz\n")
    assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs]) == 2
    assert "s.txt, line 3 (byte offset 15): bytes that are not UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize("name, body, message", [
    ("s.txt", "", "s.txt: the file is empty"),
    ("s.jsonl", "\n\n", "s.jsonl: no records"),
    ("s.csv", "summary,reference\n", "s.csv: no rows after the header"),
])
def test_files_without_texts_are_refused(tmp_path, capsys, name, body, message):
    path = _write(tmp_path / name, body)
    argv = ["score", "--metric", "length", "--summaries", path]
    assert main(argv + (["--references", path] if name.endswith(".txt") else [])) == 2
    assert message in capsys.readouterr().err


def test_csv_fields_longer_than_the_csv_module_default_are_read(tmp_path):
    from rougelab.user_files import read_batch

    long_source = "word " * 40_000  # 200,000 characters: over the csv module's default field limit
    path = _write(tmp_path / "s.csv", f"summary,reference,source\na,b,{long_source}\n")
    assert read_batch(path).sources == [long_source]


# Issue 14: folders where files belong, --out over an input, atomic output, metrics checked first.

def _files(tmp_path):
    return _write(tmp_path / "s.txt", "a b\nc\n"), _write(tmp_path / "r.txt", "a\nc d\n")


@pytest.mark.parametrize("option", ["--summaries", "--references", "--sources"])
def test_a_folder_given_for_an_input_file_is_named(tmp_path, capsys, option):
    summaries, refs = _files(tmp_path)
    folder = tmp_path / "folder"
    folder.mkdir()
    argv = {"--summaries": summaries, "--references": refs, option: str(folder)}
    assert main(["score", "--metric", "length", *(a for kv in argv.items() for a in kv)]) == 2
    assert f"{folder} is a folder: name a file" in capsys.readouterr().err


@pytest.mark.parametrize("out, message", [
    ("folder", "--out {path} is a folder"),
    ("missing/out.csv", "--out {path}: the folder {parent} does not exist"),
    ("s.txt", "--out {path} is the input file"),
    ("r.txt", "--out {path} is the input file"),
    ("link-to-r.txt", "--out {path} is the input file"),
])
def test_bad_out_is_refused_and_no_input_is_touched(tmp_path, capsys, out, message):
    summaries, refs = _files(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "link-to-r.txt").symlink_to(refs)
    path = tmp_path / out
    assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs,
                 "--out", str(path)]) == 2
    assert message.format(path=path, parent=path.parent) in capsys.readouterr().err
    assert (tmp_path / "s.txt").read_text() == "a b\nc\n" and (tmp_path / "r.txt").read_text() == "a\nc d\n"


def test_out_is_replaced_atomically_with_no_temporary_file_left(tmp_path, monkeypatch):
    import os

    summaries, refs = _files(tmp_path)
    out = tmp_path / "scores.csv"
    out.write_text("old scores\n")
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (replaced.append((src, dst)), real_replace(src, dst)))
    assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs,
                 "--out", str(out), "--per-summary"]) == 0
    assert out.read_text().splitlines() == ["length", "2.0", "1.0"]
    [(src, dst)] = replaced
    assert os.path.dirname(src) == str(tmp_path) and str(dst) == str(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt", "s.txt", "scores.csv"]


@pytest.mark.parametrize("metric, message", [
    (",", "--metric ',': no metric named"),
    ("length,nosuchmetric", "unknown metric 'nosuchmetric'"),
    ("length,anc-rouge-1", "--metric anc-rouge-1 reads the source documents: pass --sources"),
])
def test_metrics_are_checked_before_reading_or_scoring(tmp_path, capsys, monkeypatch, metric, message):
    from rougelab.metrics.base import Metric

    def refuse(self, *args):
        raise AssertionError("scored before the metric list was checked")
    monkeypatch.setattr(Metric, "score", refuse)
    summaries, refs = _files(tmp_path)
    out = tmp_path / "o.csv"
    assert main(["score", "--metric", metric, "--summaries", summaries, "--references", refs,
                 "--out", str(out)]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_unwritable_out_is_one_line_naming_the_option(tmp_path, capsys, monkeypatch):
    import os

    summaries, refs = _files(tmp_path)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs,
                 "--out", str(tmp_path / "o.csv")]) == 2
    assert "--out " in capsys.readouterr().err and sorted(p.name for p in tmp_path.iterdir()) == ["r.txt", "s.txt"]


@pytest.mark.parametrize("command", ["score", "rouge155"])
def test_a_closed_standard_output_is_not_a_traceback(tmp_path, command):
    import subprocess
    import sys

    lines = _write(tmp_path / "s.txt", "a b c\n")
    argv = {"score": ["score", "--metric", "length", "--summaries", lines, "--references", lines],
            "rouge155": ["rouge155", "-h"]}[command]
    proc = subprocess.Popen([sys.executable, "-m", "rougelab.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # as `rougelab ... | head -1` does once it has its line
    assert proc.wait() == 1 and proc.stderr.read() == b""
