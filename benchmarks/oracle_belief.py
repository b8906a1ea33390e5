r"""What would a perfect belief be worth? An agent that is told every hidden enemy rank plays the same agent
without that knowledge, or any opponent (issue 13).

The told agent's belief returns the true rank of every hidden enemy piece (read from the game state, which
no real player can see), so each of its guesses is the truth; everything else (the look-ahead, the strategy,
the move prior) is the same. The score bounds what any better belief (learned, calibrated) can add to that
agent: if even the truth wins only a little more often, the strength is elsewhere. Any agent that keeps a
`BeliefTracker` as `_belief` can be told (`search`, `rollout`).

    .venv/bin/python benchmarks/oracle_belief.py --spec search:prior=0.01 --games 40 --jobs 2 --seed 1000

Colours alternate; each game is seeded (`--seed` + its index), so a run is reproducible. Against an independent
program, `strength` runs `benchmarks/strength.py` (all its options, its records and tables) with every player that
keeps a belief told the truth (with `--ranks marshal,general,spy`, only where the pieces of those ranks stand; with
`--pieces moved` or `unmoved`, only the ranks of the pieces that have moved, or that never moved); a UCC
bot keeps none, so only our agent is:

    .venv/bin/python benchmarks/oracle_belief.py strength --agent rollout --opponent ucc:/tmp/demon/run5.sh \
        --name demon5 --games 16 --jobs 1 --seed 64 --out artifacts/strength/oracle
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Mapping, Sequence
from multiprocessing import get_context
from typing import Any

from fogofwar.core.agents import GameAgent, make_agent
from fogofwar.core.match import play_match
from fogofwar.games.stratego.agents.belief import balance, oracle_marginals
from fogofwar.games.stratego.agents.knowledge import RANK_OF_NAME, Knowledge
from fogofwar.games.stratego.rules import StrategoGame, StrategoState

Marginals = dict[int, dict[int, float]]


def partly_told(
    believed: Marginals, truth: Marginals, told: Collection[int], pool: Mapping[int, int], iterations: int = 12
) -> Marginals:
    """The pieces on the squares `told` known; every other piece keeps the belief's P(rank), balanced again by the
    belief's own `balance` so that each rank's expected count is what `pool` holds of it less the
    told pieces of that rank: told where the marshal stands, no other piece is the marshal.

    >>> partly_told({1: {10: 0.5, 2: 0.5}, 2: {10: 0.5, 2: 0.5}}, {1: {2: 1.0}, 2: {10: 1.0}}, {2}, {10: 1, 2: 1})
    {1: {2: 1.0}, 2: {10: 1.0}}
    """
    left = dict(pool)
    for sq in told:
        (rank,) = truth[sq]
        left[rank] = left.get(rank, 0) - 1
    out = {sq: dict(truth[sq]) for sq in told}
    rows = {}
    for sq, row in believed.items():
        if sq not in told:
            kept = {r: p for r, p in row.items() if left.get(r, 0) > 0 and p > 0}
            rows[sq] = kept or dict(truth[sq])  # a belief that ruled out all that is left: the truth
    balance(rows, left, iterations)
    return {sq: out[sq] if sq in out else rows[sq] for sq in believed}


def stratego_agent(agent: Any) -> Any:
    """The agent that plays Stratego: `agent` itself, or for a name that several games register (`search`, as
    `GameAgent`), the Stratego one."""
    return agent.agent_for("stratego") if isinstance(agent, GameAgent) else agent


PIECES = ("all", "moved", "unmoved")
"""Which hidden pieces the oracle tells: all of them, those that have moved, those that never moved."""


def tell(agent: Any, state: StrategoState, ranks: Collection[int] | None = None, pieces: str = "all") -> None:
    """Give `agent` a belief that reads the true ranks from `state`, from its next `start` on (which makes the
    agent's `_belief` afresh): of every hidden enemy piece, or only of those whose rank is in `ranks`, and of those
    `pieces` (`PIECES`) says."""
    agent = stratego_agent(agent)
    if not hasattr(agent, "_belief"):
        raise TypeError(f"{type(agent).__name__} keeps no belief to tell")
    if pieces not in PIECES:
        raise ValueError(f"pieces must be one of {', '.join(PIECES)}, not {pieces!r}")
    start = agent.start

    def start_told(*args: Any) -> None:
        start(*args)
        believe = agent._belief.marginals

        def truth(know: Knowledge, iterations: int = 12) -> Marginals:
            known = oracle_marginals(state, know)
            if ranks is None and pieces == "all":
                return known
            told = set()
            for sq, row in known.items():
                cell = know.cells[sq]
                moved = cell is not None and cell.moved
                if (ranks is None or next(iter(row)) in ranks) and pieces in ("all", "moved" if moved else "unmoved"):
                    told.add(sq)
            return partly_told(believe(know, iterations), known, told, know.unknown_pool, iterations)

        agent._belief.marginals = truth

    agent.start = start_told


def _told(spec: str, state: StrategoState) -> Any:
    """The agent of `spec` with a belief that reads the true ranks from `state`."""
    agent = make_agent(spec)
    tell(agent, state)
    return agent


def strength(argv: Sequence[str]) -> int:
    """`benchmarks/strength.py` with `argv`, every seated agent that keeps a belief told the truth of its game (the
    arena runs the games in this process with `--jobs 1`, in forked workers with more); `--ranks NAME,...` tells
    only where the pieces of those ranks stand, `--pieces moved` (or `unmoved`) only the ranks of the pieces that have
    moved (or not); `--told NAME` tells only the player of that short name (against an agent of ours that keeps a
    belief too)."""
    import strength as series  # benchmarks/ is this script's folder, so on the path

    import fogofwar.tools.arena as arena

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--ranks", help="tell only these ranks (names, comma-separated: marshal,general,spy)")
    parser.add_argument("--pieces", choices=PIECES, default="all", help="tell only the pieces that moved, or not")
    parser.add_argument("--told", help="tell only the player of this short name (default: every player with a belief)")
    ours, rest = parser.parse_known_args(argv)
    names = None if ours.ranks is None else [name.strip() for name in ours.ranks.split(",")]
    unknown = [name for name in names or [] if name not in RANK_OF_NAME]
    if unknown:
        parser.error(f"--ranks: no rank {', '.join(map(repr, unknown))}; the ranks are {', '.join(RANK_OF_NAME)}")
    ranks = None if names is None else {RANK_OF_NAME[name] for name in names}
    play = arena.play_match  # type: ignore[attr-defined]

    def told_match(game: Any, seats: Sequence[Any], seed: int = 0, state: Any = None, **kw: Any) -> Any:
        if not isinstance(state, StrategoState):
            raise TypeError("the oracle needs the arena's Stratego state")
        for seat in seats:
            if hasattr(stratego_agent(seat.agent), "_belief") and ours.told in (None, seat.name):
                tell(seat.agent, state, ranks, ours.pieces)
        return play(game, seats, seed=seed, state=state, **kw)

    arena.play_match = told_match  # type: ignore[attr-defined,assignment]
    try:
        return series.main(rest)
    finally:
        arena.play_match = play  # type: ignore[attr-defined]


def one_game(job: tuple[str, int, int]) -> tuple[float, str]:
    """(the told agent's score, how the game ended) of game `index`."""
    spec, seed, index = job
    game = StrategoGame("classic")
    state = game.new_initial_state()
    told = index % 2
    agents = [_told(spec, state) if p == told else make_agent(spec) for p in (0, 1)]
    record = play_match(game, agents, seed=seed + index, state=state)
    ret = state.returns()[told]
    ending = record.outcome.termination.value if record.outcome is not None else "unfinished"
    return (1.0 if ret > 0 else 0.0 if ret < 0 else 0.5), ending


def main() -> None:
    if sys.argv[1:2] == ["strength"]:
        sys.exit(strength(sys.argv[2:]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default="search:prior=0.01", help="the search agent both sides play")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    jobs = [(args.spec, args.seed, i) for i in range(args.games)]
    with get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(one_game, jobs, chunksize=1)
    points = sum(s for s, _ in results)
    wins = sum(1 for s, _ in results if s == 1.0)
    draws = sum(1 for s, _ in results if s == 0.5)
    endings: dict[str, int] = {}
    for _, how in results:
        endings[how] = endings.get(how, 0) + 1
    print(f"told the truth vs not, {args.spec}: {wins}-{draws}-{len(results) - wins - draws} "
          f"({100 * points / max(1, len(results)):.1f}%); endings {endings}")  # fmt: skip


if __name__ == "__main__":
    main()
