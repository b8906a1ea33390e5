"""What a game gives the web server: its adapter (`Adapter`, the game-specific part of the server), defaults
for the adapter's optional parts (`AdapterDefaults`) and the inputs the server accepted (`Event`), which
adapters read back. A game registers its adapter with the game (`core.registry.register_game`), so the
server hosts every registered game without importing any.

Stratego needs none of the optional parts: its moves are public, it has no dice and no secret phase. LOTR and
Admiral override what they need:

- `in_secret`: the seat's next decisions are secret from everybody else until the seat commits them
  (Admiral's attack assignment, ADM-ATK-1). The server keeps them as the seat's *draft*, shown to
  that seat only, and logs them as one event when the seat commits.
- `log_entry` / `public_moves`: a move list built from the server's own event log, for games whose
  engine keeps no public history of its own (Admiral); `public_moves` must only show what every seat
  may know.
- `describe_actions`: the legal actions with the engine's words, for a client that lists them.
- `moment` / `explanation_visible`: when a computer player's explanation of a decision may be shown
  to everybody (never before the decision it explains is public).
- `replay_step` / `replay_notation`: how a replay (`records_io.build_replay`) shows an action: facts of
  the moment it was made, actions joined into one step (the dice of one roll), actions still secret
  from the player looking back, and how another seat's action reads to that player.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from fogofwar.core.protocol import GameError, State

Entry = dict[str, Any]


def hosted_options(options: Mapping[str, Any], caps: Mapping[str, int]) -> dict[str, Any]:
    """A client's game options for the game's own check (its constructor, through the registry), after the
    server's limits: a hosted game must end in bounded time and memory, so a whole-number option in `caps` may
    not exceed its cap there (the game itself may allow more). A null option means the game's default."""
    for key, cap in caps.items():
        value = options.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > cap:
            raise GameError(f"{key} may be at most {cap} on this server, not {value}")
    return {k: v for k, v in options.items() if v is not None}


@dataclass(frozen=True)
class Event:
    """One accepted input of a game, numbered from 1 in the order it was accepted."""

    seq: int
    kind: str  # "setup" | "action" | "chance" | "resign" | "forfeit", ...
    seat: int | None
    payload: dict[str, Any] = field(default_factory=dict)
    at: float | None = None
    """When the server accepted it (seconds since the epoch): what the game clocks are rebuilt from."""


class Adapter(Protocol):
    """The game-specific part of the server."""

    name: str
    seat_names: tuple[str, ...]
    agents: tuple[str, ...]
    page: str
    rules_docs: tuple[str, ...]

    def how_to_play(self, language: str = "en") -> str:
        """The quick guide to the game, in Markdown, in `language` ("" if it has none); the help page."""
        ...

    def make_game(self, options: dict[str, Any]) -> Any:
        """Build the game from client options; `GameError` says which option is wrong."""
        ...

    def describe(self) -> dict[str, Any]:
        """Variants, rosters, sample setups: what the lobby and the setup panel show."""
        ...

    def parse_setup(self, state: State, seat: int, spec: Any, rng: random.Random) -> dict[str, str]:
        """A whole-army setup from a client ('random', 'sample[:NAME]', a setup string or {square: rank});
        returned as the JSON placement stored in the event log."""
        ...

    def check_early_setup(self, state: State, seat: int, placement: dict[str, str]) -> None:
        """Check a setup sent before it is the seat's turn to set up (it is applied when that turn comes)."""
        ...

    def apply_setup(self, state: State, seat: int, placement: dict[str, str]) -> None: ...

    def placement_of(self, state: State, seat: int) -> dict[str, str]:
        """The seat's army as it stands, as a placement (how a computer's setup is logged)."""
        ...

    def setup_string(self, state: State, seat: int, placement: dict[str, str]) -> str: ...

    def in_setup(self, state: State) -> bool: ...

    def move_count(self, state: State) -> int: ...

    def seat_view(self, state: State, seat: int) -> dict[str, Any]: ...

    def public_view(self, state: State) -> dict[str, Any]: ...

    def final_view(self, state: State) -> dict[str, Any]: ...

    def setup_info(self, state: State, seat: int) -> dict[str, Any]: ...

    # Optional parts, with defaults in AdapterDefaults.
    def in_secret(self, state: State, seat: int) -> bool: ...

    def moment(self, state: State) -> Entry: ...

    uses_log: bool

    def log_entry(self, state: State, ev: Event, texts: list[str]) -> Entry | None: ...

    def public_moves(self, state: State, log: list[Entry]) -> list[dict[str, Any]]: ...

    def public_moves_after(
        self, state: State, log: list[Entry], known: list[dict[str, Any]]
    ) -> list[dict[str, Any]]: ...

    def describe_actions(
        self, state: State, legal: list[int], view: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]: ...

    def explanation_visible(self, state: State, entry: Entry) -> bool: ...

    def levels(self) -> list[dict[str, Any]]: ...

    def replay_step(self, state: State, player: int, viewer: int | None) -> Entry: ...

    def replay_notation(self, text: str, view: dict[str, Any]) -> str: ...


class AdapterDefaults:
    """Mixed into every adapter: a game with no dice, no secret phase and no explanations."""

    agents: tuple[str, ...] = ("random",)
    """Computer players a web client may pick for this game."""
    page: str = "game.html"
    """The page of the browser client that plays this game."""
    help_package: str = ""
    """The game's package, whose data/how_to_play.md is the quick guide the help page shows; "" for none."""
    rules_docs: tuple[str, ...] = ()
    """The game's pages of the English rules reference (docs/rules/NAME.md), the main one first."""

    def how_to_play(self, language: str = "en") -> str:
        """The quick guide to the game (Markdown) in `language`, from the game's data (data/how_to_play.md,
        data/how_to_play.it.md); "" when it has none in that language."""
        if not self.help_package:
            return ""
        name = "how_to_play.md" if language == "en" else f"how_to_play.{language}.md"
        guide = resources.files(self.help_package).joinpath("data", name)
        return guide.read_text(encoding="utf-8") if guide.is_file() else ""

    def in_setup(self, state: State) -> bool:  # pragma: no cover - every adapter defines it
        raise NotImplementedError

    def move_list(self, state: State) -> list[dict[str, Any]]:  # pragma: no cover - defined where it is used
        """The public move list from the engine's own history (the default `public_moves`)."""
        raise NotImplementedError

    def in_secret(self, state: State, seat: int) -> bool:
        """True while `seat`'s decisions are a secret draft (shown to it alone until it commits them)."""
        return False

    def moment(self, state: State) -> Entry:
        """What a log entry or an explanation remembers of the state it was made in."""
        return {"setup": self.in_setup(state)}

    uses_log: bool = False
    """True: the session keeps a move log of its events for `log_entry` and `public_moves`."""

    def log_entry(self, state: State, ev: Event, texts: list[str]) -> Entry | None:
        """An entry of the server's move log for one event (`state` as it was before the event; `texts`
        the engine's notation of each action the event played); None: nothing to log."""
        return None

    def public_moves(self, state: State, log: list[Entry]) -> list[dict[str, Any]]:
        """The move list every seat and spectator gets: never anything a seat may not know."""
        return self.move_list(state)

    def public_moves_after(self, state: State, log: list[Entry], known: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """`public_moves`, given the list built for an earlier moment of the same game (`known`, not to be
        changed): an adapter whose entries never change once listed extends it instead of starting over."""
        return self.public_moves(state, log)

    def describe_actions(
        self, state: State, legal: list[int], view: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The legal actions of the seat to move, with the engine's words (empty: the client knows them).
        `view`: that seat's `seat_view` of `state`, if the caller has it already."""
        return []

    def levels(self) -> list[dict[str, Any]]:
        """The computer's named levels with their measured ratings, for the lobby (none by default)."""
        return []

    def explanation_visible(self, state: State, entry: Entry) -> bool:
        """May everybody see this explanation now? Not while the setup it explains is still secret."""
        return not (entry.get("setup") and self.in_setup(state))

    def replay_step(self, state: State, player: int, viewer: int | None) -> Entry:
        """What a replay remembers of the moment `player` acts in `state`, for `viewer` (None: the full view
        of a finished game): extra fields of the step, and two keys that are not copied:

        - "group": consecutive actions with the same group make one step (the dice of one roll);
        - "hidden": the actions are secret from `viewer`; the step reads this instead (and its group
          should hold all of them, so that not even their number shows).
        """
        return {}

    def replay_notation(self, text: str, view: dict[str, Any]) -> str:
        """How an action (`text`: the engine's notation) reads in a replay, `view` being the viewer's view
        after it: by default the last move that view shows, as the game's move list writes it (the
        engine's notation may say more than the viewer saw)."""
        last = view.get("last_move")
        if isinstance(last, dict) and "from" in last and "to" in last:
            return f"{last['from']}{'x' if last.get('result') else '-'}{last['to']}"
        return "…"


class HistoryMoveList:
    """For games whose move list is their public history, one entry per move that never changes once
    listed (Stratego, LOTR): the list is extended from the one already built instead of starting over,
    so the cost of a move does not grow with the length of the game."""

    def public_history_of(self, state: State) -> Sequence[Any]:
        return state.public_history()  # type: ignore[attr-defined, no-any-return]

    def move_entry(self, i: int, event: Any) -> dict[str, Any]:
        """The list's entry for move `i` (0-based)."""
        raise NotImplementedError

    def move_list(self, state: State) -> list[dict[str, Any]]:
        return [self.move_entry(i, ev) for i, ev in enumerate(self.public_history_of(state))]

    def public_moves_after(self, state: State, log: list[Entry], known: list[dict[str, Any]]) -> list[dict[str, Any]]:
        history = self.public_history_of(state)
        n = len(known)
        if n > len(history) or (n and known[-1] != self.move_entry(n - 1, history[n - 1])):
            return self.move_list(state)  # not an earlier list of this game
        return [*known, *(self.move_entry(i, history[i]) for i in range(n, len(history)))]


def public_board(board: list[Any], setup: bool, terrain: str, secret: tuple[str, ...]) -> list[Any]:
    """One seat's observed board as everybody sees it: the `secret` fields of a piece only once it is
    revealed, nothing of a setup (`setup` True), the `terrain` marks kept.

    >>> public_board(["lake", None, {"owner": 1, "rank": "spy", "revealed": False},
    ...               {"owner": 0, "rank": "flag", "revealed": True}], False, "lake", ("rank",))
    ['lake', None, {'owner': 1, 'rank': None, 'revealed': False}, {'owner': 0, 'rank': 'flag', 'revealed': True}]
    >>> public_board(["lake", {"owner": 0, "rank": "flag", "revealed": True}], True, "lake", ("rank",))
    ['lake', None]
    """
    hidden = dict.fromkeys(secret)
    out: list[Any] = []
    for cell in board:
        if not isinstance(cell, dict) or setup:
            out.append(cell if cell == terrain else None)
        else:
            out.append({**cell} if cell["revealed"] else {**cell, **hidden})
    return out


def owners_board(red: list[Any], blue: list[Any]) -> list[Any]:
    """One board of cells from two seats' observed boards, each piece as its owner sees it (the final view:
    every piece shown by the one seat that always knew it).

    >>> owners_board([{"owner": 0, "rank": "spy"}, {"owner": 1, "rank": None}, None],
    ...              [{"owner": 0, "rank": None}, {"owner": 1, "rank": "flag"}, {"owner": 1, "rank": "bomb"}])
    [{'owner': 0, 'rank': 'spy'}, {'owner': 1, 'rank': 'flag'}, {'owner': 1, 'rank': 'bomb'}]
    """
    board: list[Any] = []
    for cell, other in zip(red, blue, strict=True):
        if isinstance(cell, dict) and cell["owner"] == 1:
            cell = other
        elif cell is None:
            cell = other if isinstance(other, dict) and other["owner"] == 1 else None
        board.append(cell)
    return board


__all__ = ["AdapterDefaults", "Entry", "HistoryMoveList", "owners_board", "public_board"]
