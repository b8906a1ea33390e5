"""The movement phase (ADM-MOVE, ADM-REP, ADM-SUB-3/7): where a unit may go, moves, repairs, reactions and
passing; and in the solo mode Admiral Stratego's units acting one at a time by the decision table (SOLO-DICE,
SOLO-TAB, SOLO-MOVE).

One phase of the rules of `rules.AdmiralState` (see `phase_air` for the chain)."""

from __future__ import annotations

from fogofwar.games.admiral.actions import (
    ACTIVATE_BASE,
    EXTRA_DRAUGHT,
    EXTRA_SMOKE_HORIZONTAL,
    EXTRA_SMOKE_VERTICAL,
    HOLD_BASE,
    MOVE_BASE,
    NUM_SQUARES,
    REPAIR_BASE,
    SIDE_CHANGE_AFTER,
    SIDE_CHANGE_BEFORE,
    SIDE_CHANGE_NONE,
    Decoded,
    encode_move,
    encode_repair,
)
from fogofwar.games.admiral.data_model import (
    SoloRow,
    Symbol,
)
from fogofwar.games.admiral.geometry import (
    KING,
    ORTHOGONAL,
    l_path,
    neighbours,
    row_col,
)
from fogofwar.games.admiral.phase_attack import AdmiralAttack
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Feature,
    Phase,
    UnitState,
)


class AdmiralMovement(AdmiralAttack):
    """The movement phase, and the solo mode's go for each unit."""

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
