"""Summary readers: what ROUGE-1.5.5's readText collects from SEE, ISI and SPL files (its regexes)."""
import pytest

from rougelab.rouge.rouge155.formats import FormatError, read_sentences

SEE = (b'<html>\n<head><title>x</title></head>\n<body bgcolor="white">\n'
       b'<a name="1">[1]</a> <a href="#1" id=1>The Cat sat.</a>\n'
       b'<a size="12" name="2">[2]</a>\t<a href="#2" id=2>On the <b>mat</b></a>\n'
       b'<a name="3">[3]</a> <a href="#3" id=3>runs on\n'
       b' <a name="4">[4]</a> <a href="#4" id=4>indented lines do not count</a>\n'
       b'</body>\n</html>\n')


def test_see_takes_the_second_anchor_text_up_to_the_next_tag(tmp_path):
    path = tmp_path / "p.html"
    path.write_bytes(SEE)
    assert read_sentences(path, "SEE") == ["The Cat sat.", "On the ", "runs on\n"]


def test_isi_takes_one_sentence_per_S_element(tmp_path):
    path = tmp_path / "p.isi"
    path.write_bytes(b'<S SNTNO="1">First one.</S>\n<S SNTNO="2a,b">Second</S> trailing\n'
                     b'<S SNTNO="X">upper-case ids do not match</S>\n<S>no number</S>\n')
    assert read_sentences(path, "isi") == ["First one.", "Second"]


def test_spl_keeps_every_non_empty_line_as_is(tmp_path):
    path = tmp_path / "p.spl"
    path.write_bytes(b"First line\n\n   \nCRLF line\r\nlast without newline")
    # chomp removes "\n" only: white-space lines and "\r" stay, as in ROUGE-1.5.5
    assert read_sentences(path, "SPL") == ["First line", "   ", "CRLF line\r", "last without newline"]


def test_bytes_stay_bytes(tmp_path):
    path = tmp_path / "p.spl"
    path.write_bytes("café naïve\n".encode("utf-8"))
    (sentence,) = read_sentences(path, "SPL")
    assert len(sentence) == len("café naïve".encode("utf-8"))   # -b counts bytes


def test_empty_file_has_no_sentences(tmp_path):
    path = tmp_path / "p.spl"
    path.write_bytes(b"")
    assert read_sentences(path, "SPL") == []


def test_unknown_or_unsupported_format_and_missing_file(tmp_path):
    path = tmp_path / "p.spl"
    path.write_bytes(b"x\n")
    with pytest.raises(FormatError, match="Unknown input format: TXT"):
        read_sentences(path, "TXT")
    with pytest.raises(FormatError, match="Basic Element"):
        read_sentences(path, "SIMPLE")
    with pytest.raises(FormatError, match="Cannot open"):
        read_sentences(tmp_path / "missing.spl", "SPL")


def test_official_see_sample_reads_every_sentence():
    from test_rouge155_parity import sample_test_dir
    root = sample_test_dir()
    sentences = read_sentences(root / "SL2003/models/SL.P.10.R.A.SL062003-01.html", "SEE")
    text = (root / "SL2003/models/SL.P.10.R.A.SL062003-01.html").read_text("latin-1")
    assert len(sentences) == text.count('<a href="#') > 0
