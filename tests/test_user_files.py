"""User input files: every column and key is one the reader knows, once; deep JSON is a clear error."""
import pytest

from rougelab.cli import main
from rougelab.user_files import read_batch
from rougelab.scoring import InputError


def _file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("name, text, message", [
    ("s.csv", "summary,reference,reference\nthe cat,the dog,the cat\n",
     r"s.csv: the header names the column 'reference' twice"),
    ("s.csv", "summary,summary,reference\na,b,c\n", r"the column 'summary' twice"),
    ("s.csv", "summary,reference,id\na,b,1\n", r"s.csv: unknown column 'id' in the header"),
    ("s.csv", "summary,refrence,reference\na,b,c\n", r"unknown column 'refrence'"),
    ("s.csv", "summary,reference,\na,b,c\n", r"unknown column ''"),
    ("s.jsonl", '{"summary": "a", "references": ["b"], "summary": "c"}\n',
     r"s.jsonl, line 1: the key 'summary' appears twice in one object"),
    ("s.jsonl", '{"summary": "a", "references": ["b"]}\n{"summary": "a", "references": ["b"], "refs": ["c"]}\n',
     r"s.jsonl, line 2: unknown key 'refs'"),
    ("s.jsonl", '{"summary": "a", "references": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
     r"s.jsonl, line 1: a JSON value nested too deeply to read"),
])
def test_bad_columns_and_keys_are_refused_by_name(tmp_path, name, text, message, capsys):
    path = _file(tmp_path, name, text)
    with pytest.raises(InputError, match=message):
        read_batch(path)
    assert main(["score", "--metric", "rouge-1", "--summaries", path]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_distinct_reference_columns_are_each_read(tmp_path):
    batch = read_batch(_file(tmp_path, "s.csv", "summary,reference1,reference2\nthe cat,the dog,the cat\n"))
    assert batch.references == [["the dog", "the cat"]]


def test_an_empty_sentence_separator_is_refused_not_ignored(tmp_path, capsys):
    path = _file(tmp_path, "s.txt", "a b\n")
    assert main(["score", "--metric", "rouge-1", "--summaries", path, "--references", path,
                 "--sentence-separator", ""]) == 2
    assert "sentence separator '': give a non-empty string" in capsys.readouterr().err
