"""A small barrage-like position shared by tests that write Gravon files: red's scout takes the flag in five moves."""

from __future__ import annotations

from fogofwar.games.stratego.pieces import Rank
from fogofwar.grid.board import parse_square

RED, BLUE = 0, 1
PIECES = {
    parse_square(name): piece
    for name, piece in {
        "A1": (RED, Rank.FLAG),
        "B1": (RED, Rank.BOMB),
        "C1": (RED, Rank.SPY),
        "D1": (RED, Rank.MARSHAL),
        "E1": (RED, Rank.GENERAL),
        "F1": (RED, Rank.MINER),
        "G1": (RED, Rank.SCOUT),
        "K4": (RED, Rank.SCOUT),
        "K7": (BLUE, Rank.FLAG),
        "A10": (BLUE, Rank.BOMB),
        "B10": (BLUE, Rank.SPY),
        "C10": (BLUE, Rank.MARSHAL),
        "D10": (BLUE, Rank.GENERAL),
        "E10": (BLUE, Rank.MINER),
        "F10": (BLUE, Rank.SCOUT),
        "A7": (BLUE, Rank.SCOUT),
    }.items()
}
MOVES = [("G1", "G2"), ("A7", "A6"), ("G2", "G3"), ("A6", "A5"), ("K4", "K7")]  # red takes the flag
