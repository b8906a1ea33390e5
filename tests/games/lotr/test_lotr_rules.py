"""One test per rule of docs/rules/lotr.md (Game 1, Classic), on small crafted positions.

Seats: 0 = Evil (rows 1-4, moves first), 1 = Good (rows 7-10). Each position keeps a spare piece
on the side that is not under test, so that nobody loses for want of a move (LOTR-END-2).
"""

from __future__ import annotations

import random

import pytest
from lotr_helpers import act, can, play, pos

from fogofwar.core import GameError, IllegalActionError, Termination, make_game
from fogofwar.games.lotr import EVIL, GOOD, LotrGame
from fogofwar.games.lotr.roster import FLAG, FORTRESS, SPY, roster
from fogofwar.games.lotr.rules import PLACE_BASE, random_setup
from fogofwar.grid.board import parse_square, square_name

SPARE_GOOD = {"K10": (GOOD, "knight")}
SPARE_EVIL = {"A1": (EVIL, "warg_rider")}


def test_LOTR_GAME_1_three_games_picked_by_the_variant_option() -> None:
    assert LotrGame().options["variant"] == "classic"
    for mode in ("classic", "powers", "ring"):
        game = make_game("lotr", variant=mode)
        assert isinstance(game, LotrGame) and game.options["variant"] == mode
        assert game.new_initial_state().observation(0).data["variant"] == mode
    with pytest.raises(GameError, match="option game must be .classic., .powers. or .ring., not .chess."):
        LotrGame(game="chess")
    with pytest.raises(ValueError):
        LotrGame(captured_mode="open")


def test_LOTR_ARMY_1_two_armies_of_forty_evil_is_seat_0() -> None:
    r = roster()
    assert [a.side for a in r.armies] == ["evil", "good"]
    assert r.army(EVIL).size == r.army(GOOD).size == 40
    state = LotrGame().new_initial_state()
    assert state.observation(0).data["side"] == "evil"
    assert state.observation(1).data["side"] == "good"


def test_LOTR_ARMY_2_classic_counts_and_the_names_the_text_fixes() -> None:
    classic = {10: 1, 9: 1, 8: 2, 7: 3, 6: 4, 5: 4, 4: 4, 3: 5, 2: 8, SPY: 1, FORTRESS: 6, FLAG: 1}
    r = roster()
    for army in r.armies:
        assert army.rank_counts() == classic
    rank = {(a.side, k.key): k.rank for a in r.armies for k in a.kinds}
    powers = {(a.side, k.key): k.powers for a in r.armies for k in a.kinds}
    fixed = {
        ("good", "gandalf"): 10, ("evil", "witch_king"): 10, ("good", "aragorn"): 9, ("evil", "saruman"): 9,
        ("good", "knight"): 2, ("evil", "warg_rider"): 2, ("good", "soldier"): 3, ("evil", "orc"): 3,
        ("good", "eowyn"): SPY, ("evil", "wormtongue"): SPY, ("good", "frodo"): 4, ("evil", "nazgul"): 8,
        ("evil", "berserker"): 5,
    }  # fmt: skip
    for who, r_ in fixed.items():
        assert rank[who] == r_, who
    assert "fly" in powers[("good", "gandalf")] and "fly" in powers[("evil", "witch_king")]
    named = {
        ("good", "legolas"): {"sense_enemy", "long_bow"}, ("good", "aragorn"): {"sense_enemy"},
        ("evil", "saruman"): {"sense_enemy"}, ("good", "faramir"): {"long_bow"}, ("good", "elf"): {"long_bow"},
        ("evil", "haradrim"): {"long_bow"}, ("good", "gimli"): {"dwarf_axe"}, ("good", "theoden"): {"swift_steed"},
        ("evil", "uruk_hai"): {"repeat_attack"}, ("evil", "berserker"): {"rage"}, ("good", "frodo"): {"invisibility"},
    }  # fmt: skip
    for who, p in named.items():
        assert set(powers[who]) == p, who


def test_LOTR_BOARD_1_two_forbidden_zones_of_four_squares() -> None:
    board = roster().board
    assert sorted(square_name(s) for s in board.forbidden) == sorted(["C5", "D5", "C6", "D6", "G5", "H5", "G6", "H6"])
    assert all(len(z) == 4 for z in board.zones)
    obs = LotrGame().new_initial_state().observation(0).data
    assert sum(c == "zone" for c in obs["board"]) == 8


def test_LOTR_BOARD_2_mount_doom_is_a_zone_corner_with_two_outside_neighbours() -> None:
    board = roster().board
    doom = board.mount_doom
    assert doom in board.forbidden
    r, c = divmod(doom, 10)
    around = [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
    outside = [
        rr * 10 + cc for rr, cc in around if 0 <= rr < 10 and 0 <= cc < 10 and rr * 10 + cc not in board.forbidden
    ]
    assert len(outside) == 2
    # In Game 1 Mount Doom is just part of its zone: nobody enters it.
    state = pos({"H4": (EVIL, 4), **SPARE_GOOD})
    assert not can(state, "H4", square_name(doom))


def test_LOTR_SETUP_1_whole_army_on_the_four_home_rows() -> None:
    game = LotrGame()
    state = game.new_initial_state()
    legal = state.legal_actions()
    squares = {(a - PLACE_BASE) % 100 for a in legal}
    assert squares == set(range(40))  # evil: rows 1-4
    with pytest.raises(IllegalActionError, match="home rows"):
        state.apply(PLACE_BASE + 0 * 100 + parse_square("A5"))
    setup = random_setup(game, EVIL, random.Random(1))
    bad = dict(setup)
    sq = next(iter(bad))
    bad[parse_square("E5")] = bad.pop(sq)
    with pytest.raises(GameError, match="home rows"):
        state.apply_setup(EVIL, bad)
    short = dict(setup)
    short.pop(sq)
    with pytest.raises(GameError, match="the army has"):
        state.apply_setup(EVIL, short)
    assert state.history == []
    state.apply_setup(EVIL, setup)
    assert {(a - PLACE_BASE) % 100 for a in state.legal_actions()} == set(range(60, 100))  # good: rows 7-10
    state.apply_setup(GOOD, random_setup(game, GOOD, random.Random(2)))
    assert state.phase == "play"


def test_LOTR_SETUP_2_setups_are_secret_evil_places_first() -> None:
    game = LotrGame()
    state = game.new_initial_state()
    assert state.current_player() == EVIL
    state.apply_setup(EVIL, random_setup(game, EVIL, random.Random(3)))
    assert state.current_player() == GOOD
    board = state.observation(GOOD).data["board"]
    assert all(c is None or c == "zone" for c in board), "good sees nothing of evil's setup"
    placed = state.string_to_action("gandalf@E10")
    state.apply(placed)
    assert state.action_to_string(state.history[-1]) == "gandalf@E10"
    assert all(c is None or c == "zone" or c["owner"] == EVIL for c in state.observation(EVIL).data["board"])


def test_LOTR_PLAY_1_evil_moves_first_then_turns_alternate() -> None:
    game = LotrGame()
    state = game.new_initial_state()
    state.apply_setup(EVIL, random_setup(game, EVIL, random.Random(4)))
    state.apply_setup(GOOD, random_setup(game, GOOD, random.Random(5)))
    assert state.phase == "play" and state.current_player() == EVIL
    state.apply(state.legal_actions()[0])
    assert state.current_player() == GOOD


def test_LOTR_PLAY_2_a_turn_is_one_move_or_attack_no_pass() -> None:
    state = pos({"E2": (EVIL, 5), "E3": (GOOD, 4), **SPARE_GOOD})
    legal = state.legal_actions()
    assert all(a < PLACE_BASE for a in legal)
    assert {square_name(a // 100) for a in legal} == {"E2"}
    assert act("E2", "E3") in legal  # the attack is one of the turn's choices


def test_LOTR_MOVE_1_flag_and_fortresses_never_move() -> None:
    state = pos({"E2": (EVIL, "flag"), "F2": (EVIL, "fortress"), "A1": (EVIL, 6), **SPARE_GOOD})
    assert {a // 100 for a in state.legal_actions()} == {parse_square("A1")}
    with pytest.raises(IllegalActionError, match="LOTR-MOVE-1"):
        state.apply(act("E2", "E3"))


def test_LOTR_MOVE_2_one_square_orthogonally_never_diagonally() -> None:
    state = pos({"E2": (EVIL, 10), **SPARE_GOOD})
    dests = sorted(square_name(a % 100) for a in state.legal_actions())
    assert dests == ["D2", "E1", "E3", "F2"]
    with pytest.raises(IllegalActionError, match="LOTR-MOVE-2"):
        state.apply(act("E2", "F3"))
    with pytest.raises(IllegalActionError, match="LOTR-MOVE-2"):
        state.apply(act("E2", "E4"))


def test_LOTR_MOVE_3_no_jumping_no_moving_onto_own_pieces() -> None:
    state = pos({"E2": (EVIL, 2), "E3": (EVIL, 5), **SPARE_GOOD})
    assert not can(state, "E2", "E3")
    assert not can(state, "E2", "E4")
    with pytest.raises(IllegalActionError, match="blocked"):
        state.apply(act("E2", "E5"))


def test_LOTR_MOVE_4_no_entering_or_crossing_a_forbidden_zone() -> None:
    state = pos({"C4": (EVIL, 9), "C3": (EVIL, 2), **SPARE_GOOD})
    assert not can(state, "C4", "C5")
    with pytest.raises(IllegalActionError, match="LOTR-MOVE-4"):
        state.apply(act("C4", "C5"))
    state = pos({"B5": (EVIL, 2), **SPARE_GOOD})
    assert not can(state, "B5", "E5")  # a Knight cannot run across the zone C5-D5


def test_LOTR_MOVE_5_no_third_turn_in_a_row_between_the_same_two_squares() -> None:
    state = pos({"A1": (EVIL, 6), "K10": (GOOD, 6), "E5": (EVIL, 5)})
    play(state, "A1-A2", "K10-K9", "A2-A1", "K9-K10")
    assert not can(state, "A1", "A2"), "the third turn in a row between A1 and A2"
    with pytest.raises(IllegalActionError, match="LOTR-MOVE-5"):
        state.apply(act("A1", "A2"))
    assert can(state, "A1", "B1")  # another square is fine
    # Moving another piece breaks the streak.
    play(state, "E5-E6", "K10-I10", "A1-A2")
    # The rule can be switched off.
    off = pos({"A1": (EVIL, 6), "K10": (GOOD, 6)}, back_and_forth=0)
    play(off, "A1-A2", "K10-K9", "A2-A1", "K9-K10", "A1-A2", "K10-K9", "A2-A1")
    # It counts a Knight's runs between the same two squares too, attacks of the same pair too.
    knight = pos({"A1": (EVIL, 2), "K10": (GOOD, 6)})
    play(knight, "A1-A4", "K10-K9", "A4-A1", "K9-K10")
    assert not can(knight, "A1", "A4") and can(knight, "A1", "A3")


def test_LOTR_KNIGHT_1_knights_run_in_a_straight_line_not_through_zones() -> None:
    state = pos({"A4": (EVIL, 2), "F4": (EVIL, 5), **SPARE_GOOD})
    dests = {square_name(a % 100) for a in state.legal_actions() if a // 100 == parse_square("A4")}
    assert dests == {"A1", "A2", "A3", "A5", "A6", "A7", "A8", "A9", "A10", "B4", "C4", "D4", "E4"}
    zone = pos({"C3": (EVIL, 2), **SPARE_GOOD})
    assert {square_name(a % 100) for a in zone.legal_actions() if a // 100 == parse_square("C3")} >= {"C4"}
    assert not can(zone, "C3", "C7")
    assert not can(zone, "C3", "D4")  # never diagonally


def test_LOTR_KNIGHT_2_a_run_of_more_than_one_square_reveals_the_knight() -> None:
    state = pos({"A1": (EVIL, 2), "B1": (EVIL, 2), **SPARE_GOOD})
    play(state, "B1-B2")
    cells = state.observation(GOOD).data["board"]
    assert cells[parse_square("B2")]["rank"] is None  # one square: still hidden
    play(state, "K10-K9", "A1-A5")
    cell = state.observation(GOOD).data["board"][parse_square("A5")]
    assert cell["rank"] == "2" and cell["kind"] == "warg_rider" and cell["revealed"]
    assert state.observation(GOOD).data["last_move"]["attacker"] == "warg_rider"


def test_LOTR_KNIGHT_3_a_run_may_end_on_an_enemy_and_attack_it() -> None:
    state = pos({"A1": (EVIL, 2), "A7": (GOOD, "eowyn"), "K10": (GOOD, 5)})
    assert can(state, "A1", "A7") and not can(state, "A1", "A8")
    play(state, "A1xA7")
    assert state.piece_at("A7") == (EVIL, "warg_rider", 2, True, True)
    assert state.captured(GOOD) == ["eowyn"]


def test_LOTR_ATK_1_flag_and_fortresses_cannot_attack() -> None:
    state = pos({"E2": (EVIL, "fortress"), "E1": (EVIL, "flag"), "E3": (GOOD, 2), "D1": (GOOD, 2), "A1": (EVIL, 4)})
    assert {a // 100 for a in state.legal_actions()} == {parse_square("A1")}


def test_LOTR_ATK_2_attack_only_an_orthogonal_neighbour() -> None:
    state = pos({"E2": (EVIL, 9), "F3": (GOOD, 2), "E3": (GOOD, 3), **SPARE_GOOD})
    assert can(state, "E2", "E3") and not can(state, "E2", "F3")
    assert state.action_to_string(act("E2", "E3")) == "E2xE3"


def test_LOTR_ATK_3_the_lower_rank_falls_equal_ranks_both_fall() -> None:
    state = pos({"E2": (EVIL, 7), "E3": (GOOD, 6), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.captured(GOOD) == ["elf"] and state.captured(EVIL) == []
    last = state.observation(GOOD).data["last_move"]
    assert (last["attacker_rank"], last["defender_rank"], last["result"]) == ("7", "6", "attacker_won")
    tie = pos({"E2": (EVIL, 7), "E3": (GOOD, 7), **SPARE_GOOD, "A1": (EVIL, 6)})
    play(tie, "E2xE3")
    assert tie.piece_at("E2") is None and tie.piece_at("E3") is None
    assert tie.captured(EVIL) == ["uruk_hai"] and tie.captured(GOOD) == ["theoden"]


def test_LOTR_ATK_4_the_winner_of_an_attack_moves_in_a_winning_defender_stays() -> None:
    state = pos({"E2": (EVIL, 8), "E3": (GOOD, 4), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.piece_at("E2") is None and state.piece_at("E3")[:3] == (EVIL, "nazgul", 8)  # type: ignore[index]
    state = pos({"E2": (EVIL, 4), "E3": (GOOD, 8), **SPARE_GOOD, "A1": (EVIL, 6)})
    play(state, "E2xE3")
    assert state.piece_at("E2") is None
    assert state.piece_at("E3") == (GOOD, "legolas", 8, False, True)  # stays, now known to evil
    assert state.observation(EVIL).data["board"][parse_square("E3")]["kind"] == "legolas"


def test_LOTR_SPY_1_the_spy_has_no_defence() -> None:
    state = pos({"E2": (EVIL, 2), "E3": (GOOD, "eowyn"), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.captured(GOOD) == ["eowyn"]


@pytest.mark.parametrize(
    ("target", "spy_wins", "target_falls"),
    [(10, True, True), (9, False, False), (2, False, False), ("spy", False, True), ("fortress", False, False)],
)
def test_LOTR_SPY_2_the_spy_attacking_falls_except_against_the_10_and_the_flag(
    target: int | str, spy_wins: bool, target_falls: bool
) -> None:
    state = pos({"E2": (GOOD, "eowyn"), "E1": (EVIL, target), "K1": (EVIL, 2), "K10": (GOOD, 5)}, to_move=GOOD)
    play(state, "E2xE1")
    assert (state.piece_at("E1") is not None and state.piece_at("E1")[0] == GOOD) == spy_wins  # type: ignore[index]
    assert ("eowyn" in state.captured(GOOD)) == (not spy_wins)
    assert (len(state.captured(EVIL)) == 1) == target_falls


def test_LOTR_SPY_2_the_spy_captures_the_flag() -> None:
    state = pos({"E2": (GOOD, "eowyn"), "E1": (EVIL, "flag"), "K1": (EVIL, 2)}, to_move=GOOD)
    play(state, "E2xE1")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FLAG_CAPTURED and outcome.winner == GOOD


def test_LOTR_FORT_1_an_attacker_of_a_fortress_falls_the_fortress_stays() -> None:
    state = pos({"E2": (EVIL, 10), "E3": (GOOD, "fortress"), "A1": (EVIL, 5), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.captured(EVIL) == ["witch_king"]
    assert state.piece_at("E3") == (GOOD, "fortress", FORTRESS, False, True)
    knight = pos({"E1": (EVIL, 2), "E8": (GOOD, "fortress"), "A1": (EVIL, 5), **SPARE_GOOD})
    play(knight, "E1xE8")  # a Knight's run into a Fortress ends the same way
    assert knight.captured(EVIL) == ["warg_rider"]


def test_LOTR_MINER_1_soldiers_and_orcs_take_fortresses_and_move_in() -> None:
    state = pos({"E2": (EVIL, "orc"), "E3": (GOOD, "fortress"), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.captured(GOOD) == ["fortress"] and state.piece_at("E3")[1] == "orc"  # type: ignore[index]
    state = pos({"E8": (GOOD, "soldier"), "E7": (EVIL, "fortress"), **SPARE_EVIL}, to_move=GOOD)
    play(state, "E8xE7")
    assert state.piece_at("E7")[1] == "soldier"  # type: ignore[index]


def test_LOTR_CAPT_1_captured_pieces_leave_the_board_at_once() -> None:
    state = pos({"E2": (EVIL, 6), "E3": (GOOD, 5), **SPARE_GOOD})
    play(state, "E2xE3")
    assert state.piece_at("E3")[1] == "haradrim"  # type: ignore[index]
    assert state.captured(GOOD) == ["ranger"]
    for p in (EVIL, GOOD):
        assert state.observation(p).data["captured_count"] == [0, 1]
    with pytest.raises(ValueError):
        LotrGame(captured_mode="face_up")


def _after_two_captures(mode: str) -> dict[int, list[object]]:
    """Evil loses an Orc and Good a Ranger; what each seat's observation shows of them."""
    state = pos(
        {"E2": (EVIL, 6), "E3": (GOOD, 5), "A1": (EVIL, "orc"), "A2": (GOOD, 4), **SPARE_GOOD},
        captured_mode=mode,
    )
    play(state, "E2xE3", "A2xA1")
    out: dict[int, list[object]] = {}
    for p in (EVIL, GOOD):
        data = state.observation(p).data
        assert data["captured_count"] == [1, 1]
        out[p] = data["captured"]
        text = state.observation(p).text
        assert ("hidden" in text) == (None in data["captured"])
    return out


def test_LOTR_CAPT_2_free_everybody_sees_every_captured_piece() -> None:
    seen = _after_two_captures("free")
    assert seen[EVIL] == seen[GOOD] == [["orc"], ["ranger"]]


def test_LOTR_CAPT_3_prisoner_the_captor_keeps_what_it_took_secret() -> None:
    seen = _after_two_captures("prisoner")
    assert seen[EVIL] == [None, ["ranger"]]
    assert seen[GOOD] == [["orc"], None]


def test_LOTR_CAPT_4_secret_the_loser_keeps_its_own_lost_pieces_secret() -> None:
    seen = _after_two_captures("secret")
    assert seen[EVIL] == [["orc"], None]
    assert seen[GOOD] == [None, ["ranger"]]


def test_LOTR_CAPT_5_hidden_nobody_sees_captured_pieces() -> None:
    seen = _after_two_captures("hidden")
    assert seen[EVIL] == seen[GOOD] == [None, None]


def test_LOTR_END_1_capturing_the_flag_wins() -> None:
    state = pos({"E2": (EVIL, 2), "E3": (GOOD, "flag"), **SPARE_GOOD})
    play(state, "E2xE3")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == EVIL and outcome.termination is Termination.FLAG_CAPTURED
    assert state.legal_actions() == [] and state.returns() == [1.0, -1.0]


def test_LOTR_END_2_who_cannot_move_or_attack_on_their_turn_loses() -> None:
    state = pos({"E2": (EVIL, 5), "E3": (GOOD, 4), "K10": (GOOD, "flag")})
    play(state, "E2xE3")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.winner == EVIL
    # Only the player to move is checked: here both last movers fall and good, to move, loses.
    both = pos({"E2": (EVIL, 5), "E3": (GOOD, 5), "K10": (GOOD, "flag"), "A1": (EVIL, "flag")})
    play(both, "E2xE3")
    outcome = both.outcome()
    assert outcome is not None and outcome.winner == EVIL
    # A move barred by the back-and-forth rule counts as no move.
    stuck = pos({"A1": (EVIL, 6), "B1": (EVIL, "fortress"), "A3": (EVIL, "fortress"), "K10": (GOOD, 6)})
    play(stuck, "A1-A2", "K10-K9", "A2-A1", "K9-K10")
    outcome = stuck.outcome()
    assert outcome is not None and outcome.winner == GOOD and outcome.termination is Termination.NO_MOVES
    # Stuck from the start: the player to move loses at once.
    start = pos({"A1": (EVIL, "flag"), "K10": (GOOD, 6)})
    assert start.is_terminal() and start.outcome().winner == GOOD  # type: ignore[union-attr]


def test_LOTR_END_3_optional_move_cap_is_a_draw() -> None:
    state = pos({"A1": (EVIL, 6), "K10": (GOOD, 6)}, max_moves=2)
    play(state, "A1-A2", "K10-K9")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT and outcome.winner is None
    with pytest.raises(ValueError):
        LotrGame(max_moves=-1)


def test_LOTR_INFO_1_enemy_pieces_stay_unknown_until_shown_movement_is_seen() -> None:
    state = pos({"E2": (EVIL, 6), "K10": (GOOD, 6), "A10": (GOOD, "flag")})
    play(state, "E2-E3")
    cells = state.observation(GOOD).data["board"]
    seen = cells[parse_square("E3")]
    assert seen == {"owner": EVIL, "kind": None, "name": None, "rank": None, "moved": True, "revealed": False}
    flag = state.observation(EVIL).data["board"][parse_square("A10")]
    assert flag["rank"] is None and not flag["moved"]
    own = state.observation(EVIL).data["board"][parse_square("E3")]
    assert own["kind"] == "haradrim" and own["name"] == "Haradrim" and own["rank"] == "6"
    assert state.observation(EVIL).data["last_move"] == {"player": 0, "side": "evil", "from": "E2", "to": "E3"}


def test_LOTR_INFO_2_a_battle_shows_both_pieces_to_both_players() -> None:
    state = pos({"E2": (EVIL, 9), "E3": (GOOD, 9), "A1": (EVIL, 4), **SPARE_GOOD})
    play(state, "E2xE3")
    for p in (EVIL, GOOD):
        last = state.observation(p).data["last_move"]
        assert (last["attacker"], last["defender"], last["result"]) == ("saruman", "aragorn", "both_lost")


def test_LOTR_INFO_3_pending_decisions_and_the_rings_fate_are_public() -> None:
    classic = pos({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, 6), "E6": (GOOD, 5), **SPARE_GOOD})
    play(classic, "E4xE5")
    assert classic.observation(GOOD).data["pending"] is None and classic.observation(GOOD).data["ring"] is None
    ring = pos({"E4": (EVIL, "uruk_hai"), "E5": (GOOD, 6), "E6": (GOOD, 5), **SPARE_GOOD}, game="ring")
    play(ring, "E4xE5")
    for p in (EVIL, GOOD):
        obs = ring.observation(p)
        assert obs.data["pending"] == {
            "power": "repeat_attack",
            "player": EVIL,
            "square": "E5",
            "choices": "attack again from this square, or stop",
        }
        assert obs.data["ring"] == {"status": "carried", "mount_doom": "H5"}
        assert "Uruk-Hai on E5" in obs.text and "the Ring: carried" in obs.text


def test_notation_reads_back_and_explains_what_is_illegal() -> None:
    state = pos({"E2": (EVIL, 2), "E4": (GOOD, 5), **SPARE_GOOD})
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action("e2xe4") == act("E2", "E4")
    assert state.explain_illegal(act("E2", "E4")) == ""
    assert "no piece" in state.explain_illegal(act("F2", "F3"))
    assert "not evil's" in state.explain_illegal(act("E4", "E3"))
    assert "setup is over" in state.explain_illegal(PLACE_BASE + 5)
    assert "not an action id" in state.explain_illegal(-1)
    with pytest.raises(GameError):
        state.string_to_action("Z9-Z8")
    with pytest.raises(GameError):
        state.string_to_action("hobbit@E1")


@pytest.mark.parametrize("limit", [-1, 1, "3", True])
def test_a_bad_back_and_forth_limit_is_refused(limit: object) -> None:
    with pytest.raises(ValueError, match="back_and_forth"):
        LotrGame(back_and_forth=limit)  # type: ignore[arg-type]


def test_the_variant_has_one_name_and_the_old_spellings_still_read() -> None:
    """`variant` names the rulebook's game as it names Stratego's variants; records written with the old
    option `game`, and the terminal's and the web app's old names (lotr-ring, game3), still read."""
    assert LotrGame(variant="powers").options["variant"] == "powers"
    assert LotrGame(game="powers").options == LotrGame("powers").options
    assert LotrGame("lotr-ring").mode == LotrGame("game3").mode == "ring"
    with pytest.raises(GameError, match="disagree"):
        LotrGame(variant="ring", game="powers")
    with pytest.raises(GameError, match="LOTR option variant must be 'classic', 'powers' or 'ring', not 'chess'"):
        LotrGame("chess")
    old = LotrGame("powers").new_initial_state().to_json()
    old["options"] = {**{k: v for k, v in old["options"].items() if k != "variant"}, "game": "powers"}
    assert LotrGame().state_from_json(old).game.options["variant"] == "powers"
