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
                 "--references", ref2]) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "3.0", "4.0"]


def test_jsonl_and_csv_hold_references_themselves(tmp_path, capsys):
    rows = [{"summary": "a b", "references": ["x", "y"]}, {"summary": "c", "references": "z"}]
    jsonl = _write(tmp_path / "in.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", "--metric", "length", "--summaries", jsonl, "--format", "jsonl", "--out", str(out)]) == 0
    assert [json.loads(line)["length"] for line in out.read_text().splitlines()] == [2.0, 1.0]
    csv_path = _write(tmp_path / "in.csv", "summary,reference_1,reference_2\na b c,x,y\n")
    assert main(["score", "--metric", "length", "--summaries", csv_path]) == 0
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
        assert main(["score", "--metric", "length", "--summaries", summaries, "--references", refs]) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "2.0", "0.0", "1.0"]


@pytest.mark.parametrize("files, message", [
    ({"s.txt": "a\nb\n", "r.txt": "x\n"}, "r.txt has 1 lines but .*s.txt has 2"),
    ({"s.txt": "a\n"}, "pass at least one --references"),
    ({"s.txt": b"ok\nbad \xff byte\n", "r.txt": "x\ny\n"}, r"s.txt, line 2: bytes that are not UTF-8"),
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
