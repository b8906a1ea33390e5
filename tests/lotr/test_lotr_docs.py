"""The rules reference and the tests stay in step: every rule id of docs/rules/lotr.md has its test."""

from __future__ import annotations

import re
from pathlib import Path

import test_lotr_rules as test_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "lotr.md"


def rule_ids() -> list[str]:
    return re.findall(r"^- \*\*(LOTR-[A-Z]+-\d+)\*\*", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)


def test_every_rule_id_has_a_test_named_after_it() -> None:
    ids = rule_ids()
    assert len(ids) >= 30 and len(set(ids)) == len(ids)
    names = [n for n in dir(test_rules) if n.startswith("test_LOTR_")]
    missing = [i for i in ids if not any(n.startswith("test_" + i.replace("-", "_") + "_") for n in names)]
    assert not missing, f"rules without a test: {missing}"


def test_every_test_cites_a_rule_of_the_reference() -> None:
    ids = {i.replace("-", "_") for i in rule_ids()}
    for name in dir(test_rules):
        if name.startswith("test_LOTR_"):
            cited = re.match(r"test_(LOTR_[A-Z]+_\d+)_", name)
            assert cited and cited.group(1) in ids, name
