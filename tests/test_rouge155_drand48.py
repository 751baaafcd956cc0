"""Perl's srand/rand (drand48), checked against the perl on this machine and a printed Perl value."""
import shutil
import subprocess

import numpy as np
import pytest

from rougelab.rouge.rouge155.drand48 import Drand48, resample_indices

PERL = shutil.which("perl")
needs_perl = pytest.mark.skipif(PERL is None, reason="perl is not installed")


def _perl(code: str) -> str:
    return subprocess.run([PERL, "-e", code], check=True, capture_output=True, text=True).stdout


def test_first_draw_after_srand_1_matches_printed_perl_value():
    # perl 5.36 -e 'srand(1); printf("%.17g", rand())' printed 0.041630344771878214
    assert Drand48(1).random() == 0.041630344771878214


@needs_perl
def test_streams_match_perl_bit_for_bit():
    seeds = [0, 1, 2, 7, 999, 65535, 65536, 2**31 - 1, 2**32 + 5]
    out = _perl("for $s (%s) { srand($s); print join(' ', map { sprintf('%%.17g', rand()) } 1..6), \"\\n\" }"
                % ",".join(map(str, seeds)))
    for seed, line in zip(seeds, out.splitlines()):
        stream = Drand48(seed)
        assert [stream.random() for _ in range(6)] == [float(x) for x in line.split()], seed


@needs_perl
@pytest.mark.parametrize("n_instances", [1, 3, 25, 57])
def test_resample_indices_match_perl_int_rand(n_instances):
    out = _perl("for $i (0..199) { srand($i); print join(' ', map { int(rand(%d)) } 1..%d), \"\\n\" }"
                % (n_instances, n_instances))
    expected = np.array([[int(x) for x in line.split()] for line in out.splitlines()])
    assert np.array_equal(resample_indices(200, n_instances), expected)


def test_rand_scales_the_draw():
    assert Drand48(3).rand(10.0) == Drand48(3).random() * 10.0
