"""What the server needs to know about a particular game, behind one small interface.

The server talks to states through the core protocol; the few things the protocol does
not cover (option checking, whole-army setups, a public move list, the spectators' and
the final view) live in an adapter per game. Stratego is the only one so far; a new game
adds an adapter here and nothing else in the server changes.

Public and final views are derived from the seats' own observations, so they can never
show more than the rules engine lets some seat see: the public view keeps only what is
revealed to both seats, the final view (sent once the game is over) merges what each
seat knows of its own pieces.

LOTR (`adapters_lotr.py`) and Admiral (`adapters_admiral.py`) have adapters of their own; the
optional parts (dice, a secret draft, a move log, explanations) have defaults in `fogofwar.core.web_adapter`.
"""

from __future__ import annotations

import random
from typing import Any

from fogofwar.core.protocol import InvalidSetupError, NotationError, State
from fogofwar.core.registry import make_game
from fogofwar.core.web_adapter import AdapterDefaults, HistoryMoveList, hosted_options, owners_board, public_board
from fogofwar.games.stratego.agents.levels import levels as computer_levels
from fogofwar.games.stratego.pieces import RANK_BY_NAME, Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState, check_setup
from fogofwar.games.stratego.setup import SAMPLES, format_setup, parse_setup, random_setup, sample_setup
from fogofwar.games.stratego.variants import variants
from fogofwar.grid.board import LAKES, NUM_SQUARES, PLAYER_NAMES, parse_square, square_name

MAX_MOVES_LIMIT = 10_000
TWO_SQUARES_LIMIT = 20


def _stratego(state: State) -> StrategoState:
    if not isinstance(state, StrategoState):  # pragma: no cover - the registry hands out the matching adapter
        raise TypeError("not a Stratego state")
    return state


class StrategoAdapter(HistoryMoveList, AdapterDefaults):
    """Stratego and its variants on the classic board."""

    help_package = "fogofwar.games.stratego"
    rules_docs: tuple[str, ...] = ("stratego",)

    name = "stratego"
    seat_names: tuple[str, ...] = PLAYER_NAMES
    agents: tuple[str, ...] = tuple(level.name for level in computer_levels())  # the levels people pick, weakest first

    def levels(self) -> list[dict[str, Any]]:
        return [level.describe() for level in computer_levels()]

    def make_game(self, options: dict[str, Any]) -> StrategoGame:
        """The game the client asked for: its options checked by the game itself, within the server's caps."""
        caps = {"two_squares": TWO_SQUARES_LIMIT, "max_moves": MAX_MOVES_LIMIT}
        game = make_game("stratego", **hosted_options(options, caps))
        assert isinstance(game, StrategoGame)
        return game

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": "Stratego",
            "seats": list(self.seat_names),
            "agents": list(self.agents),
            "variants": [
                {
                    "name": v.name,
                    "title": v.title,
                    "roster": {r.name.lower(): n for r, n in v.roster if n},
                    "army_size": v.army_size,
                    "samples": sorted(SAMPLES.get(v.name, {})),
                    "max_moves": v.max_moves,
                }
                for v in variants().values()
            ],
        }

    # --- setup -----------------------------------------------------------------------------
    def parse_setup(self, state: State, seat: int, spec: Any, rng: random.Random) -> dict[str, str]:
        st = _stratego(state)
        variant = st.game.variant
        if isinstance(spec, dict):
            placement: dict[int, Rank] = {}
            if len(spec) > NUM_SQUARES:
                raise InvalidSetupError("a placement has at most one piece per square")
            for sq_text, rank_text in spec.items():
                if not isinstance(rank_text, str):
                    raise InvalidSetupError(f"the piece on {sq_text} must be a rank name like 'marshal'")
                try:
                    sq = parse_square(str(sq_text))
                    rank = RANK_BY_NAME[rank_text.strip().lower()]
                except NotationError as exc:
                    raise InvalidSetupError(str(exc)) from None
                except KeyError:
                    raise InvalidSetupError(f"{rank_text!r} on {sq_text} is not a rank name") from None
                if sq in placement:
                    raise InvalidSetupError(f"{square_name(sq)} is given twice")
                placement[sq] = rank
            check_setup(variant, seat, placement)
        elif isinstance(spec, str):
            text = spec.strip()
            word = text.lower()
            if word == "random":
                if variant.setup_area != "home_rows":
                    raise InvalidSetupError(f"no random setups for {variant.name} yet: send a placement")
                placement = random_setup(variant, seat, rng)
            elif word == "sample" or word.startswith("sample:"):
                placement = sample_setup(variant, seat, text.partition(":")[2].strip() or None)
            else:
                placement = parse_setup(text, variant, seat)
        else:
            raise InvalidSetupError("a setup is 'random', 'sample', 'sample:NAME', a setup string or {square: rank}")
        return {square_name(sq): Rank(r).name.lower() for sq, r in sorted(placement.items())}

    @staticmethod
    def _placement(placement: dict[str, str]) -> dict[int, Rank]:
        return {parse_square(sq): RANK_BY_NAME[r] for sq, r in placement.items()}

    def check_early_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        st = _stratego(state)
        variant = st.game.variant
        if variant.setup_area != "home_rows":
            # The armies may overlap: the second one can only be checked against the first.
            raise InvalidSetupError(f"in {variant.name}, {PLAYER_NAMES[1 - seat]} sets up first: wait for it")
        check_setup(variant, seat, self._placement(placement))

    def apply_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        _stratego(state).apply_setup(seat, self._placement(placement))

    def placement_of(self, state: State, seat: int) -> dict[str, str]:
        board = state.observation(seat).data["board"]
        return {
            square_name(sq): str(cell["rank"])
            for sq, cell in enumerate(board)
            if isinstance(cell, dict) and cell["owner"] == seat and cell["rank"]
        }

    def setup_string(self, state: State, seat: int, placement: dict[str, str]) -> str:
        st = _stratego(state)
        if st.game.variant.setup_area != "home_rows":
            return ""
        return format_setup(self._placement(placement), st.game.variant, seat)

    def in_setup(self, state: State) -> bool:
        return _stratego(state).phase == "setup"

    def move_count(self, state: State) -> int:
        return _stratego(state).move_count

    def setup_info(self, state: State, seat: int) -> dict[str, Any]:
        st = _stratego(state)
        v = st.game.variant
        return {
            "area": [sq for sq in v.setup_squares(seat) if sq not in LAKES],
            "roster": {r.name.lower(): n for r, n in v.roster if n},
            "samples": sorted(SAMPLES.get(v.name, {})),
            "random": v.setup_area == "home_rows",
        }

    # --- views -------------------------------------------------------------------------------
    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return state.observation(seat).data  # a new dict each time (its text drawing is never made)

    def public_view(self, state: State) -> dict[str, Any]:
        """What anyone may see: piece positions and the ranks the game has revealed, nothing of a setup."""
        st = _stratego(state)
        data = st.observation(0).data  # red's view of blue's pieces is what both seats know of them
        board = public_board(data["board"], st.phase == "setup", "lake", ("rank",))
        data.update(player=None, board=board, to_place={})
        return data

    def final_view(self, state: State) -> dict[str, Any]:
        """Every piece with its rank, each side's ranks taken from its owner's own observation."""
        st = _stratego(state)
        views = [st.observation(0).data, st.observation(1).data]
        board = owners_board(views[0]["board"], views[1]["board"])
        data = dict(views[0])
        data.update(player=None, board=board, to_place={})
        return data

    def move_entry(self, i: int, event: Any) -> dict[str, Any]:
        """A move as both seats saw it, with its notation; ranks only where a battle or a scout showed them."""
        d: dict[str, Any] = event.to_json()
        d["n"] = i + 1
        d["notation"] = f"{d['from']}{'x' if event.is_battle else '-'}{d['to']}"
        return d
