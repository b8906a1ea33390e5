"""Admiral the Board Game as a core-protocol state (rule ids ADM-... refer to docs/rules/admiral.md).

A turn runs: reserve entry (ADM-SETUP-5, from turn 2), the initiative roll (ADM-INIT, chance nodes),
the winner's choice of the first player, the submarine placement (turn 1, ADM-SETUP-6), the action-dice
roll (ADM-DICE-1, one chance node per die: South's pool, then North's), the movement phase (ADM-MOVE,
ADM-REP, ADM-AIR-1, alternating goes), the air attacks (ADM-AIR-5), the naval attack assignment
(ADM-ATK-1: South commits in secret, then North), the resolution (ADM-RES, with the attacker's choice of
each critical marker) and the end of the turn (ADM-TURN-2). The game ends when a fleet is destroyed
(ADM-END) or at the optional turn cap.

Dice are never tied to the unit that brought them: the pool is a list of faces and each die is spent at
most once, for the purpose recorded next to it. An action names the *face* it spends (dice with the same
face are interchangeable) and the engine takes the first unused die showing it.

Aircraft (ADM-AIR) fly in the movement phase (combat air patrol) and open the attack phase: the air
attacks are declared and resolved one carrier at a time, with the duels and anti-aircraft dice as chance
nodes, before the secret naval assignment.

With the option `solo_seat`, that seat is "Admiral Stratego", the automatic opponent of the solo mode, and
the rules change for it as docs/rules/admiral-solo.md says (ids SOLO-...): both fleets deploy from the corner
(Stratego's cards from a shuffled deck, a chance node), Stratego always wins the initiative and moves second,
its units act one at a time from the slowest, each with an Admiral die assigned at the start of the turn and
one die rolled (a chance node) when it acts, the decision table giving the Admiral die its value, and the
units its orders already sink are no longer its targets nor block its sight. How Stratego chooses within
these rules is the agent `stratego` (`fogofwar.games.admiral.solo`).

Action ids are laid out in `fogofwar.games.admiral.actions`.

>>> state = AdmiralGame().new_initial_state()
>>> state.phase, state.current_player()
(<Phase.DEPLOY: 'deploy'>, 0)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from fogofwar.core import inputs
from fogofwar.core.params import checked_by
from fogofwar.core.protocol import (
    CHANCE,
    JSON,
    GameError,
    IllegalActionError,
    InvalidArgumentError,
    NotationError,
    Outcome,
    RecordError,
    Termination,
)
from fogofwar.core.state_json import outside_ending
from fogofwar.games.admiral.actions import (
    AA_PICK_BASE,
    ACTIVATE_BASE,
    AIR_DONE,
    AIR_PASS,
    AIRBORNE_BASE,
    CHOOSE_FIRST,
    COMMIT,
    CRITICAL_BASE,
    DECLINE,
    DEPLOY_BASE,
    DEPTH_CHARGE_BASE,
    EXTRA_DRAUGHT,
    EXTRA_NONE,
    EXTRA_SMOKE_HORIZONTAL,
    EXTRA_SMOKE_VERTICAL,
    FIRE_BASE,
    HOLD_BASE,
    LAUNCH_BASE,
    MAX_BATTERIES,
    MAX_CHARACTERISTICS,
    MAX_FLEET,
    MAX_RULES,
    MOVE_BASE,
    NUM_ACTIONS,
    NUM_SQUARES,
    PASS,
    PROTECT_BASE,
    REPAIR_BASE,
    RESERVE_BASE,
    RESERVE_DONE,
    ROLL_BASE,
    SIDE_CHANGE_AFTER,
    SIDE_CHANGE_BEFORE,
    SIDE_CHANGE_NONE,
    SQUADRON_BASE,
    STRIKE_BASE,
    SUBMARINE_BASE,
    TORPEDO_BASE,
    Decoded,
    decode,
    encode_fire,
    encode_move,
    encode_repair,
    encode_squadron,
    encode_torpedo,
)
from fogofwar.games.admiral.data_model import (
    SQUADRON_TYPES,
    Fleet,
    Ruleset,
    SoloRow,
    Symbol,
    Terrain,
    build_fleet,
    default_ruleset,
    square_index,
    square_name,
)
from fogofwar.games.admiral.geometry import (
    KING,
    ORTHOGONAL,
    at,
    corner_order,
    deployment_squares,
    distance,
    home_half,
    l_path,
    last_row,
    neighbours,
    row_col,
)
from fogofwar.games.admiral.params import DEFAULT_BUDGET, AdmiralParams
from fogofwar.games.admiral.positions import state_from_position
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Feature,
    Order,
    Phase,
    Sortie,
    UnitState,
    _Hit,
    _Strike,
)
from fogofwar.games.admiral.views import AdmiralViews, render_text

DEFAULT_FLEETS: Mapping[str, tuple[str, ...]] = {
    "usn": ("Washington", "Enterprise", "Helena", "Fletcher", "Jenkins", "Wahoo"),
    "ijn": ("Kirishima", "Shokaku", "Chokai", "Yukikaze", "Shigure", "I-19"),
}
"""Fleets used when the options name none: every class, within the default budget."""

PHASES = (
    "deploy",
    "initiative",
    "choose_first",
    "submarines",
    "reserve",
    "action_dice",
    "movement",
    "reaction",
    "launch",
    "air",
    "strike",
    "air_react",
    "air_roll",
    "aa_pick",
    "attack",
    "criticals",
    "solo_roll",
)


class NotImplementedYetError(GameError):
    """The game reached a part of the rules the engine does not play yet."""


SUPPORTED_TIMINGS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "movement": {
        "green": frozenset({"cross_shallows", "smoke", "repair_amount"}),
        "red": frozenset({"repair_amount"}),
    },
    "attack": {
        "green": frozenset(
            {
                "armour",
                "coefficient_per_slot_within_half_range",
                "torpedo_no_structure_loss",
                "reload_mount",
                "torpedo_range",
                "artillery_range",
                "ignore_protective_belt",
                "avoid_critical",
            }
        ),
        "red": frozenset({"armour_vs_long_range_or_bombers", "coefficient_beyond_half_range", "spoil_mount"}),
    },
    "air": {
        "green": frozenset(
            {"armour", "torpedo_no_structure_loss", "avoid_critical", "fighter_reroll", "fighter_wins_ties"}
        ),
        "red": frozenset({"aa_reroll_failures", "armour_vs_long_range_or_bombers"}),
    },
}
"""(timing, colour) -> the special-rule effects the engine applies when activated then (section 5)."""


def check_supported(ruleset: Ruleset) -> None:
    """Refuse data the engine would play wrongly: a special rule whose effect it cannot apply at the timing
    the data gives, or squadron types whose roles differ from the rules' (ADM-AIR-8..14)."""
    for rule in ruleset.special_rules:
        for timing in rule.timing:
            if rule.effect not in SUPPORTED_TIMINGS[timing][rule.colour]:
                raise NotImplementedYetError(
                    f"{rule.id} {rule.name}: the engine cannot apply a {rule.colour} {rule.effect!r} effect "
                    f"activated with timing {timing!r} (special_rules.toml)"
                )
    roles = {k: ruleset.aircraft[k].damage for k in SQUADRON_TYPES}
    if roles != {"fighter": "none", "bomber": "artillery", "torpedo_bomber": "torpedo"}:
        raise NotImplementedYetError(
            f"the engine plays fighters, bombers and torpedo bombers as the rules describe them; "
            f"units.toml gives them the damage kinds {roles}"
        )


# --- the game ------------------------------------------------------------------------------------------


def read_layout(layout: str | Mapping[str, str], ruleset: Ruleset) -> dict[int, Terrain]:
    """A layout name from terrain.toml, or {square: terrain id}; terrain stays in rows 3-6 (ADM-TERR-1)."""
    if isinstance(layout, str):
        if layout not in ruleset.layouts:
            raise InvalidArgumentError(
                f"unknown terrain layout {inputs.show(layout)}; known: {', '.join(ruleset.layouts)}"
            )
        return {sq: ruleset.terrain[tid] for sq, tid in ruleset.layouts[layout].squares}
    if not isinstance(layout, Mapping):
        raise InvalidArgumentError(
            f"layout must be a layout name or a mapping of squares to terrain, got {inputs.show(layout)}"
        )
    board: dict[int, Terrain] = {}
    for sq_text, tid in layout.items():
        inputs.text(sq_text, "layout: a square", InvalidArgumentError)
        try:
            sq = square_index(sq_text)
        except ValueError as exc:
            raise InvalidArgumentError(f"layout: {exc}") from None
        if not isinstance(tid, str) or tid not in ruleset.terrain:
            raise InvalidArgumentError(
                f"layout: {sq_text}: unknown terrain {inputs.show(tid)}; known: {', '.join(ruleset.terrain)}"
            )
        if sq in deployment_squares(0) or sq in deployment_squares(1):
            raise InvalidArgumentError(
                f"layout: {sq_text} is in a deployment zone: terrain goes in rows 3-6 (ADM-TERR-1)"
            )
        board[sq] = ruleset.terrain[tid]
    return board


class AdmiralGame:
    """Admiral with fixed options: the two fleets (faction, budget, units), the terrain layout, an
    optional turn cap (ADM-END-3, `max_turns`; None plays until a fleet is destroyed) and the solo mode
    (`solo_seat`: the seat Admiral Stratego plays under the solo rules, SOLO-...; None, the default, is the
    normal two-player game).

    `ruleset` (other data files, for tests and what-ifs) is not one of the JSON options: records
    and `state_from_json` always rebuild games on the shipped data.
    """

    name = "admiral"
    num_players = 2

    @checked_by(AdmiralParams)
    def __init__(
        self,
        factions: Sequence[str] = ("usn", "ijn"),
        budget: int = DEFAULT_BUDGET,
        fleets: Sequence[Sequence[str]] | None = None,
        layout: str | Mapping[str, str] = "archipelago",
        max_turns: int | None = None,
        ruleset: Ruleset | None = None,
        solo_seat: int | None = None,
    ) -> None:
        self.ruleset = default_ruleset() if ruleset is None else ruleset
        if fleets is None:
            fleets = [list(DEFAULT_FLEETS.get(f, ())) for f in factions]
        self.fleets: tuple[Fleet, Fleet] = (
            build_fleet(factions[0], budget, fleets[0], self.ruleset),
            build_fleet(factions[1], budget, fleets[1], self.ruleset),
        )
        for f in self.fleets:
            if len(f.units) > MAX_FLEET:
                raise GameError(f"a fleet may have at most {MAX_FLEET} units here, {f.faction} has {len(f.units)}")
            for card in f.units:
                for side in (card.front, card.submerged):
                    if side is not None and len(side.batteries) > MAX_BATTERIES:
                        raise GameError(f"{card.name}: at most {MAX_BATTERIES} batteries per card here")
                if len(card.characteristics) > MAX_CHARACTERISTICS:
                    raise GameError(f"{card.name}: at most {MAX_CHARACTERISTICS} characteristics per card here")
        if len(self.ruleset.special_rules) > MAX_RULES:
            raise GameError(f"at most {MAX_RULES} special rules here")
        check_supported(self.ruleset)
        self.max_turns = max_turns
        self.solo_seat = solo_seat
        admiral_faces = [f for f in self.ruleset.die.faces if f.shows(Symbol.ADMIRAL)]
        self.admiral_face = min(admiral_faces, key=lambda f: (len(f.symbols), f.index)).index
        """The face of the Admiral die assigned to each of Stratego's units (SOLO-DICE-1)."""
        self.budget = budget
        self.terrain: dict[int, Terrain] = read_layout(layout, self.ruleset)
        self._layout_option: str | dict[str, str] = layout if isinstance(layout, str) else dict(layout)

    @property
    def options(self) -> dict[str, JSON]:
        return {
            "factions": [f.faction for f in self.fleets],
            "budget": self.budget,
            "fleets": [list(f.names) for f in self.fleets],
            "layout": self._layout_option,
            "max_turns": self.max_turns,
            "solo_seat": self.solo_seat,
        }

    def __repr__(self) -> str:
        return f"AdmiralGame({', '.join(f'{k}={v!r}' for k, v in self.options.items())})"

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> AdmiralState:
        return AdmiralState(self)

    def state_from_json(self, data: dict[str, JSON]) -> AdmiralState:
        return AdmiralState.from_json(data)

    def state_from_position(self, position: Mapping[str, Any]) -> AdmiralState:
        """A crafted position (for tests and studies); see `state_from_position`."""
        return state_from_position(self, position)


OPTION_NAMES = tuple(name for name in AdmiralParams.model_fields if name != "ruleset")
"""The JSON options of `AdmiralGame` (as `options` writes them): `ruleset` is not one of them."""


# --- the state -----------------------------------------------------------------------------------------


UNDO_EVERY = 16
"""`apply` keeps a copy of the game's core every this many actions, for `undo` (which replays the rest):
copying the core on every action cost a fifth of Admiral's time."""

_HANDLERS = {
    "deploy": "_deploy",
    "roll": "_roll",
    "choose_first": "_choose_first",
    "submarine": "_place_submarine",
    "reserve": "_enter_reserve",
    "reserve_done": "_reserve_done",
    "move": "_move",
    "repair": "_repair",
    "pass": "_pass",
    "fire": "_assign",
    "torpedo": "_assign",
    "depth_charge": "_assign",
    "activate": "_activate",
    "commit": "_commit",
    "decline": "_decline",
    "critical": "_place_critical",
    "launch": "_launch",
    "protect": "_launch_pick",
    "airborne": "_launch_pick",
    "air_done": "_air_done",
    "strike": "_strike",
    "squadron": "_squadron",
    "air_pass": "_air_pass",
    "aa_pick": "_aa_pick",
    "hold": "_hold",
}
"""The method of `AdmiralState` that plays each kind of action (`actions.decode(action).kind`)."""


class AdmiralState(AdmiralViews):
    """One position of Admiral; see the module docstring for what is played."""

    def __init__(self, game: AdmiralGame) -> None:
        super().__init__(game)
        self._skip_finished_deployments()

    # --- the core protocol ----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._core
        if c.outcome is not None or not self._is_chance():
            return []
        if c.phase == Phase.DEPLOY:  # the next card of the shuffled deck goes on the next square (SOLO-SET-1/2)
            draws = self._placements(c.player, DEPLOY_BASE, self._free_deployment_squares(c.player), False)
            return [(a, 1.0 / len(draws)) for a in draws]
        n = len(self._rs.die.faces)
        return [(ROLL_BASE + f, 1.0 / n) for f in range(n)]

    def legal_actions(self) -> list[int]:
        if self._core.outcome is not None:
            return []
        if self._legal is None:
            self._legal = sorted(set(self._compute_legal()))
            self._legal_set = frozenset(self._legal)
        return list(self._legal)

    def _is_legal(self, action: int) -> bool:
        self.legal_actions()
        return action in self._legal_set

    def apply(self, action: int) -> None:
        c = self._core
        if type(action) is not int:
            action = inputs.action_id(action, "Admiral")
        if c.outcome is not None:
            raise IllegalActionError(f"the game is over ({c.outcome.reason})")
        if not self._is_legal(action):
            raise IllegalActionError(self.explain_illegal(action))
        n = len(self._history)
        if n % UNDO_EVERY == 0 and (not self._undo or self._undo[-1][0] < n):
            self._undo.append((n, c.copy()))
        self._history.append(action)
        self._play(action)

    def _play(self, action: int) -> None:
        """Play a legal action on the core (what `apply` does after its checks, and `undo` replays)."""
        self._changed()
        d = decode(action)
        getattr(self, _HANDLERS[d.kind])(d)
        if self._solo is not None:
            self._solo_advance()
        self._changed()

    def undo(self) -> None:
        """Take back the last action: back to the last checkpoint (a copy of the core kept every
        `UNDO_EVERY` actions), then the actions after it played again. Dice are actions, so this is exact."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        target = len(self._history) - 1
        while self._undo[-1][0] > target:
            self._undo.pop()
        start, core = self._undo[-1]
        self._core = core.copy()  # copied: the checkpoint stays, and clones may share it
        replay = self._history[start:target]
        del self._history[target:]
        for action in replay:
            self._play(action)
        self._changed()

    def clone(self) -> AdmiralState:
        other = AdmiralState.__new__(AdmiralState)
        other._game = self._game
        other._rs = self._rs
        other._terrain = self._terrain
        other._solo = self._solo
        other._core = self._core.copy()
        other._history = self._history.copy()
        other._undo = self._undo.copy()  # checkpoints are never mutated (undo copies them)
        other._position = self._position
        other._legal = self._legal  # never mutated in place: replaced on every change
        other._legal_set = self._legal_set
        other._map_cache = None
        other._count_cache = None
        other._faces_cache = self._faces_cache
        return other

    def end_by(self, termination: Termination, winner: int | None, reason: str = "") -> None:
        """End the game for a reason outside the rules of play (resignation, agreed draw, clock, forfeit)."""
        termination, winner, reason = inputs.outside_ending(termination, winner, reason, PLAYER_NAMES)
        if self._core.outcome is not None:
            raise IllegalActionError(f"the game is over ({self._core.outcome.reason})")
        self._core.outcome = Outcome(termination, winner, reason or termination.value.replace("_", " "))
        self._changed()

    # --- legal actions ------------------------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        c = self._core
        p = c.player
        if self._is_chance():
            return [a for a, _ in self.chance_outcomes()]
        if c.phase == Phase.DEPLOY:
            return self._placements(p, DEPLOY_BASE, self._free_deployment_squares(p), submarines=False)
        if c.phase == Phase.CHOOSE_FIRST:
            return [CHOOSE_FIRST, CHOOSE_FIRST + 1]
        if c.phase == Phase.SUBMARINES:
            return self._placements(p, SUBMARINE_BASE, self._submarine_squares(p), submarines=True)
        if c.phase == Phase.RESERVE:
            return [RESERVE_DONE, *self._reserve_entries(p)]
        if c.phase == Phase.MOVEMENT:
            if p == self._solo:
                return self._solo_go_actions()
            return [PASS, *self._move_actions(p), *self._repair_actions(p), *self._launch_actions(p)]
        if c.phase == Phase.LAUNCH:
            return self._launch_picks()
        if c.phase == Phase.AIR:
            strikes = [STRIKE_BASE + u.slot for u, _ in self._strike_options(p)]
            if p == self._solo and strikes:
                return strikes  # Stratego's carriers with squadrons always launch (SOLO-ADM-3)
            return [AIR_PASS, *strikes]
        if c.phase == Phase.STRIKE:
            return self._strike_picks()
        if c.phase == Phase.AIR_REACT:
            return [AIR_DONE, *self._air_reactions(p)]
        if c.phase == Phase.AA_PICK:
            return [AA_PICK_BASE + k for k in self._aa_pick_options()]
        if c.phase == Phase.REACTION:
            return [DECLINE, *self._reaction_actions()]
        if c.phase == Phase.ATTACK:
            return [COMMIT, *self._attack_actions(p)]
        if c.phase == Phase.CRITICALS:
            return [CRITICAL_BASE + i for i in self._critical_options()]
        raise AssertionError(f"unknown phase {c.phase!r}")  # pragma: no cover

    # --- explanations and notation -------------------------------------------------------------------
    _KIND_PHASE: Mapping[str, str] = {
        "deploy": "deploy",
        "roll": "initiative",
        "choose_first": "choose_first",
        "submarine": "submarines",
        "reserve": "reserve",
        "reserve_done": "reserve",
        "move": "movement",
        "repair": "movement",
        "pass": "movement",
        "fire": "attack",
        "torpedo": "attack",
        "depth_charge": "attack",
        "activate": "attack",
        "commit": "attack",
        "decline": "reaction",
        "critical": "criticals",
        "launch": "movement",
        "protect": "launch",
        "airborne": "launch",
        "air_done": "strike",
        "strike": "air",
        "air_pass": "air",
        "squadron": "strike",
        "aa_pick": "aa_pick",
        "hold": "movement",
    }
    _EXPECTED: Mapping[str, str] = {
        "deploy": "a deployment",
        "initiative": "an initiative die roll (a chance event)",
        "choose_first": "the choice of the first player",
        "submarines": "a submarine placement",
        "reserve": "an entry from the reserve (or done)",
        "action_dice": "an action die roll (a chance event)",
        "movement": "a movement go: a move, a repair or pass",
        "reaction": "the answer to a repair: Poor Damage Control or decline",
        "attack": "an attack assignment (or commit)",
        "criticals": "the choice of a critical marker",
        "launch": "the squadrons of the launch: a fighter to protect a ship, a squadron to attack later, or done",
        "air": "an air attack by a carrier (or pass)",
        "strike": "the squadrons of the air attack and their targets (or done)",
        "air_react": "special features in answer to the air attack (or done)",
        "air_roll": "an air combat die roll (a chance event)",
        "aa_pick": "the attacking squadron an anti-aircraft hit destroys",
        "solo_roll": "the die rolled for Admiral Stratego's acting unit (a chance event)",
    }
    _KIND_WHAT: Mapping[str, str] = {
        "deploy": "deploying a unit",
        "roll": "a die roll",
        "choose_first": "choosing the first player",
        "submarine": "placing a submarine",
        "reserve": "entering from the reserve",
        "reserve_done": "ending the reserve entry",
        "move": "a move",
        "repair": "a repair",
        "pass": "declining to move",
        "fire": "an artillery assignment",
        "torpedo": "a torpedo assignment",
        "depth_charge": "a depth-charge assignment",
        "activate": "activating a special feature",
        "commit": "committing the attack assignment",
        "decline": "declining to react",
        "critical": "placing a critical marker",
        "launch": "launching squadrons",
        "protect": "a fighter protecting a ship",
        "airborne": "a squadron launched to attack",
        "air_done": "ending the launch, the air attack declaration or the air features",
        "strike": "an air attack",
        "air_pass": "passing the air attacks",
        "squadron": "sending a squadron",
        "aa_pick": "choosing the squadron anti-aircraft fire destroys",
        "hold": "holding a unit (a move of 0 squares)",
    }

    def explain_illegal(self, action: object) -> str:
        """Say in words why `action` is not legal now (empty string if it is)."""
        c = self._core
        if c.outcome is not None:
            return f"the game is over ({c.outcome.reason})"
        number = inputs.whole_number(action)
        if number is None:
            return inputs.not_an_action_id(action, "Admiral")
        action = number
        d = decode(action)
        if d.kind == "invalid":
            return f"{inputs.show(action)} is not an action id of Admiral"
        if self._is_legal(action):
            return ""
        expected = self._EXPECTED[c.phase]
        phase = self._KIND_PHASE[d.kind]
        if d.kind == "roll" and c.phase == Phase.ACTION_DICE:
            phase = Phase.ACTION_DICE
        if d.kind == "roll" and c.phase in (Phase.AIR_ROLL, Phase.SOLO_ROLL):
            phase = c.phase
        if d.kind == "air_done" and c.phase in (Phase.LAUNCH, Phase.AIR_REACT):
            phase = c.phase
        if d.kind == "activate" and c.phase == Phase.AIR_REACT:
            phase = Phase.AIR_REACT
        if d.kind == "activate" and c.phase == Phase.REACTION:
            phase = Phase.REACTION
        if phase != c.phase:
            if d.kind == "deploy":
                return f"the deployment is over; now comes {expected}"
            if d.kind == "roll":
                return f"no die is being rolled; now comes {expected}"
            if d.kind == "choose_first":
                return f"no first player is being chosen; now comes {expected}"
            if d.kind == "submarine":
                return f"submarines are placed after the first initiative roll (ADM-SETUP-6); now comes {expected}"
            return f"{self._KIND_WHAT[d.kind]} is not possible now; now comes {expected}"
        who = PLAYER_NAMES[c.player]
        if d.kind == "deploy":
            return self._explain_placement(c.player, action - DEPLOY_BASE, submarine=False)
        if d.kind == "submarine":
            reason = self._explain_placement(c.player, action - SUBMARINE_BASE, submarine=True)
            return reason or f"{who} cannot place that submarine there"  # pragma: no cover
        reason = self._explain_unit_action(d)
        return reason or f"{who} cannot play {self._KIND_WHAT[d.kind]} like that now"

    def _explain_unit_action(self, d: Decoded) -> str:
        c = self._core
        p = c.player
        who = PLAYER_NAMES[p]
        if d.kind in ("reserve", "move", "repair", "fire", "torpedo", "depth_charge") or (
            d.kind == "activate" and d.side == 0
        ):
            u = self._unit(p, d.slot)
            if u is None:
                return f"{who}'s fleet has no unit number {d.slot}"
            name = u.card.name
            if d.kind == "reserve":
                if u.where != "reserve":
                    return f"{name} is not in the reserve"
                if d.square not in last_row(p):
                    return f"{square_name(d.square)} is not on {who}'s last row (ADM-SETUP-5)"
                return f"{square_name(d.square)} is not free"
            if u.where != "board":
                return f"{name} is not on the battlefield"
        if d.kind == "hold":
            if p != self._solo:
                return "only Admiral Stratego's units hold (a move of 0 squares) in the solo mode (SOLO-MOVE-2)"
            return f"{self._name(p, c.solo_acting)} is Admiral Stratego's acting unit (SOLO-MOVE-1)"
        if d.kind in ("move", "repair"):
            return self._explain_movement(d)
        if d.kind in ("fire", "torpedo", "depth_charge"):
            return self._explain_attack(d)
        if d.kind == "activate":
            return self._explain_activate(d)
        if d.kind == "critical":
            if not c.pending:  # pragma: no cover - the criticals phase always has one pending
                return "no critical marker is waiting"
            _, owner, slot = c.pending[0]
            u = c.units[owner][slot]
            chars = u.card.characteristics
            if d.index >= len(chars):
                return f"{u.card.name} has no characteristic number {d.index}"
            return f"{u.card.name}'s {chars[d.index]} already has a critical marker and others have none (ADM-CRIT-3)"
        return ""

    def _dice_problem(
        self,
        faces: Sequence[int],
        symbol: Symbol | None,
        admirals: int = 0,
        unit: int = -1,
        payers: Iterable[int] | None = None,
    ) -> str:
        """Why the player to move cannot pay these dice (empty if they can)."""
        p = self._core.player
        who = PLAYER_NAMES[p]
        for face in faces:
            label = self.face_label(face)
            if symbol is not None and face not in self.faces_for(symbol):
                return f"a {label} die is not a {symbol.value.replace('_', '-')} result (ADM-DICE-2)"
        if self._pay(p, faces, 0, unit, symbol) is None:
            labels = ", ".join(self.face_label(f) for f in faces)
            if p == self._solo:
                name = self._name(p, unit)
                what = symbol.value.replace("_", "-") if symbol is not None else labels
                return f"no unused {labels} die assigned to {name} may be spent as {what} (SOLO-DICE-2, SOLO-TAB)"
            return f"{who} has no unused {labels} die for that (ADM-DICE-4)"
        if self._pay(p, faces, admirals, unit, symbol, payers) is None:
            if p == self._solo:
                return "no unit of Admiral Stratego has a free Admiral symbol for that (SOLO-ADM-1/2/3)"
            return f"{who} has no unused Admiral die to pay for that (ADM-DICE-3)"
        return ""

    def _explain_movement(self, d: Decoded) -> str:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        name = u.card.name
        if u.moved:
            return f"{name} has already received its Movement result this turn (ADM-MOVE-3)"
        if p == self._solo:
            if d.kind == "repair":
                return "Admiral Stratego repairs only by the decision table's repair row (SOLO-TAB-5)"
            if d.slot != c.solo_acting:
                acting = self._name(p, c.solo_acting)
                return (
                    f"{acting} is Admiral Stratego's acting unit: the others act after it, slowest first (SOLO-MOVE-1)"
                )
            row = self.solo_unit_row(d.slot)
            if row is not None and row.hold:
                return f"{name} does not move this turn ({row.id}: {row.text})"
        movement_faces = self._movement_faces(p)
        if d.face not in movement_faces and d.face in self.faces_for(Symbol.MOVEMENT):
            return (
                f"{PLAYER_NAMES[p]} declined to move: the Movement results are lost, only an Admiral die "
                "moves a unit now (ADM-MOVE-5)"
            )
        if d.kind == "repair":
            if u.structure >= u.card.structure:
                return f"{name} has no structure point to regain (ADM-REP-1)"
            problem = self._dice_problem([d.face], Symbol.MOVEMENT) or self._dice_problem([d.face2], Symbol.ARTILLERY)
            if problem:
                return problem
            if d.flag and not self._has_feature_effect(u, "repair_amount"):
                return f"{name} has no usable Efficient Damage Control (ADM-G07)"
            return self._dice_problem([d.face, d.face2], None, d.flag)
        if self.disabled(u, "movement"):
            return f"{name}'s movement has a critical marker this turn (ADM-CRIT-2)"
        if d.side_change and not u.card.is_submarine:
            return f"{name} is not a submarine: it cannot dive or surface (ADM-SUB-7)"
        if d.extra == EXTRA_DRAUGHT and not self._has_feature_effect(u, "cross_shallows"):
            return f"{name} has no usable Shallow Draught (ADM-G02)"
        if d.extra >= EXTRA_SMOKE_VERTICAL and not self._has_feature_effect(u, "smoke"):
            return f"{name} has no usable Smoke Projectors (ADM-G08)"
        problem = self._dice_problem([d.face], Symbol.MOVEMENT, 1 if d.extra else 0, d.slot)
        if problem:
            return problem
        return f"{name} cannot reach {square_name(d.square)} that way (ADM-MOVE-2/4, ADM-TERR, ADM-SUB-3)"

    def _explain_attack(self, d: Decoded) -> str:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        name = u.card.name
        if d.kind == "depth_charge":
            if not u.card.depth_charges:
                return f"{name} has no depth charges (ADM-DC-1)"
            if self.disabled(u, "depth_charges"):
                return f"{name}'s depth charges have a critical marker this turn (ADM-CRIT-2)"
            if u.submerged or self._enemy_sub_under(u) is None:
                return f"no enemy submerged submarine lies in {name}'s square (ADM-DC-2)"
            if sum(1 for o in c.orders[p] if o.kind == "depth_charge" and o.unit == u.slot) >= u.card.depth_charges:
                return f"{name}'s depth-charge slots are full"
            return self._dice_problem([d.face], Symbol.DEPTH_CHARGE, 0, d.slot)
        target = self._unit(1 - p, d.target)
        if target is None or target.where != "board":
            return f"the enemy has no unit number {d.target} on the battlefield"
        if self._in_fog(u):
            return f"{name} is in a fog bank: it cannot attack (ADM-TERR-4)"
        if self._in_fog(target):
            return f"{target.card.name} is in a fog bank: it cannot be attacked (ADM-TERR-4)"
        if target.submerged and not (d.kind == "torpedo" and u.submerged):
            return f"{target.card.name} is submerged: only depth charges and submerged torpedoes reach it (ADM-SUB-5)"
        if p == self._solo and (target.owner, target.slot) in self.doomed(p):
            return f"{target.card.name} already sinks by Admiral Stratego's orders: no longer a target (SOLO-ATK-4)"
        if d.kind == "fire":
            batteries = u.side.batteries
            if d.battery >= len(batteries):
                return f"{name} has no battery number {d.battery} on this side"
            bat = batteries[d.battery]
            if self.disabled(u, f"battery:{bat.name}"):
                return f"{name}'s {bat.name} battery has a critical marker this turn (ADM-CRIT-2)"
            on = [o for o in c.orders[p] if o.kind == "fire" and o.unit == u.slot and o.battery == d.battery]
            if len(on) >= bat.slots:
                return f"{name}'s {bat.name} battery has no free slot (ADM-DICE-2, ADM-ART-6)"
            reach = self._battery_range(u, bat.range)
            if distance(u.square, target.square, self._rs.board.range_metric) > reach:
                return f"{target.card.name} is out of range of {name}'s {bat.name} battery ({reach}) (ADM-ART-2)"
            ignore = self.doomed(p) if p == self._solo else frozenset()
            if not self._line_of_sight(u.square, target, ignore):
                return f"no line of sight from {name} to {target.card.name} (ADM-ART-3)"
            if on and on[0].target != d.target and not self._is_admiral(d.face):
                first = c.pools[p][on[0].dice[0]]
                if not self._is_admiral(first):
                    return "split fire needs an Admiral die as the battery's second die (ADM-ART-7)"
            return self._dice_problem([d.face], Symbol.ARTILLERY, 0, d.slot)
        if not u.card.torpedo_mounts:
            return f"{name} has no torpedoes (ADM-TORP-3)"
        if self.disabled(u, "torpedoes"):
            return f"{name}'s torpedoes have a critical marker this turn (ADM-CRIT-2)"
        if self._torpedoes_available(u) <= 0:
            return f"{name} has launched all its torpedoes (ADM-TORP-4)"
        if target.slot not in {t.slot for t in self._torpedo_targets(u)}:
            if u.submerged:
                return f"{target.card.name} is not adjacent to {name} (ADM-SUB-4)"
            return f"{target.card.name} is not beside {name} (ADM-TORP-1)"
        launched = [o for o in c.orders[p] if o.kind == "torpedo" and o.unit == u.slot]
        admirals = 1 if launched and launched[0].target != d.target else 0
        return self._dice_problem([d.face], Symbol.TORPEDO, admirals, d.slot)

    def _explain_activate(self, d: Decoded) -> str:
        c = self._core
        p = c.player
        rules = self._rs.special_rules
        if d.index >= len(rules):
            return f"there is no special rule number {d.index}"
        rule = rules[d.index]
        owner = p if d.side == 0 else 1 - p
        u = self._unit(owner, d.slot)
        if u is None or u.where != "board":
            return f"{PLAYER_NAMES[owner]} has no unit number {d.slot} on the battlefield"
        colour = "green" if d.side == 0 else "red"
        if rule.colour != colour:
            return (
                f"{rule.name} ({rule.id}) is {rule.colour}: activate {rule.colour} features on "
                + ("your own units" if rule.colour == "green" else "enemy units")
                + " (ADM-DICE-3)"
            )
        if rule.key not in (u.card.green if colour == "green" else u.card.red):
            return f"{u.card.name} does not have {rule.name} ({rule.id})"
        if colour == "green" and self.disabled(u, rule.key):
            return f"{u.card.name}'s {rule.name} has a critical marker this turn (ADM-CRIT-2)"
        if "attack" not in rule.timing:
            return f"{rule.name} ({rule.id}) is not activated in the attack assignment"
        payers = self._symbol_payers(p, u)
        return (
            self._dice_problem([], None, 1, payers=payers)
            or f"{rule.name} cannot be activated again on {u.card.name} now"
        )

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
        if self._solo is not None and sq not in self._occupied_by_surface():
            nxt = self._free_deployment_squares(player)
            return (
                f"in the solo mode the fleets deploy from the corner along the edge row: "
                f"the next square is {square_name(nxt[0]) if nxt else 'none'} (SOLO-SET-1)"
            )
        return f"{at} is already occupied"

    def action_to_string(self, action: int) -> str:
        """Notation: 'Fletcher@C1' (deploy, submarine), 'roll:admiral', 'first:South', 'enter:Fletcher@A1',
        'enter:done', 'move:Fletcher>C3/movement' (':dive>' before, '>C3:dive' after, ':draught',
        ':smoke-v'/':smoke-h'), 'repair:Fletcher/movement,artillery' ('+edc' with Efficient Damage
        Control), 'pass', 'fire:Washington.main>Yamato/artillery', 'torpedo:Fletcher>Yukikaze/torpedo',
        'dc:Fletcher/movement+depth_charge', 'activate:Washington.fire_control_systems',
        'activate:Yamato.no_radar' (an enemy unit), 'commit', 'decline', 'critical:movement',
        'launch:Enterprise', 'protect:Washington' (a fighter), 'airborne:bomber', 'strike:Enterprise',
        'squadron:bomber>Yamato', 'squadron:torpedo_bomber>Yamato@D5', 'air:done', 'air:pass', 'aa:bomber',
        'hold:Helena' (solo mode: Stratego's acting unit moves 0 squares)."""
        d = decode(inputs.action_in_range(action, "Admiral", NUM_ACTIONS))
        c = self._core
        p = c.player
        if d.kind == "roll":
            return "roll:" + self.face_label(d.face)
        if d.kind == "choose_first":
            return f"first:{PLAYER_NAMES[d.index]}"
        simple = {
            "reserve_done": "enter:done",
            "pass": "pass",
            "commit": "commit",
            "decline": "decline",
            "air_done": "air:done",
            "air_pass": "air:pass",
        }
        if d.kind in simple:
            return simple[d.kind]
        kinds = SQUADRON_TYPES
        if d.kind == "airborne":
            return f"airborne:{kinds[d.index]}"
        if d.kind == "aa_pick":
            return f"aa:{kinds[d.index]}"
        if d.kind in ("launch", "strike", "hold"):
            return f"{d.kind}:{self._name(p, d.slot)}"
        if d.kind == "protect":
            return f"protect:{self._name(p, d.target)}"
        if d.kind == "squadron":
            text = f"squadron:{kinds[d.index]}>{self._name(1 - p, d.target)}"
            if d.flag:
                target = self._unit(1 - p, d.target)
                if target is not None and target.where == "board":
                    r, col = row_col(target.square)
                    sq = at(r, col + (-1 if d.flag == 1 else 1))
                    text += f"@{square_name(sq)}" if sq is not None else f"@#{d.flag}"
            return text
        if d.kind == "critical":
            if c.pending:
                _, owner, slot = c.pending[0]
                chars = c.units[owner][slot].card.characteristics
                if d.index < len(chars):
                    return f"critical:{chars[d.index]}"
            return f"critical:#{d.index}"
        if d.kind == "activate":
            rules = self._rs.special_rules
            key = rules[d.index].key if d.index < len(rules) else f"#{d.index}"
            owner = p if d.side == 0 else 1 - p
            return f"activate:{self._name(owner, d.slot)}.{key}"
        name = self._name(p, d.slot)
        if d.kind in ("deploy", "submarine"):
            return f"{name}@{square_name(d.square)}"
        if d.kind == "reserve":
            return f"enter:{name}@{square_name(d.square)}"
        if d.kind == "move":
            u = self._unit(p, d.slot)
            change = "surface" if u is not None and u.submerged else "dive"
            extra = {EXTRA_NONE: "", EXTRA_DRAUGHT: ":draught", EXTRA_SMOKE_VERTICAL: ":smoke-v"}.get(
                d.extra, ":smoke-h"
            )
            if d.side_change == SIDE_CHANGE_BEFORE:
                body = f"{name}:{change}>{square_name(d.square)}"
            elif d.side_change == SIDE_CHANGE_AFTER:
                body = f"{name}>{square_name(d.square)}:{change}"
            else:
                body = f"{name}>{square_name(d.square)}"
            return f"move:{body}{extra}/{self.face_label(d.face)}"
        if d.kind == "repair":
            boost = "+edc" if d.flag else ""
            return f"repair:{name}{boost}/{self.face_label(d.face)},{self.face_label(d.face2)}"
        if d.kind == "fire":
            u = self._unit(p, d.slot)
            bats = u.side.batteries if u is not None else ()
            bat = bats[d.battery].name if d.battery < len(bats) else f"#{d.battery}"
            return f"fire:{name}.{bat}>{self._name(1 - p, d.target)}/{self.face_label(d.face)}"
        if d.kind == "torpedo":
            return f"torpedo:{name}>{self._name(1 - p, d.target)}/{self.face_label(d.face)}"
        return f"dc:{name}/{self.face_label(d.face)}"

    def string_to_action(self, text: str) -> int:
        """Read what `action_to_string` writes (case and spaces ignored); it must be playable now."""
        key = "".join(inputs.text(text, "an Admiral action").split()).lower()
        playable = [a for a, _ in self.chance_outcomes()] if self.current_player() == CHANCE else self.legal_actions()
        for action in playable:
            if "".join(self.action_to_string(action).split()).lower() == key:
                return action
        c = self._core
        if "@" in key and ":" not in key:
            name, _, sq_text = key.rpartition("@")
            try:
                sq = square_index(sq_text)
            except ValueError as exc:
                raise NotationError(f"{text!r}: {exc}") from None
            slot = next((u.slot for u in c.units[c.player] if "".join(u.card.name.split()).lower() == name), None)
            if slot is None:
                raise IllegalActionError(f"{PLAYER_NAMES[c.player]} has no unit named {name!r}")
            base = SUBMARINE_BASE if c.phase == Phase.SUBMARINES else DEPLOY_BASE
            raise IllegalActionError(self.explain_illegal(base + slot * NUM_SQUARES + sq))
        prefixes = tuple(f"{k}:" for k in ("roll", "first", "enter", "move", "repair", "fire", "torpedo", "dc"))
        prefixes += (
            "activate:",
            "critical:",
            "launch:",
            "strike:",
            "protect:",
            "airborne:",
            "squadron:",
            "air:",
            "aa:",
            "hold:",
        )
        if key in ("pass", "commit", "decline") or key.startswith(prefixes):
            raise IllegalActionError(f"{text!r} is not playable now ({self.phase}: {self._EXPECTED[c.phase]})")
        raise NotationError(
            f"{text!r} is not an Admiral action: write e.g. Fletcher@C1, roll:admiral, first:South, "
            "move:Fletcher>C3/movement, fire:Washington.main>Yamato/artillery, pass or commit"
        )

    # --- deployment (ADM-SETUP-2..4) --------------------------------------------------------------------
    def _free_deployment_squares(self, player: int) -> list[int]:
        """Free squares of the zone; in the solo mode only the next square in corner order (SOLO-SET-1/3)."""
        taken = self._occupied_by_surface()
        if self._solo is not None:
            return [sq for sq in corner_order(player) if sq not in taken and sq not in self._terrain][:1]
        return [sq for sq in deployment_squares(player) if sq not in taken and sq not in self._terrain]

    def _placements(self, player: int, base: int, squares: Sequence[int], submarines: bool) -> list[int]:
        return [
            base + u.slot * NUM_SQUARES + sq
            for u in self._core.units[player]
            if u.where == "unplaced" and u.card.is_submarine == submarines
            for sq in squares
        ]

    def _deploy(self, d: Decoded) -> None:
        c = self._core
        unit = c.units[c.player][d.slot]
        unit.where, unit.square = "board", d.square
        self._skip_finished_deployments()

    def _skip_finished_deployments(self) -> None:
        """Move on when the player to deploy has nothing left to place or no free square (ADM-SETUP-4).
        South deploys first, then North; in the solo mode the human first, then Stratego (SOLO-SET-2)."""
        c = self._core
        first = 0 if self._solo is None else 1 - self._solo
        while c.phase == Phase.DEPLOY:
            p = c.player
            waiting = [u for u in c.units[p] if u.where == "unplaced" and not u.card.is_submarine]
            if waiting and self._free_deployment_squares(p):
                return
            for u in waiting:
                u.where = "reserve"  # the zone is full: the rest wait in reserve (ADM-SETUP-4)
            if p == first:
                c.player = 1 - first
            else:
                self._start_initiative()  # both deployed: the cards are revealed (ADM-SETUP-3)

    # --- reserve (ADM-SETUP-5) ---------------------------------------------------------------------------
    def _reserve_entries(self, player: int) -> list[int]:
        waiting = [u for u in self._core.units[player] if u.where == "reserve"]
        if not waiting:
            return []
        taken = self._occupied_by_surface()
        free = [sq for sq in last_row(player) if sq not in taken and sq not in self._terrain]
        return [RESERVE_BASE + u.slot * NUM_SQUARES + sq for u in waiting for sq in free]

    def _start_turn(self) -> None:
        """Reserve entries first (from turn 2, ADM-SETUP-5), then the initiative roll."""
        c = self._core
        c.phase = Phase.RESERVE
        c.player = 0
        self._skip_finished_reserve()

    def _skip_finished_reserve(self) -> None:
        c = self._core
        while c.phase == Phase.RESERVE and not self._reserve_entries(c.player):
            if c.player == 0:
                c.player = 1
            else:
                self._start_initiative()

    def _enter_reserve(self, d: Decoded) -> None:
        c = self._core
        u = c.units[c.player][d.slot]
        u.where, u.square, u.submerged = "board", d.square, False
        self._skip_finished_reserve()

    def _reserve_done(self, d: Decoded) -> None:
        c = self._core
        if c.player == 0:
            c.player = 1
            self._skip_finished_reserve()
        else:
            self._start_initiative()

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
        c.phase = Phase.INITIATIVE
        c.dice_left = [self.initiative_dice(0), self.initiative_dice(1)]
        c.admirals = [0, 0]
        c.rolls = [[], []]
        c.initiative_rounds += 1
        c.player = 0 if c.dice_left[0] else 1
        if self._solo is not None:
            # Stratego always wins the initiative and always lets the opponent move first (SOLO-INIT-1)
            c.dice_left = [0, 0]
            c.initiative_winner = self._solo
            self._set_first(1 - self._solo)

    def _roll(self, d: Decoded) -> None:
        if self._core.phase == Phase.SOLO_ROLL:
            self._solo_roll(d.face)
        elif self._core.phase == Phase.ACTION_DICE:
            self._roll_action_die(d.face)
        elif self._core.phase == Phase.AIR_ROLL:
            strike = self._core.strike
            assert strike is not None
            strike.rolls.append(d.face)
            self._air_run()
        else:
            self._roll_initiative(d.face)

    def _roll_initiative(self, face: int) -> None:
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
        c.phase = Phase.CHOOSE_FIRST
        c.player = winner

    def _choose_first(self, d: Decoded) -> None:
        self._set_first(d.index)

    def _set_first(self, first: int) -> None:
        c = self._core
        c.first_player = first
        if c.turn == 1 and self._unplaced_submarines(0) + self._unplaced_submarines(1):
            c.phase = Phase.SUBMARINES
            c.player = first if self._unplaced_submarines(first) else 1 - first
        else:
            self._start_action_dice()

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

    def _place_submarine(self, d: Decoded) -> None:
        c = self._core
        unit = c.units[c.player][d.slot]
        unit.where, unit.square, unit.submerged = "board", d.square, True
        other = 1 - c.player
        if self._unplaced_submarines(other):
            c.player = other
        elif not self._unplaced_submarines(c.player):
            self._start_action_dice()

    # --- action dice (ADM-DICE-1) ----------------------------------------------------------------------
    def pool_size(self, player: int) -> int:
        """2 dice per unit on the battlefield, surfaced or submerged (ADM-DICE-1)."""
        return 2 * len(self._on_board(player))

    def _start_action_dice(self) -> None:
        c = self._core
        c.phase = Phase.ACTION_DICE
        self._clear_dice()
        c.dice_left = [self.pool_size(0), self.pool_size(1)]
        if self._solo is not None:
            c.dice_left[self._solo] = 0  # Stratego rolls one die per unit when the unit acts (SOLO-DICE-2)
            self._assign_solo_admirals()
        c.player = 0 if c.dice_left[0] else 1
        if not any(c.dice_left):
            self._start_movement()

    def _assign_solo_admirals(self) -> None:
        """Each of Stratego's units starts the turn with an Admiral die assigned: its value waits for the
        unit's roll, its symbol is free for features and launches (SOLO-DICE-1, SOLO-ADM-1)."""
        c = self._core
        s = self._solo
        assert s is not None
        c.solo_rows = [-1] * len(c.units[s])
        c.solo_acting = -1
        for u in self._on_board(s):
            self._add_die(s, self._game.admiral_face, u.slot, "pending")
            self._add_die(s, self._game.admiral_face, u.slot, "symbol")

    def _roll_action_die(self, face: int) -> None:
        c = self._core
        p = c.player
        self._add_die(p, face)
        c.dice_left[p] -= 1
        if c.dice_left[p]:
            return
        if p == 0 and c.dice_left[1]:
            c.player = 1
            return
        self._start_movement()

    # --- movement (ADM-MOVE, ADM-REP, ADM-SUB-3/7) --------------------------------------------------------
    def _start_movement(self) -> None:
        c = self._core
        c.phase = Phase.MOVEMENT
        c.player = c.first_player if c.first_player is not None else 0
        c.passes = 0
        c.forfeited = [False, False]

    # --- solo mode: Stratego's units act one at a time (SOLO-DICE, SOLO-TAB, SOLO-MOVE) -------------------
    def _solo_advance(self) -> None:
        """On Stratego's go in the movement phase: roll the die of its next unit (a chance node), or, with
        every unit done, decline (ADM-MOVE-5)."""
        c = self._core
        s = self._solo
        while c.outcome is None and c.phase == Phase.MOVEMENT and c.player == s and c.solo_acting < 0:
            order = self.solo_order()
            if order:
                c.solo_acting = order[0].slot
                c.phase = Phase.SOLO_ROLL
                return
            c.forfeited[s] = True
            c.passes += 1
            if c.passes >= 2:
                self._start_attack()
                return
            c.player = 1 - s

    def solo_in_range(self, u: UnitState) -> bool:
        """The table's condition (SOLO-TAB-0): an enemy `u` can damage now without moving: in range and sight
        of a battery whose coefficient with both dice reaches its armour (an effective hit, ADM-ART-5), beside
        its loaded torpedoes, or a submarine under its depth charges."""
        for t in self._on_board(1 - u.owner):
            for bat in u.side.batteries:
                if self.disabled(u, f"battery:{bat.name}"):
                    continue
                if bat.coefficient * min(2, bat.slots) >= t.side.armour and self.can_fire_at(
                    u, self._battery_range(u, bat.range), t
                ):
                    return True
        armed = u.card.torpedo_mounts and not self.disabled(u, "torpedoes") and self._torpedoes_available(u) > 0
        if armed and self._torpedo_targets(u):
            return True
        return bool(
            u.card.depth_charges
            and not u.submerged
            and not self.disabled(u, "depth_charges")
            and self._enemy_sub_under(u) is not None
        )

    def solo_row(self, face: int, u: UnitState) -> SoloRow:
        """The decision-table row for the face rolled for `u` in its present situation (SOLO-TAB)."""
        return self._rs.die.solo_row(self._rs.die.faces[face].solo, self.solo_in_range(u))

    def _solo_roll(self, face: int) -> None:
        """The acting unit's die: the table gives its Admiral die a value; the repair row restores a
        structure point at once (SOLO-DICE-2, SOLO-TAB)."""
        c = self._core
        s = self._solo
        assert s is not None
        u = c.units[s][c.solo_acting]
        row = self.solo_row(face, u)
        c.solo_rows[u.slot] = self._rs.die.solo_rows.index(row)
        for i, slot in enumerate(c.bound[s]):
            if slot == u.slot and c.values[s][i] == "pending":
                c.values[s][i] = row.admiral.value
        self._add_die(s, face, u.slot, row.rolled.value if row.rolled is not None else "")
        if self._rs.die.faces[face].shows(Symbol.ADMIRAL):
            self._add_die(s, face, u.slot, "symbol")  # a rolled Admiral is a second Admiral symbol (SOLO-ADM-1)
        c.phase = Phase.MOVEMENT
        c.player = s
        if row.repair and u.structure < u.card.structure:
            if self._reaction_rule(u) is not None:  # the opponent may answer with Poor Damage Control (ADM-R02)
                c.report.append(f"{u.card.name} repairs ({row.id}): {PLAYER_NAMES[1 - s]} may answer (ADM-R02)")
                c.phase = Phase.REACTION
                c.reaction = (s, u.slot, row.repair)
                c.player = 1 - s
                return
            c.report.append(f"{u.card.name} regains {row.repair} structure point ({row.id})")
            self._gain(u, row.repair)

    def _solo_go_actions(self) -> list[int]:
        """The acting unit's go: hold (a move of 0 squares, SOLO-MOVE-2) or, unless its row holds it, a move
        paid with the die the table made Movement (SOLO-TAB)."""
        c = self._core
        s = self._solo
        assert s is not None
        if c.solo_acting < 0:  # pragma: no cover - _solo_advance always names the acting unit
            return []
        u = c.units[s][c.solo_acting]
        out = [HOLD_BASE + u.slot]
        row = self.solo_unit_row(u.slot)
        if row is not None and row.hold:
            return out
        return out + self._move_actions(s, only=u)

    def _hold(self, d: Decoded) -> None:
        """The acting unit does not move: it counts as having moved 0 squares, and its go is taken
        (SOLO-MOVE-2; no forfeiture, ADM-MOVE-5)."""
        c = self._core
        p = c.player
        c.units[p][d.slot].moved = True
        c.solo_acting = -1
        c.passes = 0
        c.player = 1 - p

    def _enterable(self, u: UnitState, square: int, submerged: bool, draught: bool) -> bool:
        """Whether `u` moving on the given side may enter (and so cross) `square` (ADM-MOVE-4, ADM-TERR)."""
        t = self._terrain.get(square)
        if t is not None:
            if submerged:
                if not t.submerged_passable:
                    return False
            elif not (
                t.surface_passable
                or u.card.unit_class in t.passable_classes
                or (draught and t.passable_feature and t.passable_feature in u.card.green)
            ):
                return False
        if submerged:
            return self._submerged_at(square, u) is None
        return self._surface_at(square, u) is None

    def _can_stop(self, u: UnitState, square: int) -> bool:
        """No square holds two submarines, whatever their sides (ADM-SUB-3 reading)."""
        return not u.card.is_submarine or self._submarine_at(square, u) is None

    def _move_limit(self, u: UnitState, submerged: bool, start: int) -> int:
        limit = u.card.side(submerged).movement
        t = self._terrain.get(start)
        if t is not None and t.exit_move_limit and not (submerged and t.submerged_immune):
            limit = min(limit, t.exit_move_limit)  # leaving a fog bank: 1 square (ADM-TERR-4)
        return limit

    def _stops(self, square: int, submerged: bool) -> bool:
        t = self._terrain.get(square)
        return t is not None and t.stops_movement and not (submerged and t.submerged_immune)

    def reachable(self, u: UnitState, submerged: bool | None = None, draught: bool = False) -> set[int]:
        """Squares `u` may end a move on, moving on the given side from its square (ADM-MOVE-2/4/6)."""
        side = u.submerged if submerged is None else submerged
        limit = self._move_limit(u, side, u.square)
        steps = KING if side else ORTHOGONAL
        frontier = [u.square]
        seen = {u.square}
        out: set[int] = set()
        for _ in range(limit):
            nxt = []
            for s in frontier:
                for n in neighbours(s, steps):
                    if n in seen or not self._enterable(u, n, side, draught):
                        continue
                    seen.add(n)
                    if self._can_stop(u, n):
                        out.add(n)
                    if not self._stops(n, side):
                        nxt.append(n)
            frontier = nxt
        return out

    def _can_change_side(self, u: UnitState, square: int, to_submerged: bool) -> bool:
        """A submarine may dive where diving is allowed, and surface where no surface unit is (ADM-SUB-7)."""
        t = self._terrain.get(square)
        if to_submerged:
            return t is None or (t.submerged_passable and t.diving_allowed)
        if self._surface_at(square, u) is not None:
            return False
        return t is None or t.surface_passable or u.card.unit_class in t.passable_classes

    def _smoke_path(self, u: UnitState, dest: int, vertical_first: bool) -> list[int] | None:
        """The L-shaped path of a smoke-laying move, if it is a legal move (ADM-G08 reading)."""
        path = l_path(u.square, dest, vertical_first)
        if not path or len(path) > self._move_limit(u, False, u.square):
            return None
        for i, s in enumerate(path):
            if not self._enterable(u, s, False, False):
                return None
            if i < len(path) - 1 and self._stops(s, False):
                return None
        return path if self._can_stop(u, dest) else None

    def unit_moves(self, u: UnitState) -> list[tuple[int, int]]:
        """(destination, mode) of every move `u` may make now, dice aside (see actions.py for modes)."""
        if u.where != "board" or u.moved or self.disabled(u, "movement"):
            return []
        plain = self.reachable(u)
        out = [(d, SIDE_CHANGE_NONE) for d in plain]
        if u.card.is_submarine:
            other = not u.submerged
            if self._can_change_side(u, u.square, other):
                before = self.reachable(u, submerged=other)
                out.append((u.square, SIDE_CHANGE_BEFORE))
                out += [(d, SIDE_CHANGE_BEFORE) for d in before]
            out += [(d, SIDE_CHANGE_AFTER) for d in plain if self._can_change_side(u, d, other)]
        if not u.submerged and self._has_feature_effect(u, "cross_shallows"):
            extra = self.reachable(u, draught=True) - plain
            out += [(d, 3 * EXTRA_DRAUGHT) for d in extra]
        if not u.submerged and self._has_feature_effect(u, "smoke"):
            limit = self._move_limit(u, False, u.square)
            r0, c0 = row_col(u.square)
            for dest in range(NUM_SQUARES):
                r1, c1 = row_col(dest)
                if dest == u.square or abs(r1 - r0) + abs(c1 - c0) > limit:
                    continue
                if self._smoke_path(u, dest, True) is not None:
                    out.append((dest, 3 * EXTRA_SMOKE_VERTICAL))
                if r1 != r0 and c1 != c0 and self._smoke_path(u, dest, False) is not None:
                    out.append((dest, 3 * EXTRA_SMOKE_HORIZONTAL))
        return out

    def _move_actions(self, p: int, only: UnitState | None = None) -> list[int]:
        faces = [f for f in self._movement_faces(p) if f in self._free_faces(p)]
        if not faces:
            return []
        out = []
        for u in self._on_board(p) if only is None else [only]:
            payable = [f for f in faces if self._can_pay(p, [f], 0, u.slot, Symbol.MOVEMENT)]
            if not payable:
                continue
            for dest, mode in self.unit_moves(u):
                extra = 1 if mode // 3 else 0
                for f in payable:
                    if not extra or self._can_pay(p, [f], extra, u.slot, Symbol.MOVEMENT):
                        out.append(MOVE_BASE + encode_move(u.slot, dest, mode, f))
        return out

    def _repair_actions(self, p: int) -> list[int]:
        if p == self._solo:
            return []  # Stratego repairs only by the decision table's repair row (SOLO-TAB-5)
        free = self._free_faces(p)
        mfaces = [f for f in self._movement_faces(p) if f in free]
        afaces = [f for f in self.faces_for(Symbol.ARTILLERY) if f in free]
        if not mfaces or not afaces:
            return []
        out = []
        for u in self._on_board(p):
            if u.moved or u.structure >= u.card.structure:
                continue
            boosts = [0, 1] if self._has_feature_effect(u, "repair_amount") else [0]
            for mf in mfaces:
                for af in afaces:
                    for boost in boosts:
                        if self._can_pay(p, [mf, af], boost):
                            out.append(REPAIR_BASE + encode_repair(u.slot, mf, af, boost))
        return out

    def _move(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        dice = self._pay(p, [d.face], 1 if d.extra else 0, u.slot, Symbol.MOVEMENT)
        assert dice is not None
        self._spend(p, dice[:1], f"move {u.card.name}")
        if d.extra == EXTRA_DRAUGHT:
            self._spend(p, dice[1:], f"{u.card.name}: Shallow Draught")
        elif d.extra:
            self._spend(p, dice[1:], f"{u.card.name}: Smoke Projectors")
            path = self._smoke_path(u, d.square, d.extra == EXTRA_SMOKE_VERTICAL)
            assert path is not None
            for s in [u.square, *path[:-1]]:
                if s not in c.smoke:
                    c.smoke.append(s)
        if d.side_change == SIDE_CHANGE_BEFORE:
            u.submerged = not u.submerged
        u.square = d.square
        if d.side_change == SIDE_CHANGE_AFTER:
            u.submerged = not u.submerged
        u.moved = True
        c.passes = 0
        c.solo_acting = -1
        c.player = 1 - p

    def _repair(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        dice = self._pay(p, [d.face, d.face2], d.flag)
        assert dice is not None
        self._spend(p, dice[:2], f"repair {u.card.name}")
        points = 1
        if d.flag:
            key = self._has_feature_effect(u, "repair_amount")
            assert key is not None
            self._spend(p, dice[2:], f"{u.card.name}: {self._rs.rule(key).name}")
            self._core.features.append(Feature(p, u.slot, key, p))
            points = self._rs.rule(key).value or 1
        u.moved = True
        c.passes = 0
        if self._reaction_rule(u) is not None:
            c.phase = Phase.REACTION
            c.reaction = (p, u.slot, points)
            c.player = 1 - p
            return
        self._gain(u, points)
        c.player = 1 - p

    def _gain(self, u: UnitState, points: int) -> None:
        u.structure = min(u.card.structure, u.structure + points)

    def _reaction_rule(self, u: UnitState) -> str | None:
        """A red feature of `u` the opponent may activate against its repair (ADM-R02), if they can pay."""
        enemy = 1 - u.owner
        if not self._can_pay(enemy, [], 1, payers=self._symbol_payers(enemy, u)):
            return None
        for key in u.card.red:
            if self._rs.rule(key).effect == "repair_amount" and "movement" in self._rs.rule(key).timing:
                return key
        return None

    def _reaction_actions(self) -> list[int]:
        c = self._core
        assert c.reaction is not None
        owner, slot, _ = c.reaction
        key = self._reaction_rule(c.units[owner][slot])
        return [] if key is None else [ACTIVATE_BASE + self._activate_code(1, slot, key)]

    def _decline(self, d: Decoded) -> None:
        c = self._core
        assert c.reaction is not None
        owner, slot, points = c.reaction
        self._gain(c.units[owner][slot], points)
        c.reaction = None
        c.phase = Phase.MOVEMENT
        if owner == self._solo and c.solo_acting == slot:
            c.player = owner  # after the answer to its repair row, the acting unit takes its go (SOLO-TAB-5)

    def _pass(self, d: Decoded) -> None:
        """Declining: the player's Movement results are lost for the turn (ADM-MOVE-5)."""
        c = self._core
        p = c.player
        c.forfeited[p] = True
        c.passes += 1
        if c.passes >= 2:
            self._start_attack()
        else:
            c.player = 1 - p

    # --- attack assignment (ADM-ATK, ADM-ART, ADM-TORP, ADM-DC) -------------------------------------------
    def _start_attack(self) -> None:
        """Air attacks first (ADM-AIR-5 reading), then the secret naval assignment."""
        c = self._core
        c.report = []
        c.phase = Phase.AIR
        c.player = c.first_player if c.first_player is not None else 0
        c.air_passes = 0
        self._advance_air_turn()

    def _start_naval(self) -> None:
        c = self._core
        c.phase = Phase.ATTACK
        c.player = 0
        c.orders = [[], []]
        c.committed = [False, False]

    def _attack_actions(self, p: int) -> list[int]:
        c = self._core
        free = self._free_faces(p)
        if not free:
            return []
        art = [f for f in self.faces_for(Symbol.ARTILLERY) if f in free]
        torp = [f for f in self.faces_for(Symbol.TORPEDO) if f in free]
        dc = [f for f in self.faces_for(Symbol.DEPTH_CHARGE) if f in free]
        adm = [f for f in self.faces_for(Symbol.ADMIRAL) if f in free]
        activations = p == self._solo or bool(adm)
        out: list[int] = []
        enemies = self._on_board(1 - p)
        ignore: frozenset[tuple[int, int]] = frozenset()
        if p == self._solo:  # doomed units: no longer targets, no longer blockers (SOLO-ATK-4)
            ignore = self.doomed(p)
            enemies = [t for t in enemies if (t.owner, t.slot) not in ignore]
        for u in self._on_board(p):
            mine = [o for o in c.orders[p] if o.unit == u.slot and not o.enemy]
            if p == self._solo:  # only the dice assigned to `u`, spent as the table made them (SOLO-DICE, SOLO-TAB)
                art, torp, dc = (
                    self._assigned_faces(p, u.slot, s) for s in (Symbol.ARTILLERY, Symbol.TORPEDO, Symbol.DEPTH_CHARGE)
                )
                adm = [f for f in art if self._is_admiral(f)]
            if art:
                for b, bat in enumerate(u.side.batteries):
                    if self.disabled(u, f"battery:{bat.name}"):
                        continue
                    on = [o for o in mine if o.kind == "fire" and o.battery == b]
                    if len(on) >= bat.slots:
                        continue
                    reach = self._battery_range(u, bat.range)
                    for t in enemies:
                        if not self.can_fire_at(u, reach, t, ignore):
                            continue
                        faces = art
                        if on and on[0].target != t.slot and not self._is_admiral(c.pools[p][on[0].dice[0]]):
                            faces = adm  # split fire: the second die is an Admiral (ADM-ART-7)
                        out += [FIRE_BASE + encode_fire(u.slot, b, t.slot, f) for f in faces]
            armed = u.card.torpedo_mounts and not self.disabled(u, "torpedoes")
            if torp and armed and self._torpedoes_available(u) > 0:
                launched = [o for o in mine if o.kind == "torpedo"]
                for t in self._torpedo_targets(u):
                    if (t.owner, t.slot) in ignore:
                        continue
                    redirect = 1 if launched and launched[0].target != t.slot else 0
                    for f in torp:
                        if not redirect or self._can_pay(p, [f], redirect, u.slot, Symbol.TORPEDO):
                            out.append(TORPEDO_BASE + encode_torpedo(u.slot, t.slot, f))
            if dc and u.card.depth_charges and not u.submerged and not self.disabled(u, "depth_charges"):
                used = sum(1 for o in mine if o.kind == "depth_charge")
                sub = self._enemy_sub_under(u)
                if used < u.card.depth_charges and sub is not None and (sub.owner, sub.slot) not in ignore:
                    out += [DEPTH_CHARGE_BASE + u.slot * 6 + f for f in dc]
        if activations:
            out += self._activation_actions(p)
        return out

    def _activation_actions(self, p: int) -> list[int]:
        """Green features of own units and red features of enemy units activated in the secret
        assignment (ADM-ATK-2, section 5); each at most once per unit and turn, Torpedo Reload once
        per empty mount and spare torpedo."""
        c = self._core
        out = []
        for owner in (p, 1 - p):
            side = 0 if owner == p else 1
            for u in self._on_board(owner):
                keys = u.card.green if side == 0 else u.card.red
                found = []
                for key in keys:
                    rule = self._rs.rule(key)
                    if "attack" not in rule.timing or not self._feature_usable(u, key, p):
                        continue
                    already = [f for f in c.features if f.owner == owner and f.slot == u.slot and f.key == key]
                    if rule.effect == "reload_mount":
                        if len(already) >= u.reloads or u.torpedoes + len(already) >= u.card.torpedo_mounts:
                            continue
                    elif already:
                        continue
                    found.append(ACTIVATE_BASE + self._activate_code(side, u.slot, key))
                if found and self._symbol_payable(p, u):
                    out += found
        return out

    def _assign(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        if d.kind == "fire":
            bat = u.side.batteries[d.battery]
            target = c.units[1 - p][d.target]
            dice = self._pay(p, [d.face], 0, u.slot, Symbol.ARTILLERY)
            assert dice is not None
            text = f"attack: fire {u.card.name}.{bat.name} > {target.card.name}"
            c.orders[p].append(Order("fire", u.slot, self._spend(p, dice, text), d.target, d.battery))
        elif d.kind == "torpedo":
            target = c.units[1 - p][d.target]
            launched = [o for o in c.orders[p] if o.kind == "torpedo" and o.unit == u.slot]
            redirect = 1 if launched and launched[0].target != d.target else 0
            dice = self._pay(p, [d.face], redirect, u.slot, Symbol.TORPEDO)
            assert dice is not None
            text = f"attack: torpedo {u.card.name} > {target.card.name}"
            spent = self._spend(p, dice[:1], text)
            if redirect:
                spent += self._spend(p, dice[1:], text + " (second target)")
            c.orders[p].append(Order("torpedo", u.slot, spent, d.target))
        else:
            sub = self._enemy_sub_under(u)
            assert sub is not None
            dice = self._pay(p, [d.face], 0, u.slot, Symbol.DEPTH_CHARGE)
            assert dice is not None
            text = f"attack: depth charge {u.card.name} > {sub.card.name}"
            c.orders[p].append(Order("depth_charge", u.slot, self._spend(p, dice, text), sub.slot))

    def _activate(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        rule = self._rs.special_rules[d.index]
        if c.phase == Phase.REACTION:
            assert c.reaction is not None
            owner, slot, _ = c.reaction
            u = c.units[owner][slot]
            dice = self._pay(p, [], 1, payers=self._symbol_payers(p, u))
            assert dice is not None
            self._spend(p, dice, f"{u.card.name}: {rule.name}")
            c.features.append(Feature(owner, slot, rule.key, p))
            c.reaction = (owner, slot, rule.value or 0)
            self._decline(d)
            return
        owner = p if d.side == 0 else 1 - p
        u = c.units[owner][d.slot]
        dice = self._pay(p, [], 1, payers=self._symbol_payers(p, u))
        assert dice is not None
        if c.phase == Phase.AIR_REACT:  # in answer to an air attack: public (section 5)
            self._spend(p, dice, f"{u.card.name}: {rule.name}")
            c.features.append(Feature(owner, u.slot, rule.key, p))
            c.report.append(f"{PLAYER_NAMES[p]} activates {rule.name} on {u.card.name}")
            return
        spent = self._spend(p, dice, f"attack: {u.card.name}: {rule.name}")
        c.orders[p].append(Order("activate", u.slot, spent, rule=rule.key, enemy=d.side == 1))
        c.features.append(Feature(owner, u.slot, rule.key, p, secret=True))

    def _commit(self, d: Decoded) -> None:
        c = self._core
        c.committed[c.player] = True
        if c.player == 0:
            c.player = 1
        else:
            self._resolve()

    # --- aircraft (ADM-AIR) ---------------------------------------------------------------------------------
    def _fighter(self) -> int:
        return next(i for i, k in enumerate(SQUADRON_TYPES) if self._rs.aircraft[k].damage == "none")

    def _can_launch(self, u: UnitState) -> bool:
        """A carrier launches once a turn, with its launch not under a critical, out of fog (ADM-AIR-3)."""
        c = self._core
        return (
            u.where == "board"
            and sum(u.squadrons) > 0
            and (u.owner, u.slot) not in c.launched
            and not self.disabled(u, "launch")
            and not self._in_fog(u)
            and self._can_pay(u.owner, [], 1, u.slot)
        )

    def _launch_actions(self, p: int) -> list[int]:
        """Combat air patrol: an Admiral die launches up to 3 squadrons in the movement phase (ADM-AIR-1).
        Stratego's carriers launch to attack in the attack phase instead (SOLO-ADM-3 reading)."""
        if p == self._solo:
            return []
        return [LAUNCH_BASE + u.slot for u in self._on_board(p) if self._can_launch(u)]

    def _launch(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        dice = self._pay(p, [], 1, u.slot)
        assert dice is not None
        self._spend(p, dice, f"launch {u.card.name}")
        c.launched.append((p, u.slot))
        c.phase = Phase.LAUNCH
        c.launching = u.slot
        c.launch_count = 0

    def _launch_picks(self) -> list[int]:
        c = self._core
        p = c.player
        carrier = c.units[p][c.launching]
        out = [AIRBORNE_BASE + k for k, n in enumerate(carrier.squadrons) if n > 0]
        if carrier.squadrons[self._fighter()] > 0:
            out += [PROTECT_BASE + u.slot for u in self._on_board(p) if not u.submerged]
        if c.launch_count:
            out.append(AIR_DONE)
        return out

    def _launch_pick(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        carrier = c.units[p][c.launching]
        if d.kind == "protect":
            kind = self._fighter()
            c.sorties.append(Sortie(p, carrier.slot, kind, "cap", ship=d.target))
        else:
            kind = d.index
            c.sorties.append(Sortie(p, carrier.slot, kind, "airborne"))
        aboard = list(carrier.squadrons)
        aboard[kind] -= 1
        carrier.squadrons = tuple(aboard)
        c.launch_count += 1
        if c.launch_count >= 3 or not sum(carrier.squadrons):
            self._finish_launch()

    def _finish_launch(self) -> None:
        """The launch took the player's go in the movement alternation (ADM-AIR-1 reading)."""
        c = self._core
        c.phase = Phase.MOVEMENT
        c.launching = -1
        c.passes = 0
        c.player = 1 - c.player

    def _air_done(self, d: Decoded) -> None:
        c = self._core
        if c.phase == Phase.LAUNCH:
            self._finish_launch()
        elif c.phase == Phase.STRIKE:
            self._launch_strike()
        else:
            strike = c.strike
            assert strike is not None
            strike.stage = "react_attacker" if strike.stage == "react_defender" else "fight"
            self._air_run()

    def _air_targets(self, p: int) -> list[UnitState]:
        """Enemy units aircraft may attack: surface units out of fog (ADM-AIR-6)."""
        return [t for t in self._on_board(1 - p) if not t.submerged and not self._in_fog(t)]

    def _strike_options(self, p: int) -> list[tuple[UnitState, bool]]:
        """(carrier, fresh) that may attack from the air now (ADM-AIR-1/2/3)."""
        c = self._core
        if not self._air_targets(p):
            return []
        out = []
        for u in self._on_board(p):
            if not u.card.squadrons:
                continue
            waiting = [0] * len(SQUADRON_TYPES)
            for s in c.sorties:
                if s.owner == p and s.carrier == u.slot and s.role == "airborne" and s.alive:
                    waiting[s.kind] += 1
            if any(waiting):
                if self._has_air_target(p, waiting):
                    out.append((u, False))
            elif self._can_launch(u) and self._has_air_target(p, list(u.squadrons)):
                out.append((u, True))
        return out

    def _has_air_target(self, p: int, supply: Sequence[int]) -> bool:
        """Some squadron of `supply` has somewhere to attack (torpedo bombers need a free square beside)."""
        targets = self._air_targets(p)
        for kind, n in enumerate(supply):
            if n <= 0:
                continue
            if self._rs.aircraft[SQUADRON_TYPES[kind]].damage != "torpedo":
                return True
            if any(self._torpedo_bomber_squares(t) for t in targets):
                return True
        return False

    def _advance_air_turn(self) -> None:
        """Players alternate air attacks, one carrier at a time, from the first player; a player with none
        left passes; two passes in succession end the air attacks (ADM-AIR-5 reading)."""
        c = self._core
        while c.phase == Phase.AIR:
            if self._strike_options(c.player):
                return
            c.air_passes += 1
            if c.air_passes >= 2:
                self._start_naval()
                return
            c.player = 1 - c.player

    def _air_pass(self, d: Decoded) -> None:
        c = self._core
        c.air_passes += 1
        if c.air_passes >= 2:
            self._start_naval()
            return
        c.player = 1 - c.player
        self._advance_air_turn()

    def _strike(self, d: Decoded) -> None:
        c = self._core
        p = c.player
        u = c.units[p][d.slot]
        fresh = dict((x.slot, f) for x, f in self._strike_options(p))[u.slot]
        if fresh:
            dice = self._pay(p, [], 1, u.slot)
            assert dice is not None
            self._spend(p, dice, f"launch {u.card.name}")
            c.launched.append((p, u.slot))
        c.strikes += 1
        c.strike = _Strike(p, u.slot, fresh, c.strikes)
        c.phase = Phase.STRIKE

    def _strike_supply(self) -> list[int]:
        """Squadrons of each type the declared strike may still use."""
        c = self._core
        strike = c.strike
        assert strike is not None
        carrier = c.units[strike.attacker][strike.carrier]
        if strike.fresh:
            supply = list(carrier.squadrons)
        else:
            supply = [0] * len(SQUADRON_TYPES)
            for s in c.sorties:
                if s.owner == strike.attacker and s.carrier == strike.carrier and s.role == "airborne" and s.alive:
                    supply[s.kind] += 1
        for kind, _, _ in strike.planned:
            supply[kind] -= 1
        return supply

    def _torpedo_bomber_squares(self, target: UnitState) -> list[tuple[int, int]]:
        """(place, square) of the free water squares beside `target` (ADM-AIR-14, ADM-TERR-7)."""
        r, col = row_col(target.square)
        out = []
        for place, dc in ((1, -1), (2, 1)):
            sq = at(r, col + dc)
            if sq is None or self._surface_at(sq) is not None:
                continue
            t = self._terrain.get(sq)
            if t is not None and t.blocks_torpedoes:
                continue
            out.append((place, sq))
        return out

    def _strike_picks(self) -> list[int]:
        """Up to 3 squadrons against up to three different enemy units (ADM-AIR-2)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        out = [AIR_DONE] if strike.planned else []
        if len(strike.planned) >= 3:
            return out
        chosen = {t for _, t, _ in strike.planned}
        targets = [t for t in self._air_targets(strike.attacker) if len(chosen) < 3 or t.slot in chosen]
        for kind, n in enumerate(self._strike_supply()):
            if n <= 0:
                continue
            torpedo = self._rs.aircraft[SQUADRON_TYPES[kind]].damage == "torpedo"
            for t in targets:
                if torpedo:
                    out += [
                        SQUADRON_BASE + encode_squadron(kind, t.slot, place)
                        for place, _ in self._torpedo_bomber_squares(t)
                    ]
                else:
                    out.append(SQUADRON_BASE + encode_squadron(kind, t.slot, 0))
        return out

    def _squadron(self, d: Decoded) -> None:
        c = self._core
        strike = c.strike
        assert strike is not None
        target = c.units[1 - strike.attacker][d.target]
        square = target.square
        if d.flag:
            square = dict(self._torpedo_bomber_squares(target))[d.flag]
        strike.planned.append((d.index, d.target, square))

    def _launch_strike(self) -> None:
        """The declared squadrons take off (or the airborne ones turn to attack), then the defender and the
        attacker may activate air features (timing 'air'), then each target is attacked in turn."""
        c = self._core
        strike = c.strike
        assert strike is not None
        p = strike.attacker
        carrier = c.units[p][strike.carrier]
        for kind, target, square in strike.planned:
            sortie = Sortie(p, carrier.slot, kind, "strike", ship=target, square=square, strike=strike.number)
            if strike.fresh:
                aboard = list(carrier.squadrons)
                aboard[kind] -= 1
                carrier.squadrons = tuple(aboard)
                c.sorties.append(sortie)
            else:
                i = next(
                    i
                    for i, s in enumerate(c.sorties)
                    if s.owner == p
                    and s.carrier == carrier.slot
                    and s.role == "airborne"
                    and s.alive
                    and s.kind == kind
                )
                c.sorties[i] = sortie
            if target not in strike.targets:
                strike.targets.append(target)
        names = ", ".join(f"{SQUADRON_TYPES[k]} > {c.units[1 - p][t].card.name}" for k, t, _ in strike.planned)
        c.report.append(f"{PLAYER_NAMES[p]}'s {carrier.card.name} attacks from the air: {names}")
        strike.stage = "react_defender"
        self._air_run()

    def _air_reactions(self, p: int) -> list[int]:
        """Features with timing 'air' the player may activate now: the defender's green features on the
        targets and on the carriers of their protecting fighters, red ones on the attacking carrier; the
        attacker's green features on its carrier, red ones on the targets (section 5)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        if p != self._solo and not self._can_pay(p, [], 1):
            return []
        attacker = strike.attacker
        enemy = 1 - attacker
        units: list[UnitState] = []
        if p == enemy:
            units += [c.units[enemy][t] for t in strike.targets]
            protectors = {
                s.carrier
                for s in c.sorties
                if s.owner == enemy and s.role == "cap" and s.alive and s.ship in strike.targets
            }
            units += [c.units[enemy][slot] for slot in sorted(protectors)]
            units.append(c.units[attacker][strike.carrier])
        else:
            units.append(c.units[attacker][strike.carrier])
            units += [c.units[enemy][t] for t in strike.targets]
        out = []
        for u in units:
            if u.where != "board":
                continue
            side = 0 if u.owner == p else 1
            found = []
            for key in u.card.green if side == 0 else u.card.red:
                rule = self._rs.rule(key)
                if "air" not in rule.timing or not self._feature_usable(u, key, p):
                    continue
                if any(f.owner == u.owner and f.slot == u.slot and f.key == key for f in c.features):
                    continue
                found.append(ACTIVATE_BASE + self._activate_code(side, u.slot, key))
            if found and self._symbol_payable(p, u):
                out += found
        return sorted(set(out))

    def _strike_sorties(self, target: int) -> list[int]:
        """Indices of the current strike's squadrons attacking `target`: fighters, torpedo bombers, bombers."""
        c = self._core
        strike = c.strike
        assert strike is not None
        order = {"none": 0, "torpedo": 1, "artillery": 2}
        found = [
            i
            for i, s in enumerate(c.sorties)
            if s.role == "strike" and s.strike == strike.number and s.ship == target and s.alive
        ]
        return sorted(found, key=lambda i: (order[self._rs.aircraft[SQUADRON_TYPES[c.sorties[i].kind]].damage], i))

    def _air_run(self) -> None:
        """Resolve the current air attack until a player or the dice must speak (ADM-AIR-5, ADM-AIR-7..14)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        die = self._rs.die
        attacker, defender = strike.attacker, 1 - strike.attacker
        while True:
            if strike.stage in ("react_defender", "react_attacker"):
                reactor = defender if strike.stage == "react_defender" else attacker
                if self._air_reactions(reactor):
                    c.phase, c.player = Phase.AIR_REACT, reactor
                    return
                strike.stage = "react_attacker" if strike.stage == "react_defender" else "fight"
                continue
            if strike.stage == "fight":
                if strike.index >= len(strike.targets):
                    c.strike = None
                    c.phase = Phase.AIR
                    c.air_passes = 0
                    c.player = defender
                    self._advance_air_turn()
                    return
                target = c.units[defender][strike.targets[strike.index]]
                attackers = self._strike_sorties(target.slot)
                guards = [
                    i
                    for i, s in enumerate(c.sorties)
                    if s.owner == defender and s.role == "cap" and s.alive and s.ship == target.slot
                ]
                strike.duels = list(zip(guards, attackers, strict=False))
                strike.rolls = []
                strike.stage = "duels" if target.where == "board" else "next"
                continue
            if strike.stage == "duels":
                if not strike.duels:
                    strike.stage = "aa_setup"
                    continue
                guard, raider = strike.duels[0]
                dogfight = c.sorties[raider].kind == self._fighter()
                need = 2 if dogfight else 1
                if strike.reroll >= 0:
                    need = 3
                if len(strike.rolls) < need:
                    c.phase = Phase.AIR_ROLL
                    return
                self._settle_duel(guard, raider)
                if strike.reroll >= 0 and len(strike.rolls) < 3:
                    continue  # Armoured Fighters: one more roll (ADM-G03)
                strike.duels.pop(0)
                strike.rolls = []
                strike.reroll = -1
                continue
            if strike.stage == "aa_setup":
                strike.rolls = []
                survivors = [i for i in self._strike_sorties(strike.targets[strike.index]) if not c.sorties[i].held]
                strike.aa_dice = self._aa_dice(strike.targets[strike.index]) if survivors else 0
                strike.stage = "aa" if strike.aa_dice else "damage"
                continue
            if strike.stage == "aa":
                if len(strike.rolls) < strike.aa_dice:
                    c.phase = Phase.AIR_ROLL
                    return
                hits = sum(1 for f in strike.rolls if die.hits(f, Symbol.ANTI_AIRCRAFT))
                carrier = c.units[attacker][strike.carrier]
                obsolete = next(
                    (
                        f
                        for f in c.features
                        if f.owner == attacker
                        and f.slot == carrier.slot
                        and self._rs.rule(f.key).effect == "aa_reroll_failures"
                    ),
                    None,
                )
                if obsolete is not None and hits < strike.aa_dice:
                    c.features.remove(obsolete)  # Obsolete Attack Aircraft: failed dice again (ADM-R01)
                    c.report.append(
                        f"{carrier.card.name}: {self._rs.rule(obsolete.key).name}: "
                        f"{strike.aa_dice - hits} anti-aircraft dice rolled again"
                    )
                    strike.rolls = [f for f in strike.rolls if die.hits(f, Symbol.ANTI_AIRCRAFT)]
                    continue
                survivors = [i for i in self._strike_sorties(strike.targets[strike.index]) if not c.sorties[i].held]
                strike.hits = min(hits, len(survivors))
                c.report.append(
                    f"anti-aircraft fire: {strike.aa_dice} dice, {hits} hit{'s' if hits != 1 else ''} (ADM-AIR-12)"
                )
                strike.rolls = []
                strike.stage = "aa_pick"
                continue
            if strike.stage == "aa_pick":
                if strike.hits > 0:
                    options = self._aa_pick_options()
                    survivors = [i for i in self._strike_sorties(strike.targets[strike.index]) if not c.sorties[i].held]
                    if len(options) > 1 and strike.hits < len(survivors):
                        c.phase, c.player = Phase.AA_PICK, defender
                        return
                    self._shoot_down(options[0])
                    continue
                strike.stage = "damage"
                continue
            if strike.stage == "damage":
                strike.stage = "next"
                if self._air_damage(strike.targets[strike.index]):
                    return  # the game is over, or a critical marker waits for the attacker's choice
                continue
            if strike.stage == "next":
                strike.index += 1
                strike.stage = "fight"
                continue
            raise AssertionError(f"unknown strike stage {strike.stage!r}")  # pragma: no cover

    def _settle_duel(self, guard: int, raider: int) -> None:
        """A protecting fighter against an attacking squadron (ADM-AIR-9, ADM-AIR-10, ADM-G03, ADM-G04)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        die = self._rs.die
        g, r = c.sorties[guard], c.sorties[raider]
        gname = c.units[g.owner][g.carrier].card.name
        rname = c.units[r.owner][r.carrier].card.name
        if r.kind != self._fighter():
            kind = SQUADRON_TYPES[r.kind]
            if die.hits(strike.rolls[0], die.kill_symbol(kind)):
                c.sorties[raider] = _replace(r, alive=False)
                c.report.append(f"{gname}'s fighter destroys {rname}'s {kind} (ADM-AIR-10)")
            else:
                c.report.append(f"{rname}'s {kind} gets past {gname}'s fighter (ADM-AIR-10)")
            return
        if strike.reroll >= 0 and len(strike.rolls) == 3:
            # the reroll replaces the opponent's die; if it would make them lose, it is a tie (ADM-G03)
            rolls = strike.rolls
            saved = 1 - strike.reroll  # index in (guard, raider) of the fighter that had lost
            first = (rolls[0], rolls[1])
            new = list(first)
            new[strike.reroll] = rolls[2]
            own = die.duel_strength(new[saved])
            other = die.duel_strength(new[strike.reroll])
            result = 1 if other > own else 0  # the opponent wins again, or a tie
            winner = strike.reroll if result else -1
            self._duel_result(guard, raider, winner)
            return
        sg, sr = die.duel_strength(strike.rolls[0]), die.duel_strength(strike.rolls[1])
        winner = 0 if sg > sr else 1 if sr > sg else -1
        if winner == -1:
            lucky = [side for side, s in enumerate((g, r)) if self._use_air_feature(s, "fighter_wins_ties")]
            if len(lucky) == 1:
                winner = lucky[0]  # Superior Fighters win the tie (ADM-G04)
        else:
            loser = (g, r)[1 - winner]
            if self._use_air_feature(loser, "fighter_reroll"):
                strike.reroll = winner  # Armoured Fighters: the winner rolls again (ADM-G03)
                c.report.append(
                    f"{c.units[loser.owner][loser.carrier].card.name}'s Armoured Fighters: "
                    "the opponent rolls again (ADM-G03)"
                )
                return
        self._duel_result(guard, raider, winner)

    def _use_air_feature(self, sortie: Sortie, effect: str) -> bool:
        """Spend a once-only feature active on the sortie's carrier, if there is one."""
        c = self._core
        feature = next(
            (
                f
                for f in c.features
                if f.owner == sortie.owner and f.slot == sortie.carrier and self._rs.rule(f.key).effect == effect
            ),
            None,
        )
        if feature is None:
            return False
        c.features.remove(feature)
        return True

    def _duel_result(self, guard: int, raider: int, winner: int) -> None:
        c = self._core
        g, r = c.sorties[guard], c.sorties[raider]
        gname = c.units[g.owner][g.carrier].card.name
        rname = c.units[r.owner][r.carrier].card.name
        if winner == 0:
            c.sorties[raider] = _replace(r, alive=False)
            c.report.append(f"{gname}'s fighter shoots down {rname}'s fighter (ADM-AIR-9)")
        elif winner == 1:
            c.sorties[guard] = _replace(g, alive=False)
            c.report.append(f"{rname}'s fighter shoots down {gname}'s fighter (ADM-AIR-9)")
        else:
            c.sorties[raider] = _replace(r, held=True)
            c.report.append(f"{gname}'s and {rname}'s fighters tie: the escort is held off (ADM-AIR-9)")

    def _aa_dice(self, target_slot: int) -> int:
        """Anti-aircraft dice against the squadrons on one target: the target and the friendly units
        adjacent to it (bombers) or to a torpedo bomber's square, not under attack by other squadrons,
        each unit once per air attack, none with a critical on its anti-aircraft (ADM-AIR-12..14)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        defender = 1 - strike.attacker
        target = c.units[defender][target_slot]
        steps = KING if self._rs.board.aa_adjacency == "king" else ORTHOGONAL
        squares = {target.square}
        for i in self._strike_sorties(target_slot):
            squares.add(c.sorties[i].square)
        near = set(squares)
        for sq in squares:
            near.update(neighbours(sq, steps))
        others = set(strike.targets) - {target_slot}
        dice = 0
        for u in self._on_board(defender):
            if u.submerged or u.square not in near or u.slot in others or u.slot in strike.aa_used:
                continue
            if self.disabled(u, "anti_aircraft") or not u.side.anti_aircraft:
                continue
            strike.aa_used.append(u.slot)
            dice += u.side.anti_aircraft
        return dice

    def _aa_pick_options(self) -> list[int]:
        """Types of the attacking squadrons an anti-aircraft hit may destroy: attack squadrons first."""
        c = self._core
        strike = c.strike
        assert strike is not None
        kinds = sorted(
            {c.sorties[i].kind for i in self._strike_sorties(strike.targets[strike.index]) if not c.sorties[i].held}
        )
        attack = [k for k in kinds if k != self._fighter()]
        return attack or kinds

    def _shoot_down(self, kind: int) -> None:
        c = self._core
        strike = c.strike
        assert strike is not None
        i = next(
            i
            for i in self._strike_sorties(strike.targets[strike.index])
            if not c.sorties[i].held and c.sorties[i].kind == kind
        )
        s = c.sorties[i]
        c.sorties[i] = _replace(s, alive=False)
        strike.hits -= 1
        c.report.append(
            f"anti-aircraft fire destroys {c.units[s.owner][s.carrier].card.name}'s {SQUADRON_TYPES[kind]} (ADM-AIR-12)"
        )

    def _aa_pick(self, d: Decoded) -> None:
        self._shoot_down(d.index)
        self._air_run()

    def _air_damage(self, target_slot: int) -> bool:
        """Surviving bombers strike together, torpedo bombers each deal torpedo damage, at once
        (ADM-AIR-5, ADM-AIR-13/14); True if play must stop here (game over or a critical to choose)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        attacker = strike.attacker
        target = c.units[1 - attacker][target_slot]
        if target.where != "board":
            return False
        survivors = [c.sorties[i] for i in self._strike_sorties(target_slot) if not c.sorties[i].held]
        crits = 0
        loss = 0
        bombers = [s for s in survivors if self._rs.aircraft[SQUADRON_TYPES[s.kind]].damage == "artillery"]
        if bombers:
            coefficient = sum(self._rs.aircraft[SQUADRON_TYPES[s.kind]].attack for s in bombers)
            armour = self._armour(target, beyond_half=True)  # Obsolete counts against bombers (ADM-R03)
            if coefficient >= armour:
                crits += 1
            if coefficient > armour:
                loss += 1
            c.report.append(
                f"{len(bombers)} bomber squadron(s) hit {target.card.name}: coefficient {coefficient} "
                f"against armour {armour} (ADM-AIR-13)"
            )
        for s in survivors:
            if self._rs.aircraft[SQUADRON_TYPES[s.kind]].damage == "torpedo":
                crits += 1
                belt = bool(self._active(target, "torpedo_no_structure_loss"))
                loss += 0 if belt else 1
                c.report.append(
                    f"a torpedo bomber hits {target.card.name}"
                    + (" (Protective Belt: no structure loss)" if belt else "")
                    + " (ADM-AIR-14)"
                )
        target.structure = max(0, target.structure - loss)
        if target.structure <= 0:
            self._sink(target)
            c.report.append(f"{target.card.name} sinks (ADM-AIR-5)")
            return self._check_end()
        if crits:
            c.pending = [(attacker, 1 - attacker, target_slot)] * crits
            c.phase = Phase.CRITICALS
            c.after_criticals = "air"
            self._next_critical()
            return True
        return False

    # --- resolution (ADM-RES, ADM-CRIT, ADM-END) ----------------------------------------------------------
    def _resolve(self) -> None:
        """All naval attacks take effect together (ADM-RES-1, ADM-ATK-3)."""
        c = self._core
        c.features = [Feature(f.owner, f.slot, f.key, f.by) for f in c.features]  # revealed (ADM-ATK-1)
        report = []
        hits: list[_Hit] = []
        for p in (0, 1):
            for o in c.orders[p]:
                if o.kind == "activate":
                    owner = 1 - p if o.enemy else p
                    report.append(
                        f"{PLAYER_NAMES[p]} activates {self._rs.rule(o.rule).name} on "
                        f"{c.units[owner][o.unit].card.name}"
                    )
            hits += self._artillery_hits(p)
            hits += self._torpedo_hits(p)
            for o in c.orders[p]:
                if o.kind == "depth_charge":
                    sub = c.units[1 - p][o.target]
                    hits.append(
                        _Hit(
                            p,
                            o.target,
                            False,
                            0,
                            True,
                            f"{c.units[p][o.unit].card.name}'s depth charges destroy {sub.card.name} (ADM-DC-2)",
                        )
                    )
        # ammunition: reloads first, then the launched torpedoes leave their mounts (ADM-G09, ADM-TORP-3)
        for p in (0, 1):
            for o in c.orders[p]:
                if o.kind == "activate" and not o.enemy and self._rs.rule(o.rule).effect == "reload_mount":
                    u = c.units[p][o.unit]
                    u.torpedoes += 1
                    u.reloads -= 1
            for o in c.orders[p]:
                if o.kind == "torpedo":
                    u = c.units[p][o.unit]
                    u.torpedoes = max(0, u.torpedoes - 1)  # a submarine's extra torpedo costs nothing (ADM-SUB-6)
        pending: list[tuple[int, int, int]] = []
        for h in hits:
            target = c.units[1 - h.attacker][h.target]
            report.append(h.text)
            target.structure = 0 if h.sink else max(0, target.structure - h.structure)
            if h.critical:
                pending.append((h.attacker, 1 - h.attacker, h.target))
        for fleet in c.units:
            for u in fleet:
                if u.where == "board" and u.structure <= 0:
                    self._sink(u)
                    report.append(f"{u.card.name} sinks (ADM-RES-2)")
        c.report += report
        if self._check_end():
            return
        c.pending = [x for x in pending if c.units[x[1]][x[2]].where == "board"]
        c.phase = Phase.CRITICALS
        c.after_criticals = "end_turn"
        self._next_critical()

    def _sink(self, u: UnitState) -> None:
        """Removed from the board; a carrier's squadrons aboard go down with it (ADM-RES-2, ADM-AIR-4)."""
        u.where, u.square, u.structure = "sunk", -1, 0
        u.squadrons = tuple(0 for _ in u.squadrons)

    def _check_end(self) -> bool:
        """A fleet with no unit left on the battlefield or in reserve is destroyed (ADM-END-1/2)."""
        c = self._core
        alive = [any(u.where in ("board", "reserve", "unplaced") for u in c.units[p]) for p in (0, 1)]
        if all(alive):
            return False
        if not any(alive):
            c.outcome = Outcome(Termination.FLEET_DESTROYED, None, "both fleets were destroyed: a draw (ADM-END-2)")
        else:
            winner = 0 if alive[0] else 1
            c.outcome = Outcome(
                Termination.FLEET_DESTROYED,
                winner,
                f"{PLAYER_NAMES[1 - winner]}'s fleet was destroyed: {PLAYER_NAMES[winner]} wins (ADM-END-1)",
            )
        return True

    def _critical_options(self) -> list[int]:
        c = self._core
        _, owner, slot = c.pending[0]
        u = c.units[owner][slot]
        marked = {ch for ch, _ in u.criticals}
        return [i for i, ch in enumerate(u.card.characteristics) if ch not in marked]

    def _next_critical(self) -> None:
        """Place forced markers at once; stop at the first real choice (ADM-RES-3, ADM-CRIT-3, ADM-G13)."""
        c = self._core
        while c.pending:
            attacker, owner, slot = c.pending[0]
            u = c.units[owner][slot]
            saver = next(
                (
                    f
                    for f in c.features
                    if f.owner == owner and f.slot == slot and self._rs.rule(f.key).effect == "avoid_critical"
                ),
                None,
            )
            if saver is not None:
                c.features.remove(saver)  # All or Nothing: this critical is prevented (ADM-G13)
                c.report.append(f"{u.card.name}: {self._rs.rule(saver.key).name} prevents a critical marker")
                c.pending.pop(0)
                continue
            options = self._critical_options()
            if len(options) > 1:
                c.player = attacker
                return
            if options:
                self._mark(u, options[0])
            c.pending.pop(0)
        if c.after_criticals == "air":
            self._air_run()
        else:
            self._end_turn()

    def _mark(self, u: UnitState, index: int) -> None:
        ch = u.card.characteristics[index]
        u.criticals = (*u.criticals, (ch, self._core.turn))
        self._core.report.append(f"critical marker on {u.card.name}'s {ch}")

    def _place_critical(self, d: Decoded) -> None:
        c = self._core
        _, owner, slot = c.pending.pop(0)
        self._mark(c.units[owner][slot], d.index)
        self._next_critical()

    def _end_turn(self) -> None:
        """Unused dice are exhausted, smoke lifts, last turn's markers go (ADM-TURN-2, ADM-CRIT-2)."""
        c = self._core
        max_turns = self._game.max_turns
        if max_turns is not None and c.turn >= max_turns:
            c.outcome = Outcome(
                Termination.MOVE_LIMIT, None, f"the turn cap of {max_turns} turns was reached: a draw (ADM-END-3)"
            )
            return
        for sortie in c.sorties:  # surviving squadrons land; a sunk carrier's are lost (ADM-AIR-4)
            carrier = c.units[sortie.owner][sortie.carrier]
            if sortie.alive and carrier.where == "board":
                aboard = list(carrier.squadrons)
                aboard[sortie.kind] += 1
                carrier.squadrons = tuple(aboard)
        c.sorties = []
        c.launched = []
        c.strikes = 0
        for fleet in c.units:
            for u in fleet:
                u.moved = False
                u.criticals = tuple((ch, t) for ch, t in u.criticals if t >= c.turn)
        self._clear_dice()
        c.solo_rows = []
        c.solo_acting = -1
        c.orders = [[], []]
        c.committed = [False, False]
        c.forfeited = [False, False]
        c.features = []
        c.smoke = []
        c.passes = 0
        c.turn += 1
        self._start_turn()

    # --- serialization --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """Options and actions (and the crafted start, if any): replaying them rebuilds the state exactly
        (the dice are actions too)."""
        data: dict[str, JSON] = {
            "game": "admiral",
            "options": self._game.options,
        }
        if self._position is not None:
            data["position"] = copy.deepcopy(self._position)
        data["actions"] = list(self._history)
        ended = outside_ending(self._core.outcome)
        if ended is not None:
            data["ended_by"] = ended
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> AdmiralState:
        inputs.state_json(data, "admiral", "an Admiral state", "position")
        options = inputs.state_options(data, OPTION_NAMES, "Admiral")
        try:
            game = AdmiralGame(**options)
        except GameError as exc:
            raise RecordError(f"bad Admiral options: {exc}") from exc
        position = data.get("position")
        if position is not None:
            try:
                state = state_from_position(game, position)
            except GameError as exc:
                raise RecordError(f"bad Admiral position: {exc}") from exc
        else:
            state = game.new_initial_state()
        return inputs.replay(state, data, "Admiral")


def _replace(sortie: Sortie, **changes: Any) -> Sortie:
    return dataclasses.replace(sortie, **changes)


__all__ = [
    "CHOOSE_FIRST",
    "DEFAULT_FLEETS",
    "NUM_ACTIONS",
    "PHASES",
    "PLAYER_NAMES",
    "ROLL_BASE",
    "SUBMARINE_BASE",
    "AdmiralGame",
    "AdmiralState",
    "Feature",
    "NotImplementedYetError",
    "Order",
    "UnitState",
    "check_supported",
    "deployment_squares",
    "home_half",
    "read_layout",
    "render_text",
    "state_from_position",
]
