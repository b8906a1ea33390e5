"""What an Admiral position is made of: the phases of a turn, and the state's data (each unit on its card,
orders, features, squadrons in the air, the air attack under way, the whole core that `undo` checkpoints).
The rules (`rules.py`) change these; nothing here knows a rule.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from fogofwar.core.protocol import Outcome
from fogofwar.games.admiral.data_model import Side, UnitCard

PLAYER_NAMES = ("South", "North")
"""Seat 0 sits at row 1, seat 1 at row 8 (ADM-GEN-2)."""


class Phase(enum.StrEnum):
    """Where a turn stands: who decides what next. Each is a string too (its value), as observations and
    positions write it."""

    DEPLOY = "deploy"
    RESERVE = "reserve"
    INITIATIVE = "initiative"
    CHOOSE_FIRST = "choose_first"
    SUBMARINES = "submarines"
    ACTION_DICE = "action_dice"
    MOVEMENT = "movement"
    SOLO_ROLL = "solo_roll"
    REACTION = "reaction"
    AIR = "air"
    LAUNCH = "launch"
    STRIKE = "strike"
    AIR_REACT = "air_react"
    AIR_ROLL = "air_roll"
    AA_PICK = "aa_pick"
    ESCORT_PICK = "escort_pick"
    ATTACK = "attack"
    CRITICALS = "criticals"


CHANCE_PHASES = (Phase.INITIATIVE, Phase.ACTION_DICE, Phase.AIR_ROLL, Phase.SOLO_ROLL)


@dataclass(slots=True)
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
    torpedoes: int = 0
    """Loaded torpedo mounts: the supply left for the game (ADM-TORP-3, ADM-TORP-5)."""
    reloads: int = 0
    """Spare torpedoes for Torpedo Reload (ADM-G09, Assumption A05)."""
    criticals: tuple[tuple[str, int], ...] = ()
    """(characteristic, turn placed) of each critical marker on the card (ADM-CRIT-1/2)."""
    moved: bool = False
    """The unit has received its one Movement result of the turn (ADM-MOVE-3, ADM-REP-1)."""
    squadrons: tuple[int, ...] = (0, 0, 0)
    """Squadrons aboard a carrier, per type in SQUADRON_TYPES order (ADM-AIR-4)."""

    @property
    def side(self) -> Side:
        return self.card.side(self.submerged)

    def copy(self) -> UnitState:
        return UnitState(
            self.owner,
            self.slot,
            self.card,
            self.where,
            self.square,
            self.submerged,
            self.structure,
            self.torpedoes,
            self.reloads,
            self.criticals,
            self.moved,
            self.squadrons,
        )

    @property
    def on_board(self) -> bool:
        return self.where == "board"


@dataclass(frozen=True)
class Order:
    """One die (or two) committed in the attack phase (ADM-ATK-1); `unit` is the acting unit's slot,
    or for a red feature the enemy unit's slot."""

    kind: str
    """'fire', 'torpedo', 'depth_charge' or 'activate'."""
    unit: int
    dice: tuple[int, ...]
    target: int = -1
    battery: int = -1
    rule: str = ""
    enemy: bool = False


@dataclass(frozen=True)
class Feature:
    """A special rule activated this turn (ADM-DICE-3, section 5)."""

    owner: int
    slot: int
    key: str
    by: int
    secret: bool = False
    """Activated in the secret attack assignment and not revealed yet (ADM-ATK-2)."""


@dataclass(frozen=True)
class Sortie:
    """One squadron in the air this turn (ADM-AIR-1/2); `kind` indexes SQUADRON_TYPES."""

    owner: int
    carrier: int
    kind: int
    role: str
    """'cap' (a fighter protecting `ship`), 'airborne' (launched in the movement phase to attack later) or
    'strike' (attacking the enemy unit `ship` from `square`)."""
    ship: int = -1
    square: int = -1
    strike: int = 0
    """Which air attack of the turn it belongs to (strikes are numbered from 1)."""
    alive: bool = True
    held: bool = False
    """Stopped by a protecting fighter in a tied duel: it does not get through (ADM-AIR-9 reading)."""


@dataclass
class _Strike:
    """An air attack being declared or resolved (ADM-AIR-2, ADM-AIR-5, ADM-AIR-7)."""

    attacker: int
    carrier: int
    fresh: bool
    """Launched now with an Admiral die (else squadrons launched in the movement phase)."""
    number: int
    stage: str = "declare"
    planned: list[tuple[int, int, int]] = field(default_factory=list)
    """(squadron type, target slot, square) declared so far."""
    targets: list[int] = field(default_factory=list)
    index: int = 0
    duels: list[tuple[int, int]] = field(default_factory=list)
    """(protecting fighter, attacking squadron) indices into the sorties, still to fight."""
    rolls: list[int] = field(default_factory=list)
    need: int = 0
    reroll: int = -1
    """In a fighter duel saved by Armoured Fighters: the player who rolls again (ADM-G03)."""
    aa_dice: int = 0
    aa_used: list[int] = field(default_factory=list)
    hits: int = 0
    asking: tuple[int, int, int, str] | None = None
    """(player, unit owner, unit slot, feature key): the player decides now, having seen the dice, whether to
    spend an Admiral die on that feature (ADM-AIR-15: Armoured and Superior Fighters, Obsolete Attack Aircraft)."""
    asked: list[tuple[int, int, str]] = field(default_factory=list)
    """(unit owner, unit slot, feature key) already offered for the roll being settled."""

    def copy(self) -> _Strike:
        return _Strike(
            self.attacker,
            self.carrier,
            self.fresh,
            self.number,
            self.stage,
            self.planned.copy(),
            self.targets.copy(),
            self.index,
            self.duels.copy(),
            self.rolls.copy(),
            self.need,
            self.reroll,
            self.aa_dice,
            self.aa_used.copy(),
            self.hits,
            self.asking,
            self.asked.copy(),
        )


@dataclass
class _Core:
    """Everything that changes during play, copied whole for undo (the state is small)."""

    phase: Phase
    player: int
    units: list[list[UnitState]]
    turn: int = 1
    first_player: int | None = None
    dice_left: list[int] = field(default_factory=lambda: [0, 0])
    admirals: list[int] = field(default_factory=lambda: [0, 0])
    rolls: list[list[int]] = field(default_factory=lambda: [[], []])
    initiative_rounds: int = 0
    initiative_winner: int | None = None
    pools: list[list[int]] = field(default_factory=lambda: [[], []])
    """Faces of the action dice rolled this turn (ADM-DICE-1)."""
    uses: list[list[str]] = field(default_factory=lambda: [[], []])
    """What each die of `pools` was spent on; '' while unused (ADM-DICE-4)."""
    bound: list[list[int]] = field(default_factory=lambda: [[], []])
    """Solo mode: the unit slot each die of `pools` is assigned to (-1: the common pool) (SOLO-DICE-1/2)."""
    values: list[list[str]] = field(default_factory=lambda: [[], []])
    """Solo mode: what each die of `pools` may be spent as: '' as its face shows, a symbol's value (the value
    the decision table gave it), 'pending' (an assigned Admiral before its unit acts: not spendable) or
    'symbol' (the Admiral symbol of an assigned die: free features, launches, SOLO-ADM)."""
    solo_rows: list[int] = field(default_factory=list)
    """Solo mode: per slot of Stratego's fleet, the index (in the die's `solo_rows`) of the decision-table
    entry its unit got this turn; -1 until it acts, -2 acted in a crafted position (SOLO-TAB)."""
    solo_acting: int = -1
    """Solo mode: the slot of Stratego's unit whose die was rolled and whose go comes now."""
    forfeited: list[bool] = field(default_factory=lambda: [False, False])
    passes: int = 0
    orders: list[list[Order]] = field(default_factory=lambda: [[], []])
    committed: list[bool] = field(default_factory=lambda: [False, False])
    features: list[Feature] = field(default_factory=list)
    smoke: list[int] = field(default_factory=list)
    pending: list[tuple[int, int, int]] = field(default_factory=list)
    """Critical markers still to place: (attacker, target owner, target slot) (ADM-RES-3)."""
    reaction: tuple[int, int, int] | None = None
    """A repair waiting for the opponent's Poor Damage Control: (owner, slot, points) (ADM-R02)."""
    report: list[str] = field(default_factory=list)
    """What the last resolution did, in words (public)."""
    sorties: list[Sortie] = field(default_factory=list)
    launched: list[tuple[int, int]] = field(default_factory=list)
    """(owner, carrier slot) of the carriers that launched this turn (ADM-AIR-3)."""
    launching: int = -1
    """The carrier whose squadrons are being launched (phase 'launch')."""
    launch_count: int = 0
    strike: _Strike | None = None
    strikes: int = 0
    air_passes: int = 0
    after_criticals: str = "end_turn"
    outcome: Outcome | None = None

    def copy(self) -> _Core:
        """An independent copy: unit states and lists are copied, frozen values are shared."""
        return _Core(
            phase=self.phase,
            player=self.player,
            units=[[u.copy() for u in fleet] for fleet in self.units],
            turn=self.turn,
            first_player=self.first_player,
            dice_left=self.dice_left.copy(),
            admirals=self.admirals.copy(),
            rolls=[r.copy() for r in self.rolls],
            initiative_rounds=self.initiative_rounds,
            initiative_winner=self.initiative_winner,
            pools=[p.copy() for p in self.pools],
            uses=[u.copy() for u in self.uses],
            bound=[b.copy() for b in self.bound],
            values=[v.copy() for v in self.values],
            solo_rows=self.solo_rows.copy(),
            solo_acting=self.solo_acting,
            forfeited=self.forfeited.copy(),
            passes=self.passes,
            orders=[o.copy() for o in self.orders],
            committed=self.committed.copy(),
            features=self.features.copy(),
            smoke=self.smoke.copy(),
            pending=self.pending.copy(),
            reaction=self.reaction,
            report=self.report.copy(),
            sorties=self.sorties.copy(),
            launched=self.launched.copy(),
            launching=self.launching,
            launch_count=self.launch_count,
            strike=self.strike.copy() if self.strike is not None else None,
            strikes=self.strikes,
            air_passes=self.air_passes,
            after_criticals=self.after_criticals,
            outcome=self.outcome,
        )


@dataclass(frozen=True)
class _Hit:
    """One naval attack taking effect in the resolution (ADM-RES-1)."""

    attacker: int
    target: int
    critical: bool
    structure: int
    sink: bool
    text: str
