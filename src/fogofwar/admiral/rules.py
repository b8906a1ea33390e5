"""Admiral the Board Game as a core-protocol state: setup and the initiative roll so far.

Rule ids (ADM-...) refer to docs/rules/admiral.md. What is implemented:

- the battlefield with a terrain layout (ADM-GEN-2, ADM-TERR-1),
- hidden deployment of each fleet in its two home rows, with the overflow to reserve
  (ADM-SETUP-2..4), then the reveal,
- the initiative roll, die by die, as chance nodes, repeated on a tie (ADM-INIT-1..4),
- the winner's choice of the first player (ADM-INIT-3),
- the placement of submarines, submerged, in each player's half (ADM-SETUP-6).

The turn then reaches the action-dice roll (ADM-DICE-1), which is not implemented yet: from there
every protocol call that would play on raises `NotImplementedYetError` rather than guess. The game is
therefore not registered in the core registry.

Action ids (stable): deploying unit slot `u` of the player to move on square `s` is `u * 64 + s`;
a rolled die face `f` is `ROLL_BASE + f`; choosing player `p` to act first is `CHOOSE_FIRST + p`;
placing submarine slot `u` on `s` is `SUBMARINE_BASE + u * 64 + s`.

>>> state = AdmiralGame().new_initial_state()
>>> state.phase, state.current_player()
('deploy', 0)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fogofwar.admiral.data_model import (
    BOARD_SIZE,
    DEPLOYMENT_ROWS,
    Fleet,
    Ruleset,
    Symbol,
    Terrain,
    UnitCard,
    build_fleet,
    default_ruleset,
    square_index,
    square_name,
)
from fogofwar.core.protocol import (
    CHANCE,
    JSON,
    TERMINAL,
    GameError,
    IllegalActionError,
    NotationError,
    Observation,
    Outcome,
    RecordError,
    Termination,
)

NUM_SQUARES = BOARD_SIZE * BOARD_SIZE
MAX_FLEET = 32
"""Unit slots per fleet that action ids can address."""
DEPLOY_BASE = 0
ROLL_BASE = DEPLOY_BASE + MAX_FLEET * NUM_SQUARES
CHOOSE_FIRST = ROLL_BASE + 6
SUBMARINE_BASE = CHOOSE_FIRST + 2
NUM_ACTIONS = SUBMARINE_BASE + MAX_FLEET * NUM_SQUARES

PLAYER_NAMES = ("South", "North")
"""Seat 0 sits at row 1, seat 1 at row 8 (ADM-GEN-2)."""

DEFAULT_BUDGET = 350
DEFAULT_FLEETS: Mapping[str, tuple[str, ...]] = {
    "usn": ("Washington", "Enterprise", "Helena", "Fletcher", "Jenkins", "Wahoo"),
    "ijn": ("Kirishima", "Shokaku", "Chokai", "Yukikaze", "Shigure", "I-19"),
}
"""Fleets used when the options name none: every class, within the default budget."""


class NotImplementedYetError(GameError):
    """The game reached a part of the rules the engine does not play yet."""


# --- board geometry -----------------------------------------------------------------------------------


def deployment_squares(player: int) -> tuple[int, ...]:
    """The two rows nearest to `player` (ADM-SETUP-2)."""
    rows = range(DEPLOYMENT_ROWS) if player == 0 else range(BOARD_SIZE - DEPLOYMENT_ROWS, BOARD_SIZE)
    return tuple(r * BOARD_SIZE + c for r in rows for c in range(BOARD_SIZE))


def home_half(player: int) -> tuple[int, ...]:
    """The player's half of the board, where submarines are placed (ADM-SETUP-6)."""
    half = BOARD_SIZE // 2
    rows = range(half) if player == 0 else range(half, BOARD_SIZE)
    return tuple(r * BOARD_SIZE + c for r in rows for c in range(BOARD_SIZE))


def read_layout(layout: str | Mapping[str, str], ruleset: Ruleset) -> dict[int, Terrain]:
    """A layout name from terrain.toml, or {square: terrain id}; terrain stays in rows 3-6 (ADM-TERR-1)."""
    if isinstance(layout, str):
        if layout not in ruleset.layouts:
            raise GameError(f"unknown terrain layout {layout!r}; known: {', '.join(ruleset.layouts)}")
        return {sq: ruleset.terrain[tid] for sq, tid in ruleset.layouts[layout].squares}
    if not isinstance(layout, Mapping):
        raise GameError(f"layout must be a layout name or a mapping of squares to terrain, got {layout!r}")
    board: dict[int, Terrain] = {}
    for sq_text, tid in layout.items():
        try:
            sq = square_index(sq_text)
        except (ValueError, AttributeError) as exc:
            raise GameError(f"layout: {exc}") from None
        if tid not in ruleset.terrain:
            raise GameError(f"layout: {sq_text}: unknown terrain {tid!r}; known: {', '.join(ruleset.terrain)}")
        if sq in deployment_squares(0) or sq in deployment_squares(1):
            raise GameError(f"layout: {sq_text} is in a deployment zone: terrain goes in rows 3-6 (ADM-TERR-1)")
        board[sq] = ruleset.terrain[tid]
    return board


# --- the game ------------------------------------------------------------------------------------------


class AdmiralGame:
    """Admiral with fixed options: the two fleets (faction, budget, units) and the terrain layout.

    `ruleset` (other data files, for tests and what-ifs) is not one of the JSON options: records
    and `state_from_json` always rebuild games on the shipped data.
    """

    name = "admiral"
    num_players = 2

    def __init__(
        self,
        factions: Sequence[str] = ("usn", "ijn"),
        budget: int = DEFAULT_BUDGET,
        fleets: Sequence[Sequence[str]] | None = None,
        layout: str | Mapping[str, str] = "archipelago",
        ruleset: Ruleset | None = None,
    ) -> None:
        self.ruleset = default_ruleset() if ruleset is None else ruleset
        if isinstance(factions, str) or len(factions) != 2:
            raise GameError(f"factions must name two factions, one per player, got {factions!r}")
        if fleets is None:
            fleets = [DEFAULT_FLEETS.get(f, ()) for f in factions]
        if isinstance(fleets, str) or len(fleets) != 2:
            raise GameError(f"fleets must be two lists of unit names, one per player, got {fleets!r}")
        self.fleets: tuple[Fleet, Fleet] = (
            build_fleet(factions[0], budget, fleets[0], self.ruleset),
            build_fleet(factions[1], budget, fleets[1], self.ruleset),
        )
        for f in self.fleets:
            if len(f.units) > MAX_FLEET:
                raise GameError(f"a fleet may have at most {MAX_FLEET} units here, {f.faction} has {len(f.units)}")
        self.budget = budget
        self._layout_option: str | dict[str, str] = layout if isinstance(layout, str) else dict(layout)
        self.terrain: dict[int, Terrain] = read_layout(layout, self.ruleset)

    @property
    def options(self) -> dict[str, JSON]:
        return {
            "factions": [f.faction for f in self.fleets],
            "budget": self.budget,
            "fleets": [list(f.names) for f in self.fleets],
            "layout": self._layout_option,
        }

    def __repr__(self) -> str:
        return f"AdmiralGame({', '.join(f'{k}={v!r}' for k, v in self.options.items())})"

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> AdmiralState:
        return AdmiralState(self)

    def state_from_json(self, data: dict[str, JSON]) -> AdmiralState:
        return AdmiralState.from_json(data)


# --- the state -----------------------------------------------------------------------------------------


@dataclass
class UnitState:
    """One unit of a fleet during the game; `slot` is its index in its fleet."""

    owner: int
    slot: int
    card: UnitCard
    where: str = "unplaced"
    """'unplaced', 'board', 'reserve' or 'sunk'."""
    square: int = -1
    submerged: bool = False
    structure: int = 0


@dataclass
class _Core:
    """Everything that changes during play, copied whole for undo (the state is small)."""

    phase: str
    player: int
    units: list[list[UnitState]]
    turn: int = 1
    first_player: int | None = None
    dice_left: list[int] = field(default_factory=lambda: [0, 0])
    admirals: list[int] = field(default_factory=lambda: [0, 0])
    rolls: list[list[int]] = field(default_factory=lambda: [[], []])
    initiative_rounds: int = 0
    initiative_winner: int | None = None
    outcome: Outcome | None = None

    def copy(self) -> _Core:
        """An independent copy: unit states and lists are copied, the (frozen) cards are shared."""
        return _Core(
            phase=self.phase,
            player=self.player,
            units=[[copy.copy(u) for u in fleet] for fleet in self.units],
            turn=self.turn,
            first_player=self.first_player,
            dice_left=self.dice_left.copy(),
            admirals=self.admirals.copy(),
            rolls=[r.copy() for r in self.rolls],
            initiative_rounds=self.initiative_rounds,
            initiative_winner=self.initiative_winner,
            outcome=self.outcome,
        )


class AdmiralState:
    """One position of Admiral; see the module docstring for what is played."""

    def __init__(self, game: AdmiralGame) -> None:
        self._game = game
        self._rs = game.ruleset
        self._terrain = game.terrain
        units = [
            [UnitState(p, i, card, structure=card.structure) for i, card in enumerate(game.fleets[p].units)]
            for p in (0, 1)
        ]
        self._core = _Core(phase="deploy", player=0, units=units)
        self._history: list[int] = []
        self._undo: list[_Core] = []
        self._skip_finished_deployments()

    # --- the core protocol ----------------------------------------------------------------------------
    @property
    def game(self) -> AdmiralGame:
        return self._game

    @property
    def phase(self) -> str:
        """'deploy', 'initiative', 'choose_first', 'submarines', then 'action_dice' (not implemented)."""
        return self._core.phase

    @property
    def history(self) -> Sequence[int]:
        return self._history

    @property
    def turn(self) -> int:
        return self._core.turn

    @property
    def first_player(self) -> int | None:
        """Who acts first this turn (ADM-INIT-3), once chosen."""
        return self._core.first_player

    def current_player(self) -> int:
        c = self._core
        if c.outcome is not None:
            return TERMINAL
        if c.phase in ("initiative", "action_dice"):
            return CHANCE
        return c.player

    def is_terminal(self) -> bool:
        return self._core.outcome is not None

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def returns(self) -> list[float]:
        o = self._core.outcome
        return o.returns(2) if o is not None else [0.0, 0.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._core
        if c.outcome is not None or c.phase not in ("initiative", "action_dice"):
            return []
        self._refuse_unfinished()
        n = len(self._rs.die.faces)
        return [(ROLL_BASE + f, 1.0 / n) for f in range(n)]

    def legal_actions(self) -> list[int]:
        c = self._core
        if c.outcome is not None:
            return []
        self._refuse_unfinished()
        if c.phase == "initiative":
            return [a for a, _ in self.chance_outcomes()]
        if c.phase == "deploy":
            return self._placements(c.player, DEPLOY_BASE, self._free_deployment_squares(c.player), submarines=False)
        if c.phase == "choose_first":
            return [CHOOSE_FIRST, CHOOSE_FIRST + 1]
        if c.phase == "submarines":
            return self._placements(c.player, SUBMARINE_BASE, self._submarine_squares(c.player), submarines=True)
        raise AssertionError(f"unknown phase {c.phase!r}")  # pragma: no cover

    def apply(self, action: int) -> None:
        c = self._core
        if c.outcome is not None:
            raise IllegalActionError(f"the game is over ({c.outcome.reason})")
        self._refuse_unfinished()
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        self._undo.append(c.copy())
        self._history.append(action)
        if c.phase == "deploy":
            self._deploy(action)
        elif c.phase == "initiative":
            self._roll(action - ROLL_BASE)
        elif c.phase == "choose_first":
            self._choose_first(action - CHOOSE_FIRST)
        else:
            self._place_submarine(action)

    def undo(self) -> None:
        if not self._undo:
            raise IllegalActionError("nothing to undo")
        self._core = self._undo.pop().copy()  # copied: clones may share the stored entry
        self._history.pop()

    def clone(self) -> AdmiralState:
        other = AdmiralState.__new__(AdmiralState)
        other._game = self._game
        other._rs = self._rs
        other._terrain = self._terrain
        other._core = self._core.copy()
        other._history = self._history.copy()
        other._undo = self._undo.copy()  # stored entries are never mutated (undo copies them)
        return other

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the rules of play (resignation, agreed draw, clock, forfeit)."""
        if self._core.outcome is not None:
            raise IllegalActionError(f"the game is over ({self._core.outcome.reason})")
        self._core.outcome = Outcome(termination, winner, reason or termination.value.replace("_", " "))

    def _refuse_unfinished(self) -> None:
        if self._core.phase == "action_dice":
            raise NotImplementedYetError(
                "Admiral: the action-dice roll (ADM-DICE-1) and the rest of the turn are not implemented yet; "
                "the engine plays the setup and the first initiative roll only"
            )

    # --- explanations and notation -------------------------------------------------------------------
    def explain_illegal(self, action: int) -> str:
        """Say in words why `action` is not legal now (empty string if it is)."""
        c = self._core
        if c.outcome is not None:
            return f"the game is over ({c.outcome.reason})"
        if action in self.legal_actions():
            return ""
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return f"{action!r} is not an action id of Admiral"
        expected = {
            "deploy": "a deployment",
            "initiative": "an initiative die roll (a chance event)",
            "choose_first": "the choice of the first player",
            "submarines": "a submarine placement",
        }[c.phase]
        who = PLAYER_NAMES[c.player]
        if action < ROLL_BASE:
            if c.phase != "deploy":
                return f"the deployment is over; now comes {expected}"
            return self._explain_placement(c.player, action - DEPLOY_BASE, submarine=False)
        if action < CHOOSE_FIRST:
            return f"no die is being rolled; now comes {expected}"
        if action < SUBMARINE_BASE:
            return f"no first player is being chosen; now comes {expected}"
        if c.phase != "submarines":
            return f"submarines are placed after the first initiative roll (ADM-SETUP-6); now comes {expected}"
        reason = self._explain_placement(c.player, action - SUBMARINE_BASE, submarine=True)
        return reason or f"{who} cannot place that submarine there"  # pragma: no cover

    def _explain_placement(self, player: int, code: int, submarine: bool) -> str:
        slot, sq = divmod(code, NUM_SQUARES)
        who = PLAYER_NAMES[player]
        units = self._core.units[player]
        if slot >= len(units):
            return f"{who}'s fleet has no unit number {slot}"
        u = units[slot]
        name = u.card.name
        if u.card.is_submarine != submarine:
            return (
                f"{name} is not a submarine"
                if submarine
                else f"{name} is a submarine: it is placed later (ADM-SETUP-6)"
            )
        if u.where != "unplaced":
            return f"{name} is already placed"
        at = square_name(sq)
        if submarine:
            if sq not in home_half(player):
                return f"{at} is not in {who}'s half of the board (ADM-SETUP-6)"
            terrain = self._terrain.get(sq)
            if terrain is not None and not (terrain.submerged_passable and terrain.diving_allowed):
                return f"a submarine cannot lie submerged on {terrain.name} ({at}) (ADM-SETUP-6, ADM-TERR)"
            return f"{at} already holds a submarine (ADM-SUB-3)"
        if sq not in deployment_squares(player):
            return f"{at} is not in {who}'s deployment zone (ADM-SETUP-2)"
        return f"{at} is already occupied"

    def action_to_string(self, action: int) -> str:
        """'Fletcher@C1' (deploy or submarine), 'roll:admiral', 'first:South'."""
        if ROLL_BASE <= action < CHOOSE_FIRST:
            face = self._rs.die.faces[action - ROLL_BASE]
            return "roll:" + "+".join(s.value for s in face.symbols)
        if CHOOSE_FIRST <= action < SUBMARINE_BASE:
            return f"first:{PLAYER_NAMES[action - CHOOSE_FIRST]}"
        base = SUBMARINE_BASE if action >= SUBMARINE_BASE else DEPLOY_BASE
        slot, sq = divmod(action - base, NUM_SQUARES)
        units = self._core.units[self._core.player]
        name = units[slot].card.name if slot < len(units) else f"#{slot}"
        return f"{name}@{square_name(sq)}"

    def string_to_action(self, text: str) -> int:
        """Read what `action_to_string` writes (case and spaces ignored); it must be playable now."""
        key = "".join(text.split()).lower()
        playable = [a for a, _ in self.chance_outcomes()] if self.current_player() == CHANCE else self.legal_actions()
        for action in playable:
            if "".join(self.action_to_string(action).split()).lower() == key:
                return action
        if "@" in key:
            name, _, sq_text = key.rpartition("@")
            try:
                sq = square_index(sq_text)
            except ValueError as exc:
                raise NotationError(f"{text!r}: {exc}") from None
            c = self._core
            slot = next((u.slot for u in c.units[c.player] if "".join(u.card.name.split()).lower() == name), None)
            if slot is None:
                raise IllegalActionError(f"{PLAYER_NAMES[c.player]} has no unit named {name!r}")
            base = SUBMARINE_BASE if c.phase == "submarines" else DEPLOY_BASE
            raise IllegalActionError(self.explain_illegal(base + slot * NUM_SQUARES + sq))
        if ":" not in key:
            raise NotationError(f"{text!r} is not an Admiral action: write Fletcher@C1, roll:admiral or first:South")
        raise IllegalActionError(f"{text!r} is not playable now ({self.phase})")

    # --- deployment (ADM-SETUP-2..4) --------------------------------------------------------------------
    def _occupied_by_surface(self) -> set[int]:
        return {u.square for fleet in self._core.units for u in fleet if u.where == "board" and not u.submerged}

    def _free_deployment_squares(self, player: int) -> list[int]:
        taken = self._occupied_by_surface()
        return [sq for sq in deployment_squares(player) if sq not in taken and sq not in self._terrain]

    def _placements(self, player: int, base: int, squares: Sequence[int], submarines: bool) -> list[int]:
        out = [
            base + u.slot * NUM_SQUARES + sq
            for u in self._core.units[player]
            if u.where == "unplaced" and u.card.is_submarine == submarines
            for sq in squares
        ]
        out.sort()
        return out

    def _deploy(self, action: int) -> None:
        slot, sq = divmod(action - DEPLOY_BASE, NUM_SQUARES)
        c = self._core
        unit = c.units[c.player][slot]
        unit.where, unit.square = "board", sq
        self._skip_finished_deployments()

    def _skip_finished_deployments(self) -> None:
        """Move on when the player to deploy has nothing left to place or no free square (ADM-SETUP-4)."""
        c = self._core
        while c.phase == "deploy":
            p = c.player
            waiting = [u for u in c.units[p] if u.where == "unplaced" and not u.card.is_submarine]
            if waiting and self._free_deployment_squares(p):
                return
            for u in waiting:
                u.where = "reserve"  # the zone is full: the rest wait in reserve (ADM-SETUP-4)
            if p == 0:
                c.player = 1
            else:
                self._start_initiative()  # both deployed: the cards are revealed (ADM-SETUP-3)

    # --- initiative (ADM-INIT-1..4) -------------------------------------------------------------------
    def initiative_dice(self, player: int) -> int:
        """Dice `player` rolls for initiative: 2 per Admiral unit on the board (ADM-INIT-1/2)."""
        c = self._core
        counts = [2 * sum(1 for u in c.units[p] if u.where == "board" and u.card.admiral) for p in (0, 1)]
        if counts == [0, 0]:
            return 2  # Reading in ADM-INIT-2: otherwise the roll could never produce a winner
        return counts[player]

    def _start_initiative(self) -> None:
        c = self._core
        c.phase = "initiative"
        c.dice_left = [self.initiative_dice(0), self.initiative_dice(1)]
        c.admirals = [0, 0]
        c.rolls = [[], []]
        c.initiative_rounds += 1
        c.player = 0 if c.dice_left[0] else 1

    def _roll(self, face: int) -> None:
        c = self._core
        p = c.player
        c.rolls[p].append(face)
        if self._rs.die.faces[face].shows(Symbol.ADMIRAL):
            c.admirals[p] += 1
        c.dice_left[p] -= 1
        if c.dice_left[p]:
            return
        if p == 0 and c.dice_left[1]:
            c.player = 1
            return
        if c.admirals[0] == c.admirals[1]:
            self._start_initiative()  # a tie: both roll again (ADM-INIT-2)
            return
        winner = 0 if c.admirals[0] > c.admirals[1] else 1
        c.initiative_winner = winner
        c.phase = "choose_first"
        c.player = winner

    def _choose_first(self, first: int) -> None:
        c = self._core
        c.first_player = first
        if c.turn == 1 and self._unplaced_submarines(0) + self._unplaced_submarines(1):
            c.phase = "submarines"
            c.player = first if self._unplaced_submarines(first) else 1 - first
        else:
            c.phase = "action_dice"

    # --- submarines (ADM-SETUP-6) ---------------------------------------------------------------------
    def _unplaced_submarines(self, player: int) -> int:
        return sum(1 for u in self._core.units[player] if u.where == "unplaced" and u.card.is_submarine)

    def _submarine_squares(self, player: int) -> list[int]:
        subs = {u.square for fleet in self._core.units for u in fleet if u.where == "board" and u.card.is_submarine}
        out = []
        for sq in home_half(player):
            terrain = self._terrain.get(sq)
            if terrain is not None and not (terrain.submerged_passable and terrain.diving_allowed):
                continue
            if sq not in subs:
                out.append(sq)
        return out

    def _place_submarine(self, action: int) -> None:
        slot, sq = divmod(action - SUBMARINE_BASE, NUM_SQUARES)
        c = self._core
        unit = c.units[c.player][slot]
        unit.where, unit.square, unit.submerged = "board", sq, True
        other = 1 - c.player
        if self._unplaced_submarines(other):
            c.player = other
        elif not self._unplaced_submarines(c.player):
            c.phase = "action_dice"

    # --- what players see ---------------------------------------------------------------------------
    def units(self, player: int) -> list[UnitState]:
        """`player`'s units with their full state (not for the opponent during deployment)."""
        return [copy.copy(u) for u in self._core.units[player]]

    def units_at(self, square: int) -> list[UnitState]:
        """Units on `square`: at most one surface unit and one submerged submarine."""
        return [copy.copy(u) for f in self._core.units for u in f if u.where == "board" and u.square == square]

    def observation(self, player: int) -> Observation:
        """Own units always; the enemy's units only after the reveal (ADM-SETUP-3, ADM-GEN-5)."""
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        c = self._core
        revealed = c.phase != "deploy"
        cells: list[JSON] = []
        for sq in range(NUM_SQUARES):
            terrain = self._terrain.get(sq)
            here = []
            for fleet in c.units:
                for u in fleet:
                    if u.where == "board" and u.square == sq and (u.owner == player or revealed):
                        here.append(_unit_json(u))
            cells.append({"terrain": terrain.id if terrain else None, "units": here})
        fleets: list[JSON] = []
        for p in (0, 1):
            visible = p == player or revealed
            fleets.append(
                {
                    "faction": self._game.fleets[p].faction,
                    "units": len(c.units[p]),
                    "reserve": [u.card.name for u in c.units[p] if u.where == "reserve"] if visible else None,
                    "to_place": [u.card.name for u in c.units[p] if u.where == "unplaced"] if visible else None,
                }
            )
        data: dict[str, JSON] = {
            "game": "admiral",
            "player": player,
            "phase": c.phase,
            "turn": c.turn,
            "to_move": self.current_player(),
            "board": cells,
            "fleets": fleets,
            "initiative": {
                "rolls": [[self.action_to_string(ROLL_BASE + f)[5:] for f in r] for r in c.rolls],
                "admirals": list(c.admirals),
                "round": c.initiative_rounds,
                "winner": c.initiative_winner,
            },
            "first_player": c.first_player,
            "outcome": c.outcome.to_json() if c.outcome is not None else None,
        }
        return Observation(player, data, render_text(data))

    # --- serialization --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """Options and actions: replaying them rebuilds the state exactly (the dice are actions too)."""
        data: dict[str, JSON] = {
            "game": "admiral",
            "options": self._game.options,
            "actions": list(self._history),
        }
        o = self._core.outcome
        if o is not None and o.termination in _OUTSIDE_ENDINGS:
            data["ended_by"] = o.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> AdmiralState:
        if not isinstance(data, Mapping) or data.get("game") != "admiral":
            raise RecordError('not an Admiral state: expected an object with "game": "admiral"')
        try:
            game = AdmiralGame(**dict(data.get("options") or {}))
        except (TypeError, GameError) as exc:
            raise RecordError(f"bad Admiral options: {exc}") from exc
        state = game.new_initial_state()
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError('"actions" must be a list of action ids')
        for i, action in enumerate(actions):
            if isinstance(action, bool) or not isinstance(action, int):
                raise RecordError(f"action {i + 1} is not an integer: {action!r}")
            try:
                state.apply(action)
            except GameError as exc:
                raise RecordError(f"action {i + 1} ({action}) cannot be replayed: {exc}") from exc
        ended = data.get("ended_by")
        if ended is not None:
            o = Outcome.from_json(dict(ended))
            state.end_by(o.termination, o.winner, o.reason)
        return state


_OUTSIDE_ENDINGS = {Termination.RESIGNATION, Termination.AGREED_DRAW, Termination.TIMEOUT, Termination.FORFEIT}


def _unit_json(u: UnitState) -> dict[str, JSON]:
    return {
        "owner": u.owner,
        "name": u.card.name,
        "class": u.card.unit_class,
        "structure": u.structure,
        "submerged": u.submerged,
    }


_TERRAIN_MARK = {"island": "##", "shallows": "::", "fog_bank": "~~", "sandbank": ".."}


def render_text(obs: Mapping[str, Any]) -> str:
    """A plain-text board: row 8 on top; units as owner mark (s/n) + class, terrain as symbols."""
    lines = []
    cells = obs["board"]
    for row in range(BOARD_SIZE - 1, -1, -1):
        parts = []
        for col in range(BOARD_SIZE):
            cell = cells[row * BOARD_SIZE + col]
            units = cell["units"]
            if units:
                u = next((x for x in units if not x["submerged"]), units[0])
                mark = ("s" if u["owner"] == 0 else "n") + u["class"]
                if len(units) > 1 or u["submerged"]:
                    mark += "~"
            elif cell["terrain"]:
                mark = _TERRAIN_MARK.get(cell["terrain"], "??")
            else:
                mark = "."
            parts.append(f"{mark:<5}")
        lines.append(f"{row + 1} " + "".join(parts).rstrip())
    lines.append("  " + "".join(f"{c:<5}" for c in "ABCDEFGH").rstrip())
    return "\n".join(lines)


__all__ = [
    "CHOOSE_FIRST",
    "DEFAULT_FLEETS",
    "NUM_ACTIONS",
    "PLAYER_NAMES",
    "ROLL_BASE",
    "SUBMARINE_BASE",
    "AdmiralGame",
    "AdmiralState",
    "NotImplementedYetError",
    "UnitState",
    "deployment_squares",
    "home_half",
    "read_layout",
    "render_text",
]
