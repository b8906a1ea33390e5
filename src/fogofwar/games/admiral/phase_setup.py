"""The start of a game and of each turn (ADM-SETUP, ADM-INIT, ADM-DICE-1): deployment, reserve entries, the
initiative, submarines, the action dice.

One phase of the rules of `rules.AdmiralState` (see `phase_air` for the chain)."""

from __future__ import annotations

from collections.abc import Sequence

from fogofwar.games.admiral.actions import (
    NUM_SQUARES,
    RESERVE_BASE,
    Decoded,
)
from fogofwar.games.admiral.data_model import (
    Symbol,
)
from fogofwar.games.admiral.geometry import (
    corner_order,
    deployment_squares,
    home_half,
    last_row,
)
from fogofwar.games.admiral.phase_movement import AdmiralMovement
from fogofwar.games.admiral.state_model import (
    Phase,
)


class AdmiralSetup(AdmiralMovement):
    """Deployment, reserve, initiative, submarines, action dice."""

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
        if not self._both_rolled():
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

    def _both_rolled(self) -> bool:
        """Count the die just rolled for the player rolling; True once both pools are rolled (South's first,
        then North's: the turn to roll passes to North when South is done)."""
        c = self._core
        p = c.player
        c.dice_left[p] -= 1
        if c.dice_left[p]:
            return False
        if p == 0 and c.dice_left[1]:
            c.player = 1
            return False
        return True

    def _roll_action_die(self, face: int) -> None:
        c = self._core
        p = c.player
        self._add_die(p, face)
        if self._both_rolled():
            self._start_movement()

    # --- movement (ADM-MOVE, ADM-REP, ADM-SUB-3/7) --------------------------------------------------------
    def _start_movement(self) -> None:
        c = self._core
        c.phase = Phase.MOVEMENT
        c.player = c.first_player if c.first_player is not None else 0
        c.passes = 0
        c.forfeited = [False, False]
