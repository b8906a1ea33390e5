"""The attack assignment (ADM-ATK, ADM-ART, ADM-TORP, ADM-DC): artillery, torpedoes, depth charges, special
rules, and both players' commitment.

One phase of the rules of `rules.AdmiralState` (see `phase_air` for the chain)."""

from __future__ import annotations

from fogofwar.games.admiral.actions import (
    ACTIVATE_BASE,
    DEPTH_CHARGE_BASE,
    FIRE_BASE,
    TORPEDO_BASE,
    Decoded,
    encode_fire,
    encode_torpedo,
)
from fogofwar.games.admiral.data_model import (
    Symbol,
)
from fogofwar.games.admiral.phase_air import AdmiralAir
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Feature,
    Order,
    Phase,
)


class AdmiralAttack(AdmiralAir):
    """The attack assignment."""

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
                        spares = 1 if self._game.torpedo_reload == "once_a_turn" else u.reloads  # ADM-G09
                        if len(already) >= spares or u.torpedoes + len(already) >= u.card.torpedo_mounts:
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
            if c.strike is not None and c.strike.asking is not None:
                self._answered()  # offered after the dice (ADM-AIR-15): the roll is settled with it
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
