"""The hidden facts a move's fate turns on, weighed in the roll-outs by the belief's chances rather than by how
many of the few worlds drawn happened to hold them (stratified sampling).

Why: `rollout` scores a move by its mean over eight worlds drawn from the belief. When one hidden fact decides
the move (is the piece our marshal attacks a bomb; is the spy beside the square it takes), eight worlds hold it
0, 1 or 2 times where the belief says 15%, and the move compared is picked where the draw missed it (the winner's
curse). Against Demon level 5 the spy took our shown marshal in 28 of the 60 games we lost it, each time beside
the square our marshal had just taken, and our marshal walked into 14 bombs (docs/strength.md, session 42).

A `Factor` sorts the worlds into classes (spy beside or not; the attacker wins, loses or trades); worlds moved into
a class the draw left thin are added (`force`), and the move's score is the mean of each class weighed by its
chance (self-normalised importance weights when a move has two factors).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, MARSHAL, SPY, Knowledge
from fogofwar.games.stratego.rules import battle
from fogofwar.grid.board import NEIGHBOURS

Guess = dict[int, int]
"""A world's rank for each unknown enemy piece, by square (`BeliefTracker.sample`)."""

MIN_CHANCE = 0.01
"""A class the belief gives less than this is left to the worlds drawn."""

DOUBT = 0.02
"""`rollout:spyrisk` and `target`: the net's sure move is compared too when the less likely classes of one of its
factors hold at least this chance together."""


@dataclass(frozen=True)
class Factor:
    """A hidden fact a move's fate turns on: each world's class of it, the belief's chance of each class, and how
    to turn a world into one of a class (None when the guess cannot be so turned)."""

    chances: dict[int, float]
    classify: Callable[[Guess], int]
    force: Callable[[Guess, int, random.Random], Guess | None]


def with_rank(know: Knowledge, guess: Guess, square: int, rank: int, rng: random.Random) -> Guess | None:
    """`guess` with `rank` on the unknown piece on `square`, swapped with a piece of that rank elsewhere: a world
    as likely in every other respect. None when no swap keeps bombs and the flag off pieces that have moved."""
    if guess.get(square) == rank:
        return dict(guess)
    cell = know.cells[square]
    if square not in guess or cell is None or (cell.moved and rank in (BOMB, FLAG)):
        return None
    sources = [sq for sq, r in guess.items() if r == rank]
    rng.shuffle(sources)
    for sq in sources:
        other = know.cells[sq]
        if other is not None and other.moved and guess[square] in (BOMB, FLAG):
            continue
        out = dict(guess)
        out[sq], out[square] = guess[square], rank
        return out
    return None


def spy_threats(know: Knowledge, marginals: dict[int, dict[int, float]], move: int) -> dict[int, float]:
    """The enemy pieces that could take our marshal with their spy after `move`, each with the belief's chance that
    it is the spy (1 for a shown spy): those beside the square our marshal then stands on, when it is shown by then
    (shown before, or by this move's attack). Empty when the marshal is hidden after the move, or gone."""
    src, dst = divmod(move, 100)
    at = know.own_piece(MARSHAL)
    if at is None:
        return {}
    marshal = know.cells[at]
    assert marshal is not None
    target = know.cells[dst]
    attacks = target is not None and target.owner != know.player
    if not (marshal.revealed or (src == at and attacks)):
        return {}
    if src == at:
        at = dst
    out = {}
    for sq in NEIGHBOURS[at]:
        cell = know.cells[sq]
        if cell is None or cell.owner == know.player or sq == dst:
            continue  # the piece the move attacks is taken, or has taken ours
        p = 1.0 if cell.rank == SPY else 0.0 if cell.rank is not None else marginals.get(sq, {}).get(SPY, 0.0)
        if p > 0:
            out[sq] = p
    return out


def spy_chance(threats: dict[int, float]) -> float:
    """The chance that one of the `threats` (`spy_threats`) is the spy: there is only one."""
    return min(1.0, sum(threats.values()))


def spy_beside(know: Knowledge, guess: Guess, threats: dict[int, float], rng: random.Random) -> Guess | None:
    """`guess` with the spy moved onto one of the hidden `threats`, drawn by their chances (`with_rank`)."""
    hidden = [sq for sq in threats if sq in guess]
    if not hidden:
        return None
    (there,) = rng.choices(hidden, weights=[threats[sq] for sq in hidden])
    return with_rank(know, guess, there, SPY, rng)


def spy_factor(know: Knowledge, marginals: dict[int, dict[int, float]], move: int) -> Factor | None:
    """Class 1: the spy stands beside our shown marshal after `move` (`spy_threats`); 0: it does not."""
    threats = spy_threats(know, marginals, move)
    q = spy_chance(threats)
    if not 0 < q < 1:
        return None  # no spy can be there, or a shown one is: every world agrees
    hidden = list(threats)  # all hidden: a shown spy among them would have made q 1

    def classify(guess: Guess) -> int:
        return int(any(guess.get(sq) == SPY for sq in hidden))

    def force(guess: Guess, cls: int, rng: random.Random) -> Guess | None:
        return spy_beside(know, guess, threats, rng) if cls == 1 else None

    return Factor({1: q, 0: 1 - q}, classify, force)


_OUTCOMES = {(True, False): 0, (False, True): 1, (False, False): 2}
"""A battle's (attacker stands, defender stands) as a class: 0 the attacker wins, 1 it loses, 2 both fall."""


def target_factor(know: Knowledge, marginals: dict[int, dict[int, float]], move: int) -> Factor | None:
    """For an attack on a hidden enemy piece: the battle's outcome, by the belief's chances of its rank."""
    src, dst = divmod(move, 100)
    piece, target = know.cells[src], know.cells[dst]
    if piece is None or piece.rank is None or target is None or target.owner == know.player or target.rank is not None:
        return None
    attacker = piece.rank
    ranks = marginals.get(dst, {})
    chances: dict[int, float] = {}
    for rank, p in ranks.items():
        cls = _OUTCOMES[battle(attacker, rank)]
        chances[cls] = chances.get(cls, 0.0) + p
    if max(chances.values(), default=1.0) >= 1 - 1e-9:
        return None  # the outcome is sure

    def classify(guess: Guess) -> int:
        return _OUTCOMES[battle(attacker, guess[dst])]

    def force(guess: Guess, cls: int, rng: random.Random) -> Guess | None:
        options = [(r, p) for r, p in ranks.items() if p > 0 and _OUTCOMES[battle(attacker, r)] == cls]
        if not options:
            return None
        (rank,) = rng.choices([r for r, _ in options], weights=[p for _, p in options])
        return with_rank(know, guess, dst, rank, rng)

    return Factor(chances, classify, force)


def forced_worlds(
    factors: Sequence[Factor], drawn: Sequence[Guess], draw: Callable[[], Guess], each: int, rng: random.Random
) -> list[Guess]:
    """Worlds that bring each class of `factors` with at least `MIN_CHANCE` up to `each` worlds with the `drawn`
    ones: fresh draws (`draw`) turned into the class (`Factor.force`), four tries a world."""
    out: list[Guess] = []
    for factor in factors:
        for cls, chance in factor.chances.items():
            if chance < MIN_CHANCE:
                continue
            have = sum(factor.classify(g) == cls for g in (*drawn, *out))
            for _ in range(max(0, each - have)):
                for _try in range(4):
                    guess = factor.force(draw(), cls, rng)
                    if guess is not None:
                        out.append(guess)
                        break
    return out


def doubtful(factors: Sequence[Factor]) -> bool:
    """Whether a move with these factors is worth a look-ahead however sure the net is of it (`DOUBT`)."""
    return any(1 - max(f.chances.values()) >= DOUBT for f in factors)


def stratified_weights(factors: Sequence[Factor], worlds: Sequence[Guess]) -> npt.NDArray[np.float64]:
    """Each world's weight in a move's score: for each factor, its class's chance over the number of worlds in that
    class, normalised to sum 1 (with one factor: each class's mean weighed by its chance)."""
    w = np.ones(len(worlds))
    for factor in factors:
        classes = np.array([factor.classify(g) for g in worlds])
        for cls in np.unique(classes):
            members = classes == cls
            w[members] *= factor.chances.get(int(cls), 0.0) / members.sum()
    total = w.sum()
    return w / total if total > 0 else np.full(len(worlds), 1 / len(worlds))


__all__ = [
    "MIN_CHANCE",
    "DOUBT",
    "Factor",
    "doubtful",
    "forced_worlds",
    "spy_beside",
    "spy_chance",
    "spy_factor",
    "spy_threats",
    "stratified_weights",
    "target_factor",
    "with_rank",
]
