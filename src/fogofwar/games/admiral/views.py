"""What players see of an Admiral position: each seat's observation (own units always, the enemy's after the
reveal, every die, the opponent's attack only once both have committed) and its plain-text drawing. Reads the
state; changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from fogofwar.core import inputs
from fogofwar.core.protocol import JSON, Observation
from fogofwar.games.admiral.actions import NUM_SQUARES
from fogofwar.games.admiral.data_model import BOARD_SIZE, SQUADRON_TYPES, square_name
from fogofwar.games.admiral.observation import (
    AdmiralView,
    CellView,
    DieView,
    FeatureView,
    FleetView,
    PendingCriticalView,
    SoloRowView,
    SoloView,
    SortieView,
    StrikeView,
    UnitView,
    admiral_view,
)
from fogofwar.games.admiral.state_base import AdmiralBase
from fogofwar.games.admiral.state_model import PLAYER_NAMES, Feature, Order, Phase, Sortie, UnitState

_TERRAIN_MARK = {"island": "##", "shallows": "::", "fog_bank": "~~", "sandbank": ".."}


class AdmiralViews(AdmiralBase):
    """The observations of an Admiral state (the rules are `rules.AdmiralState`'s, which builds on this)."""

    # --- what players see ---------------------------------------------------------------------------
    def units(self, player: int) -> list[UnitState]:
        """`player`'s units with their full state (not for the opponent during deployment)."""
        return [u.copy() for u in self._core.units[player]]

    def unit(self, player: int, name: str) -> UnitState:
        """A copy of `player`'s unit called `name`."""
        for u in self._core.units[player]:
            if u.card.name == name:
                return u.copy()
        raise KeyError(name)

    def units_at(self, square: int) -> list[UnitState]:
        """Units on `square`: at most one surface unit and one submerged submarine."""
        return [u.copy() for f in self._core.units for u in f if u.where == "board" and u.square == square]

    def orders(self, player: int) -> list[Order]:
        """`player`'s attack assignment this turn (full information: not for the opponent)."""
        return list(self._core.orders[player])

    def sorties(self) -> list[Sortie]:
        """Squadrons in the air this turn (public)."""
        return list(self._core.sorties)

    def features(self) -> list[Feature]:
        """Special rules activated this turn (full information: secret ones included)."""
        return list(self._core.features)

    def _hidden_from(self, viewer: int, owner: int) -> bool:
        """`owner`'s attack assignment is secret from `viewer` until both have committed (ADM-ATK-1)."""
        return viewer != owner and self._core.phase == Phase.ATTACK

    def _order_text(self, p: int, o: Order) -> str:
        c = self._core
        u = c.units[1 - p if o.enemy else p][o.unit]
        dice = ", ".join(
            "admiral symbol" if c.values[p][i] == "symbol" else self.face_label(c.pools[p][i]) for i in o.dice
        )
        if o.kind == "activate":
            return f"{u.card.name}: {self._rs.rule(o.rule).name} ({dice})"
        target = c.units[1 - p][o.target].card.name
        if o.kind == "fire":
            return f"{u.card.name}.{u.side.batteries[o.battery].name} > {target} ({dice})"
        if o.kind == "torpedo":
            return f"{u.card.name} torpedo > {target} ({dice})"
        return f"{u.card.name} depth charges > {target} ({dice})"

    def view(self, player: int) -> AdmiralView:
        """What `player` sees now, typed: `observation(player).data` as its schema says."""
        return admiral_view(self.observation(player).data)

    def observation(self, player: int) -> Observation:
        """Own units always; the enemy's after the reveal (ADM-SETUP-3); every die roll; the opponent's
        attack assignment (orders, the dice they spent, secret features) only once both have committed
        (ADM-ATK-1, ADM-GEN-5). Submerged submarines are public (ADM-SUB-9)."""
        player = inputs.seat(player, PLAYER_NAMES)
        c = self._core
        revealed = c.phase != Phase.DEPLOY
        by_square: dict[int, list[UnitView]] = {}
        for fleet in c.units:
            for u in fleet:
                if u.where == "board" and (u.owner == player or revealed):
                    by_square.setdefault(u.square, []).append(self._unit_json(u))
        cells: list[CellView] = []
        for sq in range(NUM_SQUARES):
            terrain = self._terrain.get(sq)
            here = by_square.get(sq, [])
            cells.append({"terrain": terrain.id if terrain else None, "units": here, "smoke": sq in c.smoke})
        fleets: list[FleetView] = []
        for p in (0, 1):
            visible = p == player or revealed
            hidden = self._hidden_from(player, p)
            dice: list[DieView] = [
                {"face": self.face_label(f), "used": None if (hidden and u.startswith("attack:")) or not u else u}
                for f, u in zip(c.pools[p], c.uses[p], strict=True)
            ]
            if p == self._solo:  # each die's unit and what it is spent as (SOLO-DICE, SOLO-TAB, SOLO-ADM)
                for entry, slot, value in zip(dice, c.bound[p], c.values[p], strict=True):
                    entry["unit"] = self._name(p, slot) if slot >= 0 else None
                    entry["as"] = value or None
            fleets.append(
                {
                    "faction": self._game.fleets[p].faction,
                    "units": len(c.units[p]),
                    "reserve": [u.card.name for u in c.units[p] if u.where == "reserve"] if visible else None,
                    "to_place": [u.card.name for u in c.units[p] if u.where == "unplaced"] if visible else None,
                    "sunk": [u.card.name for u in c.units[p] if u.where == "sunk"],
                    "dice": dice,
                    "forfeited": c.forfeited[p],
                    "committed": c.committed[p],
                    "orders": None if hidden else [self._order_text(p, o) for o in c.orders[p]],
                }
            )
        features: list[FeatureView] = [
            {"unit": c.units[f.owner][f.slot].card.name, "owner": f.owner, "feature": f.key, "by": f.by}
            for f in c.features
            if not (f.secret and f.by != player)
        ]
        pending: PendingCriticalView | None = None
        if c.phase == Phase.CRITICALS and c.pending:
            attacker, owner, slot = c.pending[0]
            pending = {"attacker": attacker, "unit": c.units[owner][slot].card.name, "owner": owner}
        data: AdmiralView = {
            "game": "admiral",
            "player": player,
            "phase": c.phase.value,
            "turn": c.turn,
            "to_move": self.current_player(),
            "board": cells,
            "fleets": fleets,
            "initiative": {
                "rolls": [[self.face_label(f) for f in r] for r in c.rolls],
                "admirals": list(c.admirals),
                "round": c.initiative_rounds,
                "winner": c.initiative_winner,
            },
            "first_player": c.first_player,
            "features": features,
            "pending_critical": pending,
            "air": [self._sortie_json(x) for x in c.sorties],
            "strike": self._strike_json(),
            "report": list(c.report),
            "outcome": c.outcome.to_json() if c.outcome is not None else None,
            "solo": self._solo_json(),
        }
        return Observation(player, cast(dict[str, JSON], data), render_text)

    def _solo_json(self) -> SoloView | None:
        """Solo mode (public): Stratego's seat, its acting unit, the table row each unit got, the units still to
        act (slowest first)."""
        s = self._solo
        if s is None:
            return None
        c = self._core
        rows: dict[str, SoloRowView] = {}
        for slot in range(len(c.solo_rows)):
            row = self.solo_unit_row(slot)
            if row is not None:
                rows[self._name(s, slot)] = {
                    "id": row.id,
                    "in_range": row.in_range,
                    "admiral": row.admiral.value,
                    "hold": row.hold,
                    "text": row.text,
                }
        return {
            "seat": s,
            "acting": self._name(s, c.solo_acting) if c.solo_acting >= 0 else None,
            "rows": rows,
            "to_act": [u.card.name for u in self.solo_order()],
        }

    def _sortie_json(self, s: Sortie) -> SortieView:
        c = self._core
        ship: str | None = None
        if s.ship >= 0:
            ship = c.units[s.owner if s.role == "cap" else 1 - s.owner][s.ship].card.name
        return {
            "owner": s.owner,
            "carrier": c.units[s.owner][s.carrier].card.name,
            "type": SQUADRON_TYPES[s.kind],
            "role": s.role,
            "ship": ship,
            "square": square_name(s.square) if s.square >= 0 else None,
            "alive": s.alive,
            "held": s.held,
        }

    def _strike_json(self) -> StrikeView | None:
        c = self._core
        strike = c.strike
        if strike is None:
            return None
        enemy = 1 - strike.attacker
        return {
            "attacker": strike.attacker,
            "carrier": c.units[strike.attacker][strike.carrier].card.name,
            "planned": [
                {"type": SQUADRON_TYPES[k], "target": c.units[enemy][t].card.name, "square": square_name(sq)}
                for k, t, sq in strike.planned
            ],
            "stage": strike.stage,
            "target": c.units[enemy][strike.targets[strike.index]].card.name
            if strike.index < len(strike.targets)
            else None,
            "rolls": [self.face_label(f) for f in strike.rolls],
        }

    def _unit_json(self, u: UnitState) -> UnitView:
        return {
            "owner": u.owner,
            "name": u.card.name,
            "class": u.card.unit_class,
            "structure": u.structure,
            "submerged": u.submerged,
            "torpedoes": u.torpedoes,
            "criticals": [[ch, t] for ch, t in u.criticals],
            "moved": u.moved,
            "squadrons": dict(zip(SQUADRON_TYPES, u.squadrons, strict=True)) if u.card.squadrons else None,
        }


def render_text(obs: Mapping[str, Any]) -> str:
    """A plain-text board (row 8 on top; units as owner mark s/n + class, '~' for a submarine below,
    '*' for smoke), then each fleet's dice."""
    lines = [f"Turn {obs['turn']}, {obs['phase']}"]
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
            if cell.get("smoke"):
                mark += "*"
            parts.append(f"{mark:<5}")
        lines.append(f"{row + 1} " + "".join(parts).rstrip())
    lines.append("  " + "".join(f"{c:<5}" for c in "ABCDEFGH").rstrip())
    for p, fleet in enumerate(obs["fleets"]):
        dice = fleet.get("dice") or []
        if dice:
            shown = " ".join(d["face"] + ("" if d["used"] is None else "(x)") for d in dice)
            lines.append(f"{PLAYER_NAMES[p]} dice: {shown}")
    return "\n".join(lines)
