"""The classroom: student copies without solutions, and a grader that gives the reference solutions full marks,
a wrong answer fewer, and an untouched student copy none (its exercises run without error)."""
import nbformat
import pytest

from rougelab import grading
from rougelab.cli import main
from rougelab.workbook import notebook_paths

PAPERS = [p for p in notebook_paths() if p.stem[:2] in {"01", "02", "03", "04", "05"}]


def test_strip_solution_keeps_the_code_around_and_the_indentation():
    source = "def f(x):\n    # BEGIN SOLUTION\n    y = x + 1\n    return y\n    # END SOLUTION\n\nprint(f)"
    assert grading.strip_solution(source) == f"def f(x):\n    {grading.STUB}\n\nprint(f)"
    assert grading.strip_solution("x = 1") == "x = 1"


@pytest.mark.parametrize("source, problem", [("# BEGIN SOLUTION\nx = 1", "without '# END SOLUTION'"),
                                             ("x = 1\n# END SOLUTION", "without '# BEGIN SOLUTION'"),
                                             ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside")])
def test_unbalanced_markers_are_refused(source, problem):
    with pytest.raises(grading.GradingError, match=problem):
        grading.strip_solution(source, "nb cell 3")


def test_the_five_paper_notebooks_are_found():
    assert [p.stem[:2] for p in PAPERS] == ["01", "02", "03", "04", "05"]


@pytest.mark.parametrize("path", PAPERS, ids=lambda p: p.stem)
def test_student_copy_strips_every_solution_and_keeps_the_rest(path):
    nb = nbformat.read(path, as_version=4)
    student = grading.student_notebook(nb, path.name)
    start = grading.exercises_start(nb, path.name)
    # the cells before the exercises are the original's, which tests/test_notebooks.py runs in smoke mode
    assert [c.source for c in student.cells[:start]] == [c.source for c in nb.cells[:start]]
    solved = [c for c in nb.cells[start:] if grading.BEGIN in c.source]
    checks = [c for c in nb.cells[start:] if c.get("metadata", {}).get("rougelab", {}).get("exercise")]
    assert len(solved) >= 3 and len(checks) >= 3
    assert not any(grading.BEGIN in c.source or grading.END in c.source for c in student.cells)
    assert sum(grading.STUB in c.source for c in student.cells) == len(solved)


@pytest.mark.parametrize("path", PAPERS, ids=lambda p: p.stem)
def test_the_reference_solutions_get_full_marks(path):
    marks = grading.grade(path)
    assert len(marks) >= 3
    assert all(m.points == m.out_of > 0 and m.status == "passed" for m in marks), marks


def test_a_wrong_answer_gets_fewer_marks_and_an_untouched_copy_none(tmp_path):
    path = PAPERS[0]
    nb = nbformat.read(path, as_version=4)
    (lcs_cell,) = [c for c in nb.cells if c.source.startswith("def lcs(")]
    lcs_cell.source = "def lcs(x, y):\n    return len(set(x) & set(y))   # counts shared words, not a subsequence"
    wrong = tmp_path / "wrong.ipynb"
    nbformat.write(nb, wrong)
    marks = grading.grade(wrong)
    assert [m.status for m in marks] == ["failed", "passed", "passed"]
    assert sum(m.points for m in marks) < sum(m.out_of for m in marks)

    student = tmp_path / "student.ipynb"
    nbformat.write(grading.student_notebook(nbformat.read(path, as_version=4)), student)
    marks = grading.grade(student)
    assert all(m.points == 0 and m.status == "not attempted yet" for m in marks)   # ran without an error


def test_command_line_writes_student_copies_and_grades(tmp_path, capsys):
    assert main(["workbook", "--student", "--output-dir", str(tmp_path), *[p.stem for p in PAPERS[:1]]]) == 0
    copy = tmp_path / "student" / PAPERS[0].name
    assert copy.exists() and grading.BEGIN not in copy.read_text()
    assert main(["grade", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "| 1. The LCS of two sentences" in out and "0 / 6" in out
    assert main(["grade", str(tmp_path / "missing.ipynb")]) == 1
    assert "missing.ipynb" in capsys.readouterr().err
