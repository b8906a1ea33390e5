"""A rule-based Stratego player: sensible, quick, and only ever using what its observation shows.

Each turn it scores every legal move:
- an attack by its expected material result over what the target may be (a revealed rank is
  certain; an unknown piece is one of the enemy's unaccounted ranks, and a piece that has
  moved is no bomb and no flag) — so it attacks known weaker pieces, avoids known stronger
  ones, sends miners at suspected bombs and never walks its marshal into a possible bomb;
- a quiet move by the danger it escapes or walks into (enemy neighbours that may beat the
  piece) and by how much closer it brings the piece to something it expects to beat;
- a small penalty for stepping straight back, and a little noise to break ties.
Setups come from the real-game statistics (`fogofwar.games.stratego.agents.setups`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fogofwar.core.protocol import Game, Observation
from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, MARSHAL, SPY, VALUE, Knowledge
from fogofwar.games.stratego.agents.setups import human_like_setup
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import PLACE_BASE, battle
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import NEIGHBOURS, distance

_VALUE = {int(r): v for r, v in VALUE.items()}


def attack_value(attacker: int, dist: dict[int, float]) -> float:
    """Expected material gain of `attacker` attacking a piece whose rank follows `dist`."""
    total = 0.0
    for rank, p in dist.items():
        win, survive = battle(attacker, rank)
        if win and not survive:
            total += p * _VALUE[rank]
        elif not win and survive:
            total -= p * _VALUE[attacker]
        else:
            total += p * (_VALUE[rank] - _VALUE[attacker])
    return total


def threat_to(piece: int, dist: dict[int, float]) -> float:
    """Probability that an enemy piece distributed as `dist`, attacking, takes `piece`."""
    p_take = 0.0
    for rank, p in dist.items():
        if rank in (BOMB, FLAG):
            continue
        if rank == SPY and piece != MARSHAL:
            continue
        win, survive = battle(rank, piece)
        if not survive:
            p_take += p
    return p_take


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, noise: float = 0.3) -> None:
        self._rng = random.Random(0)
        self._noise = noise
        self._setup: list[int] = []
        self._last: dict[int, int] = {}  # square of a piece -> square it came from on our last move
        self._player = 0

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        self._rng = rng
        self._player = player
        self._setup = []
        self._last = {}

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = stratego_view(observation.data)
        if data["phase"] == "setup":
            return self._setup_action(data, legal_actions)
        know = Knowledge.from_observation(data)
        best, best_score = legal_actions[0], float("-inf")
        potentials: dict[tuple[int, int], float] = {}
        targets = self._targets(know)
        for action in legal_actions:
            src, dst = divmod(action, 100)
            score = self._score(know, src, dst, targets, potentials) + self._rng.random() * self._noise
            if score > best_score:
                best, best_score = action, score
        src, dst = divmod(best, 100)
        self._last = {dst: src}
        return best

    # --- setup ---------------------------------------------------------------------------------
    def _setup_action(self, data: StrategoView, legal: Sequence[int]) -> int:
        if not self._setup:
            variant = get_variant(str(data["variant"]))
            placement = human_like_setup(variant, self._player, self._rng)
            self._setup = [PLACE_BASE + int(r) * 100 + sq for sq, r in sorted(placement.items())]
        legal_set = set(legal)
        while self._setup:
            a = self._setup.pop(0)
            if a in legal_set:
                return a
        return self._rng.choice(list(legal))

    # --- play -----------------------------------------------------------------------------------
    def _targets(self, know: Knowledge) -> list[tuple[int, dict[int, float]]]:
        return [
            (sq, know.rank_distribution(sq))
            for sq, c in enumerate(know.cells)
            if c is not None and c.owner == know.enemy
        ]

    def _potential(
        self,
        piece: int,
        sq: int,
        targets: list[tuple[int, dict[int, float]]],
        cache: dict[tuple[int, int], float],
    ) -> float:
        key = (piece, sq)
        if key not in cache:
            best = 0.0
            for tsq, dist in targets:
                gain = attack_value(piece, dist)
                if gain > 0:
                    best = max(best, gain / (1.0 + distance(sq, tsq)))
            cache[key] = best
        return cache[key]

    def _danger(self, know: Knowledge, piece: int, sq: int, exclude: int) -> float:
        worst = 0.0
        for n in NEIGHBOURS[sq]:
            c = know.cells[n]
            if n == exclude or c is None or c.owner != know.enemy:
                continue
            worst = max(worst, threat_to(piece, know.rank_distribution(n)))
        return worst * _VALUE[piece]

    def _score(
        self,
        know: Knowledge,
        src: int,
        dst: int,
        targets: list[tuple[int, dict[int, float]]],
        potentials: dict[tuple[int, int], float],
    ) -> float:
        cell = know.cells[src]
        assert cell is not None and cell.rank is not None
        piece = cell.rank
        target = know.cells[dst]
        if target is not None:  # an attack
            dist = know.rank_distribution(dst)
            score = attack_value(piece, dist)
            if target.rank is None:
                score += 2.0  # what it learns is worth something
            win_p = sum(p for r, p in dist.items() if battle(piece, r)[0])
            score -= win_p * 0.8 * self._danger(know, piece, dst, exclude=dst)
            return score
        score = self._danger(know, piece, src, exclude=-1) - 0.9 * self._danger(know, piece, dst, exclude=src)
        gain = self._potential(piece, dst, targets, potentials) - self._potential(piece, src, targets, potentials)
        score += 3.0 * gain
        if self._last.get(src) == dst:
            score -= 1.5
        if piece == Rank.SCOUT and distance(src, dst) > 1:
            score -= 1.0  # a long move gives the scout away
        return score
