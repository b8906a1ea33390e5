"""The "Admiral Stratego" agent: the solo mode's automatic opponent. Rule ids SOLO-... refer to
docs/rules/admiral-solo.md.

The solo rules (Stratego's dice, deck, initiative, turn order, the decision table, the doomed-unit rule) are
the engine's: `AdmiralGame(solo_seat=...)`. This agent takes the decisions those rules leave to Stratego
(where a unit moves, which targets it fires at and in what order, which feature its Admiral symbol turns on)
by the solo text's procedure. It asks for the solo rules at its seat through `game_options` (the arena and
other front ends merge that into the game's options); in a game without them (`stratego:normal`, or a game
built without `solo_seat`) it plays the normal two-player rules with the same procedure, adapted to the
common dice pool.

The agent sees only its observation (Admiral is open information once deployed, ADM-GEN-5) and reads the
unit cards, terrain and die from the game it is given. Every decision is recorded as an `Explanation`
(rule id, text, turn) in `log`; `drain_explanations()` returns the ones not drained yet (for a screen that
shows them after each decision), `explanations` the whole log as text lines; each is also logged on the
`fogofwar.games.admiral.solo` logger.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fogofwar.core.protocol import Game, GameError, Observation
from fogofwar.games.admiral.actions import (
    AA_PICK_BASE,
    AIR_DONE,
    AIR_PASS,
    AIRBORNE_BASE,
    CHOOSE_FIRST,
    COMMIT,
    DECLINE,
    ESCORT_PICK_BASE,
    PASS,
    RESERVE_DONE,
    Decoded,
    decode,
)
from fogofwar.games.admiral.data_model import (
    SQUADRON_TYPES,
    Side,
    Symbol,
    UnitCard,
    default_ruleset,
    square_name,
)
from fogofwar.games.admiral.geometry import crossed, distance, row_col
from fogofwar.games.admiral.observation import AdmiralView, DieView, admiral_view
from fogofwar.games.admiral.rules import AdmiralGame

log = logging.getLogger("fogofwar.games.admiral.solo")

SOLO_TABLE: Mapping[tuple[str, bool], str] = {
    (row.result, row.in_range): f"{row.id}: {row.text}" for row in default_ruleset().die.solo_rows
}
"""(solo result of the rolled face, enemies in range) -> the decision-table row in words (SOLO-TAB-1..5): the
engine's table (dice.toml `[[solo_row]]`, `Die.solo_row`; the result column is reconstructed, Assumption A08)."""


def solo_value(result: str, enemies_in_range: bool) -> str:
    """The decision-table row for a rolled solo result ("move", "fire", "repair") and the unit's situation."""
    return SOLO_TABLE[(result, enemies_in_range)]


DEFENSIVE = frozenset({"armour", "torpedo_no_structure_loss", "avoid_critical"})
OFFENSIVE = frozenset({"coefficient_per_slot_within_half_range", "artillery_range"})
"""Green effects worth an Admiral symbol on a unit that fires its artillery (SOLO-ADM-1)."""
TORPEDO_EFFECTS = frozenset({"torpedo_range", "ignore_protective_belt", "reload_mount"})
"""Green effects worth an Admiral symbol on a unit that launches torpedoes (SOLO-ADM-1)."""
RED_USEFUL = frozenset({"coefficient_beyond_half_range", "spoil_mount", "armour_vs_long_range_or_bombers"})


@dataclass(frozen=True)
class Explanation:
    """One decision of the agent: the rule (a SOLO-... id) that made it, in words, and the turn."""

    rule: str
    text: str
    turn: int

    def __str__(self) -> str:
        return f"[{self.rule}] turn {self.turn}: {self.text}"

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "turn": self.turn}


@dataclass
class Unit:
    """What the observation shows of a unit on the board, with its card."""

    owner: int
    slot: int
    card: UnitCard
    square: int
    structure: int
    submerged: bool
    moved: bool
    squadrons: int

    @property
    def side(self) -> Side:
        return self.card.side(self.submerged)

    @property
    def name(self) -> str:
        return self.card.name


class StrategoAgent:
    """The solo-mode AI ("Admiral Stratego") for either seat of `AdmiralGame`."""

    name = "stratego"

    def __init__(self, solo: bool = True) -> None:
        self.wants_solo = solo
        """Whether the agent asks for the solo rules at its seat (`game_options`); False: `stratego:normal`."""
        self.solo = False
        """Whether the game it plays gives its seat the solo rules (`AdmiralGame.solo_seat`)."""
        self.log: list[Explanation] = []
        self._drained = 0
        self._turn = 0
        self._rng = random.Random(0)
        self._game: AdmiralGame | None = None
        self.player = 0
        self._deck: list[int] = []
        self._orders: list[Decoded] = []
        self._orders_key: tuple[int, str] = (-1, "")
        self._held: set[int] = set()
        self._held_key = -1

    @classmethod
    def from_spec(cls, arg: str) -> StrategoAgent:
        """`stratego` (the solo rules at its seat) or `stratego:normal` (the normal two-player rules)."""
        if arg not in ("", "solo", "normal"):
            raise GameError(f"stratego: the argument is solo (the default) or normal, got {arg!r}")
        return cls(solo=arg != "normal")

    def game_options(self, game: str, seat: int) -> dict[str, Any]:
        """The game options this agent needs at `seat`: Admiral's solo rules for that seat (SOLO-...)."""
        return {"solo_seat": seat} if game == "admiral" and self.wants_solo else {}

    # --- the Agent protocol ---------------------------------------------------------------------------
    def start(self, game: Game, player: int, rng: random.Random) -> None:
        if not isinstance(game, AdmiralGame):
            raise TypeError("the stratego agent plays Admiral only")
        self._game = game
        self.player = player
        self.solo = game.solo_seat == player
        self._rng = rng
        self.log = []
        self._drained = 0
        self._deck = list(range(len(game.fleets[player].units)))
        rng.shuffle(self._deck)  # SOLO-SET-2: the fleet's cards are shuffled into a deck
        self._orders = []
        self._held = set()

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        assert self._game is not None, "start() first"
        legal = list(legal_actions)
        obs = admiral_view(observation.data)
        self._read(obs)
        phase = obs["phase"]
        handler = getattr(self, f"_on_{phase}", None)
        action = handler(legal) if handler is not None else None
        if action is None or action not in legal:
            action = self._fallback(legal)
        return action

    # --- explanations ---------------------------------------------------------------------------------
    @property
    def explanations(self) -> list[str]:
        """The whole log as text lines: `[RULE-ID] turn N: text`."""
        return [str(e) for e in self.log]

    def drain_explanations(self) -> list[Explanation]:
        """The explanations recorded since the last call (oldest first)."""
        out = self.log[self._drained :]
        self._drained = len(self.log)
        return out

    def _explain(self, rule: str, text: str) -> None:
        e = Explanation(rule, text, self._turn)
        self.log.append(e)
        log.info(str(e))

    # --- reading the observation ----------------------------------------------------------------------
    def _read(self, obs: AdmiralView) -> None:
        assert self._game is not None
        game = self._game
        self._turn = obs["turn"]
        self._phase = obs["phase"]
        slots = [{c.name: i for i, c in enumerate(f.units)} for f in game.fleets]
        self.units: list[list[Unit]] = [[], []]
        self.smoke: set[int] = set()
        for sq, cell in enumerate(obs["board"]):
            if cell["smoke"]:
                self.smoke.add(sq)
            for u in cell["units"]:
                p = u["owner"]
                slot = slots[p][u["name"]]
                squadrons = u["squadrons"]
                sq_count = sum(squadrons.values()) if squadrons else 0
                self.units[p].append(
                    Unit(
                        p,
                        slot,
                        game.fleets[p].units[slot],
                        sq,
                        u["structure"],
                        u["submerged"],
                        u["moved"],
                        sq_count,
                    )
                )
        me = obs["fleets"][self.player]
        self._obs = obs
        self.dice: list[DieView] = list(me["dice"])
        self.free_faces: list[str] = [d["face"] for d in me["dice"] if not d["used"]]
        if self._orders_key != (self._turn, "attack") and self._phase == "attack":
            self._orders = []
            self._orders_key = (self._turn, "attack")
        if self._held_key != self._turn:
            self._held = set()
            self._held_key = self._turn

    def mine(self) -> list[Unit]:
        return self.units[self.player]

    def enemies(self) -> list[Unit]:
        return self.units[1 - self.player]

    def _by_slot(self, p: int, slot: int) -> Unit | None:
        return next((u for u in self.units[p] if u.slot == slot), None)

    # --- geometry and damage --------------------------------------------------------------------------
    def _metric(self) -> str:
        assert self._game is not None
        return self._game.ruleset.board.range_metric

    def _in_fog(self, square: int, submerged: bool = False) -> bool:
        assert self._game is not None
        t = self._game.terrain.get(square)
        return t is not None and t.prevents_combat and not (submerged and t.submerged_immune)

    def sight(self, origin: int, target: Unit, ignore: frozenset[tuple[int, int]] = frozenset()) -> bool:
        """Line of sight (ADM-ART-3); units in `ignore` (doomed ones, SOLO-ATK-4) do not block it."""
        assert self._game is not None
        for s in crossed(origin, target.square):
            t = self._game.terrain.get(s)
            if (t is not None and t.blocks_line_of_sight) or s in self.smoke:
                return False
            for b in self.units[0] + self.units[1]:
                if (
                    b.square == s
                    and not b.submerged
                    and (b.owner, b.slot) not in ignore
                    and b.side.size_class >= target.side.size_class
                ):
                    return False
        return True

    def can_hit(
        self, shooter: Unit, square: int, reach: int, target: Unit, ignore: frozenset[tuple[int, int]] = frozenset()
    ) -> bool:
        """Whether a battery of range `reach` at `square` may fire at `target` (ADM-ART-2..4)."""
        if target.submerged or self._in_fog(target.square) or self._in_fog(square, shooter.submerged):
            return False
        if distance(square, target.square, self._metric()) > reach:
            return False
        return self.sight(square, target, ignore)

    def damage(self, shooter: Unit, target: Unit, square: int | None = None, dice: int = 2) -> int:
        """The best effect `shooter`'s batteries (or torpedoes) can have on `target` from `square` this turn:
        2 severe (structure loss), 1 light (a critical alone), 0 none (ADM-ART-5, solo wording)."""
        sq = shooter.square if square is None else square
        best = 0
        for bat in shooter.side.batteries:
            if not self.can_hit(shooter, sq, bat.range, target):
                continue
            coefficient = bat.coefficient * min(dice, bat.slots)
            armour = target.side.armour  # features that change armour are not anticipated
            if coefficient > armour:
                return 2
            if coefficient >= armour:
                best = 1
        if shooter.card.torpedo_mounts and not target.submerged:
            r0, c0 = row_col(sq)
            r1, c1 = row_col(target.square)
            if (r0 == r1 and abs(c1 - c0) == 1) or (shooter.submerged and max(abs(r1 - r0), abs(c1 - c0)) == 1):
                return 2
        return best

    def threat(self, enemy: Unit, unit: Unit, square: int | None = None) -> bool:
        """Whether `enemy` can damage `unit` (at `square`) during the turn: from where it is, or after its
        move of at most its Movement (SOLO-ATK-1 reading)."""
        sq = unit.square if square is None else square
        if enemy.side.batteries:
            reach = max(b.range for b in enemy.side.batteries) + enemy.side.movement
            if distance(enemy.square, sq, self._metric()) <= reach:
                ghost = Unit(unit.owner, unit.slot, unit.card, sq, unit.structure, unit.submerged, unit.moved, 0)
                best = max(b.coefficient * min(2, b.slots) for b in enemy.side.batteries)
                if best >= ghost.side.armour:
                    return True
        if enemy.card.torpedo_mounts:
            return distance(enemy.square, sq, "chebyshev") <= 1 + enemy.side.movement
        return False

    def in_range_of(self, unit: Unit, square: int, enemy: Unit) -> bool:
        """Whether `enemy`'s batteries reach `unit` standing on `square` now (no move)."""
        ghost = Unit(unit.owner, unit.slot, unit.card, square, unit.structure, unit.submerged, unit.moved, 0)
        return any(self.can_hit(enemy, enemy.square, b.range, ghost) for b in enemy.side.batteries)

    def firepower(self, u: Unit) -> int:
        return sum(b.coefficient * b.slots for b in u.side.batteries)

    # --- the targeting hierarchy (SOLO-ATK-1) ----------------------------------------------------------
    def rank(self, unit: Unit, targets: Sequence[Unit], square: int | None = None) -> list[Unit]:
        """`targets` best first by the hierarchy: can damage `unit`; `unit` can inflict severe damage;
        light damage; fewest structure points; strongest artillery; nearest."""
        sq = unit.square if square is None else square

        def key(t: Unit) -> tuple[int, int, int, int, int, int]:
            d = self.damage(unit, t, sq)
            return (
                0 if self.threat(t, unit) else 1,
                0 if d >= 2 else 1,
                0 if d >= 1 else 1,
                t.structure,
                -self.firepower(t),
                distance(sq, t.square, self._metric()),
            )

        return sorted(targets, key=key)

    def rank_reason(self, unit: Unit, chosen: Unit, others: Sequence[Unit]) -> str:
        """The level (1-6) of the hierarchy that set `chosen` apart from the other candidates: the highest
        level at which it differs from any of them (a candidate it cannot damage loses at level 3)."""
        names = [
            "can damage it",
            "severe damage",
            "light damage",
            "fewest structure points",
            "strongest artillery",
            "nearest",
        ]
        ka = self._key(unit, chosen)
        levels = []
        for other in others:
            kb = self._key(unit, other)
            diff = [i for i, (x, y) in enumerate(zip(ka, kb, strict=True)) if x != y]
            if diff:
                levels.append(diff[0])
        if not levels:
            return "only candidate" if not others else "tie: first listed"
        level = min(levels)
        return f"priority {level + 1} ({names[level]})"

    def _key(self, unit: Unit, t: Unit) -> tuple[int, ...]:
        d = self.damage(unit, t)
        return (
            0 if self.threat(t, unit) else 1,
            0 if d >= 2 else 1,
            0 if d >= 1 else 1,
            t.structure,
            -self.firepower(t),
            distance(unit.square, t.square, self._metric()),
        )

    # --- deployment (SOLO-SET) -------------------------------------------------------------------------
    def _corner_order(self, squares: Sequence[int]) -> list[int]:
        """From the player's right corner along the edge row, then the next row (SOLO-SET-1)."""
        edge = 0 if self.player == 0 else 7

        def key(sq: int) -> tuple[int, int]:
            r, c = row_col(sq)
            col = -c if self.player == 0 else c
            return (abs(r - edge), col)

        return sorted(squares, key=key)

    def _place(self, legal: list[int], kind: str, rule: str) -> int | None:
        options = [(a, decode(a)) for a in legal]
        options = [(a, d) for a, d in options if d.kind == kind]
        if not options:
            return None
        order = {slot: i for i, slot in enumerate(self._deck)}
        slot = min({d.slot for _, d in options}, key=lambda s: order.get(s, 99))
        squares = self._corner_order([d.square for _, d in options if d.slot == slot])
        action = next(a for a, d in options if d.slot == slot and d.square == squares[0])
        assert self._game is not None
        card = self._game.fleets[self.player].units[slot]
        what = "deck draws" if kind == "deploy" else "next in deck order:"
        self._explain(
            rule, f"{what} {card.name}: placed on {square_name(squares[0])}, the first free square from its corner"
        )
        return action

    def _on_deploy(self, legal: list[int]) -> int | None:
        return self._place(legal, "deploy", "SOLO-SET-2")

    def _on_submarines(self, legal: list[int]) -> int | None:
        return self._place(legal, "submarine", "SOLO-SET-4")

    def _on_reserve(self, legal: list[int]) -> int | None:
        action = self._place(legal, "reserve", "SOLO-SET-3")
        return action if action is not None else (RESERVE_DONE if RESERVE_DONE in legal else None)

    def _on_choose_first(self, legal: list[int]) -> int | None:
        action = CHOOSE_FIRST + (1 - self.player)
        self._explain("SOLO-INIT-1", "won the initiative: lets the opponent move first")
        return action

    # --- movement (SOLO-MOVE, SOLO-TAB) ----------------------------------------------------------------
    def _face_symbols(self, label: str) -> set[str]:
        return set(label.split("+"))

    def _cheapest(self, actions: list[tuple[int, Decoded]]) -> int:
        """Among actions that differ only by the die they spend, keep Admiral dice (SOLO-ADM) and the
        second symbols for later: plain faces first."""
        assert self._game is not None
        faces = self._game.ruleset.die.faces

        def cost(ad: tuple[int, Decoded]) -> tuple[int, int, int]:
            d = ad[1]
            f = faces[d.face] if 0 <= d.face < len(faces) else None
            admiral = 1 if f is not None and f.shows(Symbol.ADMIRAL) else 0
            return (admiral, len(f.symbols) if f else 0, max(d.mode, 0))

        return min(actions, key=cost)[0]

    def artillery_dice(self, u: Unit) -> int:
        """Unused dice `u` may fire with: in the solo mode those assigned to it and spendable as Artillery
        (SOLO-TAB), else 2 (the common pool, ADM-DICE-1)."""
        if not self.solo:
            return 2
        n = 0
        for d in self.dice:
            if d.get("unit") != u.name or d["used"]:
                continue
            value = d.get("as")
            symbols = self._face_symbols(d["face"])
            if value == "artillery" or (value is None and symbols & {"artillery", "admiral"}):
                n += 1
        return n

    def _on_movement(self, legal: list[int]) -> int | None:
        if self.solo:
            return self._solo_go(legal)
        return self._common_movement(legal)

    def _solo_go(self, legal: list[int]) -> int | None:
        """The acting unit's go under the solo rules: its row of the decision table (SOLO-TAB) says whether
        it moves; where it moves follows SOLO-MOVE-3/4 (SOLO-MOVE-1: the engine brings the slowest first)."""
        solo = self._obs["solo"]
        name = solo["acting"] if solo is not None else None
        u = next((x for x in self.mine() if x.name == name), None)
        hold = next((a for a in legal if decode(a).kind == "hold"), None)
        if u is None or hold is None or solo is None or name is None:
            return None
        row = solo["rows"].get(name)
        rid = row["id"] if row is not None else "SOLO-TAB"
        rolled = [d for d in self.dice if d.get("unit") == name][2:3]
        face = rolled[0]["face"] if rolled else "?"
        situation = "enemies in range" if row is not None and row["in_range"] else "no enemy in range"
        admiral = (row["admiral"] if row is not None else "?").replace("_", " ")
        head = f"{u.name} (slowest first, SOLO-MOVE-1) rolls {face}, {situation}: its Admiral becomes {admiral}"
        if row is not None and row["hold"]:
            self._explain(rid, f"{head}; it does not move: counts as moving 0 squares (SOLO-MOVE-2)")
            return hold
        moves = [(a, d) for a, d in ((a, decode(a)) for a in legal) if d.kind == "move" and d.mode == 0]
        if not moves or not self.enemies():
            self._explain(rid, f"{head}; it cannot move: counts as moving 0 squares (SOLO-MOVE-2)")
            return hold
        dest, why = self.destination(u, sorted({d.square for _, d in moves}), dice=max(1, self.artillery_dice(u)))
        if dest is None:
            self._explain(rid, f"{head}; {why}: counts as moving 0 squares (SOLO-MOVE-2)")
            return hold
        self._explain(rid, f"{head}; moves to {square_name(dest)}: {why}")
        return self._cheapest([(a, d) for a, d in moves if d.square == dest])

    def _common_movement(self, legal: list[int]) -> int | None:
        """Under the normal rules: the solo procedure read on the common pool (see the module docstring)."""
        decoded = [(a, decode(a)) for a in legal]
        moves: dict[int, list[tuple[int, Decoded]]] = {}
        for a, d in decoded:
            if d.kind == "move" and d.side_change == 0 and d.extra == 0:
                moves.setdefault(d.slot, []).append((a, d))
        repairs = {d.slot: a for a, d in decoded if d.kind == "repair"}
        admirals = [f for f in self.free_faces if "admiral" in self._face_symbols(f)]
        enemies = self.enemies()
        # SOLO-MOVE-1: slowest unit first
        for u in sorted(self.mine(), key=lambda x: (x.side.movement, x.slot)):
            if u.moved or u.slot in self._held:
                continue
            in_range = [e for e in enemies if self.damage(u, e) > 0]
            if u.structure < u.card.structure and u.slot in repairs and admirals:
                self._explain("SOLO-TAB-5", f"{u.name} is damaged: repairs 1 structure point (repair row)")
                return repairs[u.slot]
            if in_range:
                self._held.add(u.slot)
                self._explain("SOLO-TAB-2", f"{u.name} has enemies in range: does not move (moves 0, SOLO-MOVE-2)")
                continue
            options = moves.get(u.slot)
            if not options or not enemies:
                self._held.add(u.slot)
                self._explain("SOLO-MOVE-2", f"{u.name} cannot move: counts as moving 0 squares")
                continue
            dest, why = self.destination(u, sorted({d.square for _, d in options}))
            if dest is None:
                self._held.add(u.slot)
                self._explain("SOLO-MOVE-2", f"{u.name} {why}: counts as moving 0 squares")
                continue
            chosen = [(a, d) for a, d in options if d.square == dest]
            self._explain("SOLO-TAB-1", f"{u.name} moves to {square_name(dest)}: {why}")
            return self._cheapest(chosen)
        return PASS if PASS in legal else None

    def destination(self, u: Unit, squares: Sequence[int], dice: int = 2) -> tuple[int | None, str]:
        """Where `u` moves by SOLO-TAB-1/3: the nearest square from which a battery (fired with `dice` dice)
        reaches the best target it can damage; with none, closer to the enemy while out of every enemy's
        range when possible."""
        enemies = self.enemies()
        metric = self._metric()
        reaching: dict[int, list[Unit]] = {}
        for sq in squares:
            hit = [e for e in enemies if self.damage(u, e, sq, dice) > 0]
            if hit:
                reaching[sq] = hit
        if reaching:
            best = self.rank(u, [e for hit in reaching.values() for e in hit])[0]
            cands = [sq for sq, hit in reaching.items() if best in hit]
            sq = min(
                cands,
                key=lambda s: (
                    distance(u.square, s, metric),
                    sum(1 for e in enemies if self.in_range_of(u, s, e)),
                    s,
                ),
            )
            return sq, f"stops where a battery reaches {best.name} (SOLO-MOVE-3, target by SOLO-ATK-1)"
        target = self.rank(u, enemies)[0]
        here = distance(u.square, target.square, metric)
        safe = [s for s in squares if not any(self.in_range_of(u, s, e) for e in enemies)]
        closer_safe = [s for s in safe if distance(s, target.square, metric) < here]
        if closer_safe:
            sq = min(closer_safe, key=lambda s: (distance(s, target.square, metric), s))
            return sq, f"closes in on {target.name} staying out of every enemy's range (SOLO-MOVE-4)"
        if safe or not any(self.in_range_of(u, u.square, e) for e in enemies):
            return None, "cannot close in without entering an enemy's range (SOLO-MOVE-4)"
        sq = min(squares, key=lambda s: (distance(s, target.square, metric), s))
        return sq, f"no safe square: closes in on {target.name} (SOLO-MOVE-4, 'if possible')"

    def _on_reaction(self, legal: list[int]) -> int | None:
        acts = [a for a in legal if decode(a).kind == "activate"]
        if acts:
            self._explain("SOLO-ADM-2", "activates the enemy's red feature against its repair")
            return acts[0]
        return DECLINE if DECLINE in legal else None

    # --- air (SOLO-ADM-3) ------------------------------------------------------------------------------
    def _on_air(self, legal: list[int]) -> int | None:
        strikes = [a for a in legal if decode(a).kind == "strike"]
        if strikes:
            self._explain("SOLO-ADM-3", "a carrier with squadrons launches them")
            return strikes[0]
        return AIR_PASS if AIR_PASS in legal else None

    def _on_launch(self, legal: list[int]) -> int | None:
        air = [a for a in legal if decode(a).kind == "airborne"]
        if air:
            return max(air, key=lambda a: a - AIRBORNE_BASE)
        return AIR_DONE if AIR_DONE in legal else None

    def _on_strike(self, legal: list[int]) -> int | None:
        picks = [(a, decode(a)) for a in legal if decode(a).kind == "squadron"]
        if not picks:
            return AIR_DONE if AIR_DONE in legal else None
        targets = [t for t in self.enemies() if any(d.target == t.slot for _, d in picks)]
        strike = self._obs["strike"]
        carrier = next((u for u in self.mine() if strike is not None and u.name == strike["carrier"]), None)
        if carrier is not None and targets:
            best = self.rank(carrier, targets)[0]
            picks = [(a, d) for a, d in picks if d.target == best.slot] or picks
            self._explain("SOLO-ADM-3", f"squadron attacks {best.name} (SOLO-ATK-1)")
        return min(picks, key=lambda ad: (ad[1].flag, ad[0]))[0]

    def _on_air_react(self, legal: list[int]) -> int | None:
        """SOLO-ADM-1: a defensive green feature of a unit under air attack (Superior Steel, Protective
        Belt, All or Nothing), paid by its Admiral symbol in the solo mode."""
        assert self._game is not None
        rules = self._game.ruleset.special_rules
        strike = self._obs["strike"]
        if strike is None or strike["attacker"] != self.player:
            for a in legal:
                d = decode(a)
                if d.kind == "activate" and d.side == 0 and 0 <= d.index < len(rules):
                    u = self._by_slot(self.player, d.slot)
                    if rules[d.index].effect in DEFENSIVE and u is not None:
                        self._explain("SOLO-ADM-1", f"Admiral symbol turns on {rules[d.index].name} of {u.name}")
                        return a
        return AIR_DONE if AIR_DONE in legal else DECLINE if DECLINE in legal else None

    # --- naval attack (SOLO-ATK, SOLO-TAB-4, SOLO-ADM) -------------------------------------------------
    def predicted_loss(self) -> dict[int, int]:
        """Structure each enemy slot loses from the orders placed so far (SOLO-ATK-4 bookkeeping)."""
        loss: dict[int, int] = {}
        per_battery: dict[tuple[int, int], list[Decoded]] = {}
        for d in self._orders:
            if d.kind == "fire":
                per_battery.setdefault((d.slot, d.battery), []).append(d)
            elif d.kind in ("torpedo",):
                loss[d.target] = loss.get(d.target, 0) + 1
        for (slot, b), orders in per_battery.items():
            u = self._by_slot(self.player, slot)
            if u is None:
                continue
            bat = u.side.batteries[b]
            doubled = len(orders) == 2 and orders[0].target == orders[1].target
            shots = [(orders[0].target, 2)] if doubled else [(o.target, 1) for o in orders]
            for target_slot, times in shots:
                t = self._by_slot(1 - self.player, target_slot)
                if t is not None and bat.coefficient * times > t.side.armour:
                    loss[target_slot] = loss.get(target_slot, 0) + 1
        return loss

    def doomed(self) -> frozenset[tuple[int, int]]:
        """Enemy units the orders already sink: no longer targets nor blockers (SOLO-ATK-4)."""
        loss = self.predicted_loss()
        return frozenset((1 - self.player, t.slot) for t in self.enemies() if loss.get(t.slot, 0) >= t.structure)

    def _on_attack(self, legal: list[int]) -> int | None:
        action = self._attack_choice(legal)
        if action is not None:
            self._orders.append(decode(action))
        return action

    def _attack_choice(self, legal: list[int]) -> int | None:
        decoded = [(a, decode(a)) for a in legal]
        doomed = self.doomed()
        alive = [e for e in self.enemies() if (e.owner, e.slot) not in doomed]
        # SOLO-ATK-2: from the shortest-ranged unit to the longest
        order = sorted(self.mine(), key=lambda u: (max((b.range for b in u.side.batteries), default=0), u.slot))
        for u in order:
            fires = [(a, d) for a, d in decoded if d.kind == "fire" and d.slot == u.slot]
            torps = [(a, d) for a, d in decoded if d.kind in ("torpedo", "depth_charge") and d.slot == u.slot]
            for a, d in torps:
                if d.kind == "depth_charge":
                    self._explain("SOLO-TAB-4", f"{u.name} drops depth charges on the submarine beneath")
                    return a
            if torps:
                tslots = {d.target for _, d in torps}
                cands = [t for t in alive if t.slot in tslots]
                if cands:
                    best = self.rank(u, cands)[0]
                    why = self.rank_reason(u, best, [c for c in cands if c is not best])
                    self._explain("SOLO-ATK-1", f"{why}: {u.name} torpedoes {best.name}")
                    return self._cheapest([(a, d) for a, d in torps if d.target == best.slot])
            for b, bat in enumerate(u.side.batteries):
                mine_on = [o for o in self._orders if o.kind == "fire" and o.slot == u.slot and o.battery == b]
                options = [(a, d) for a, d in fires if d.battery == b]
                if not options or len(mine_on) >= bat.slots:
                    continue
                if mine_on:
                    prev = mine_on[0].target
                    same = [(a, d) for a, d in options if d.target == prev]
                    prev_unit = self._by_slot(1 - self.player, prev)
                    # SOLO-ATK-3: concentrate (two dice double the battery) unless the target is doomed
                    if (
                        same
                        and prev_unit is not None
                        and (prev_unit.owner, prev) not in self._doomed_without(u.slot, b)
                    ):
                        self._explain("SOLO-ATK-3", f"{u.name}.{bat.name} doubles its fire on {prev_unit.name}")
                        return self._cheapest(same)
                tslots = {d.target for _, d in options}
                cands = [
                    t
                    for t in alive
                    if t.slot in tslots
                    and self.can_hit(u, u.square, bat.range, t, doomed)
                    and bat.coefficient * min(2, bat.slots - len(mine_on), self.artillery_dice(u)) >= t.side.armour
                ]
                if not cands:
                    continue
                best = self.rank(u, cands)[0]
                rivals = [t for t in alive if t.slot in tslots and t is not best]
                why = self.rank_reason(u, best, rivals)
                self._explain(
                    "SOLO-ATK-1", f"{why}: {u.name}.{bat.name} fires at {best.name} (SOLO-TAB-4, in SOLO-ATK-2 order)"
                )
                return self._cheapest([(a, d) for a, d in options if d.target == best.slot])
        act = self._admiral_feature(decoded)
        if act is not None:
            return act
        return COMMIT if COMMIT in legal else None

    def _doomed_without(self, slot: int, battery: int) -> frozenset[tuple[int, int]]:
        """Doomed units not counting the battery's own die (so a first die does not veto its second)."""
        saved = self._orders
        self._orders = [o for o in saved if not (o.kind == "fire" and o.slot == slot and o.battery == battery)]
        try:
            return self.doomed()
        finally:
            self._orders = saved

    def _admiral_feature(self, decoded: list[tuple[int, Decoded]]) -> int | None:
        """SOLO-ADM-1/2: a useful green feature of its own unit, else a red one of an enemy threatening it."""
        assert self._game is not None
        rs = self._game.ruleset
        acts = [(a, d) for a, d in decoded if d.kind == "activate"]
        if not acts:
            return None
        done = {(o.side, o.slot, o.index) for o in self._orders if o.kind == "activate"}
        rules = rs.special_rules
        firing = {o.slot for o in self._orders if o.kind == "fire"}
        torpedoing = {o.slot for o in self._orders if o.kind == "torpedo"}
        for a, d in acts:
            if d.side != 0 or (d.side, d.slot, d.index) in done or not 0 <= d.index < len(rules):
                continue
            u = self._by_slot(self.player, d.slot)
            if u is None:
                continue
            effect = rules[d.index].effect
            threatened = any(self.threat(e, u) for e in self.enemies())
            if (
                (effect in DEFENSIVE and threatened)
                or (effect in OFFENSIVE and u.slot in firing)
                or (effect in TORPEDO_EFFECTS and u.slot in torpedoing)
            ):
                self._explain("SOLO-ADM-1", f"Admiral symbol turns on {rules[d.index].name} of {u.name}")
                return a
        for a, d in acts:
            if d.side != 1 or (d.side, d.slot, d.index) in done or not 0 <= d.index < len(rules):
                continue
            e = self._by_slot(1 - self.player, d.slot)
            if e is None:
                continue
            if any(self.in_range_of(u, u.square, e) for u in self.mine()) and rules[d.index].effect in RED_USEFUL:
                self._explain("SOLO-ADM-2", f"Admiral symbol turns on {rules[d.index].name} of {e.name}")
                return a
        return None

    def _on_criticals(self, legal: list[int]) -> int | None:
        return min(legal)

    def _on_escort_pick(self, legal: list[int]) -> int | None:
        """Torpedo bombers first (their torpedo damage ignores armour), as the engine paired before ADM-AIR-8
        became the defender's choice."""
        first = ESCORT_PICK_BASE + SQUADRON_TYPES.index("torpedo_bomber")
        return first if first in legal else min(legal)

    def _on_aa_pick(self, legal: list[int]) -> int | None:
        """An attack squadron before an escort fighter, which does no damage this turn (ADM-AIR-11)."""
        attack = [a for a in legal if a != AA_PICK_BASE + SQUADRON_TYPES.index("fighter")]
        return min(attack or legal)

    def _fallback(self, legal: list[int]) -> int:
        for a in (COMMIT, PASS, AIR_PASS, AIR_DONE, RESERVE_DONE, DECLINE):
            if a in legal:
                return a
        return min(legal)


__all__ = ["SOLO_TABLE", "Explanation", "StrategoAgent", "Unit", "solo_value"]
