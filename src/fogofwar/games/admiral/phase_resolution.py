"""The resolution (ADM-RES, ADM-CRIT, ADM-END): the turn's hits take effect, critical markers are placed, and the
game ends when a fleet is gone or the turn cap is reached.

One phase of the rules of `rules.AdmiralState` (see `phase_air` for the chain); it stands on the views and the
base, and hands the turn back to the setup of the next (`_start_turn`)."""

from __future__ import annotations

from fogofwar.core.protocol import (
    Outcome,
    Termination,
)
from fogofwar.games.admiral.actions import (
    Decoded,
)
from fogofwar.games.admiral.state_model import (
    PLAYER_NAMES,
    Feature,
    Phase,
    UnitState,
    _Hit,
)
from fogofwar.games.admiral.views import AdmiralViews


class AdmiralResolution(AdmiralViews):
    """The resolution and the end of the game."""

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
                    if self._game.torpedo_reload == "spares":  # ADM-G09, Assumption A05
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
