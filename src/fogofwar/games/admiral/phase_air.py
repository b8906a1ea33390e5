"""Aircraft (ADM-AIR): launching squadrons, air attacks, protecting fighters, anti-aircraft fire.

One phase of the rules of `rules.AdmiralState`, which is built on the chain of phase classes
setup -> movement -> attack -> aircraft -> resolution (each earlier in the turn subclasses the next)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from fogofwar.games.admiral.actions import (
    ACTIVATE_BASE,
    AIR_DONE,
    AIRBORNE_BASE,
    LAUNCH_BASE,
    PROTECT_BASE,
    SQUADRON_BASE,
    Decoded,
    encode_squadron,
)
from fogofwar.games.admiral.data_model import (
    SQUADRON_TYPES,
    Symbol,
)
from fogofwar.games.admiral.geometry import (
    KING,
    ORTHOGONAL,
    at,
    neighbours,
    row_col,
)
from fogofwar.games.admiral.phase_resolution import AdmiralResolution
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Phase,
    Sortie,
    UnitState,
    _Strike,
)

AFTER_THE_DICE = ("fighter_reroll", "fighter_wins_ties", "aa_reroll_failures")
"""Effects of air features that change a roll: offered once the dice are seen, to the player they help
(ADM-AIR-15), instead of in the reactions before the fight."""


class AdmiralAir(AdmiralResolution):
    """The aircraft rules."""

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
        if c.strike is not None and c.strike.asking is not None:
            self._answered()  # the feature offered after the dice is declined
            return
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
        if strike.asking is not None:
            _, owner, slot, key = strike.asking
            return [ACTIVATE_BASE + self._activate_code(0 if owner == p else 1, slot, key)]
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
                if "air" not in rule.timing or rule.effect in AFTER_THE_DICE or not self._feature_usable(u, key, p):
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
                strike.duels = []
                strike.rolls = []
                strike.stage = "pairing" if target.where == "board" else "next"
                continue
            if strike.stage == "pairing":
                # ADM-AIR-8: each protecting fighter takes on one attacking squadron, the attacking fighters
                # first; which attack squadrons the others take on is the defender's choice.
                guards, attackers = self._unpaired()
                if not guards or not attackers:
                    strike.stage = "duels"
                    continue
                if len(self._escort_pick_options()) > 1 and len(guards) < len(attackers):
                    c.phase, c.player = Phase.ESCORT_PICK, defender
                    return
                strike.duels.append((guards[0], attackers[0]))
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
                if self._duel_question(guard, raider):
                    return
                self._settle_duel(guard, raider)
                if strike.reroll >= 0 and len(strike.rolls) < 3:
                    continue  # Armoured Fighters: one more roll (ADM-G03)
                strike.duels.pop(0)
                strike.rolls = []
                strike.reroll = -1
                strike.asked = []
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
                if hits < strike.aa_dice and self._ask(defender, carrier, "aa_reroll_failures"):
                    return
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

    def _duel_question(self, guard: int, raider: int) -> bool:
        """Offer a fighter feature that would change the duel just rolled (ADM-AIR-15): on a tie Superior
        Fighters, the defender first (ADM-G04); to the loser Armoured Fighters (ADM-G03). True if asked."""
        c = self._core
        strike = c.strike
        assert strike is not None
        if c.sorties[raider].kind != self._fighter() or strike.reroll >= 0:
            return False
        die = self._rs.die
        sg, sr = die.duel_strength(strike.rolls[0]), die.duel_strength(strike.rolls[1])
        sides = (c.sorties[guard], c.sorties[raider])
        if sg == sr:
            wanted = [(s, "fighter_wins_ties") for s in sides]
        else:
            wanted = [(sides[1] if sg > sr else sides[0], "fighter_reroll")]
        return any(self._ask(s.owner, c.units[s.owner][s.carrier], effect) for s, effect in wanted)

    def _ask(self, player: int, u: UnitState, effect: str) -> bool:
        """Ask `player` whether to spend an Admiral die now on `u`'s feature with `effect`, if it has one that
        is usable, not yet offered for this roll and payable; True if the question is posed."""
        c = self._core
        strike = c.strike
        assert strike is not None
        side = 0 if u.owner == player else 1
        for key in u.card.green if side == 0 else u.card.red:
            if self._rs.rule(key).effect != effect or (u.owner, u.slot, key) in strike.asked:
                continue
            if not self._feature_usable(u, key, player) or not self._symbol_payable(player, u):
                continue
            if player != self._solo and not self._can_pay(player, [], 1):
                continue
            if any(f.owner == u.owner and f.slot == u.slot and f.key == key for f in c.features):
                continue
            strike.asking = (player, u.owner, u.slot, key)
            c.phase, c.player = Phase.AIR_REACT, player
            return True
        return False

    def _answered(self) -> None:
        """The player offered a feature after the dice has activated it or declined: the roll is settled."""
        c = self._core
        strike = c.strike
        assert strike is not None and strike.asking is not None
        _, owner, slot, key = strike.asking
        strike.asked.append((owner, slot, key))
        strike.asking = None
        self._air_run()

    def _unpaired(self) -> tuple[list[int], list[int]]:
        """The current target's protecting fighters and attacking squadrons not yet paired for a duel."""
        c = self._core
        strike = c.strike
        assert strike is not None
        target = strike.targets[strike.index]
        paired = {i for pair in strike.duels for i in pair}
        guards = [
            i
            for i, s in enumerate(c.sorties)
            if s.owner != strike.attacker and s.role == "cap" and s.alive and s.ship == target and i not in paired
        ]
        return guards, [i for i in self._strike_sorties(target) if i not in paired]

    def _escort_pick_options(self) -> list[int]:
        """Types of attacking squadron the next protecting fighter may take on: a fighter while any is left
        unpaired, else any attack squadron (ADM-AIR-8)."""
        kinds = sorted({self._core.sorties[i].kind for i in self._unpaired()[1]})
        return [self._fighter()] if self._fighter() in kinds else kinds

    def _escort_pick(self, d: Decoded) -> None:
        c = self._core
        strike = c.strike
        assert strike is not None
        guards, attackers = self._unpaired()
        raider = next(i for i in attackers if c.sorties[i].kind == d.index)
        strike.duels.append((guards[0], raider))
        self._air_run()

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
        """Types of the attacking squadrons an anti-aircraft hit may destroy: any that got through, escort
        fighters too (ADM-AIR-12: "each die ... destroys one attacking squadron"; the defender chooses)."""
        c = self._core
        strike = c.strike
        assert strike is not None
        return sorted(
            {c.sorties[i].kind for i in self._strike_sorties(strike.targets[strike.index]) if not c.sorties[i].held}
        )

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


def _replace(sortie: Sortie, **changes: Any) -> Sortie:
    return dataclasses.replace(sortie, **changes)
