"""CITATION.cff is valid Citation File Format 1.2.0 (the format's own JSON schema) and cites the five papers."""
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "tests" / "data" / "citation-file-format-1.2.0.schema.json"


def test_citation_file_validates_against_the_cff_schema():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    jsonschema.validate(citation, json.loads(SCHEMA.read_text()))
    assert citation["cff-version"] == "1.2.0"


def test_the_schema_rejects_a_citation_without_authors():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    del citation["authors"]
    with pytest.raises(jsonschema.ValidationError, match="authors"):
        jsonschema.validate(citation, json.loads(SCHEMA.read_text()))


def test_citation_file_lists_the_five_papers_and_the_package_version():
    import rougelab

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == rougelab.__version__
    assert len(citation["references"]) == 5
    assert sorted(ref["year"] for ref in citation["references"] if "year" in ref) == [2004, 2015, 2018, 2020, 2022]
