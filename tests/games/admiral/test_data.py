"""Admiral's data files: the shipped data loads and matches the rules reference, broken data is
rejected with a message naming file, entry and field, and fleets respect the tactical-points budget."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from tests.paths import ROOT

from fogofwar.games.admiral.data_model import (
    DATA_FILES,
    UNIT_CLASSES,
    AdmiralDataError,
    FleetError,
    Ruleset,
    Symbol,
    build_fleet,
    default_ruleset,
    load_ruleset,
    square_index,
    square_name,
)

DOC = ROOT / "docs" / "rules" / "admiral.md"
PACKAGE = ROOT / "src" / "fogofwar" / "admiral"


def shipped(file: str) -> str:
    return resources.files("fogofwar.games.admiral").joinpath("data", file).read_text(encoding="utf-8")


def data_dir(tmp_path: Path, **texts: str) -> Path:
    """A copy of the shipped data in tmp_path, with some files replaced (units="..." for units.toml)."""
    for file in DATA_FILES:
        (tmp_path / file).write_text(texts.get(file.removesuffix(".toml"), shipped(file)), encoding="utf-8")
    return tmp_path


def edit(text: str, anchor: str, old: str, new: str) -> str:
    """Replace the first `old` after `anchor` (e.g. inside one [[unit]] block)."""
    start = text.index(anchor)
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old) :]


def load_error(tmp_path: Path, **texts: str) -> str:
    with pytest.raises(AdmiralDataError) as info:
        load_ruleset(data_dir(tmp_path, **texts))
    return str(info.value)


FLETCHER = 'name = "Fletcher"'

ONE_UNIT = """
[factions]
usn = "United States Navy"

[aircraft.fighter]
name = "Fighter"
attack = 0
damage = "none"

[aircraft.bomber]
name = "Bomber"
attack = 2
damage = "artillery"

[aircraft.torpedo_bomber]
name = "Torpedo bomber"
attack = 0
damage = "torpedo"

[[unit]]
name = "Fletcher"
class = "DD"
faction = "usn"
tactical_points = 29
structure = 2
armour = {armour}
movement = 2
anti_aircraft = 2
batteries = [{{ name = "main", coefficient = 2, range = 2, slots = {slots} }}]
torpedo_mounts = 2
torpedo_reloads = 0
depth_charges = 1
squadrons = {{}}
admiral = false
green = [{green}]
red = []
"""


def one_unit(armour: str = "2", slots: str = "2", green: str = '"smoke_projectors"') -> str:
    return ONE_UNIT.format(armour=armour, slots=slots, green=green)


# --- the shipped data ------------------------------------------------------------------------------


def test_shipped_data_loads() -> None:
    rs = default_ruleset()
    assert isinstance(rs, Ruleset)
    assert set(rs.factions) == {"usn", "ijn"}
    assert len(rs.special_rules) == 18
    assert sum(r.colour == "green" for r in rs.special_rules) == 13
    assert sum(r.colour == "red" for r in rs.special_rules) == 5
    assert set(rs.terrain) == {"island", "shallows", "fog_bank", "sandbank"}
    assert len(rs.die.faces) == 6


def test_a_minimal_unit_file_loads(tmp_path: Path) -> None:
    rs = load_ruleset(data_dir(tmp_path, units=one_unit()))
    assert [u.name for u in rs.units] == ["Fletcher"]
    assert rs.unit("Fletcher").size_class == 2  # defaults to structure (ADM-UNIT-4)


def test_both_fleets_have_every_class_and_every_special_rule_is_used() -> None:
    rs = default_ruleset()
    for faction in rs.factions:
        assert {u.unit_class for u in rs.units_of(faction)} == set(UNIT_CLASSES), faction
        assert any(u.admiral for u in rs.units_of(faction)), f"{faction} cannot roll for initiative"
    used = {key for u in rs.units for key in (*u.green, *u.red)}
    assert used == {r.key for r in rs.special_rules}
    assert any(u.torpedo_reloads for u in rs.units)
    assert any(u.depth_charges for u in rs.units)
    for kind in ("fighter", "bomber", "torpedo_bomber"):
        assert any(u.squadron_count(kind) for u in rs.units), kind


def test_the_three_surviving_destroyers_are_sister_ships() -> None:
    rs = default_ruleset()
    fletcher, jenkins, radford = (rs.unit(n) for n in ("Fletcher", "Jenkins", "Radford"))
    assert fletcher.unit_class == "DD" and fletcher.faction == "usn"
    for other in (jenkins, radford):
        assert other.__dict__ | {"name": "Fletcher"} == fletcher.__dict__


def test_submarines_have_a_submerged_side_that_hides_nothing() -> None:
    rs = default_ruleset()
    subs = [u for u in rs.units if u.unit_class == "SS"]
    assert len(subs) >= 4
    for sub in subs:
        assert sub.submerged is not None and sub.side(True).size_class == 0
        assert sub.side(False) is sub.front
    with pytest.raises(ValueError, match="not a submarine"):
        rs.unit("Yamato").side(True)


def test_die_faces_and_comparisons() -> None:
    die = default_ruleset().die
    assert all(face.symbols for face in die.faces)
    assert die.probability(Symbol.ADMIRAL) > 0
    # ADM-DICE-6: Admiral > Artillery > Torpedo > Movement; a face ranks by its best symbol.
    strongest = {
        s: max(die.duel_strength(f.index) for f in die.faces if f.symbols == (s,))
        for s in (Symbol.ADMIRAL, Symbol.ARTILLERY, Symbol.MOVEMENT)
    }
    assert strongest[Symbol.ADMIRAL] > strongest[Symbol.ARTILLERY] > strongest[Symbol.MOVEMENT]
    assert die.kill_symbol("bomber") == Symbol.MOVEMENT  # ADM-AIR-10
    assert die.kill_symbol("torpedo_bomber") == Symbol.ARTILLERY
    admiral_face = next(f.index for f in die.faces if f.symbols == (Symbol.ADMIRAL,))
    assert not die.hits(admiral_face, Symbol.ANTI_AIRCRAFT)  # ADM-DICE-7


def test_layouts_keep_out_of_the_deployment_zones() -> None:
    rs = default_ruleset()
    assert rs.layouts["open_sea"].squares == ()
    for layout in rs.layouts.values():
        for sq, tid in layout.squares:
            assert 2 <= sq // 8 <= 5 and tid in rs.terrain


def test_squares() -> None:
    assert [square_name(square_index(n)) for n in ("A1", "H1", "A8", "H8", "d5")] == ["A1", "H1", "A8", "H8", "D5"]
    for bad in ("I1", "A9", "A0", "", "A10"):
        with pytest.raises(ValueError, match="is not a square"):
            square_index(bad)
    with pytest.raises(ValueError):
        square_name(64)


# --- data and the rules reference agree --------------------------------------------------------------


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_special_rule_ids_match_the_rules_reference() -> None:
    documented = dict(re.findall(r"- \*\*(ADM-[GR]\d\d)\*\* \*\*([^*]+)\*\*", doc_text()))
    data = {r.id: r.name for r in default_ruleset().special_rules}
    assert set(documented) == set(data)
    assert documented == data  # same names too
    assert len(documented) == 18


def test_every_rule_id_cited_in_code_and_data_is_defined_in_the_reference() -> None:
    defined = set(re.findall(r"\*\*(ADM-[A-Z]+(?:-\d+|\d\d))\*\*", doc_text()))
    assert len(defined) > 100
    cited: dict[str, str] = {}
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.toml")]:
        for rid in re.findall(r"ADM-[A-Z]+(?:-\d+|\d\d)", path.read_text(encoding="utf-8")):
            cited.setdefault(rid, path.name)
    for prefix in ("ADM-G", "ADM-R"):  # ranges like ADM-G* in comments are fine
        cited.pop(prefix, None)
    missing = {rid: where for rid, where in cited.items() if rid not in defined}
    assert not missing, f"cited but not defined in docs/rules/admiral.md: {missing}"


def test_the_reference_has_an_assumptions_table_citing_the_data() -> None:
    text = doc_text()
    assert "## Assumptions" in text
    rows = re.findall(r"^\| (A\d\d) \|", text, flags=re.MULTILINE)
    assert rows == sorted(rows) and len(rows) >= 8
    for cited in set(re.findall(r"Assumptions? (A\d\d)", text)):
        assert cited in rows


# --- broken data gives precise errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("armour", "message"),
    [
        ("-1", "units.toml: unit 'Fletcher': armour must be a whole number >= 0, got -1"),
        ('"two"', "units.toml: unit 'Fletcher': armour must be a whole number >= 0, got 'two'"),
        ("true", "units.toml: unit 'Fletcher': armour must be a whole number >= 0, got True"),
        ("1.5", "units.toml: unit 'Fletcher': armour must be a whole number >= 0, got 1.5"),
    ],
)
def test_bad_armour(tmp_path: Path, armour: str, message: str) -> None:
    assert load_error(tmp_path, units=one_unit(armour=armour)) == message


def test_bad_armour_in_the_shipped_file(tmp_path: Path) -> None:
    units = edit(shipped("units.toml"), FLETCHER, "armour = 2", "armour = -1")
    assert (
        load_error(tmp_path, units=units) == "units.toml: unit 'Fletcher': armour must be a whole number >= 0, got -1"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("armour = 2", "armor = 2", "units.toml: unit 'Fletcher': unknown field 'armor' (known fields: "),
        ("depth_charges = 1\n", "", "units.toml: unit 'Fletcher': missing field 'depth_charges'"),
        ('class = "DD"', 'class = "XX"', "units.toml: unit 'Fletcher': class must be one of 'BB', 'CA',"),
        (
            'faction = "usn"',
            'faction = "rn"',
            "units.toml: unit 'Fletcher': faction must be one of 'usn', 'ijn', got 'rn'",
        ),
        (
            "slots = 2",
            "slots = 3",
            "units.toml: unit 'Fletcher': battery 'main': slots must be 1 or 2 (ADM-ART-6), got 3",
        ),
        (
            "range = 2",
            "range = 0",
            "units.toml: unit 'Fletcher': battery 'main': range must be a whole number >= 1, got 0",
        ),
        ("range = 2, ", "", "units.toml: unit 'Fletcher': battery 'main': missing field 'range'"),
        ("admiral = false", "admiral = 0", "units.toml: unit 'Fletcher': admiral must be true or false, got 0"),
        (
            "squadrons = {}",
            "squadrons = { zeppelin = 1 }",
            "units.toml: unit 'Fletcher': squadrons: unknown squadron type 'zeppelin'",
        ),
        (
            "squadrons = {}",
            "squadrons = { fighter = -2 }",
            "units.toml: unit 'Fletcher': squadrons: fighter must be a whole number >= 0, got -2",
        ),
        (
            'green = ["smoke_projectors"]',
            'green = ["smoke"]',
            "units.toml: unit 'Fletcher': green feature 'smoke' is not a rule in special_rules.toml",
        ),
        (
            'green = ["smoke_projectors"]',
            'green = ["no_radar"]',
            "units.toml: unit 'Fletcher': 'no_radar' is a red rule (ADM-R04); list it under red",
        ),
        (
            'green = ["smoke_projectors"]',
            'green = ["smoke_projectors", "smoke_projectors"]',
            "units.toml: unit 'Fletcher': green lists the same value twice",
        ),
        (
            'green = ["smoke_projectors"]',
            'green = ["superior_fighters"]',
            "units.toml: unit 'Fletcher': feature 'superior_fighters' (ADM-G04) needs fighter squadrons,"
            " but it carries none",
        ),
        (
            "torpedo_reloads = 0",
            "torpedo_reloads = 1",
            "units.toml: unit 'Fletcher': torpedo_reloads must be 0 without the torpedo_reload feature (ADM-G09)",
        ),
        ('class = "DD"', 'class = "SS"', "units.toml: unit 'Fletcher': a submarine (class SS) needs a submerged side"),
        (
            'red = ["faulty_torpedoes"]',
            'red = ["faulty_torpedoes"]\nsubmerged = { movement = 1, armour = 1, anti_aircraft = 0, batteries = [] }',
            "units.toml: unit 'Fletcher': only submarines (class SS) have a submerged side; this unit is class DD",
        ),
        (
            'name = "Fletcher"',
            'name = "Jenkins"',
            "units.toml: two units are named 'Jenkins': card names must be unique",
        ),
        (
            "tactical_points = 29",
            "tactical_points = 0",
            "units.toml: unit 'Fletcher': tactical_points must be a whole number >= 1, got 0",
        ),
    ],
)
def test_bad_units(tmp_path: Path, old: str, new: str, message: str) -> None:
    units = edit(shipped("units.toml"), FLETCHER, old, new)
    assert load_error(tmp_path, units=units).startswith(message)


def test_a_feature_needing_torpedoes_on_a_unit_without(tmp_path: Path) -> None:
    units = edit(
        shipped("units.toml"), 'name = "Helena"', 'green = ["high_rate_of_fire"]', 'green = ["excellent_torpedoes"]'
    )
    assert load_error(tmp_path, units=units) == (
        "units.toml: unit 'Helena': feature 'excellent_torpedoes' (ADM-G10) needs torpedoes, but torpedo_mounts is 0"
    )


def test_bad_submerged_side(tmp_path: Path) -> None:
    units = edit(shipped("units.toml"), 'name = "Wahoo"', "movement = 1, armour = 1", "movement = -1, armour = 1")
    assert load_error(tmp_path, units=units) == (
        "units.toml: unit 'Wahoo': submerged: movement must be a whole number >= 0, got -1"
    )


def test_bad_aircraft(tmp_path: Path) -> None:
    units = edit(shipped("units.toml"), "[aircraft.bomber]", 'damage = "artillery"', 'damage = "napalm"')
    assert load_error(tmp_path, units=units) == (
        "units.toml: aircraft 'bomber': damage must be one of 'none', 'artillery', 'torpedo', got 'napalm'"
    )
    units = shipped("units.toml").replace("[aircraft.torpedo_bomber]", "[aircraft.seaplane]")
    assert load_error(tmp_path, units=units) == (
        "units.toml: unknown aircraft type 'seaplane' (the rules know fighter, bomber, torpedo_bomber)"
    )


def test_not_toml_and_missing_files(tmp_path: Path) -> None:
    assert load_error(tmp_path, units="[[unit]\nname = ").startswith("units.toml: not valid TOML: ")
    data_dir(tmp_path)
    (tmp_path / "dice.toml").unlink()
    with pytest.raises(AdmiralDataError, match=r"^dice\.toml: file not found$"):
        load_ruleset(tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'symbols = ["admiral"]\nsolo = "repair"\n\n[[face]]\n',
            "",
            "dice.toml: the die has six faces: give exactly 6 [[face]] tables, got 5",
        ),
        (
            'symbols = ["admiral"]',
            'symbols = ["anchor"]',
            "dice.toml: face 1: symbols: 'anchor' is not one of 'movement', ",
        ),
        ('symbols = ["admiral"]', "symbols = []", "dice.toml: face 1: symbols must list at least one symbol"),
        (
            'symbols = ["admiral"]',
            'symbols = ["movement"]',
            "dice.toml: no face shows the 'admiral' symbol: that action could never happen",
        ),
        (
            'solo = "repair"',
            'solo = "flee"',
            "dice.toml: face 1: solo must be one of 'move', 'fire', 'repair', got 'flee'",
        ),
        ('order = ["admiral",', 'order = ["admiral", "admiral",', "dice.toml: duel: order lists the same value twice"),
        (
            'paragraph = ["admiral",',
            'paragraph = ["admiral+luck",',
            "dice.toml: duel: paragraph: 'luck' is not one of 'movement', ",
        ),
        ('bomber = "movement"', 'bomber = "luck"', "dice.toml: air_combat: bomber must be one of 'movement', "),
        (
            "admiral_wild_in_rolls = false",
            "admiral_wild_in_rolls = 'no'",
            "dice.toml: admiral_wild_in_rolls must be true or false, got 'no'",
        ),
    ],
)
def test_bad_dice(tmp_path: Path, old: str, new: str, message: str) -> None:
    dice = edit(shipped("dice.toml"), "admiral_wild_in_rolls", old, new)
    assert load_error(tmp_path, dice=dice).startswith(message)


@pytest.mark.parametrize(
    ("anchor", "old", "new", "message"),
    [
        (
            'id = "island"',
            "blocks_line_of_sight = true",
            "blocks_line_of_sight = 1",
            "terrain.toml: terrain 'island': blocks_line_of_sight must be true or false, got 1",
        ),
        (
            'id = "shallows"',
            '"DD", "SS"',
            '"DD", "PT"',
            "terrain.toml: terrain 'shallows': passable_classes: 'PT' is not one of 'BB', ",
        ),
        (
            'id = "shallows"',
            'passable_feature = "shallow_draught"',
            'passable_feature = "wings"',
            "terrain.toml: terrain 'shallows': passable_feature 'wings' is not a green rule in special_rules.toml",
        ),
        (
            'id = "fog_bank"',
            "exit_move_limit = 1",
            "exit_move_limit = -1",
            "terrain.toml: terrain 'fog_bank': exit_move_limit must be a whole number >= 0, got -1",
        ),
        (
            'id = "sandbank"',
            'id = "sandbank"',
            'id = "Sand Bank"',
            "terrain.toml: terrain 'Sand Bank': id must be lower-case letters, digits and _, got 'Sand Bank'",
        ),
        (
            "[layouts.archipelago]",
            'C4 = "island"',
            'C2 = "island"',
            "terrain.toml: layout 'archipelago': C2 is in a deployment zone: terrain goes in rows 3-6 (ADM-TERR-1)",
        ),
        (
            "[layouts.archipelago]",
            'C4 = "island"',
            'C4 = "volcano"',
            "terrain.toml: layout 'archipelago': C4: unknown terrain 'volcano'",
        ),
        (
            "[layouts.archipelago]",
            'C4 = "island"',
            'Z4 = "island"',
            "terrain.toml: layout 'archipelago': 'Z4' is not a square",
        ),
        (
            "[board]",
            'range_metric = "chebyshev"',
            'range_metric = "euclid"',
            "terrain.toml: board: range_metric must be one of 'chebyshev', 'manhattan', got 'euclid'",
        ),
    ],
)
def test_bad_terrain(tmp_path: Path, anchor: str, old: str, new: str, message: str) -> None:
    terrain = edit(shipped("terrain.toml"), anchor, old, new)
    assert load_error(tmp_path, terrain=terrain).startswith(message)


@pytest.mark.parametrize(
    ("anchor", "old", "new", "message"),
    [
        (
            'id = "ADM-G01"',
            'colour = "green"',
            'colour = "red"',
            "special_rules.toml: rule 'ADM-G01': colour 'red' does not match the id",
        ),
        (
            'id = "ADM-G01"',
            'id = "ADM-G01"',
            'id = "G01"',
            "special_rules.toml: rule 'G01': id must look like ADM-G01 (green) or ADM-R01 (red), got 'G01'",
        ),
        (
            'id = "ADM-G01"',
            "value = 2\n",
            "",
            "special_rules.toml: rule 'ADM-G01': missing field 'value' (effect 'armour' needs a number)",
        ),
        (
            'id = "ADM-G01"',
            "value = 2",
            "value = 2.5",
            "special_rules.toml: rule 'ADM-G01': value must be a whole number, got 2.5",
        ),
        (
            'id = "ADM-G02"',
            'effect = "cross_shallows"',
            'effect = "cross_shallows"\nvalue = 1',
            "special_rules.toml: rule 'ADM-G02': effect 'cross_shallows' takes no value; remove value = 1",
        ),
        (
            'id = "ADM-G01"',
            'effect = "armour"',
            'effect = "teleport"',
            "special_rules.toml: rule 'ADM-G01': effect must be one of ",
        ),
        (
            'id = "ADM-G01"',
            'timing = ["air", "attack"]',
            'timing = ["dawn"]',
            "special_rules.toml: rule 'ADM-G01': timing: 'dawn' is not one of 'movement', 'air', 'attack'",
        ),
        (
            'id = "ADM-G02"',
            'key = "shallow_draught"',
            'key = "superior_steel"',
            "special_rules.toml: two rules share the key 'superior_steel'",
        ),
        ('id = "ADM-G02"', 'id = "ADM-G02"', 'id = "ADM-G01"', "special_rules.toml: two rules share the id 'ADM-G01'"),
        (
            'id = "ADM-G01"',
            'duration = "turn"',
            'duration = "forever"',
            "special_rules.toml: rule 'ADM-G01': duration must be one of 'move', 'turn', 'once', got 'forever'",
        ),
        (
            'id = "ADM-G01"',
            'summary = "Armour +2."',
            'summary = ""',
            "special_rules.toml: rule 'ADM-G01': summary must be a non-empty string, got ''",
        ),
    ],
)
def test_bad_special_rules(tmp_path: Path, anchor: str, old: str, new: str, message: str) -> None:
    rules = edit(shipped("special_rules.toml"), anchor, old, new)
    assert load_error(tmp_path, special_rules=rules).startswith(message)


def test_a_unit_citing_a_removed_rule(tmp_path: Path) -> None:
    rules = shipped("special_rules.toml")
    start = rules.index('[[rule]]\nid = "ADM-G08"')
    end = rules.index("[[rule]]", start + 1)
    message = load_error(tmp_path, special_rules=rules[:start] + rules[end:])
    assert (
        message == "units.toml: unit 'Fletcher': green feature 'smoke_projectors' is not a rule in special_rules.toml"
    )


# --- fleet building (ADM-FLEET-1/2) ---------------------------------------------------------------------


def test_build_fleet_within_budget() -> None:
    fleet = build_fleet("usn", 200, ["Washington", "Fletcher", "Jenkins"])
    assert fleet.faction == "usn" and fleet.budget == 200
    assert fleet.names == ("Washington", "Fletcher", "Jenkins")
    assert fleet.total_points == 100 + 29 + 29


def test_build_fleet_may_spend_the_exact_budget() -> None:
    assert build_fleet("ijn", 152, ["Yamato", "Yukikaze"]).total_points == 152


def test_build_fleet_may_spend_everything() -> None:
    rs = default_ruleset()
    for faction in rs.factions:
        units = [u.name for u in rs.units_of(faction)]
        total = sum(u.tactical_points for u in rs.units_of(faction))
        assert build_fleet(faction, total, units).total_points == total


@pytest.mark.parametrize(
    ("faction", "budget", "choices", "message"),
    [
        (
            "usn",
            150,
            ["Washington", "Enterprise"],
            "fleet of usn: 190 tactical points exceed the budget of 150 (ADM-FLEET-1)",
        ),
        ("usn", 300, ["Washington", "Yamato"], "fleet of usn: 'Yamato' belongs to ijn, not usn (ADM-FLEET-2)"),
        (
            "usn",
            300,
            ["Fletcher", "Fletcher"],
            "fleet of usn: 'Fletcher' is chosen twice; each card is one ship (ADM-FLEET-1)",
        ),
        ("usn", 300, ["Bismarck"], "unknown unit 'Bismarck'; known units: Washington, "),
        ("usn", 300, [], "fleet of usn: choose at least one unit"),
        ("usn", 300, "Fletcher", "choices must be a list of unit names, not one string"),
        ("rn", 300, ["Fletcher"], "unknown faction 'rn'; known factions: usn, ijn"),
        ("usn", 0, ["Fletcher"], "the tactical-points budget must be a whole number >= 1, got 0"),
        ("usn", True, ["Fletcher"], "the tactical-points budget must be a whole number >= 1, got True"),
        ("usn", "300", ["Fletcher"], "the tactical-points budget must be a whole number >= 1, got '300'"),
    ],
)
def test_build_fleet_rejects(faction: str, budget: object, choices: object, message: str) -> None:
    with pytest.raises(FleetError) as info:
        build_fleet(faction, budget, choices)  # type: ignore[arg-type]
    assert str(info.value).startswith(message)


def test_build_fleet_with_another_ruleset(tmp_path: Path) -> None:
    rs = load_ruleset(data_dir(tmp_path, units=one_unit()))
    assert build_fleet("usn", 29, ["Fletcher"], rs).total_points == 29
    with pytest.raises(FleetError, match="unknown unit 'Washington'"):
        build_fleet("usn", 300, ["Washington"], rs)


def test_data_dir_copy_is_the_shipped_data(tmp_path: Path) -> None:
    """The helper's copy loads to the same ruleset (so the broken-data tests break one thing each)."""
    copy = load_ruleset(data_dir(tmp_path))
    assert copy.units == default_ruleset().units and copy.special_rules == default_ruleset().special_rules
