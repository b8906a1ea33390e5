"""The server's adapter for Stratego, The Lord of the Rings Trilogy edition (docs/rules/lotr.md).

Like Stratego: two armies set up in secret (a whole army is one setup message: 'random', 'sample',
'sample:NAME', a setup string of `fogofwar.games.lotr.setup`, or {square: character key}), then open moves on
the classic board. A seat's view is its engine observation; the spectators' view keeps only what both
observations show (revealed characters, the captured pieces both seats may see in the chosen
`captured_mode`); the final view shows every piece. The move list is the engine's public history,
which already says what each battle and each power showed to both players (LOTR-INFO-2).

Options: `variant` is the LOTR game (`classic`, `powers` = Game 2 with the special powers, `ring` =
Game 3, Destroy the Ring), plus `captured_mode`, `back_and_forth` and `max_moves`.
"""

from __future__ import annotations

import random
from typing import Any

from fogofwar.core.protocol import InvalidSetupError, NotationError, State
from fogofwar.core.registry import make_game
from fogofwar.core.web_adapter import AdapterDefaults, HistoryMoveList, hosted_options, owners_board, public_board
from fogofwar.games.lotr.powers import POWER_BASE, STOP, WORD_OF, decode
from fogofwar.games.lotr.roster import SIDE_NAMES, rank_label, rank_symbol
from fogofwar.games.lotr.rules import (
    CAPTURED_MODES,
    GAME_MODES,
    GAME_TITLES,
    PLACE_BASE,
    POWER_NAMES,
    LotrGame,
    LotrState,
    check_setup,
    random_setup,
)
from fogofwar.games.lotr.setup import format_setup, parse_setup, sample_names, sample_setup
from fogofwar.grid.board import NUM_SQUARES, parse_square, square_name

MAX_MOVES_LIMIT = 10_000
BACK_AND_FORTH_LIMIT = 20


def _lotr(state: State) -> LotrState:
    if not isinstance(state, LotrState):  # pragma: no cover - the registry hands out the matching adapter
        raise TypeError("not a Stratego LOTR state")
    return state


def notation(move: dict[str, Any]) -> str:
    """How a public move reads: 'E4-E5', 'E4xE5', 'fly E4-E8', 'bow F5>F7', 'axe E4-E5>D6,F6', 'stop'."""
    if move.get("stop"):
        return "stop"
    src, dst = move["from"], move.get("to")
    sep = "x" if move.get("defender") else "-"
    power = move.get("power")
    if power is None:
        return f"{src}{sep}{dst}"
    if power == "repeat_attack":  # the Uruk-Hai attacks again (LOTR-REPEAT-1): an ordinary attack
        return f"{src}{sep}{dst} (again)"
    word = WORD_OF.get(power, power)
    targets = ",".join(t["square"] for t in move.get("targets", []))
    if dst is None:  # a ranged attack: the piece stays
        return f"{word} {src}>{targets}"
    text = f"{word} {src}{sep}{dst}"
    return f"{text}>{targets}" if power == "dwarf_axe" and targets else text


class LotrAdapter(HistoryMoveList, AdapterDefaults):
    """Stratego LOTR: Games 1-3 with every captured-piece mode."""

    help_package = "fogofwar.games.lotr"
    rules_docs: tuple[str, ...] = ("lotr",)

    name = "lotr"
    seat_names: tuple[str, ...] = SIDE_NAMES
    agents: tuple[str, ...] = ("expert", "search", "heuristic", "random")
    """`expert` is classic Stratego's, carried over to Game 1 by `fogofwar.games.lotr_transfer` (LOTR's `search` in
    Games 2 and 3); the name is all this package knows of it."""
    page = "lotr.html"

    def make_game(self, options: dict[str, Any]) -> LotrGame:
        """The game the client asked for: its options checked by the game itself, within the server's caps."""
        caps = {"back_and_forth": BACK_AND_FORTH_LIMIT, "max_moves": MAX_MOVES_LIMIT}
        game = make_game("lotr", **hosted_options(options, caps))
        assert isinstance(game, LotrGame)
        return game

    def describe(self) -> dict[str, Any]:
        game = LotrGame("ring")
        armies = []
        for seat, side in enumerate(SIDE_NAMES):
            kinds = [
                {
                    "key": k.key,
                    "name": k.name,
                    "rank": rank_label(k.rank),
                    "symbol": rank_symbol(k.rank),
                    "count": k.count,
                    "powers": list(k.powers),
                    "letter": k.letter,
                }
                for k in game.army(seat).kinds
            ]
            armies.append({"side": side, "kinds": kinds, "samples": sample_names(seat)})
        return {
            "name": self.name,
            "title": "Stratego LOTR",
            "seats": list(self.seat_names),
            "agents": list(self.agents),
            "variants": [{"name": m, "title": GAME_TITLES[m]} for m in GAME_MODES],
            "captured_modes": list(CAPTURED_MODES),
            "powers": dict(POWER_NAMES),
            "armies": armies,
            "zones": sorted(square_name(sq) for sq in game.forbidden),
            "mount_doom": square_name(game.doom),
        }

    # --- setup -----------------------------------------------------------------------------------
    def _kinds(self, game: LotrGame, seat: int, spec: dict[Any, Any]) -> dict[int, int]:
        army = game.army(seat)
        placement: dict[int, int] = {}
        if len(spec) > NUM_SQUARES:
            raise InvalidSetupError("a placement has at most one piece per square")
        for sq_text, key in spec.items():
            if not isinstance(key, str):
                raise InvalidSetupError(f"the piece on {sq_text} must be a character key like 'gandalf'")
            try:
                sq = parse_square(str(sq_text))
                kind = army.index(key.strip().lower())
            except NotationError as exc:
                raise InvalidSetupError(str(exc)) from None
            if sq in placement:
                raise InvalidSetupError(f"{square_name(sq)} is given twice")
            placement[sq] = kind
        return placement

    def parse_setup(self, state: State, seat: int, spec: Any, rng: random.Random) -> dict[str, str]:
        game = _lotr(state).game
        if isinstance(spec, dict):
            kinds = self._kinds(game, seat, spec)
            check_setup(game, seat, kinds)
        elif isinstance(spec, str):
            text = spec.strip()
            word = text.lower()
            if word == "random":
                kinds = random_setup(game, seat, rng)
            elif word == "sample" or word.startswith("sample:"):
                kinds = sample_setup(game, seat, text.partition(":")[2].strip() or None)
            else:
                kinds = parse_setup(text, game, seat)
        else:
            raise InvalidSetupError(
                "a Stratego LOTR setup is 'random', 'sample', 'sample:NAME', a setup string or {square: character key}"
            )
        army = game.army(seat)
        return {square_name(sq): army.kinds[k].key for sq, k in sorted(kinds.items())}

    def check_early_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        game = _lotr(state).game
        check_setup(game, seat, self._kinds(game, seat, placement))  # the two home areas never overlap

    def apply_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        _lotr(state).apply_setup(seat, dict(placement))

    def placement_of(self, state: State, seat: int) -> dict[str, str]:
        board = state.observation(seat).data["board"]
        return {
            square_name(sq): str(cell["kind"])
            for sq, cell in enumerate(board)
            if isinstance(cell, dict) and cell["owner"] == seat and cell["kind"]
        }

    def setup_string(self, state: State, seat: int, placement: dict[str, str]) -> str:
        """The army as a setup string (LOTR-SETUP-3): shown to its own seat, and to everyone once the game is over."""
        game = _lotr(state).game
        return format_setup(self._kinds(game, seat, placement), game, seat)

    def in_setup(self, state: State) -> bool:
        return _lotr(state).phase == "setup"

    def move_count(self, state: State) -> int:
        return _lotr(state).move_count

    def setup_info(self, state: State, seat: int) -> dict[str, Any]:
        game = _lotr(state).game
        return {
            "area": [sq for sq in game.board.setup_squares(seat) if sq not in game.forbidden],
            "roster": {k.key: k.count for k in game.army(seat).kinds},
            "samples": sample_names(seat),
            "random": True,
        }

    # --- views -----------------------------------------------------------------------------------
    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return dict(state.observation(seat).data)

    def public_view(self, state: State) -> dict[str, Any]:
        """What both seats see: piece positions, the characters the game has revealed, the captured
        pieces both seats may see; nothing of a setup."""
        st = _lotr(state)
        views = [st.observation(0).data, st.observation(1).data]
        board = public_board(views[0]["board"], st.phase == "setup", "zone", ("kind", "name", "rank"))
        captured = [
            views[0]["captured"][o]
            if views[0]["captured"][o] is not None and views[1]["captured"][o] is not None
            else None
            for o in (0, 1)
        ]
        data = dict(views[0])
        data.update(player=None, side=None, board=board, captured=captured, to_place={})
        return data

    def final_view(self, state: State) -> dict[str, Any]:
        """Every piece with its character, each side's taken from its owner's own observation; every
        captured piece (the game is over)."""
        st = _lotr(state)
        views = [st.observation(0).data, st.observation(1).data]
        board = owners_board(views[0]["board"], views[1]["board"])
        data = dict(views[0])
        data.update(player=None, side=None, board=board, captured=[st.captured(0), st.captured(1)], to_place={})
        return data

    def move_entry(self, i: int, event: Any) -> dict[str, Any]:
        d: dict[str, Any] = event.to_json()
        d["n"] = i + 1
        d["notation"] = notation(d)
        return d

    def replay_notation(self, text: str, view: dict[str, Any]) -> str:
        """Another seat's move as the public history writes it (powers and their targets are public)."""
        last = view.get("last_move")
        if isinstance(last, dict) and (last.get("stop") or last.get("from")):
            return notation(last)
        return "…"

    def describe_actions(
        self, state: State, legal: list[int], view: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Each legal action: its notation, kind ('move', 'attack', 'place', a power key, 'stop') and squares."""
        st = _lotr(state)
        out: list[dict[str, Any]] = []
        for a in legal:
            text = st.action_to_string(a)
            d: dict[str, Any] = {"id": a, "text": text}
            if a == STOP:
                d["kind"] = "stop"
            elif a >= POWER_BASE:
                pa = decode(a)
                if pa is None:  # pragma: no cover - never legal
                    continue
                d.update(
                    kind=pa.power,
                    power=POWER_NAMES.get(pa.power, pa.power),
                    **{"from": square_name(pa.src)},
                    to=square_name(pa.dst) if pa.dst >= 0 else None,
                    targets=[square_name(t) for t in pa.targets],
                    attack="x" in text.split(">")[0],
                )
            elif a >= PLACE_BASE:
                d.update(kind="place", to=square_name((a - PLACE_BASE) % 100))
            else:
                src, dst = divmod(a, 100)
                d.update(kind="attack" if "x" in text else "move", to=square_name(dst), **{"from": square_name(src)})
            out.append(d)
        return out


__all__ = ["LotrAdapter", "notation"]
