"""`rougelab metrics` groups the registry by family and marks the names computed as in each paper's tables."""
import pytest

from rougelab.cli import main
from rougelab.metrics.base import metric_names
from rougelab.metrics.families import BASELINE, FAMILIES, PAPER, VARIANT, by_family, family_of


def test_every_registered_name_has_a_family_and_each_paper_family_a_paper_name():
    grouped = by_family(metric_names())
    assert sum(len(rows) for rows in grouped.values()) == len(metric_names())
    for family, rows in grouped.items():
        roles = [role for _, role in rows]
        assert (PAPER in roles) == bool(family.paper), family.title
        assert roles == sorted(roles, key=lambda r: r != PAPER)          # paper names first


@pytest.mark.parametrize("name, title, role", [
    ("rouge-we-1", "ROUGE-WE", PAPER), ("rouge-we-su4-eq2", "ROUGE-WE", VARIANT), ("rouge-we-2-s3", "ROUGE-WE", VARIANT),
    ("rouge-g-su4", "ROUGE-G", PAPER), ("rouge-2", "ROUGE (Lin", PAPER), ("rouge-su*", "ROUGE (Lin", PAPER),
    ("rouge-w-1.2", "ROUGE (Lin", PAPER), ("rouge-2-nostem", "ROUGE (Lin", VARIANT), ("widar-l", "WIDAR", PAPER),
    ("widar-1-total", "WIDAR", VARIANT), ("anc-rouge-2", "Anchored", PAPER), ("anc-rouge-s4", "Anchored", VARIANT),
    ("bleu", "baselines", BASELINE)])
def test_roles(name, title, role):
    family = family_of(name)
    assert family.title.startswith(title) and family.role(name) == role


def test_unknown_name_says_where_to_add_it():
    with pytest.raises(LookupError, match="no family in rougelab.metrics.families"):
        family_of("meteor")


def test_metrics_command_prints_families_and_roles(capsys, monkeypatch):
    # signatures of every name are what the command prints; a stub keeps this test off the slow encoders
    import rougelab.metrics.base as base

    monkeypatch.setattr(base, "get_metric", lambda name: type("M", (), {"signature": f"sig-{name}"}))
    assert main(["metrics", "--paper"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"# {FAMILIES[0].title}")
    assert "rouge-we-1\tas in the paper's tables\tsig-rouge-we-1" in out
    assert not any(line.startswith("rouge-we-1-eq2") for line in out)
    assert main(["metrics"]) == 0
    assert "rouge-we-1-eq2\tvariant\tsig-rouge-we-1-eq2" in capsys.readouterr().out
