"""The rules reference and the tests stay in step: every rule id of docs/rules/lotr.md has its test."""

from __future__ import annotations

import re

import test_lotr_powers
import test_lotr_ring
import test_lotr_rules
import test_lotr_setup
from tests.paths import ROOT

MODULES = (test_lotr_rules, test_lotr_powers, test_lotr_ring, test_lotr_setup)

DOC = ROOT / "docs" / "rules" / "lotr.md"


def rule_ids() -> list[str]:
    return re.findall(r"^- \*\*(LOTR-[A-Z]+-\d+)\*\*", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)


def lotr_test_names() -> list[str]:
    return [n for m in MODULES for n in dir(m) if n.startswith("test_LOTR_")]


def test_every_rule_id_has_a_test_named_after_it() -> None:
    ids = rule_ids()
    assert len(ids) >= 70 and len(set(ids)) == len(ids)
    names = lotr_test_names()
    missing = [i for i in ids if not any(n.startswith("test_" + i.replace("-", "_") + "_") for n in names)]
    assert not missing, f"rules without a test: {missing}"


def test_every_test_cites_a_rule_of_the_reference() -> None:
    ids = {i.replace("-", "_") for i in rule_ids()}
    for name in lotr_test_names():
        cited = re.match(r"test_(LOTR_[A-Z]+_\d+)_", name)
        assert cited and cited.group(1) in ids, name


def test_every_choice_the_rules_cite_is_in_the_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = set(re.findall(r"^\| (LOTR-CHOICE-[A-Z-]+[A-Z]) \|", text, flags=re.MULTILINE))
    cited = set(re.findall(r"LOTR-CHOICE-[A-Z-]+[A-Z]", text))
    assert cited <= table, f"choices cited but not in the table: {sorted(cited - table)}"
    assert "not implemented yet" not in text.lower()
