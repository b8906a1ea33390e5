r"""How far each player's move is from what the truth would play, along game records (issue 13).

A series against Demon of Ignorance has a standard error of about 12 points over 16 games, so most options tried on
`rollout` could not be told from noise (docs/strength.md). Told every hidden enemy rank, the same player wins nine
games in ten against Demon level 5 (session 45): its look-ahead in the true world is a judge the untold players can
be held to, position by position, without playing a game. Along the records, at every `--every`-th move of
`--player`, each `--agent` (followed along the record as it would have been in the game) picks its move, and the
told player scores those moves and the net's likeliest few (`--top`) by its look-ahead in the true world; a player's
regret at that position is the best of those scores less its own move's, and its agreement whether it picked the
best. The moves are scored at the positions of the record's player: the others are judged off their own games.

    .venv/bin/python benchmarks/oracle_regret.py RUN/games --player rollout \
        --agent master=rollout:budget=0 --agent plain=rollout:faithful=0,budget=0 --every 4

RUN is a `benchmarks/strength.py --out` folder (its `games` holds one JSON record a game). Each player's moves are
seeded (`--seed`), so a run repeats when the players have no move budget (`budget=0`: its wall clock cuts a move short
on a busy machine). The judge has one world (the truth) and shows its enemy our whole army (`exposed=1`, as Barrage's
roll-outs do and classic's did until session 73: the judge of session 71's figures), so its score of a move is one
roll-out of the net for both seats: it favours a player whose roll-outs are its own, and judges the belief and the
worlds drawn from it, not a change to the roll-outs (docs/strength.md, session 71).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from oracle_belief import tell  # benchmarks/ is this script's folder, so on the path
from record_turns import play_turns, player_games

from fogofwar.core.protocol import Game
from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.agents.rollout import RolloutAgent
from fogofwar.tools.arena import name_players


def named_agents(texts: Sequence[str]) -> list[tuple[str, str]]:
    """(name, spec) of each `NAME=SPEC` or plain SPEC, named as the arena names its players (`name_players`); a
    ValueError for a name given twice or a player other than a rollout."""
    players = name_players(texts)
    bad = [p.spec for p in players if p.spec.partition(":")[0] != "rollout"]
    if bad:
        raise ValueError(f"only rollout players can be judged and judge: {', '.join(bad)}")
    return [(p.name, p.spec) for p in players]


Regrets = dict[str, list[float]]


def judged(
    records: Iterable[tuple[GameRecord, Game, int]],
    agents: Sequence[tuple[str, str]],
    judge_spec: str = "rollout:guesses=1,exposed=1",
    top: int = 4,
    every: int = 4,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Regrets:
    """Each agent's regret (`NAME`, `SPEC` of a rollout) at every `every`-th turn of the seat along each record: the
    told judge's best score over the net's `top` likeliest moves and the agents' picks, less that of the agent's own
    pick (0: it picked the best). `progress(games, positions)` is called after each record."""
    regret: Regrets = {name: [] for name, _ in agents}
    for index, (record, game, seat) in enumerate(records):
        players = {name: RolloutAgent.from_spec(spec.partition(":")[2]) for name, spec in agents}
        judge = RolloutAgent.from_spec(judge_spec.partition(":")[2])
        for offset, agent in enumerate(players.values()):
            agent.start(game, seat, random.Random(seed * 1000 + index * 10 + offset))
        for turn, (state, data, _) in enumerate(play_turns(record, game, seat), 1):
            if turn == 1:
                tell(judge, state)  # reads the replay's state, which play_turns moves on in place
                judge.start(game, seat, random.Random(seed))
            judge._belief.update(data)
            if turn % every:
                for agent in players.values():
                    agent._belief.update(data)  # as `act` does at a judged turn
                continue
            observation, legal = state.observation(seat), state.legal_actions()
            picks = {name: agent.act(observation, legal) for name, agent in players.items()}
            assert judge._net is not None
            probs = judge._net.move_probabilities(data, legal)
            moves = sorted(probs, key=lambda a: (-probs[a], a))[:top]
            moves += [m for m in dict.fromkeys(picks.values()) if m not in moves]
            know = Knowledge.from_observation(data)
            values = dict(zip(moves, judge.look_ahead(data, moves, know, judge._belief.marginals(know)), strict=True))
            best = max(values.values())
            for name, move in picks.items():
                regret[name].append(float(best - values[move]))
        if progress is not None:
            progress(index + 1, len(next(iter(regret.values()), [])))
    return regret


def _standard_error(xs: Sequence[float]) -> float:
    return statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else math.nan


def table(regret: Regrets) -> list[str]:
    """Markdown rows: each player's mean regret and share of best moves, then each pair's paired difference."""
    lines = ["| player | positions | mean regret | standard error | best move |", "|---|---|---|---|---|"]
    for name, r in regret.items():
        error = _standard_error(r)
        share = sum(x <= 0 for x in r) / len(r) if r else math.nan
        lines.append(f"| {name} | {len(r)} | {statistics.fmean(r):.4f} | {error:.4f} | {share:.1%} |")
    names = list(regret)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            diff = [x - y for x, y in zip(regret[a], regret[b], strict=True)]
            error = _standard_error(diff)
            lines.append(f"{a} - {b}: {statistics.fmean(diff):+.4f} (standard error {error:.4f}, paired)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=Path, help="folders of JSON game records")
    parser.add_argument("--player", default="rollout", help="the record's player whose positions are read")
    parser.add_argument("--agent", action="append", required=True, help="NAME=SPEC of a rollout player")
    parser.add_argument("--judge", default="rollout:guesses=1,exposed=1", help="the told player (one world: the truth)")
    parser.add_argument("--top", type=int, default=4, help="the net's likeliest moves the judge scores too")
    parser.add_argument("--games", dest="limit", type=int, default=0, help="at most this many records a folder")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first this many records of each folder")
    parser.add_argument("--every", type=int, default=4, help="judge every this many moves of the player")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        agents = named_agents(args.agent)
        named_agents([args.judge])
    except ValueError as error:
        parser.error(str(error))
    records = player_games(args.games, args.player, args.limit, args.skip)
    regret = judged(
        records, agents, args.judge, args.top, args.every, args.seed,
        lambda games, positions: print(f"{games} games, {positions} positions", flush=True),
    )  # fmt: skip
    if not any(regret.values()):
        parser.error(f"no position to judge: no record of {args.player!r} there reaches its move {args.every}")
    print("\n".join(table(regret)))


if __name__ == "__main__":
    main()
