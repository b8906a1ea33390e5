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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from fogofwar.core import inputs
from fogofwar.core.params import GameBase, checked_by
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
    AIR_DONE,
    AIR_PASS,
    CHOOSE_FIRST,
    COMMIT,
    CRITICAL_BASE,
    DECLINE,
    DEPLOY_BASE,
    ESCORT_PICK_BASE,
    EXTRA_DRAUGHT,
    EXTRA_NONE,
    EXTRA_SMOKE_VERTICAL,
    MAX_BATTERIES,
    MAX_CHARACTERISTICS,
    MAX_FLEET,
    MAX_RULES,
    NUM_ACTIONS,
    NUM_SQUARES,
    PASS,
    RESERVE_DONE,
    ROLL_BASE,
    SIDE_CHANGE_AFTER,
    SIDE_CHANGE_BEFORE,
    STRIKE_BASE,
    SUBMARINE_BASE,
    Decoded,
    decode,
)
from fogofwar.games.admiral.data_model import (
    SQUADRON_TYPES,
    Fleet,
    Ruleset,
    Symbol,
    Terrain,
    build_fleet,
    default_ruleset,
    square_index,
    square_name,
)
from fogofwar.games.admiral.geometry import (
    at,
    deployment_squares,
    distance,
    home_half,
    last_row,
    row_col,
)
from fogofwar.games.admiral.params import DEFAULT_BUDGET, AdmiralParams
from fogofwar.games.admiral.phase_setup import AdmiralSetup
from fogofwar.games.admiral.positions import state_from_position
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Feature,
    Order,
    Phase,
    UnitState,
)
from fogofwar.games.admiral.views import render_text

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
    "escort_pick",
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
    the data gives, a card whose movement features it would play short (ADM-G02, ADM-G08: two on one card,
    or smoke on a unit that moves more than two squares, where some paths are not two L's), or squadron types
    whose roles differ from the rules' (ADM-AIR-8..14)."""
    for rule in ruleset.special_rules:
        for timing in rule.timing:
            if rule.effect not in SUPPORTED_TIMINGS[timing][rule.colour]:
                raise NotImplementedYetError(
                    f"{rule.id} {rule.name}: the engine cannot apply a {rule.colour} {rule.effect!r} effect "
                    f"activated with timing {timing!r} (special_rules.toml)"
                )
    for card in ruleset.units:
        moving = [k for k in card.green if ruleset.rule(k).effect in ("smoke", "cross_shallows")]
        if len(moving) > 1:
            raise NotImplementedYetError(
                f"{card.name}: the engine plays one movement feature a move, and the card has {' and '.join(moving)} "
                "(ADM-G02, ADM-G08; units.toml)"
            )
        smoky = any(ruleset.rule(k).effect == "smoke" for k in card.green)
        if smoky and max(side.movement for side in (card.front, card.submerged) if side is not None) > 2:
            raise NotImplementedYetError(
                f"{card.name}: a smoke-laying move follows one of the two L-shaped paths, every path there is only "
                "for a Movement of at most 2 (ADM-G08; units.toml)"
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


class AdmiralGame(GameBase):
    """Admiral with fixed options: the two fleets (faction, budget, units), the terrain layout, an
    optional turn cap (ADM-END-3, `max_turns`; None plays until a fleet is destroyed) and the solo mode
    (`solo_seat`: the seat Admiral Stratego plays under the solo rules, SOLO-...; None, the default, is the
    normal two-player game). Four options choose between two readings of a rule the text leaves open:
    `duel_order` (ADM-DICE-6), `rate_of_fire` (ADM-G05), `size_class` (ADM-UNIT-4) and `torpedo_reload` (ADM-G09);
    each default is the reading docs/rules/admiral.md defends.

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
        duel_order: str = "general",
        rate_of_fire: str = "slots_used",
        size_class: str = "printed",
        torpedo_reload: str = "spares",
    ) -> None:
        self.ruleset = default_ruleset() if ruleset is None else ruleset
        if duel_order == "paragraph":  # ADM-DICE-6: the fighter-duel paragraph's order, from dice.toml
            die = self.ruleset.die
            self.ruleset = replace(self.ruleset, die=replace(die, duel_order=die.paragraph_order))
        self.rate_of_fire = rate_of_fire
        self.size_class = size_class
        self.torpedo_reload = torpedo_reload
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
        self.resolve(factions=[f.faction for f in self.fleets], fleets=[list(f.names) for f in self.fleets])

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
    "escort_pick": "_escort_pick",
    "hold": "_hold",
}
"""The method of `AdmiralState` that plays each kind of action (`actions.decode(action).kind`)."""


class AdmiralState(AdmiralSetup):
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
        if c.phase == Phase.ESCORT_PICK:
            return [ESCORT_PICK_BASE + k for k in self._escort_pick_options()]
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
        "escort_pick": "escort_pick",
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
        "escort_pick": "the attack squadron the next protecting fighter takes on",
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
        "escort_pick": "choosing the attack squadron a protecting fighter takes on",
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
        'intercept:torpedo_bomber' (the attack squadron the next protecting fighter takes on),
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
        if d.kind == "escort_pick":
            return f"intercept:{kinds[d.index]}"
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
            "intercept:",
            "hold:",
        )
        if key in ("pass", "commit", "decline") or key.startswith(prefixes):
            raise IllegalActionError(f"{text!r} is not playable now ({self.phase}: {self._EXPECTED[c.phase]})")
        raise NotationError(
            f"{text!r} is not an Admiral action: write e.g. Fletcher@C1, roll:admiral, first:South, "
            "move:Fletcher>C3/movement, fire:Washington.main>Yamato/artillery, pass or commit"
        )

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
