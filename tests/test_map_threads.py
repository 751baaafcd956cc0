"""``map_threads`` spreads classic ROUGE over our own threads without starting numba's thread pool (which a
first large call paid for, about 4 ms), and work nested in one of its threads runs serially."""
import os
import subprocess
import sys

import pytest

from rougelab import _jit

pytestmark = pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")

CODE = """
from numba.np.ufunc import parallel
from rougelab import _jit
print(_jit.get_num_threads(), _jit.map_threads(lambda x: _jit.get_num_threads(), [0, 1]), parallel._is_initialized)
import numba
numba.set_num_threads(1)  # starts numba's pool; the count it sets is read from then on
print(_jit.get_num_threads(), parallel._is_initialized)
"""


def test_thread_counts_without_starting_numbas_pool():
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["2 [1, 1] False", "1 True"]
