"""``ScoreTable.frame``: the DataFrame ``pd.DataFrame(values, columns=...)`` makes, through pandas' internal
constructors on the pandas the tests check them on and through ``create_dataframe_from_blocks`` on any other."""
import numpy as np
import pandas as pd
import pytest

from rougelab import score_table
from rougelab.score_table import ScoreTable

MAKERS = {"internal": score_table._internal_maker, "public": score_table._public_maker}
SHAPES = [(1, 9), (3, 9), (0, 3), (4, 0), (0, 0)]


@pytest.fixture(params=sorted(MAKERS))
def maker(request, monkeypatch):
    """``ScoreTable.frame`` made by one maker (``_frame_maker`` chooses by pandas' version)."""
    made = MAKERS[request.param]()
    monkeypatch.setattr(score_table, "_frame_maker", lambda: made)
    return request.param


@pytest.mark.parametrize("rows, width", SHAPES)
def test_frame_is_the_constructors_frame(maker, rows, width):
    """Same values, dtypes, range index and column index as the constructor's frame, one float block."""
    columns = tuple(f"m{k}_f" for k in range(width))
    values = np.random.default_rng(rows * 10 + width).random((rows, width))
    frame = ScoreTable(columns, values).frame()
    expected = pd.DataFrame(values, columns=list(columns))
    pd.testing.assert_frame_equal(frame, expected, check_exact=True, check_index_type=True, check_column_type=True)
    assert type(frame.index) is pd.RangeIndex and frame.columns.name is None
    assert frame._mgr.nblocks == expected._mgr.nblocks
    assert frame.to_numpy().tolist() == values.tolist()


def test_copy_keeps_the_frame_apart_from_the_table(maker):
    """``copy=True`` (the default): a later write to the table's array leaves the frame as it was; ``copy=False``
    hands the array itself to the frame."""
    values = np.arange(6, dtype=float).reshape(2, 3)
    kept, shared = (ScoreTable(("a", "b", "c"), values).frame(copy=c) for c in (True, False))
    values[0, 0] = 99.0
    assert kept.iloc[0, 0] == 0.0
    assert shared.iloc[0, 0] == 99.0


def test_frames_share_no_column_index(maker):
    """Renaming one frame's column index in place leaves the next frame of the same columns unnamed."""
    table = ScoreTable(("a", "b"), np.zeros((1, 2)))
    first = table.frame()
    first.columns.name = "renamed"
    first.index.name = "row"
    second = table.frame()
    assert second.columns.name is None and second.index.name is None


def test_pinned_pandas_takes_the_internal_constructors():
    """The pandas this project pins is one the internal constructors are checked on (else this test module checks
    a maker no one runs), and ``_frame_maker`` picks them there."""
    assert pd.__version__.startswith(score_table.INTERNALS_CHECKED)
    assert score_table._frame_maker().__qualname__.startswith("_internal_maker")
