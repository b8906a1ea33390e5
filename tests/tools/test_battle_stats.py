"""tools/battle_stats.py: the fates of a series, read from game records."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.paths import tool_module

from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.agents.policy_model import shipped_policy
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import PLACE_BASE, StrategoGame
from fogofwar.grid.board import parse_square

RED = {"A1": Rank.FLAG, "B1": Rank.BOMB, "C1": Rank.GENERAL, "D1": Rank.MINER, "E1": Rank.SCOUT,
       "F1": Rank.SCOUT, "G1": Rank.SPY, "A4": Rank.MARSHAL}  # fmt: skip
BLUE = {"K10": Rank.FLAG, "A7": Rank.BOMB, "H10": Rank.GENERAL, "G10": Rank.MINER, "K7": Rank.SCOUT,
        "F10": Rank.SCOUT, "E10": Rank.SPY, "I10": Rank.MARSHAL}  # fmt: skip


def _record(moves: list[str]) -> GameRecord:
    """A Barrage game from the setups above and the moves given (as "A4-A5"), resigned by red when not over."""
    state = StrategoGame("barrage").new_initial_state()
    for placement in (RED, BLUE):
        for sq, rank in placement.items():
            state.apply(PLACE_BASE + int(rank) * 100 + parse_square(sq))
    for move in moves:
        src, dst = move.replace("x", "-").split("-")
        state.apply(parse_square(src) * 100 + parse_square(dst))
    return GameRecord.from_state(state, players=["us", "them"])


def test_fates_count_endings_the_marshal_and_pieces_lost_to_bombs(tmp_path: Path) -> None:
    stats = tool_module("battle_stats")
    into_bomb = ["A4-A5", "K7-K8", "A5-A6", "K8-K7", "A6xA7"]  # our marshal walks into the bomb on A7
    flag_taken = ["K7-B7", "E1-E2", "B7-B2", "E2-E1", "B2-A2", "F1-F2", "A2xA1"]  # then their scout runs to our flag
    games = tmp_path / "games"
    games.mkdir()
    _record(into_bomb + flag_taken).save(games / "0001.json")
    _record(into_bomb).save(games / "0002.json")  # unfinished: no result to count
    endings, marshal, bombs, n = stats.fates(tmp_path, "us")
    assert n == 2
    assert endings == {("loss", "flag_captured"): 1}
    assert marshal == {("bomb", "loss"): 1}
    assert bombs == {"marshal": 2}
    endings, marshal, bombs, _ = stats.fates(tmp_path, "them")
    assert endings == {("win", "flag_captured"): 1} and marshal == {("lives", "win"): 1} and not bombs


def test_replies_list_the_opponents_turns_with_a_capture_on_hand(tmp_path: Path) -> None:
    """Our scout runs to F9 next to their scout (a trade they decline), then to G9 next to their miner, which takes
    it: a revealed piece of ours it beats, and a capture the search's model of the reply foresaw."""
    if shipped_policy() is None:
        pytest.skip("no policy net ships")
    stats = tool_module("battle_stats")
    games = tmp_path / "games"
    games.mkdir()
    _record(["F1-F9", "K7-K8", "F9-G9", "G10xG9"]).save(games / "0001.json")
    rows, n = stats.replies(tmp_path, "us")
    assert n == 1
    assert [(r.captured, r.sure, r.model) for r in rows] == [(False, False, False), (True, True, True)]
    assert all(0.0 < r.policy < 1.0 for r in rows)
    # Our scout could have struck their scout on F10 from F1 and from F9, and did not; the search's model, which
    # counts what an unknown piece may show, expected it to.
    assert [(r.captured, r.sure, r.model) for r in stats.replies(tmp_path, "them")[0]] == [(False, False, True)] * 2
