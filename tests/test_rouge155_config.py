"""ROUGE-1.5.5 configuration files: the XML evaluation file and the -z file list (readEvals, readFileList)."""
import pytest

from rougelab.rouge.rouge155.config import ConfigError, read_file_list, read_xml

XML = """<ROUGE-EVAL version="1.0">
<EVAL ID="2">
<PEER-ROOT>
  peers/dir
</PEER-ROOT>
<model-root>models</model-root>
<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>
<PEERS>
<P ID="11">d2.p11.spl</P>
<P ID="3">d2.p3.spl</P>
</PEERS>
<MODELS>
<M ID="B">d2.B.spl</M>
<M ID="A">d2.A.spl</M>
</MODELS>
</EVAL>
<EVAL ID="10">
<PEER-ROOT>peers</PEER-ROOT>
<MODEL-ROOT>models</MODEL-ROOT>
<INPUT-FORMAT TYPE="see"></INPUT-FORMAT>
<PEERS><P ID="11">d10.p11.html</P><P ID="7"></P></PEERS>
<MODELS><M ID="A">d10.A.html</M></MODELS>
</EVAL>
</ROUGE-EVAL>
"""


def test_xml_evaluations_roots_and_ids_in_file_order(tmp_path):
    path = tmp_path / "c.xml"
    path.write_text(XML)
    config = read_xml(path)
    assert [ev.eval_id for ev in config.evaluations] == ["2", "10"]
    assert config.peer_ids == {"11", "3", "7"}
    first, second = config.evaluations
    assert first.input_format == "SPL" and second.input_format == "see"
    # roots are stripped of surrounding white space and joined with "/" as ROUGE-1.5.5 does
    assert first.peer_path("3") == "peers/dir/d2.p3.spl"
    assert first.model_paths() == ["models/d2.B.spl", "models/d2.A.spl"]   # file order, not sorted
    # a <P> without a file name is listed as a peer but has no summary in that evaluation
    assert "7" not in second.peers


def test_xml_unknown_input_type_and_missing_id(tmp_path):
    path = tmp_path / "c.xml"
    path.write_text(XML.replace('TYPE="SPL"', 'TYPE="TXT"'))
    with pytest.raises(ConfigError, match="Unknown input type: TXT"):
        read_xml(path)
    path.write_text(XML.replace('<EVAL ID="2">', "<EVAL>"))
    with pytest.raises(ConfigError, match="no ID attribute"):
        read_xml(path)
    path.write_text("<ROUGE-EVAL><EVAL ID='1'>")
    with pytest.raises(ConfigError, match="cannot parse"):
        read_xml(path)


def test_file_list_numbers_evaluations_and_names_models(tmp_path):
    path = tmp_path / "list.lst"
    path.write_text("# comment\n\n  a.spl\tm1.spl m2.spl  \nb.spl m3.spl\n")
    config = read_file_list(path, "SPL", "26")
    assert [ev.eval_id for ev in config.evaluations] == ["1", "2"]
    assert config.peer_ids == {"26"}
    first = config.evaluations[0]
    assert first.model_ids == ["M.1", "M.2"]
    assert first.peer_path("26") == "a.spl"                      # -z paths are used as given
    assert first.model_paths() == ["m1.spl", "m2.spl"]


def test_file_list_line_without_model_is_refused(tmp_path):
    path = tmp_path / "list.lst"
    path.write_text("a.spl m.spl\nlonely.spl\n")
    with pytest.raises(ConfigError, match="line 2: a file list has to have at least 2 file names"):
        read_file_list(path, "SPL", "X")


def test_official_sample_configs_read():
    from test_rouge155_parity import sample_test_dir
    root = sample_test_dir()
    config = read_xml(root / "ROUGE-test.xml")
    assert len(config.evaluations) == 25
    assert sorted(config.peer_ids) == ["11", "12", "13", "14", "21", "22", "23", "24"]
    assert all(len(ev.model_ids) == 4 for ev in config.evaluations)
    listed = read_file_list(root / "DUC2002-ROUGE.in.26.spl.lst", "SPL", "26")
    xml = read_xml(root / "DUC2002-ROUGE.in.26.spl.xml")
    assert len(listed.evaluations) == len(xml.evaluations) == 59
