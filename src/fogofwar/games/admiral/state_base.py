"""The part of an Admiral state every phase's rules stand on: the state's data (set up for a new game), the die's
faces and the units, features and critical markers as the rules look them up. It calls no phase's rules: those
are `rules.AdmiralState`'s, built on this."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from fogofwar.core.protocol import CHANCE, JSON, TERMINAL, Outcome
from fogofwar.games.admiral.actions import Decoded, encode_activate
from fogofwar.games.admiral.data_model import SQUADRON_TYPES, Ruleset, SoloRow, SpecialRule, Symbol
from fogofwar.games.admiral.geometry import crossed, distance, row_col
from fogofwar.games.admiral.state_model import CHANCE_PHASES, PLAYER_NAMES, Order, Phase, UnitState, _Core, _Hit

if TYPE_CHECKING:
    from fogofwar.games.admiral.rules import AdmiralGame


class AdmiralBase:
    """The data of an Admiral position and the lookups of its dice and units (see the module docstring)."""

    def __init__(self, game: AdmiralGame) -> None:
        self._game = game
        self._rs = game.ruleset
        self._terrain = game.terrain
        units = [
            [
                UnitState(
                    p,
                    i,
                    card,
                    structure=card.structure,
                    torpedoes=card.torpedo_mounts,
                    reloads=card.torpedo_reloads,
                    squadrons=tuple(card.squadron_count(k) for k in SQUADRON_TYPES),
                )
                for i, card in enumerate(game.fleets[p].units)
            ]
            for p in (0, 1)
        ]
        self._solo = game.solo_seat
        first = 0 if self._solo is None else 1 - self._solo  # the human deploys first (SOLO-SET-2)
        self._core = _Core(phase=Phase.DEPLOY, player=first, units=units)
        self._history: list[int] = []
        self._undo: list[tuple[int, _Core]] = []  # checkpoints: (actions played before it, the core then)
        self._position: dict[str, JSON] | None = None
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] = frozenset()
        self._map_cache: tuple[dict[int, UnitState], dict[int, UnitState]] | None = None
        self._count_cache: list[list[int]] | None = None
        self._faces_cache: dict[Symbol, tuple[int, ...]] = {}

    # --- what the state is now ---------------------------------------------------------------------------
    @property
    def game(self) -> AdmiralGame:
        return self._game

    @property
    def phase(self) -> Phase:
        """Where the turn stands (a `Phase`, which is also its name as a string)."""
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
        if self._is_chance():
            return CHANCE
        return c.player

    def _is_chance(self) -> bool:
        """Dice, and in the solo mode the draws from Stratego's shuffled deck (SOLO-SET-2)."""
        c = self._core
        return c.phase in CHANCE_PHASES or (c.phase == Phase.DEPLOY and c.player == self._solo)

    def is_terminal(self) -> bool:
        return self._core.outcome is not None

    def outcome(self) -> Outcome | None:
        return self._core.outcome

    def returns(self) -> list[float]:
        o = self._core.outcome
        return o.returns(2) if o is not None else [0.0, 0.0]

    def _name(self, player: int, slot: int) -> str:
        u = self._unit(player, slot)
        return u.card.name if u is not None else f"#{slot}"

    def solo_order(self) -> list[UnitState]:
        """Stratego's units still to act this turn, slowest first (SOLO-MOVE-1; ties by fleet order)."""
        c = self._core
        s = self._solo
        if s is None or not c.solo_rows:
            return []
        waiting = [u for u in self._on_board(s) if u.slot < len(c.solo_rows) and c.solo_rows[u.slot] == -1]
        return sorted(waiting, key=lambda u: (u.side.movement, u.slot))

    def solo_unit_row(self, slot: int) -> SoloRow | None:
        """The decision-table entry Stratego's unit `slot` got this turn (None before it acts)."""
        c = self._core
        if not 0 <= slot < len(c.solo_rows) or c.solo_rows[slot] < 0:
            return None
        return self._rs.die.solo_rows[c.solo_rows[slot]]

    # --- hand-overs between the phases -------------------------------------------------------------------
    # A turn runs deployment/initiative -> movement -> attack -> aircraft -> resolution and round again; each
    # phase's rules are a class of their own, chained in that order under `rules.AdmiralState`. A phase hands the
    # turn on by calling the next phase's entry; those a phase earlier in the chain calls are declared here and
    # defined by the phase that takes over.
    def _start_turn(self) -> None:
        """The next turn: reserve entries, then the initiative roll (`phase_setup`)."""
        raise NotImplementedError

    def _start_naval(self) -> None:
        """The naval attack assignment, once the air is done (`phase_attack`)."""
        raise NotImplementedError

    def _air_run(self) -> None:
        """Resolve the current air attack until a player or the dice must speak (`phase_air`)."""
        raise NotImplementedError

    def _decline(self, d: Decoded) -> None:
        """Decline a reaction (`phase_movement`)."""
        raise NotImplementedError

    # --- dice ---------------------------------------------------------------------------------------------
    def faces_for(self, symbol: Symbol) -> tuple[int, ...]:
        """Faces that may be spent as `symbol`: those showing it, and the Admiral wildcard (ADM-DICE-3c).

        The Admiral symbol itself has no wildcard: `faces_for(ADMIRAL)` is the faces showing it.
        """
        cached = self._faces_cache.get(symbol)
        if cached is None:
            faces = self._rs.die.faces
            cached = tuple(
                f.index for f in faces if f.shows(symbol) or (symbol is not Symbol.ADMIRAL and f.shows(Symbol.ADMIRAL))
            )
            self._faces_cache[symbol] = cached
        return cached

    def face_label(self, face: int) -> str:
        return _face_labels(self._rs)[face]

    def _is_admiral(self, face: int) -> bool:
        return self._rs.die.faces[face].shows(Symbol.ADMIRAL)

    def _pay(
        self,
        player: int,
        faces: Iterable[int],
        admirals: int = 0,
        unit: int = -1,
        symbol: Symbol | None = None,
        payers: Iterable[int] | None = None,
    ) -> list[int] | None:
        """Unused dice of `player` to spend: one showing each of `faces`, then `admirals` more Admiral dice
        (the first unused die of each face); None if the pool cannot pay.

        For Stratego's seat in the solo mode (SOLO-DICE): the dice for `faces` must be assigned to `unit` and
        spendable as `symbol`, and the extra Admirals are Admiral symbols of the units in `payers` (default:
        `unit`) (SOLO-ADM)."""
        c = self._core
        pool, uses = c.pools[player], c.uses[player]
        if player == self._solo:
            bound, values = c.bound[player], c.values[player]
            who = {unit} if payers is None else set(payers)

            def for_face(i: int) -> bool:
                return bound[i] == unit and self._solo_spendable(values[i], pool[i], symbol)

            def for_admiral(i: int) -> bool:
                return values[i] == "symbol" and bound[i] in who

        else:

            def for_face(i: int) -> bool:
                return True

            def for_admiral(i: int) -> bool:
                return self._is_admiral(pool[i])

        chosen: list[int] = []
        for face in faces:
            i = next(
                (i for i, f in enumerate(pool) if f == face and not uses[i] and i not in chosen and for_face(i)), None
            )
            if i is None:
                return None
            chosen.append(i)
        for _ in range(admirals):
            i = next((i for i in range(len(pool)) if not uses[i] and i not in chosen and for_admiral(i)), None)
            if i is None:
                return None
            chosen.append(i)
        return chosen

    def _solo_spendable(self, value: str, face: int, symbol: Symbol | None) -> bool:
        """Whether a die of Stratego's pool may be spent as `symbol` (SOLO-TAB: the value the table gave it)."""
        if value in ("pending", "symbol"):
            return False
        if value:
            return symbol is None or value == symbol.value
        return symbol is None or face in self.faces_for(symbol)

    def _assigned_faces(self, player: int, slot: int, symbol: Symbol) -> list[int]:
        """Solo mode: the faces (in `faces_for` order) of the unused dice assigned to Stratego's unit `slot`
        that may be spent as `symbol`: those `_can_pay(player, [f], 0, slot, symbol)` accepts, in one scan."""
        c = self._core
        ok = {
            f
            for f, used, bound, value in zip(
                c.pools[player], c.uses[player], c.bound[player], c.values[player], strict=True
            )
            if not used and bound == slot and self._solo_spendable(value, f, symbol)
        }
        return [f for f in self.faces_for(symbol) if f in ok]

    def _can_pay(
        self,
        player: int,
        faces: Iterable[int],
        admirals: int = 0,
        unit: int = -1,
        symbol: Symbol | None = None,
        payers: Iterable[int] | None = None,
    ) -> bool:
        """Whether `_pay` would succeed (counts only: fast, for listing legal actions). Stratego's dice are
        bound to units and values (solo mode), so there it asks `_pay` itself."""
        if player == self._solo:
            return self._pay(player, faces, admirals, unit, symbol, payers) is not None
        if self._count_cache is None:
            n = len(self._rs.die.faces)
            cache = []
            for p in (0, 1):
                counts = [0] * n
                for f, u in zip(self._core.pools[p], self._core.uses[p], strict=True):
                    if not u:
                        counts[f] += 1
                cache.append(counts)
            self._count_cache = cache
        counts = list(self._count_cache[player])
        for f in faces:
            if counts[f] == 0:
                return False
            counts[f] -= 1
        return admirals == 0 or sum(counts[f] for f in self.faces_for(Symbol.ADMIRAL)) >= admirals

    def _spend(self, player: int, dice: Iterable[int], purpose: str) -> tuple[int, ...]:
        c = self._core
        out = []
        for i in dice:
            if c.uses[player][i]:  # pragma: no cover - _pay never offers a spent die
                raise AssertionError(f"die {i} of {PLAYER_NAMES[player]} is spent twice")
            c.uses[player][i] = purpose
            out.append(i)
        self._count_cache = None
        return tuple(out)

    def _free_faces(self, player: int) -> set[int]:
        c = self._core
        return {f for f, u in zip(c.pools[player], c.uses[player], strict=True) if not u}

    def dice(self, player: int) -> list[tuple[str, str]]:
        """(face, use) of each action die of `player` this turn; use '' while the die is unused."""
        c = self._core
        return [(self.face_label(f), u) for f, u in zip(c.pools[player], c.uses[player], strict=True)]

    def _add_die(self, player: int, face: int, unit: int = -1, value: str = "") -> None:
        c = self._core
        c.pools[player].append(face)
        c.uses[player].append("")
        c.bound[player].append(unit)
        c.values[player].append(value)
        self._count_cache = None

    def _clear_dice(self) -> None:
        c = self._core
        c.pools, c.uses, c.bound, c.values = [[], []], [[], []], [[], []], [[], []]
        self._count_cache = None

    # --- units, features and criticals -----------------------------------------------------------------
    def _unit(self, player: int, slot: int) -> UnitState | None:
        units = self._core.units[player]
        return units[slot] if 0 <= slot < len(units) else None

    def _on_board(self, player: int) -> list[UnitState]:
        return [u for u in self._core.units[player] if u.where == "board"]

    def _maps(self) -> tuple[dict[int, UnitState], dict[int, UnitState]]:
        """{square: surface unit} and {square: submerged submarine}, cached until the state changes."""
        if self._map_cache is None:
            surface: dict[int, UnitState] = {}
            below: dict[int, UnitState] = {}
            for fleet in self._core.units:
                for u in fleet:
                    if u.where == "board":
                        (below if u.submerged else surface)[u.square] = u
            self._map_cache = (surface, below)
        return self._map_cache

    def _changed(self) -> None:
        self._legal = None
        self._map_cache = None
        self._count_cache = None

    def _surface_at(self, square: int, other_than: UnitState | None = None) -> UnitState | None:
        u = self._maps()[0].get(square)
        return None if u is other_than else u

    def _submerged_at(self, square: int, other_than: UnitState | None = None) -> UnitState | None:
        u = self._maps()[1].get(square)
        return None if u is other_than else u

    def _submarine_at(self, square: int, other_than: UnitState | None = None) -> UnitState | None:
        surface, below = self._maps()
        for u in (surface.get(square), below.get(square)):
            if u is not None and u.card.is_submarine and u is not other_than:
                return u
        return None

    def disabled(self, unit: UnitState, characteristic: str) -> bool:
        """A critical marker placed last turn blocks the characteristic this turn (ADM-CRIT-2)."""
        return any(ch == characteristic and placed == self._core.turn - 1 for ch, placed in unit.criticals)

    def _rule_index(self, key: str) -> int:
        return next(i for i, r in enumerate(self._rs.special_rules) if r.key == key)

    def _active(self, unit: UnitState, effect: str, viewer: int | None = None) -> list[SpecialRule]:
        """Special rules with `effect` activated this turn on `unit` (as `viewer` knows them: without the
        other player's secret activations, ADM-ATK-2)."""
        out = []
        for f in self._core.features:
            if viewer is not None and f.secret and f.by != viewer:
                continue
            if f.owner == unit.owner and f.slot == unit.slot:
                rule = self._rs.rule(f.key)
                if rule.effect == effect:
                    out.append(rule)
        return out

    def _effect_total(self, unit: UnitState, effect: str, viewer: int | None = None) -> int:
        return sum(r.value or 0 for r in self._active(unit, effect, viewer))

    def _feature_usable(self, unit: UnitState, key: str, by: int) -> bool:
        """`by` may spend an Admiral die on `unit`'s feature `key`: green on own units, red on the
        opponent's (ADM-DICE-3); a green feature with a critical marker cannot be used (ADM-CRIT-2)."""
        if unit.where != "board":
            return False
        if unit.owner == by:
            return key in unit.card.green and not self.disabled(unit, key)
        return key in unit.card.red

    def _has_feature_effect(self, unit: UnitState, effect: str) -> str | None:
        """The key of a green feature of `unit` with `effect`, usable now by its owner."""
        for key in unit.card.green:
            if self._rs.rule(key).effect == effect and not self.disabled(unit, key):
                return key
        return None

    def _in_fog(self, unit: UnitState) -> bool:
        """On a terrain card that prevents combat, unless a submerged submarine immune to it (ADM-TERR-4/5)."""
        t = self._terrain.get(unit.square)
        return t is not None and t.prevents_combat and not (unit.submerged and t.submerged_immune)

    # --- reach, fire and hits: what the attack rules look up -------------------------------------------
    def _activate_code(self, side: int, slot: int, key: str) -> int:
        return encode_activate(side, slot, self._rule_index(key))

    def _armour(self, target: UnitState, beyond_half: bool, viewer: int | None = None) -> int:
        armour = target.side.armour + self._effect_total(target, "armour", viewer)
        if beyond_half:
            armour += self._effect_total(target, "armour_vs_long_range_or_bombers", viewer)
        return max(0, armour)

    def _artillery_hits(self, p: int, viewer: int | None = None) -> list[_Hit]:
        c = self._core
        groups: dict[tuple[int, int], list[Order]] = {}
        for o in c.orders[p]:
            if o.kind == "fire":
                groups.setdefault((o.unit, o.battery), []).append(o)
        hits = []
        metric = self._rs.board.range_metric
        for (slot, b), orders in groups.items():
            u = c.units[p][slot]
            bat = u.side.batteries[b]
            if len(orders) == 2 and orders[0].target == orders[1].target:
                shots = [(orders[0].target, 2, 2)]  # two dice on one battery double it (ADM-ART-6)
            else:
                shots = [(o.target, 1, 1) for o in orders]  # one die, or split fire (ADM-ART-7)
            reach = self._battery_range(u, bat.range)
            for target_slot, times, slots in shots:
                target = c.units[1 - p][target_slot]
                within = 2 * distance(u.square, target.square, metric) <= reach  # ADM-ART-11
                coefficient = bat.coefficient * times
                if within:
                    if self._game.rate_of_fire == "battery_slots":  # ADM-G05, the other reading
                        slots = bat.slots
                    coefficient += self._effect_total(u, "coefficient_per_slot_within_half_range", viewer) * slots
                else:
                    coefficient += self._effect_total(u, "coefficient_beyond_half_range", viewer)
                coefficient = max(0, coefficient)
                armour = self._armour(target, beyond_half=not within, viewer=viewer)
                loss = 1 if coefficient > armour else 0
                effect = (
                    "critical and 1 structure point" if loss else "critical" if coefficient >= armour else "no effect"
                )
                text = (
                    f"{u.card.name}'s {bat.name} battery hits {target.card.name}: coefficient {coefficient} "
                    f"against armour {armour}: {effect}"
                )
                hits.append(_Hit(p, target_slot, coefficient >= armour, loss, False, text))
        return hits

    def _battery_range(self, u: UnitState, printed: int) -> int:
        return printed + self._effect_total(u, "artillery_range")

    def _enemy_sub_under(self, u: UnitState) -> UnitState | None:
        sub = self._submerged_at(u.square, u)
        return sub if sub is not None and sub.owner != u.owner else None

    def _line_of_sight(self, origin: int, target: UnitState, ignore: frozenset[tuple[int, int]] = frozenset()) -> bool:
        """Nothing that could hide `target` lies across the line (ADM-ART-3); units in `ignore` (owner, slot)
        do not block it (the units Stratego's orders already sink, SOLO-ATK-4)."""
        size = self._size_class(target)
        smoke = self._core.smoke
        for s in crossed(origin, target.square):
            t = self._terrain.get(s)
            if (t is not None and t.blocks_line_of_sight) or s in smoke:
                return False
            blocker = self._surface_at(s)
            if blocker is None or (blocker.owner, blocker.slot) in ignore:
                continue
            if self._size_class(blocker) >= size:
                return False
        return True

    def _size_class(self, u: UnitState) -> int:
        """The unit's size class (ADM-UNIT-4): its side's printed one, or with the option `size_class="current"`
        that less the structure points it has lost (a submerged submarine stays at 0)."""
        size = u.side.size_class
        if self._game.size_class == "current":
            size = max(0, size - (u.card.structure - u.structure))
        return size

    def _movement_faces(self, player: int) -> tuple[int, ...]:
        """Faces `player` may spend as a Movement result now: after declining, Admiral dice only (ADM-MOVE-5)."""
        if self._core.forfeited[player]:
            return self.faces_for(Symbol.ADMIRAL)
        return self.faces_for(Symbol.MOVEMENT)

    def _occupied_by_surface(self) -> set[int]:
        return {u.square for fleet in self._core.units for u in fleet if u.where == "board" and not u.submerged}

    def _symbol_payable(self, p: int, u: UnitState) -> bool:
        """Solo mode: some unit of Stratego (`p`) has a free Admiral symbol for a feature of `u` (SOLO-ADM);
        True for a player of the normal rules, whose Admiral dice the callers have already checked."""
        return p != self._solo or self._can_pay(p, [], 1, payers=self._symbol_payers(p, u))

    def _symbol_payers(self, p: int, unit: UnitState) -> tuple[int, ...]:
        """Solo mode: the units of Stratego (`p`) whose Admiral symbol may turn on a feature of `unit`: a green
        feature of its own unit (SOLO-ADM-1), a red feature of an enemy that has them in range (SOLO-ADM-2).
        A carrier that still carries squadrons keeps its symbol for launching them (SOLO-ADM-3)."""
        if p != self._solo:
            return ()
        mine = [u for u in self._on_board(p) if not sum(u.squadrons)]
        if unit.owner == p:
            return tuple(u.slot for u in mine if u.slot == unit.slot)
        return tuple(u.slot for u in mine if self.has_in_range(unit, u))

    def _torpedo_hits(self, p: int, viewer: int | None = None) -> list[_Hit]:
        c = self._core
        hits = []
        spoiled: set[int] = set()
        for o in c.orders[p]:
            if o.kind != "torpedo":
                continue
            u = c.units[p][o.unit]
            target = c.units[1 - p][o.target]
            faulty = [
                f
                for f in c.features
                if f.owner == p
                and f.slot == u.slot
                and self._rs.rule(f.key).effect == "spoil_mount"
                and not (viewer is not None and f.secret and f.by != viewer)
            ]
            if faulty and u.slot not in spoiled:
                spoiled.add(u.slot)  # Faulty Torpedoes: one torpedo of the unit does nothing (ADM-R05)
                hits.append(
                    _Hit(
                        p,
                        o.target,
                        False,
                        0,
                        False,
                        f"{u.card.name}'s torpedo at {target.card.name} is faulty: no effect (ADM-R05)",
                    )
                )
                continue
            belt = self._active(target, "torpedo_no_structure_loss", viewer) and not self._active(
                u, "ignore_protective_belt", viewer
            )
            loss = 0 if belt else 1
            text = f"{u.card.name}'s torpedo hits {target.card.name}: critical" + (
                " (Protective Belt: no structure loss)" if belt else " and 1 structure point"
            )
            hits.append(_Hit(p, o.target, True, loss, False, text))
        return hits

    def _torpedo_targets(self, u: UnitState) -> list[UnitState]:
        """Enemy units `u` may torpedo: beside it in its row, or all round a submerged submarine
        (ADM-TORP-1, ADM-SUB-4), one square further with Excellent Torpedoes (ADM-G10)."""
        if self._in_fog(u):
            return []
        reach = 1 + self._effect_total(u, "torpedo_range")
        r0, c0 = row_col(u.square)
        out = []
        for t in self._on_board(1 - u.owner):
            if (t.submerged and not u.submerged) or self._in_fog(t):
                continue  # a submerged boat is safe from surface units, not from another one (ADM-SUB-5)
            r1, c1 = row_col(t.square)
            if u.submerged:
                if max(abs(r1 - r0), abs(c1 - c0)) > reach or t.square == u.square:
                    continue
            elif r1 != r0 or not 0 < abs(c1 - c0) <= reach:
                continue
            if any(
                (tt := self._terrain.get(s)) is not None and tt.blocks_torpedoes for s in crossed(u.square, t.square)
            ):
                continue  # a two-square run cannot cross an island or a sandbank (ADM-TERR-7)
            out.append(t)
        return out

    def _torpedoes_available(self, u: UnitState) -> int:
        """Torpedoes `u` may still launch this turn (ADM-TORP-3/4, ADM-SUB-6, ADM-G09)."""
        c = self._core
        reloaded = sum(
            1
            for o in c.orders[u.owner]
            if o.kind == "activate"
            and not o.enemy
            and o.unit == u.slot
            and self._rs.rule(o.rule).effect == "reload_mount"
        )
        supply = u.torpedoes + reloaded
        if u.card.is_submarine:
            supply = max(supply, 1)
        launched = sum(1 for o in c.orders[u.owner] if o.kind == "torpedo" and o.unit == u.slot)
        return supply - launched

    def can_fire_at(
        self, u: UnitState, battery_range: int, target: UnitState, ignore: frozenset[tuple[int, int]] = frozenset()
    ) -> bool:
        """Target rules of artillery (ADM-ART-2..4): in range, in sight, not submerged, not in fog."""
        if target.where != "board" or target.submerged or self._in_fog(target) or self._in_fog(u):
            return False
        if distance(u.square, target.square, self._rs.board.range_metric) > battery_range:
            return False
        return self._line_of_sight(u.square, target, ignore)

    def doomed(self, p: int) -> frozenset[tuple[int, int]]:
        """(owner, slot) of the enemy units `p`'s attack orders so far would sink in the resolution, as `p`
        knows them (without the opponent's secret features). In the solo mode these are no longer valid
        targets of Stratego's units and do not block their line of sight (SOLO-ATK-4)."""
        c = self._core
        loss: dict[int, int] = {}
        for h in self._artillery_hits(p, viewer=p) + self._torpedo_hits(p, viewer=p):
            loss[h.target] = loss.get(h.target, 0) + h.structure
        sunk = {o.target for o in c.orders[p] if o.kind == "depth_charge"}
        return frozenset(
            (1 - p, t.slot) for t in self._on_board(1 - p) if t.slot in sunk or loss.get(t.slot, 0) >= t.structure
        )

    def has_in_range(self, enemy: UnitState, u: UnitState) -> bool:
        """Whether `enemy` threatens `u` now: one of its batteries may fire at it, its torpedoes reach it, or
        it carries squadrons (aircraft reach the whole battlefield) (SOLO-ADM-2 reading)."""
        if enemy.where != "board" or u.where != "board":
            return False
        if sum(enemy.squadrons) and not u.submerged:
            return True
        for bat in enemy.side.batteries:
            if self.can_fire_at(enemy, self._battery_range(enemy, bat.range), u):
                return True
        return bool(enemy.card.torpedo_mounts) and any(t.slot == u.slot for t in self._torpedo_targets(enemy))


@cache
def _face_labels(ruleset: Ruleset) -> tuple[str, ...]:
    return tuple("+".join(s.value for s in f.symbols) for f in ruleset.die.faces)
