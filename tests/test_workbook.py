"""The notebook runner finds notebooks by name and refuses unknown ones."""
import pytest

from rougelab.workbook import notebook_paths


def test_notebooks_by_stem_or_file_name():
    assert notebook_paths(["00_tour"]) == notebook_paths(["00_tour.ipynb"])


def test_unknown_notebook_names_the_known_ones():
    with pytest.raises(FileNotFoundError, match="unknown notebook.*00_tour.ipynb"):
        notebook_paths(["99_nothing"])
