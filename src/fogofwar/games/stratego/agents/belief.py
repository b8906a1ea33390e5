"""A belief about the hidden enemy pieces, kept from observations alone.

The tracker follows every enemy piece from its setup square through the public moves it
sees (each observation carries the last two moves), so it knows where each unknown enemy
piece started. The prior of a piece is how often each rank started on that square in the
real Gravon games (`fogofwar.games.stratego.agents.setups`); a piece that has moved is no bomb and no
flag; and the marginals are then balanced (Sinkhorn iterations) so that each rank's
expected count equals the number of that rank still unaccounted for. Never does a belief
give weight to a rank that contradicts what was observed: revealed pieces are certain,
ranks with no piece left get zero, moved pieces get no bomb or flag.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from fogofwar.games.stratego.agents.belief_model import BeliefWeights, PieceHistory, row_from_owner
from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, MARSHAL, MINER, RANK_OF_NAME, SPY, Knowledge
from fogofwar.games.stratego.agents.setups import prior_by_square
from fogofwar.games.stratego.observation import MoveView, StrategoView
from fogofwar.games.stratego.rules import StrategoState, battle
from fogofwar.grid.board import NEIGHBOURS, parse_square

SPARED_FACTOR = 0.05
"""The spy likelihood of a hidden piece that had our revealed marshal beside it on the enemy's turn and did not take
it. In Gravon games (the belief run along each side, every 4th game) 1,606 such pieces were never the spy where
the belief without this factor said 48 spies; in other games, once in 1,531 (docs/strength.md, session 38)."""

GUARD_FACTORS = (1.5, 8.0)
"""The spy likelihood of a hidden piece (unmoved, moved) beside an enemy piece our revealed marshal could take. When
a revealed marshal took a piece in Gravon games, the spy stood beside the square it took more often than the belief
said: 57 times where it said 43 (unmoved) and 78 where it said 28 (moved); with these factors it says 56 and 77
(checked on other games: 61 and 78 said, 67 and 81 true)."""


NEIGHBOUR_FACTORS = ((1.97, 0.81), (1.41, 0.48), (0.93, 0.76), (0.90, 1.31))
"""(bomb, flag) likelihood factors of a never-moved hidden enemy piece with 0, 1, 2, and 3 or more never-moved
enemy pieces beside it, fitted to people's games by iterative proportional fitting (600 classic Gravon games of the
archives other than strados2013-11, each side's belief at every fourth turn, three rounds). Without them the belief
gave such pieces with no unmoved neighbour 6,154 bombs where 8,960 were found, and those with one 5,788 flags where
3,352 were: people move the pieces round their bombs away and keep the flag walled in (docs/strength.md, session
58)."""

STOOD_FACTORS = ((1.0, 1.0), (2.34, 0.95), (2.44, 0.74), (3.25, 0.74), (3.42, 0.74))
"""(bomb, flag) likelihood factors of a never-moved hidden enemy piece by how many enemy turns it stood beside a
piece of ours without moving (0, 1, 2, 3, 4 or more; `BeliefTracker.stood`), fitted to people's games by iterative
proportional fitting on top of `NEIGHBOUR_FACTORS` and the spy's readings (600 classic Gravon games of the archives
other than strados2013-11, each side's belief at every fourth turn, five rounds; the flag's factors pooled from 2
on). Without them the belief gave such pieces 8,303 bombs where 11,464 were found after one such turn and 7,631
where 11,804 were after five or more: a piece that can move away from a piece of ours, or take it, mostly does
(docs/strength.md, session 65)."""

RUN_KEPT = 16
"""Squares of the enemy's latest run that the tracker keeps (`BeliefTracker.run`)."""


def balance(rows: dict[int, dict[int, float]], pool: Mapping[int, int], iterations: int = 12) -> None:
    """Scale `rows` (P(rank) by square, in place) so that each piece is exactly one rank and each rank's expected
    count is what `pool` holds of it (Sinkhorn's iterations), ending with every row summing to 1."""
    ranks = [r for r, n in pool.items() if n > 0]
    for _ in range(iterations):
        for row in rows.values():  # each piece is exactly one rank
            total = sum(row.values())
            if total > 0:
                for r in row:
                    row[r] /= total
        for r in ranks:  # each rank has exactly pool[r] pieces
            total = sum(row.get(r, 0.0) for row in rows.values())
            if total > 0:
                scale = pool[r] / total
                for row in rows.values():
                    if r in row:
                        row[r] *= scale
    for row in rows.values():
        total = sum(row.values())
        if total > 0:
            for r in row:
                row[r] /= total


def _weigh_bomb_and_flag(row: dict[int, float], factors: tuple[tuple[float, float], ...], count: int) -> None:
    """Multiply a never-moved piece's bomb and flag odds in `row` by the (bomb, flag) factors its `count` selects (the
    last pair for any count beyond the table)."""
    bomb_f, flag_f = factors[min(count, len(factors) - 1)]
    if BOMB in row:
        row[BOMB] *= bomb_f
    if FLAG in row:
        row[FLAG] *= flag_f


class BeliefTracker:
    """Follows enemy pieces back to their setup squares and turns priors into rank marginals."""

    def __init__(self) -> None:
        self.origin: dict[int, int] = {}  # current square of an enemy piece -> its setup square
        self._seen = -1  # number of moves already processed; -1 before the first play observation
        self._prior: dict[int, dict[int, float]] | None = None
        self.bomb_squares: set[int] = set()  # squares where an enemy bomb was seen (standing or taken)
        self.bomb_neighbour_factor = 10.0
        self.evidence: dict[int, dict[int, float]] = {}  # current square -> likelihood factor by rank
        self.behaviour_factor = 2.0
        self.spared_factor = 1.0
        """Spy likelihood of a hidden piece that stood beside our revealed marshal on the enemy's turn and did not
        take it (1: off; the players who read the spy so set `SPARED_FACTOR`)."""
        self.guard_factors = (1.0, 1.0)
        """Spy likelihood of a hidden piece (unmoved, moved) beside an enemy piece that our revealed marshal could
        take: players keep their spy by what they leave to our marshal ((1, 1): off; `GUARD_FACTORS`)."""
        self.moves: dict[int, int] = {}  # current square of an enemy piece -> how many moves it has made
        self.first_moved: dict[int, int] = {}  # current square -> the enemy's turn number of its first move
        self.enemy_turns = 0  # enemy moves seen so far
        self.run: list[int] = []
        """The squares of the enemy piece that made the enemy's latest moves in a row, from where the run began to
        where it stands (at most `RUN_KEPT` squares; empty after an attack of the enemy's that failed)."""
        self.neighbour_factors: tuple[tuple[float, float], ...] | None = None
        """(bomb, flag) likelihood factors of a never-moved hidden enemy piece by how many never-moved enemy pieces
        stand beside it (0, 1, 2 or more): bombs stand alone once the pieces round them have left, the flag stays
        walled in (`NEIGHBOUR_FACTORS`; None: off)."""
        self.stood: dict[int, int] = {}
        """Square of a never-moved enemy piece -> how many enemy turns it stood beside a piece of ours and stayed."""
        self.stood_factors: tuple[tuple[float, float], ...] | None = None
        """(bomb, flag) likelihood factors of a never-moved hidden enemy piece by how many enemy turns it stood
        beside a piece of ours without moving (0, 1, 2, ... or more; `STOOD_FACTORS`; None: off)."""
        self.weights: BeliefWeights | None = None
        """Learned likelihood factors by piece history (`belief_model.learned_weights()`);
        None: off (the default until they prove themselves against an independent program: docs/strength.md)."""

    def update(self, data: StrategoView) -> None:
        """Take in a play-phase observation (call it on every own turn)."""
        player = int(data["player"])
        enemy = 1 - player
        count = int(data["move_count"])
        recent = list(data.get("recent_moves") or [])
        if self._seen < 0:
            know_cells = data["board"]
            self.origin = {sq: sq for sq, c in enumerate(know_cells) if isinstance(c, dict) and c["owner"] == enemy}
            from fogofwar.games.stratego.variants import get_variant

            self._prior = prior_by_square(get_variant(str(data["variant"])), enemy)
            unseen = recent[-count:] if count else []
            for ev in unseen:
                if ev["player"] == enemy:
                    src, dst = parse_square(ev["from"]), parse_square(ev["to"])
                    if dst in self.origin:
                        self.origin[dst] = src
            self._seen = count
            return
        new = count - self._seen
        last: MoveView | None = None
        for ev in recent[len(recent) - min(new, len(recent)) :]:
            self._apply_event(ev, enemy)
            if ev["player"] == enemy:
                last = ev
                if ev.get("result") is None:
                    self._read_behaviour(ev, data["board"], player)
        self._seen = count
        if new > 0:
            self._count_stood(data["board"], player)
        if last is not None and self.spared_factor != 1.0:
            self._read_spared(last, data["board"], player)

    def _count_stood(self, board: list[Any], player: int) -> None:
        """A piece of ours beside a never-moved enemy piece now was there on the enemy's turn too (our pieces do not
        move on it), and the enemy moved something else: a piece that could move away, or take ours, often does."""
        for sq, c in enumerate(board):
            if not isinstance(c, dict) or c["owner"] == player or c.get("rank") is not None or sq in self.moves:
                continue
            if any(isinstance(o := board[n], dict) and o["owner"] == player for n in NEIGHBOURS[sq]):
                self.stood[sq] = self.stood.get(sq, 0) + 1

    def _read_spared(self, last: MoveView, board: list[Any], player: int) -> None:
        """A hidden piece that stood beside our revealed marshal while the enemy moved, and did not take it, is
        hardly the spy (in Gravon games no such piece was: docs/strength.md, session 38). Not the piece that just
        arrived, and not when the enemy's move is what showed our marshal."""
        if last.get("defender") == "marshal":
            return
        marshal = next(
            (
                sq
                for sq, c in enumerate(board)
                if isinstance(c, dict) and c["owner"] == player and c["revealed"] and c["rank"] == "marshal"
            ),
            None,
        )
        if marshal is None:
            return
        arrived = parse_square(last["to"])
        for n in NEIGHBOURS[marshal]:
            c = board[n]
            if n != arrived and isinstance(c, dict) and c["owner"] != player and c.get("rank") is None:
                self.evidence.setdefault(n, {})[SPY] = self.spared_factor

    def _read_behaviour(self, ev: MoveView, board: list[Any], player: int) -> None:
        """Weigh what a quiet enemy move says about the piece: stepping next to a revealed piece of
        ours that would take it is rare (unless it is the spy going for our marshal), and so is
        stepping away from one that it could beat."""
        src, dst = parse_square(ev["from"]), parse_square(ev["to"])
        near_dst = set(NEIGHBOURS[dst])
        factor = self.behaviour_factor
        for sq, c in enumerate(board):
            if not isinstance(c, dict) or c["owner"] != player or not c["revealed"] or c["rank"] is None:
                continue
            ours = RANK_OF_NAME[c["rank"]]
            if ours == BOMB and sq in near_dst and sq not in NEIGHBOURS[src]:
                # Only a miner has business next to a bomb it knows of.
                row = self.evidence.setdefault(dst, {})
                row[MINER] = min(row.get(MINER, 1.0) * factor, 50.0)
                continue
            if ours in (BOMB, FLAG):
                continue
            approach = sq in near_dst
            retreat = sq in NEIGHBOURS[src] and not approach
            if not approach and not retreat:
                continue
            row = self.evidence.setdefault(dst, {})
            for r in range(12):
                if r in (BOMB, FLAG):
                    continue
                win, survive = battle(ours, r)  # our piece attacking it
                safe = not (win and not survive)
                if (approach and (safe or (r == SPY and ours == MARSHAL))) or (retreat and not safe):
                    row[r] = min(row.get(r, 1.0) * factor, 50.0)

    def _apply_event(self, ev: MoveView, enemy: int) -> None:
        src, dst = parse_square(ev["from"]), parse_square(ev["to"])
        result = ev.get("result")
        if ev["player"] == enemy:
            self.enemy_turns += 1
            if result in (None, "attacker_won"):
                self.run = [*(self.run[-RUN_KEPT + 1 :] if self.run and self.run[-1] == src else [src]), dst]
            else:
                self.run = []
            start = self.origin.pop(src, src)
            self.stood.pop(src, None)
            seen = self.evidence.pop(src, None)
            moves = self.moves.pop(src, 0) + 1
            first = self.first_moved.pop(src, self.enemy_turns)
            if result in (None, "attacker_won"):
                self.origin[dst] = start
                self.moves[dst] = moves
                self.first_moved[dst] = first
                if seen is not None and result is None:
                    self.evidence[dst] = seen
        else:
            if ev.get("defender") == "bomb":
                self.bomb_squares.add(dst)
            if result in ("attacker_won", "both_lost"):
                self.origin.pop(dst, None)
                self.stood.pop(dst, None)
                self.evidence.pop(dst, None)
                self.moves.pop(dst, None)
                self.first_moved.pop(dst, None)

    def history(self, sq: int, enemy: int) -> PieceHistory:
        """What the enemy piece on `sq` has done, as the learned model reads it."""
        start = self.origin.get(sq, sq)
        return PieceHistory(
            moves=self.moves.get(sq, 0),
            first_moved=self.first_moved.get(sq),
            start_row=row_from_owner(start, enemy),
            row=row_from_owner(sq, enemy),
            turns=self.enemy_turns,
        )

    def marginals(self, know: Knowledge, iterations: int = 12) -> dict[int, dict[int, float]]:
        """P(rank) for every unknown enemy piece by square, consistent with everything observed."""
        squares = know.unknown_enemy_squares()
        pool = know.unknown_pool
        ranks = [r for r, n in pool.items() if n > 0]
        bombs = self.bomb_squares | {
            sq for sq, c in enumerate(know.cells) if c is not None and c.owner == know.enemy and c.rank == BOMB
        }
        guards = self._guards(know) if self.guard_factors != (1.0, 1.0) else set()
        rows: dict[int, dict[int, float]] = {}
        for sq in squares:
            cell = know.cells[sq]
            assert cell is not None
            start = self.origin.get(sq, sq)
            prior = self._prior.get(start) if self._prior else None
            row = {}
            for r in ranks:
                if cell.moved and r in (BOMB, FLAG):
                    continue
                row[r] = (prior.get(r, 0.0) if prior else 1.0) + 1e-3
            seen = self.evidence.get(sq)
            if seen:
                for r, f in seen.items():
                    if r in row:
                        row[r] *= f
            if self.weights is not None:
                factors = self.weights.factors(self.history(sq, know.enemy))
                for r in row:
                    row[r] *= factors[r]
            if self.neighbour_factors is not None and not cell.moved:
                still = 0
                for n in NEIGHBOURS[sq]:
                    other = know.cells[n]
                    if other is not None and other.owner == know.enemy and not other.moved:
                        still += 1
                _weigh_bomb_and_flag(row, self.neighbour_factors, still)
            if self.stood_factors is not None and not cell.moved:
                _weigh_bomb_and_flag(row, self.stood_factors, self.stood.get(sq, 0))
            if sq in guards and SPY in row:
                row[SPY] *= self.guard_factors[cell.moved]
            if FLAG in row and bombs:
                # Players wall their flag in with bombs: a bomb next door makes a flag likelier.
                near = sum(1 for n in NEIGHBOURS[sq] if n in bombs)
                row[FLAG] *= self.bomb_neighbour_factor**near
            rows[sq] = row
        balance(rows, pool, iterations)
        return rows

    @staticmethod
    def _guards(know: Knowledge) -> set[int]:
        """Hidden enemy pieces beside an enemy piece that our revealed marshal stands beside (and not beside the
        marshal itself: those had their chance, `_read_spared`)."""
        marshal = next(
            (
                sq
                for sq, c in enumerate(know.cells)
                if c is not None and c.owner == know.player and c.rank == MARSHAL and c.revealed
            ),
            None,
        )
        if marshal is None:
            return set()
        near = set(NEIGHBOURS[marshal])
        targets = [n for n in near if (c := know.cells[n]) is not None and c.owner == know.enemy]
        unknown = set(know.unknown_enemy_squares())
        return {g for t in targets for g in NEIGHBOURS[t] if g in unknown and g not in near}

    def sample(
        self, know: Knowledge, marginals: dict[int, dict[int, float]], rng: random.Random, faithful: bool = False
    ) -> dict[int, int]:
        """One consistent guess of every unknown enemy piece's rank (each rank used at most as often as left), drawn a
        piece at a time, the pieces with the fewest ranks first so that the constraints are met.

        By default a rank is drawn by its chance times how many of it are left, which gives the pieces drawn first
        the common ranks more often than the belief does: the guesses are flatter than the belief. With `faithful`
        the chance is weighed by how many of the rank are left against how many the belief expects among the pieces
        not yet drawn (1 while the draw keeps pace with the belief), so each piece's rank is drawn about as often as
        its marginal says."""
        left = dict(know.unknown_pool)
        squares = list(marginals)
        rng.shuffle(squares)
        squares.sort(key=lambda sq: len(marginals[sq]))
        expected: dict[int, float] = {}
        if faithful:
            for row in marginals.values():
                for r, p in row.items():
                    expected[r] = expected.get(r, 0.0) + p
        out: dict[int, int] = {}
        for sq in squares:
            row = marginals[sq]
            if faithful:
                options = [(r, p * left[r] / max(expected[r], 1e-9)) for r, p in row.items() if left.get(r, 0) > 0]
                for r, p in row.items():
                    expected[r] -= p
            else:
                options = [(r, p * left[r]) for r, p in row.items() if left.get(r, 0) > 0]
            if not options:
                options = [(r, float(n)) for r, n in left.items() if n > 0 and r not in (BOMB, FLAG)] or [
                    (r, float(n)) for r, n in left.items() if n > 0
                ]
            total = sum(w for _, w in options)
            x = rng.random() * total
            pick = options[-1][0]
            for rank, w in options:
                x -= w
                if x <= 0:
                    pick = rank
                    break
            r = pick
            out[sq] = r
            left[r] -= 1
        return out


__all__ = ["RANK_OF_NAME", "BeliefTracker", "balance"]


def oracle_marginals(state: StrategoState, know: Knowledge) -> dict[int, dict[int, float]]:
    """The belief that knows: each hidden enemy piece's true rank, read from the engine's state. For measurements
    only (what a perfect belief is worth, tests of what is built from a belief): no player may see the state."""
    out = {}
    for sq in know.unknown_enemy_squares():
        piece = state.piece_at(sq)
        assert piece is not None, f"no piece on square {sq}, where the observation has one"
        out[sq] = {int(piece[1]): 1.0}
    return out
