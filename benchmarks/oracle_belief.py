r"""What would a perfect belief be worth? A search agent that is told every hidden enemy rank plays the same
agent without that knowledge (issue 13).

The told agent's belief returns the true rank of every hidden enemy piece (read from the game state, which
no real player can see), so each of its guesses is the truth; everything else (the look-ahead, the strategy,
the move prior) is the same. The score bounds what any better belief (learned, calibrated) can add to that
search: if even the truth wins only a little more often, the strength is elsewhere.

    .venv/bin/python benchmarks/oracle_belief.py --spec search:prior=0.01 --games 40 --jobs 2 --seed 1000

Colours alternate; each game is seeded (`--seed` + its index), so a run is reproducible.
"""

from __future__ import annotations

import argparse
from multiprocessing import get_context
from typing import Any

from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.games.stratego.agents.belief import oracle_marginals
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.search import SearchAgent
from fogofwar.games.stratego.rules import StrategoGame, StrategoState


def _told(spec: str, state: StrategoState) -> Any:
    """The agent of `spec` with a belief that reads the true ranks from `state`."""
    agent = make_agent(spec)
    assert isinstance(agent, SearchAgent), "the oracle needs a search agent"
    start = agent.start

    def truth(know: Knowledge, iterations: int = 12) -> dict[int, dict[int, float]]:
        return oracle_marginals(state, know)

    def start_told(*args: Any) -> None:
        start(*args)
        agent._belief.marginals = truth  # type: ignore[method-assign]

    agent.start = start_told  # type: ignore[method-assign,assignment]
    return agent


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
