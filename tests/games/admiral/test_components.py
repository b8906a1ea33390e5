"""The components as the engine plays them (ADM-GEN, ADM-UNIT, ADM-SETUP-1, ADM-INIT-4, ADM-SUB-1/2), and a check
that every rule id of docs/rules/admiral.md and docs/rules/admiral-solo.md is cited by a test here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.paths import ROOT

from fogofwar.core import CHANCE, make_game
from fogofwar.games.admiral.data_model import BOARD_SIZE, UNIT_CLASSES, Symbol, default_ruleset, load_ruleset
from fogofwar.games.admiral.rules import AdmiralGame, NotImplementedYetError

from .helpers import ADMIRAL, ARTILLERY, fire, position, roll, targets
from .test_data import data_dir, edit, shipped

DOC = ROOT / "docs" / "rules" / "admiral.md"
SOLO_DOC = ROOT / "docs" / "rules" / "admiral-solo.md"
NOT_IMPLEMENTED: set[str] = set()


def test_two_fleets_of_cards_on_an_8x8_board() -> None:  # ADM-GEN-1, ADM-GEN-2
    game = make_game("admiral")
    assert isinstance(game, AdmiralGame) and game.num_players == 2
    state = game.new_initial_state()
    board = state.observation(0).data["board"]
    assert BOARD_SIZE == 8 and len(board) == 64
    assert all(sq < 16 for sq in {a % 64 for a in state.legal_actions()})  # South sits at rows 1-2


def test_the_player_board_areas_are_in_the_observation() -> None:  # ADM-GEN-3
    state = position({"Fletcher": "C1", "Jenkins": {"where": "reserve"}}, {"Yukikaze": "C8"}, dice=[["admiral"], []])
    fleet = state.observation(1).data["fleets"][0]
    assert fleet["reserve"] == ["Jenkins"]  # the Reserve area
    assert fleet["dice"] == [{"face": "admiral", "used": None}]  # Admiral and Exhausted areas: the pool's uses


def test_the_special_die_shows_the_six_symbols() -> None:  # ADM-GEN-4
    die = default_ruleset().die
    assert {s for f in die.faces for s in f.symbols} == set(Symbol)
    assert any(len(f.symbols) > 1 for f in die.faces)


def test_unit_cards() -> None:  # ADM-UNIT-1, ADM-UNIT-2, ADM-UNIT-3
    card = default_ruleset().unit("Yukikaze")
    assert (card.unit_class, card.structure, card.armour, card.movement) == ("DD", 2, 2, 2)
    assert card.batteries[0].slots == 2 and card.torpedo_mounts == 2 and card.depth_charges == 1
    assert card.green == ("excellent_torpedoes", "torpedo_reload")  # advantages in green
    assert default_ruleset().unit("Kirishima").red == ("obsolete", "no_radar")  # disadvantages in red
    assert set(UNIT_CLASSES) == {"BB", "CA", "CL", "DD", "CV", "SS"}


def test_a_submarine_keeps_its_structure_and_torpedoes_across_sides() -> None:  # ADM-UNIT-5, ADM-SUB-1, ADM-SUB-2
    state = position(
        {"Wahoo": {"square": "C5", "structure": 1, "torpedoes": 2}, "Washington": "H1"},
        {"Yukikaze": "C6", "Yamato": "H8"},
        dice=[["artillery"], []],
        phase="attack",
    )
    assert targets(state, "Wahoo") == {"Yukikaze"}  # surfaced: its deck gun fires like any battery
    below = position(
        {"Wahoo": {"square": "C5", "structure": 1, "torpedoes": 2, "submerged": True}, "Washington": "H1"},
        {"Yukikaze": "C6", "Yamato": "H8"},
        dice=[["artillery"], []],
        phase="attack",
    )
    assert targets(below, "Wahoo") == set()  # submerged: no batteries
    wahoo = below.unit(0, "Wahoo")
    assert (wahoo.structure, wahoo.torpedoes, wahoo.side.movement) == (1, 2, 1)
    assert fire(state, "Wahoo", "Yukikaze", ARTILLERY) in state.legal_actions()


def test_fleets_are_built_from_the_options() -> None:  # ADM-SETUP-1, ADM-FLEET-1
    game = AdmiralGame(fleets=[["Fletcher", "Wahoo"], ["Yukikaze"]], budget=100)
    assert [u.card.name for u in game.new_initial_state().units(0)] == ["Fletcher", "Wahoo"]


def test_initiative_dice_do_not_join_the_action_pool() -> None:  # ADM-INIT-4
    state = position({"Washington": "C1"}, {"Yamato": "C8"}, phase="initiative")
    roll(state, [ADMIRAL, ADMIRAL, ARTILLERY, ARTILLERY])  # 2 dice each for initiative
    state.apply(state.legal_actions()[0])  # South chooses who moves first
    assert state.phase == "action_dice" and state.dice(0) == [] and state.pool_size(0) == 2
    assert state.current_player() == CHANCE
    roll(state, [ADMIRAL] * 4)
    assert len(state.dice(0)) == 2 and state.phase == "movement"


def test_data_the_engine_cannot_play_is_refused(tmp_path: Path) -> None:  # section 5, ADM-AIR-8
    rules = edit(
        shipped("special_rules.toml"), 'key = "shallow_draught"', 'timing = ["movement"]', 'timing = ["attack"]'
    )
    ruleset = load_ruleset(data_dir(tmp_path, special_rules=rules))
    with pytest.raises(NotImplementedYetError, match=r"ADM-G02 Shallow Draught: .*'cross_shallows'.*'attack'"):
        AdmiralGame(fleets=[["Fletcher"], ["Yukikaze"]], ruleset=ruleset)
    units = edit(shipped("units.toml"), "[aircraft.bomber]", 'damage = "artillery"', 'damage = "torpedo"')
    ruleset = load_ruleset(data_dir(tmp_path, units=units))
    with pytest.raises(NotImplementedYetError, match="fighters, bombers and torpedo bombers"):
        AdmiralGame(fleets=[["Fletcher"], ["Yukikaze"]], ruleset=ruleset)


def test_movement_features_are_played_in_full_or_refused(tmp_path: Path) -> None:  # ADM-G02, ADM-G08
    """Every path of a smoke-laying move is one of the two L's only up to Movement 2; the engine plays one
    movement feature a move. The shipped cards fit both (Fletcher, Jenkins, Radford: Movement 2, smoke only);
    other data is refused rather than played short."""
    AdmiralGame(fleets=[["Fletcher", "Jenkins", "Radford"], ["Yukikaze"]])
    fast = edit(shipped("units.toml"), 'name = "Fletcher"', "movement = 2", "movement = 3")
    ruleset = load_ruleset(data_dir(tmp_path, units=fast))
    with pytest.raises(NotImplementedYetError, match="Fletcher: a smoke-laying move .* Movement of at most 2"):
        AdmiralGame(fleets=[["Fletcher"], ["Yukikaze"]], ruleset=ruleset)
    both = edit(
        shipped("units.toml"),
        'name = "Fletcher"',
        'green = ["smoke_projectors"]',
        'green = ["smoke_projectors", "shallow_draught"]',
    )
    ruleset = load_ruleset(data_dir(tmp_path, units=both))
    with pytest.raises(NotImplementedYetError, match="Fletcher: the engine plays one movement feature a move"):
        AdmiralGame(fleets=[["Fletcher"], ["Yukikaze"]], ruleset=ruleset)


def test_every_rule_id_has_a_test() -> None:
    doc = DOC.read_text(encoding="utf-8")
    defined = re.findall(r"^- \*\*(ADM-[A-Z]+(?:-\d+|\d\d))\*\*", doc, flags=re.MULTILINE)
    cited: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for ref in re.findall(r"ADM-[A-Z]+-?\d+(?:(?:/|\.\.)\d+)*", path.read_text(encoding="utf-8")):
            head = re.match(r"(ADM-[A-Z]+-?)(\d+)", ref)
            assert head is not None
            prefix, first = head.group(1), int(head.group(2))
            numbers = [first, *(int(n) for n in re.findall(r"\d+", ref[head.end() :]))]
            if ".." in ref:
                numbers = list(range(first, numbers[-1] + 1))
            for n in numbers:
                cited.add(f"{prefix}{n}" if prefix.endswith("-") else f"{prefix}{n:02d}")
    missing = [rid for rid in defined if rid not in cited and rid not in NOT_IMPLEMENTED]
    assert not missing, f"rule ids without a test: {missing}"


def cited_ids(prefix: str) -> set[str]:
    """Every `prefix`-N id the tests here cite, ranges (`SOLO-TAB-1..5`) and lists (`SOLO-SET-1/2`) expanded."""
    cited: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for ref in re.findall(prefix + r"-[A-Z]+-\d+(?:(?:/|\.\.)\d+)*", path.read_text(encoding="utf-8")):
            head = re.match(prefix + r"-[A-Z]+-(\d+)", ref)
            assert head is not None
            first = int(head.group(1))
            numbers = [first, *(int(n) for n in re.findall(r"\d+", ref[head.end() :]))]
            if ".." in ref:
                numbers = list(range(first, numbers[-1] + 1))
            base = ref[: head.start(1)]
            cited.update(f"{base}{n}" for n in numbers)
    return cited


def test_every_solo_rule_id_has_a_test() -> None:
    doc = SOLO_DOC.read_text(encoding="utf-8")
    defined = re.findall(r"^- \*\*(SOLO-[A-Z]+-\d+)\*\*", doc, flags=re.MULTILINE)
    assert len(defined) == len(set(defined)) and len(defined) > 20
    missing = [rid for rid in defined if rid not in cited_ids("SOLO")]
    assert not missing, f"solo rule ids without a test: {missing}"
