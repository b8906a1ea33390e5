"""`fogofwar arena`: a reproducible round-robin tournament between agents.

Every pair of players meets `games` times; colours alternate (in game i of a pairing, the
pair's first player sits at seat 0, red, when i is even). Each game's seed comes from
(arena seed, pairing index, game index) alone, so the games, and so the results, are the
same for a given seed whether they run in one process, in many (`jobs`) or on a Ray cluster
(`ray`; see `fogofwar.tools.workers`). Only the measured times differ.

Agents are built inside the worker process from their spec strings, because an agent (an
external bot, say) need not pickle. An agent that crashes or plays an illegal move loses
that game by forfeit (the match runner sees to it); anything else that goes wrong while a
game runs is recorded as an error for that game, left out of the scores, and reported.

The results must be honest about what was measured, so:

* every game has an ending type: the termination ("flag_captured", "move_limit", ...),
  "forfeit: KIND" (KIND: "not started", "crash", "timeout", "bad setup", "protocol",
  "illegal move", "repetition (two-squares)", "repetition (more-squares)", "surrender", ...),
  or "error"; wins and losses by forfeit are counted apart in every table;
* a player that never made a move and forfeited (a bot that fails to start or crashes during
  its setup in every game) is listed by `ArenaResult.never_played`, and the CLI fails the run;
* each side's think time is measured around every move (seconds per move: mean and max);
* every game's record (`fogofwar.core.records.GameRecord`) is written to games/NNNN.json.

Players are agent specs, or NAME=SPEC to give one a short name for the tables and the chart
(`demon5=ucc:/tmp/demon/run5.sh`); see `parse_player`.

Ratings: see `fit_elo` and `bootstrap_elo`.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import importlib
import itertools
import json
import math
import platform
import random
import re
import shlex
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fogofwar.core.agents import AgentForfeit, agent_game_options, agent_names, make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import JSON, Game, GameError, Observation, Termination
from fogofwar.core.registry import game_entry, make_game
from fogofwar.tools.workers import Failed, Workers

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

FORMAT = "fogofwar-arena"
VERSION = 1
BOOTSTRAP_RESAMPLES = 200
BOOTSTRAP_SEED = 20240601
PRIOR_DRAWS = 1.0
"""Virtual drawn games added to every pairing that was played (see `fit_elo`)."""
MAX_NEWTON_STEP = 2.0
"""The longest step of `fit_elo`'s Newton iterations, in natural units (about 350 Elo): far from the optimum the
likelihood is all but flat and a full Newton step would overshoot by orders of magnitude."""
ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic (natural) scale: P(win) = 1 / (1 + 10 ** (-diff / 400))."""
ANCHOR_SPEC = "random"


# --- players ----------------------------------------------------------------------------------


def split_players(texts: str | Iterable[str]) -> list[str]:
    """Split comma-separated player specs; a spec in single or double quotes may hold commas.

    >>> split_players('search:time=0.5, "ucc:./bot --depth=3,4", random')
    ['search:time=0.5', 'ucc:./bot --depth=3,4', 'random']
    >>> split_players(["random,random", "heuristic"])
    ['random', 'random', 'heuristic']
    """
    if isinstance(texts, str):
        texts = [texts]
    specs: list[str] = []
    for text in texts:
        current: list[str] = []
        quote: str | None = None
        for ch in text:
            if quote is not None:
                if ch == quote:
                    quote = None
                else:
                    current.append(ch)
            elif ch in "'\"":
                quote = ch
            elif ch == ",":
                specs.append("".join(current).strip())
                current = []
            else:
                current.append(ch)
        if quote is not None:
            raise ValueError(f"unbalanced {quote} in players {text!r}")
        specs.append("".join(current).strip())
    return [s for s in specs if s]


@dataclass(frozen=True)
class Player:
    """A tournament entrant: a unique name (given as NAME=SPEC, else the spec, with '#k' when a spec appears
    more than once) and its agent spec."""

    name: str
    spec: str


_NAMED = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.+-]*)=(.+)", re.DOTALL)
"""NAME=SPEC: the name is letters, digits and _ . + - only, so the '=' of an agent option (which always follows
a ':', as in search:guesses=150 or ucc:log=FILE:cmd) never reads as a name."""


def parse_player(text: str) -> tuple[str | None, str]:
    """Split 'NAME=SPEC' into (NAME, SPEC); a plain spec gives (None, spec).

    >>> parse_player("demon5=ucc:/tmp/demon/run5.sh")
    ('demon5', 'ucc:/tmp/demon/run5.sh')
    >>> parse_player("ucc:log=bot.log:./bot")
    (None, 'ucc:log=bot.log:./bot')
    """
    m = _NAMED.fullmatch(text.strip())
    return (m.group(1), m.group(2).strip()) if m else (None, text.strip())


def name_players(specs: Sequence[str]) -> list[Player]:
    """Name each player: NAME=SPEC takes NAME; a plain spec is named after itself, and one given k > 1 times
    becomes 'spec#1' .. 'spec#k'. A name used twice is a ValueError.

    >>> [p.name for p in name_players(["random", "search", "random", "d1=ucc:./demon"])]
    ['random#1', 'search', 'random#2', 'd1']
    """
    parsed = [parse_player(text) for text in specs]
    counts = Counter(spec for name, spec in parsed if name is None)
    seen: Counter[str] = Counter()
    players: list[Player] = []
    for name, spec in parsed:
        if name is None:
            seen[spec] += 1
            name = f"{spec}#{seen[spec]}" if counts[spec] > 1 else spec
        if any(p.name == name for p in players):
            raise ValueError(f"player name {name!r} given twice; give the players different names (NAME=SPEC)")
        players.append(Player(name, spec))
    return players


def round_robin(num_players: int) -> list[tuple[int, int]]:
    """Every pair of player indices (i < j), in a fixed order; a pairing's index is its place here."""
    return list(itertools.combinations(range(num_players), 2))


def game_seed(seed: int, pairing: int, index: int) -> int:
    """The seed of one game: a 63-bit hash of (arena seed, pairing index, game index)."""
    digest = hashlib.sha256(f"fogofwar-arena:{seed}:{pairing}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


# --- settings and games -----------------------------------------------------------------------


@dataclass
class ArenaSettings:
    players: list[str]
    """Agent specs, each optionally NAME=SPEC, in order; names come from `name_players`."""
    games: int = 100
    """Games per pairing."""
    seed: int = 1
    jobs: int = 1
    ray: str | None = None
    """Play on a Ray cluster instead ("auto", an address, or "local"; see `fogofwar.tools.workers.Workers`)."""
    game: str = "stratego"
    variant: str | None = None
    """Passed to the game as its `variant` option when set; Stratego's default is classic."""
    max_moves: int | None = None
    """Move cap; None takes the cap the game registers for programs (`GameEntry.program_options`: Stratego's
    variant's `DEFAULT_CAPS`, LOTR's 2,000), 0 means no cap."""
    preload: list[str] = field(default_factory=list)
    """Modules imported in every process before agents are built (for agents that plugins register)."""
    options: dict[str, JSON] = field(default_factory=dict)
    """Further game options, e.g. {"captured_mode": "hidden"} for LOTR or {"max_turns": 40} for Admiral."""

    def game_options(self) -> dict[str, JSON]:
        options: dict[str, JSON] = {}
        variant = self.variant or ("classic" if self.game == "stratego" else None)
        if variant:
            options["variant"] = variant
        if self.max_moves is None:
            options.update(game_entry(self.game).program_options(options))
        else:
            options["max_moves"] = self.max_moves
        options.update(self.options)
        return options

    def command_line(self) -> str:
        """The `fogofwar arena` command that runs this tournament again."""
        args = ["fogofwar", "arena", "--game", self.game]
        if self.variant:
            args += ["--variant", self.variant]
        args += ["--players", ",".join(quote_spec(s) for s in self.players)]
        args += ["--games", str(self.games), "--jobs", str(self.jobs), "--seed", str(self.seed)]
        if self.ray is not None:
            args += ["--ray", self.ray]
        if self.max_moves is not None:
            args += ["--max-moves", str(self.max_moves)]
        for module in self.preload:
            args += ["--preload", module]
        for key, value in self.options.items():
            args += ["--option", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
        return shlex.join(args)


def quote_spec(spec: str) -> str:
    """A spec as `split_players` reads it back from a comma-separated list."""
    return f'"{spec}"' if "," in spec or "'" in spec else spec


@dataclass(frozen=True)
class GameTask:
    """One game to play, as plain picklable data."""

    pairing: int
    index: int
    red: Player
    blue: Player
    seed: int
    game: str
    options: dict[str, JSON]
    preload: tuple[str, ...] = ()
    number: int = 0
    """The game's number in the arena, from 1 (its record is games/NNNN.json); 0 for a game played alone."""


@dataclass
class GameResult:
    """One row of the results: who played which colour, how it ended, and how long each side thought."""

    pairing: int
    index: int
    red: str
    blue: str
    winner: str | None
    """The winner's player name; None for a draw or an error."""
    termination: str | None
    """Why the game ended (a `Termination` value); None for an error."""
    moves: int
    seed: int
    seconds: float
    reason: str = ""
    error: str | None = None
    ending: str = ""
    """The ending type: the termination, 'forfeit: KIND' (see the module docstring) or 'error'."""
    forfeited: str | None = None
    """The name of the player who lost by forfeit, if one did."""
    red_moves: int = 0
    """Moves (not setup placements) red made that the game accepted."""
    blue_moves: int = 0
    red_think: float = 0.0
    """Red's seconds of thought over all its moves (measured around each call of the agent)."""
    blue_think: float = 0.0
    red_max: float = 0.0
    """Red's longest think for one move, in seconds."""
    blue_max: float = 0.0
    record: str = ""
    """Where write_outputs puts the game's record, relative to the output folder (games/NNNN.json)."""
    record_json: str | None = field(default=None, repr=False, compare=False)
    """The record itself, as compact JSON (kept out of arena.json and arena.csv)."""

    def score(self, name: str) -> float:
        """The game's points for player `name`: 1, 0.5 (draw) or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == name else 0.0

    def side(self, name: str) -> tuple[int, float, float]:
        """(moves, seconds of thought, longest think) of player `name` in this game."""
        if name == self.red:
            return self.red_moves, self.red_think, self.red_max
        if name == self.blue:
            return self.blue_moves, self.blue_think, self.blue_max
        raise KeyError(name)

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = asdict(self)
        del data["record_json"]
        return data


CSV_FIELDS = [
    "pairing",
    "game",
    "red",
    "blue",
    "winner",
    "termination",
    "ending",
    "forfeited",
    "moves",
    "red_moves",
    "blue_moves",
    "red_sec_per_move",
    "red_max_sec",
    "blue_sec_per_move",
    "blue_max_sec",
    "seed",
    "seconds",
    "record",
    "reason",
    "error",
]


def _import_modules(modules: Iterable[str]) -> None:
    for module in modules:
        importlib.import_module(module)


class Seat:
    """An agent as the arena seats it: the match runner sees it as the agent itself, while the seat times every
    move and keeps what made the agent forfeit (the runner keeps only a message)."""

    def __init__(self, agent: Any, name: str) -> None:
        self.agent = agent
        self.name = name
        self.times: list[float] = []
        """Seconds of each accepted move (setup placements apart)."""
        self.setup_seconds = 0.0
        self.failure: str | None = None
        """Why the agent forfeited, as a forfeit kind; None while it has not."""

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        self.agent.start(game, player, rng)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        setup = observation.data.get("phase") == "setup"
        t0 = time.perf_counter()
        try:
            action: int = self.agent.act(observation, legal_actions)
        except Exception as exc:
            self.failure = forfeit_kind(exc)
            raise
        seconds = time.perf_counter() - t0
        if action not in legal_actions:
            self.failure = "illegal move"
        elif setup:
            self.setup_seconds += seconds
        else:
            self.times.append(seconds)
        return action

    def close(self) -> None:
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()


def forfeit_kind(exc: BaseException) -> str:
    """The forfeit kind of an exception an agent raised: its own `kind` (a `UccForfeit`), 'gave up' for another
    `AgentForfeit`, 'crash' for anything else."""
    kind = getattr(exc, "kind", None)
    if isinstance(kind, str) and kind:
        return kind
    return "gave up" if isinstance(exc, AgentForfeit) else "crash"


TIMING_METADATA = ("think_seconds_by_seat", "max_think_seconds_by_seat", "setup_seconds_by_seat")
"""The metadata of an arena record that measures time: the only part of a record that two runs of the same
seed may not share."""


def untimed(record: Mapping[str, JSON]) -> dict[str, JSON]:
    """A record's JSON without `TIMING_METADATA`: what two runs of the same seed must agree on to the byte."""
    out = dict(record)
    metadata = out.get("metadata")
    if isinstance(metadata, dict):
        out["metadata"] = {k: v for k, v in metadata.items() if k not in TIMING_METADATA}
    return out


def play_game(task: GameTask) -> GameResult:
    """Play one game (the worker's job); anything that goes wrong outside the agents' turns is an error row."""
    start = time.perf_counter()
    agents: list[Any] = []
    try:
        _import_modules(task.preload)
        agents = [make_agent(task.red.spec), make_agent(task.blue.spec)]
        game = make_game(task.game, **agent_game_options(agents, task.game, task.options))  # e.g. Admiral's solo seat
        for agent, player in zip(agents, (task.red, task.blue), strict=True):
            with contextlib.suppress(AttributeError):  # an agent with a read-only name keeps it
                agent.name = player.name
        state = game.new_initial_state()
        explain = getattr(state, "explain_illegal", None)
        for agent in agents:  # a bridge to an external bot names the rule that refused its move (ucc)
            set_referee = getattr(agent, "set_referee", None)
            if callable(set_referee) and callable(explain):
                set_referee(explain)
        seats = [Seat(agent, player.name) for agent, player in zip(agents, (task.red, task.blue), strict=True)]
        record = play_match(game, seats, seed=task.seed, state=state)
        outcome = record.outcome
        if outcome is None:  # pragma: no cover - play_match runs every game to its end
            raise RuntimeError("the game ended without an outcome")
        names = (task.red.name, task.blue.name)
        moves = getattr(state, "move_count", None)
        winner = None if outcome.winner is None else names[outcome.winner]
        ending, forfeited = outcome.termination.value, None
        if outcome.termination is Termination.FORFEIT and outcome.winner is not None:
            loser = 1 - outcome.winner
            forfeited = names[loser]
            kind = seats[loser].failure
            ending = f"forfeit: {kind}" if kind else "forfeit"
        think = [round(sum(seat.times), 6) for seat in seats]
        longest = [round(max(seat.times, default=0.0), 6) for seat in seats]
        path = f"games/{task.number:04d}.json" if task.number > 0 else ""
        record.metadata.update(
            {
                "arena": {"pairing": task.pairing, "game": task.index, "number": task.number},
                "ending": ending,
                "forfeited": forfeited,
                "moves_by_seat": [len(seat.times) for seat in seats],
                "think_seconds_by_seat": list(think),
                "max_think_seconds_by_seat": list(longest),
                "setup_seconds_by_seat": [round(seat.setup_seconds, 6) for seat in seats],
            }
        )
        return GameResult(
            pairing=task.pairing,
            index=task.index,
            red=task.red.name,
            blue=task.blue.name,
            winner=winner,
            termination=outcome.termination.value,
            moves=int(moves) if isinstance(moves, int) else len(record.actions),
            seed=task.seed,
            seconds=round(time.perf_counter() - start, 4),
            reason=outcome.reason,
            ending=ending,
            forfeited=forfeited,
            red_moves=len(seats[0].times),
            blue_moves=len(seats[1].times),
            red_think=think[0],
            blue_think=think[1],
            red_max=longest[0],
            blue_max=longest[1],
            record=path,
            record_json=json.dumps(record.to_json(), separators=(",", ":")),
        )
    except Exception as exc:
        return error_result(task, "".join(traceback.format_exception_only(exc)).strip(), time.perf_counter() - start)
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if callable(close):
                with contextlib.suppress(Exception):  # a bot that fails to close must not spoil the row
                    close()


def error_result(task: GameTask, message: str, seconds: float = 0.0) -> GameResult:
    """The row of a game that failed outside the agents' turns (or whose worker died): left out of the scores."""
    return GameResult(
        pairing=task.pairing,
        index=task.index,
        red=task.red.name,
        blue=task.blue.name,
        winner=None,
        termination=None,
        moves=0,
        seed=task.seed,
        seconds=round(seconds, 4),
        error=message,
        ending="error",
    )


def make_tasks(settings: ArenaSettings, players: Sequence[Player], options: dict[str, JSON]) -> list[GameTask]:
    tasks: list[GameTask] = []
    for p, (i, j) in enumerate(round_robin(len(players))):
        for g in range(settings.games):
            red, blue = (players[i], players[j]) if g % 2 == 0 else (players[j], players[i])
            seed = game_seed(settings.seed, p, g)
            number = len(tasks) + 1
            tasks.append(GameTask(p, g, red, blue, seed, settings.game, options, tuple(settings.preload), number))
    return tasks


# --- ratings ----------------------------------------------------------------------------------


def fit_elo(
    num_players: int,
    results: Iterable[tuple[int, int, float]],
    prior_draws: float = PRIOR_DRAWS,
    fixed: Mapping[int, float] | None = None,
) -> list[float]:
    """Elo ratings by maximum likelihood under the Bradley-Terry (logistic Elo) model.

    `results` holds one (i, j, score of i) triple per game, the score being 1, 0.5 or 0:
    a draw counts as half a win for each side. The model says player i scores against j
    with probability 1 / (1 + 10 ** ((r_j - r_i) / 400)); the ratings maximise the
    likelihood of all the scores, found by Newton's method with step halving (the log
    likelihood is concave).

    A perfect score has no finite maximum, so every pairing that was played also counts
    `prior_draws` virtual drawn games (one by default, as BayesElo's prior does): a weak
    pull towards equal ratings, which keeps a player who won or lost everything finite.
    A tiny ridge term fixes the free constant; the ratings returned have mean 0
    (see `anchor` to move them). A player without games gets 0.

    `fixed` (player index -> Elo) holds those players at the ratings given and fits only the others, returned on
    the same scale: how a changed player is rated against players whose ratings a larger fit already measured,
    without the games of that fit.

    >>> [round(r) for r in fit_elo(2, [(0, 1, 1.0), (0, 1, 0.0)] * 3, fixed={1: 1500.0})]
    [1500, 1500]
    """
    n = num_players
    games = [[0.0] * n for _ in range(n)]
    score = [[0.0] * n for _ in range(n)]
    for i, j, s in results:
        games[i][j] += 1
        games[j][i] += 1
        score[i][j] += s
        score[j][i] += 1.0 - s
    for i, j in itertools.combinations(range(n), 2):
        if games[i][j] and prior_draws:
            games[i][j] += prior_draws
            games[j][i] += prior_draws
            score[i][j] += prior_draws / 2
            score[j][i] += prior_draws / 2
    ridge = 1e-9
    pairs = [(i, j) for i, j in itertools.combinations(range(n), 2) if games[i][j]]

    def objective(theta: Sequence[float]) -> float:
        total = -ridge / 2 * sum(t * t for t in theta)
        for i, j in pairs:
            d = theta[i] - theta[j]
            total += score[i][j] * _log_sigmoid(d) + score[j][i] * _log_sigmoid(-d)
        return total

    held = {i: r / ELO_PER_NATURAL_UNIT for i, r in (fixed or {}).items()}
    start = sum(held.values()) / len(held) if held else 0.0  # the free players start among the held ones
    theta = [held.get(i, start) for i in range(n)]
    value = objective(theta)
    for _ in range(200):
        grad = [-ridge * t for t in theta]
        hess = [[0.0] * n for _ in range(n)]  # the negated Hessian: positive definite
        for i in range(n):
            hess[i][i] = ridge
        for i, j in pairs:
            p = _sigmoid(theta[i] - theta[j])
            g = score[i][j] - games[i][j] * p
            grad[i] += g
            grad[j] -= g
            w = games[i][j] * p * (1.0 - p)
            hess[i][i] += w
            hess[j][j] += w
            hess[i][j] -= w
            hess[j][i] -= w
        for i in held:  # a held rating does not move
            grad[i] = 0.0
            for k in range(n):
                hess[i][k] = hess[k][i] = 0.0
            hess[i][i] = 1.0
        step = _solve(hess, grad)
        longest = max((abs(b) for b in step), default=0.0)
        t = min(1.0, MAX_NEWTON_STEP / longest) if longest else 1.0  # where the curve is flat, Newton leaps
        while True:
            candidate = [a + t * b for a, b in zip(theta, step, strict=True)]
            new_value = objective(candidate)
            if new_value >= value - 1e-12 or t < 1e-6:
                break
            t /= 2
        if new_value < value - 1e-12:
            break
        theta, value = candidate, new_value
        if max((abs(t * b) for b in step), default=0.0) < 1e-10:
            break
    mean = 0.0 if held else (sum(theta) / n if n else 0.0)
    return [(t - mean) * ELO_PER_NATURAL_UNIT for t in theta]


def anchor(ratings: Sequence[float], anchors: Sequence[int]) -> list[float]:
    """Shift ratings so that the mean of the `anchors` (indices) is 0; with no anchors, the mean of all."""
    group = list(anchors) or list(range(len(ratings)))
    if not group:
        return list(ratings)
    shift = sum(ratings[k] for k in group) / len(group)
    return [r - shift for r in ratings]


def bootstrap_elo(
    num_players: int,
    results_by_pairing: Mapping[tuple[int, int], Sequence[float]],
    anchors: Sequence[int] = (),
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
    fixed: Mapping[int, float] | None = None,
) -> list[tuple[float, float]]:
    """Confidence intervals of the ratings by a nonparametric bootstrap, stratified by pairing.

    `results_by_pairing[(i, j)]` lists i's score in each game of the pairing. Each of the
    `resamples` replicates redraws, with replacement, as many games of every pairing as it
    had, fits the ratings again (`fit_elo`), and anchors them as the point estimates are
    anchored; a player's interval runs between the (1 - level) / 2 and (1 + level) / 2
    percentiles of its replicates. The random stream is seeded with `seed`, so the same
    games always give the same intervals. An anchor player's interval is [0, 0] when it
    is the only anchor: the ratings are measured relative to it. With `fixed` (see `fit_elo`) the held players
    keep their ratings in every replicate and nothing is anchored.
    """
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(num_players)]
    keys = sorted(results_by_pairing)
    for _ in range(resamples):
        triples = []
        for i, j in keys:
            scores = results_by_pairing[(i, j)]
            if scores:
                triples += [(i, j, s) for s in rng.choices(scores, k=len(scores))]
        fitted = fit_elo(num_players, triples, fixed=fixed)
        ratings = fitted if fixed else anchor(fitted, anchors)
        for k, r in enumerate(ratings):
            samples[k].append(r)
    low, high = (1 - level) / 2, (1 + level) / 2
    return [(_percentile(s, low), _percentile(s, high)) if s else (0.0, 0.0) for s in samples]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve matrix @ x = vector by Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    a = [row[:] + [vector[k]] for k, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if a[col][col] == 0.0:  # pragma: no cover - the ridge keeps the matrix definite
            continue
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if a[r][r] == 0.0:  # pragma: no cover
            continue
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 1]."""
    data = sorted(values)
    pos = q * (len(data) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


# --- results ----------------------------------------------------------------------------------


@dataclass
class Standing:
    """One player's line of the results table."""

    name: str
    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    errors: int
    score: float | None
    """Percentage of the points (wins + draws / 2); None without games."""
    mean_moves: float | None
    """Mean length of its games, in moves of both sides."""
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    forfeit_wins: int = 0
    """Of the wins, those by the opponent's forfeit."""
    forfeit_losses: int = 0
    """Of the losses, those by its own forfeit."""
    moves: int = 0
    """Moves it made (and the game accepted) in all its games."""
    sec_per_move: float | None = None
    """Its mean think time per move, in seconds; None without a move."""
    max_sec_per_move: float | None = None
    """Its longest think for one move, in seconds."""


@dataclass
class PairScore:
    """How `row` did against `col`."""

    row: str
    col: str
    games: int
    wins: int
    draws: int
    losses: int
    errors: int
    forfeit_wins: int = 0
    """Of row's wins, those by col's forfeit."""
    forfeit_losses: int = 0
    """Of row's losses, those by its own forfeit."""

    @property
    def score(self) -> float | None:
        return 100.0 * (self.wins + self.draws / 2) / self.games if self.games else None

    def to_json(self) -> dict[str, JSON]:
        return {**asdict(self), "score": _round(self.score, 2)}


@dataclass
class ArenaResult:
    settings: ArenaSettings
    players: list[Player]
    options: dict[str, JSON]
    games: list[GameResult]
    started: str
    seconds: float
    standings: list[Standing] = field(default_factory=list)
    pairwise: list[PairScore] = field(default_factory=list)

    @property
    def errors(self) -> list[GameResult]:
        return [g for g in self.games if g.error is not None]

    def pair(self, row: str, col: str) -> PairScore:
        for ps in self.pairwise:
            if ps.row == row and ps.col == col:
                return ps
        raise KeyError((row, col))

    def summary_lines(self) -> list[str]:
        """One line per pairing, from its first player's side: 'a vs b: N games, W-D-L (score%)', then the wins
        and losses by forfeit and the errors when there are any."""
        lines = []
        for i, j in round_robin(len(self.players)):
            a, b = self.players[i].name, self.players[j].name
            ps = self.pair(a, b)
            score = f"{ps.score:.1f}%" if ps.score is not None else "-"
            line = f"{a} vs {b}: {ps.games} games, {ps.wins}-{ps.draws}-{ps.losses} ({score})"
            if ps.forfeit_wins:
                line += f", {ps.forfeit_wins} won by forfeit"
            if ps.forfeit_losses:
                line += f", {ps.forfeit_losses} lost by forfeit"
            if ps.errors:
                line += f", {ps.errors} error{'s' if ps.errors != 1 else ''}"
            lines.append(line)
        return lines

    def never_played(self) -> list[str]:
        """Players whose results measure nothing: no move made in any game, and either no game played at all
        (errors only) or forfeits of their own (a bot that fails to start or dies in its setup). A player whose
        opponent never let it move is not among them."""
        out = []
        for s in self.standings:
            if s.moves == 0 and (s.games == 0 or s.forfeit_losses > 0):
                out.append(s.name)
        return sorted(out, key=[p.name for p in self.players].index)

    def endings(self) -> dict[str, dict[str, Any]]:
        """How the games ended: for each ending type (most frequent first), the games, the wins of each player
        and the draws."""
        counts: Counter[str] = Counter(g.ending for g in self.games)
        out: dict[str, dict[str, Any]] = {}
        for ending, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            games = [g for g in self.games if g.ending == ending]
            wins = {p.name: sum(1 for g in games if g.winner == p.name) for p in self.players}
            draws = sum(1 for g in games if g.winner is None and g.error is None)
            out[ending] = {"games": n, "wins": wins, "draws": draws}
        return out

    def forfeits_by(self, name: str) -> Counter[str]:
        """The ending types of the games `name` lost by its own forfeit, with their counts."""
        return Counter(g.ending for g in self.games if g.forfeited == name)

    def to_json(self) -> dict[str, JSON]:
        settings: dict[str, JSON] = {
            "game": self.settings.game,
            "variant": self.settings.variant,
            "options": self.options,
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "games_per_pairing": self.settings.games,
            "jobs": self.settings.jobs,
            "ray": self.settings.ray,
            "seed": self.settings.seed,
            "max_moves": self.settings.max_moves,
            "preload": list(self.settings.preload),
            "command_line": self.settings.command_line(),
            "game_seeds": "sha256('fogofwar-arena:{seed}:{pairing}:{game}'), first 8 bytes, >> 1",
            "colours": "game i of a pairing: the pair's first player is red (seat 0) when i is even",
            "elo": {
                "model": "Bradley-Terry maximum likelihood, draws = half points, Elo scale (400 / ln 10)",
                "prior_draws_per_pairing": PRIOR_DRAWS,
                "anchor": f"mean of {ANCHOR_SPEC!r} players = 0" if self._anchors() else "mean of all players = 0",
                "interval": "95%, nonparametric bootstrap resampling games within each pairing",
                "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
                "bootstrap_seed": BOOTSTRAP_SEED,
            },
        }
        return {
            "format": FORMAT,
            "version": VERSION,
            "settings": settings,
            "versions": versions(),
            "started": self.started,
            "seconds": round(self.seconds, 3),
            "games": [g.to_json() for g in self.games],
            "standings": [_round_standing(s) for s in self.standings],
            "pairwise": [ps.to_json() for ps in self.pairwise],
            "endings": dict(self.endings()),
            "summary": list(self.summary_lines()),
            "errors": len(self.errors),
            "never_played": list(self.never_played()),
        }

    def _anchors(self) -> list[int]:
        return [k for k, p in enumerate(self.players) if p.spec == ANCHOR_SPEC]


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _round_standing(s: Standing) -> dict[str, JSON]:
    data: dict[str, JSON] = asdict(s)
    for key in ("score", "mean_moves", "elo", "elo_low", "elo_high"):
        value = data[key]
        data[key] = _round(value, 2) if isinstance(value, float) else value
    for key in ("sec_per_move", "max_sec_per_move"):
        value = data[key]
        data[key] = _round(value, 6) if isinstance(value, float) else value
    return data


def versions() -> dict[str, JSON]:
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, JSON] = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("fogofwar", "rich", "typer", "matplotlib"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = None
    return out


def tabulate(result: ArenaResult) -> None:
    """Fill in `result.standings` (best Elo first) and `result.pairwise` from `result.games`."""
    players = result.players
    index = {p.name: k for k, p in enumerate(players)}
    pairings = round_robin(len(players))
    by_pairing: dict[tuple[int, int], list[float]] = {pair: [] for pair in pairings}
    pair_scores = {
        (a.name, b.name): PairScore(a.name, b.name, 0, 0, 0, 0, 0) for a in players for b in players if a != b
    }
    # Moves and think times count in every game that was played, errors included (a game may fail late).
    moves = dict.fromkeys(index, 0)
    think = dict.fromkeys(index, 0.0)
    longest = dict.fromkeys(index, 0.0)
    for g in result.games:
        for name in (g.red, g.blue):
            n, seconds, most = g.side(name)
            moves[name] += n
            think[name] += seconds
            longest[name] = max(longest[name], most)
    for g in result.games:
        red, blue = pair_scores[(g.red, g.blue)], pair_scores[(g.blue, g.red)]
        if g.error is not None:
            red.errors += 1
            blue.errors += 1
            continue
        i, j = pairings[g.pairing]
        by_pairing[(i, j)].append(g.score(players[i].name))
        for ps, me in ((red, g.red), (blue, g.blue)):
            ps.games += 1
            if g.winner is None:
                ps.draws += 1
            elif g.winner == me:
                ps.wins += 1
                ps.forfeit_wins += int(g.forfeited is not None)
            else:
                ps.losses += 1
                ps.forfeit_losses += int(g.forfeited == me)
    anchors = result._anchors()
    triples = [(i, j, s) for (i, j), scores in by_pairing.items() for s in scores]
    elo = anchor(fit_elo(len(players), triples), anchors)
    intervals = bootstrap_elo(len(players), by_pairing, anchors)
    standings = []
    for k, p in enumerate(players):
        mine = [ps for (row, _), ps in pair_scores.items() if row == p.name]
        games = sum(ps.games for ps in mine)
        wins, draws = sum(ps.wins for ps in mine), sum(ps.draws for ps in mine)
        lengths = [g.moves for g in result.games if g.error is None and p.name in (g.red, g.blue)]
        standings.append(
            Standing(
                name=p.name,
                spec=p.spec,
                games=games,
                wins=wins,
                draws=draws,
                losses=sum(ps.losses for ps in mine),
                errors=sum(ps.errors for ps in mine),
                score=100.0 * (wins + draws / 2) / games if games else None,
                mean_moves=sum(lengths) / len(lengths) if lengths else None,
                elo=elo[k] if games else None,
                elo_low=intervals[k][0] if games else None,
                elo_high=intervals[k][1] if games else None,
                forfeit_wins=sum(ps.forfeit_wins for ps in mine),
                forfeit_losses=sum(ps.forfeit_losses for ps in mine),
                moves=moves[p.name],
                sec_per_move=think[p.name] / moves[p.name] if moves[p.name] else None,
                max_sec_per_move=longest[p.name] if moves[p.name] else None,
            )
        )
    standings.sort(key=lambda s: (s.elo is None, -(s.elo or 0.0), index[s.name]))
    result.standings = standings
    order = {s.name: k for k, s in enumerate(standings)}
    result.pairwise = sorted(pair_scores.values(), key=lambda ps: (order[ps.row], order[ps.col]))


# --- running ----------------------------------------------------------------------------------


Describe = Callable[[Sequence[GameResult]], str]
"""Makes the progress bar's description from the results so far."""


def prepare(settings: ArenaSettings) -> tuple[list[Player], dict[str, JSON]]:
    """Check the settings before any game starts (counts, agents, game) and return the named players and the
    game's full options."""
    if settings.games < 1:
        raise ValueError("games per pairing must be at least 1")
    if settings.jobs < 1:
        raise ValueError("jobs must be at least 1")
    if len(settings.players) < 2:
        raise ValueError("an arena needs at least two players")
    players = name_players(settings.players)
    specs = [p.spec for p in players]
    _import_modules(settings.preload)
    known = set(agent_names())
    unknown = sorted({s.partition(":")[0] for s in specs} - known)
    if unknown:
        raise GameError(f"unknown agent {', '.join(map(repr, unknown))}; known agents: {', '.join(sorted(known))}")
    options = settings.game_options()
    game = make_game(settings.game, **options)  # fails fast on a bad game or variant
    if game.num_players != 2:
        raise GameError(f"the arena runs two-player games; {game.name} has {game.num_players} players")
    return players, dict(game.options)


def run_arena(
    settings: ArenaSettings,
    progress: bool = True,
    console: Console | None = None,
    describe: Describe | None = None,
) -> ArenaResult:
    """Play the whole round robin and tabulate it; `progress` shows a bar on `console` (stderr by default),
    described by `describe` (default: the count of forfeits and errors so far)."""
    players, options = prepare(settings)
    tasks = make_tasks(settings, players, options)
    started = datetime.now().astimezone().isoformat(timespec="seconds")
    t0 = time.perf_counter()
    results = _run_tasks(tasks, settings.jobs, settings.ray, progress, console, describe or _describe)
    result = ArenaResult(
        settings=settings,
        players=players,
        options=options,
        games=sorted(results, key=lambda g: (g.pairing, g.index)),
        started=started,
        seconds=time.perf_counter() - t0,
    )
    tabulate(result)
    return result


def games_bar(console: Console | None, progress: bool) -> Progress:
    """The progress bar of a batch of games (the arena's, self-play's): games done, elapsed time, ETA."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        disable=not progress,
    )


def _run_tasks(
    tasks: list[GameTask], jobs: int, ray: str | None, progress: bool, console: Console | None, describe: Describe
) -> list[GameResult]:
    results: list[GameResult] = []
    with Workers(play_game, jobs, ray) as workers:
        done = workers.start(tasks)  # before the bar starts its refresh thread, so that local workers fork without it
        with games_bar(console, progress) as bar:
            task_id = bar.add_task("arena", total=len(tasks))
            for task, result in done:
                results.append(error_result(task, result.message) if isinstance(result, Failed) else result)
                bar.update(task_id, advance=1, description=describe(results))
    return results


def _describe(results: Sequence[GameResult]) -> str:
    errors = sum(1 for r in results if r.error is not None)
    forfeits = sum(1 for r in results if r.forfeited is not None)
    notes = [_plural(forfeits, "forfeit")] if forfeits else []
    notes += [_plural(errors, "error")] if errors else []
    return f"arena [red]({', '.join(notes)})[/red]" if notes else "arena"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# --- output -----------------------------------------------------------------------------------


def default_out_dir(root: Path = Path("artifacts/arena")) -> Path:
    """artifacts/arena/<local timestamp>, with a suffix if that directory exists already."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = root / stamp
    k = 1
    while out.exists():
        k += 1
        out = root / f"{stamp}-{k}"
    return out


def write_outputs(result: ArenaResult, out: Path) -> dict[str, Path]:
    """Write arena.json, arena.csv, arena.png and games/NNNN.json (every game's record) into `out` (created if
    needed); return their paths (the folder of the records as "games")."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "arena.json", "csv": out / "arena.csv", "png": out / "arena.png"}
    records = [g for g in result.games if g.record and g.record_json is not None]
    if records:
        paths["games"] = out / "games"
        paths["games"].mkdir(exist_ok=True)
        for g in records:
            assert g.record_json is not None
            (out / g.record).write_text(json.dumps(json.loads(g.record_json), indent=1) + "\n", encoding="utf-8")
    paths["json"].write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    with paths["csv"].open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(CSV_FIELDS)
        for g in result.games:
            writer.writerow(
                [
                    g.pairing,
                    g.index,
                    g.red,
                    g.blue,
                    g.winner or "",
                    g.termination or "",
                    g.ending,
                    g.forfeited or "",
                    g.moves,
                    g.red_moves,
                    g.blue_moves,
                    _per_move(g.red_think, g.red_moves),
                    g.red_max,
                    _per_move(g.blue_think, g.blue_moves),
                    g.blue_max,
                    g.seed,
                    g.seconds,
                    g.record if g.record_json is not None else "",
                    g.reason,
                    g.error or "",
                ]
            )
    write_chart(result, paths["png"])
    return paths


def _per_move(seconds: float, moves: int) -> float | str:
    return round(seconds / moves, 6) if moves else ""


def _label(name: str, width: int = 28) -> str:
    """A name short enough for a chart's axis: long specs are cut in the middle (give players short names)."""
    if len(name) <= width:
        return name
    half = (width - 1) // 2
    return name[:half] + "…" + name[-(width - 1 - half) :]


def write_chart(result: ArenaResult, path: Path) -> None:
    """A PNG: Elo with its 95% interval per player, and the pairwise score heatmap (matplotlib, Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rated = [s for s in result.standings if s.elo is not None]
    names = [s.name for s in result.standings]
    n = len(names)
    fig = Figure(figsize=(6 + 0.9 * n, 1.6 + 0.55 * max(n, 3)), layout="constrained")
    FigureCanvasAgg(fig)
    ax_elo, ax_map = fig.subplots(1, 2, width_ratios=[1, 1.1])

    ys = list(range(len(rated)))[::-1]
    elos = [s.elo or 0.0 for s in rated]
    err_low = [max(0.0, (s.elo or 0.0) - (s.elo_low or 0.0)) for s in rated]
    err_high = [max(0.0, (s.elo_high or 0.0) - (s.elo or 0.0)) for s in rated]
    ax_elo.errorbar(elos, ys, xerr=[err_low, err_high], fmt="o", color="tab:blue", ecolor="tab:gray", capsize=4)
    ax_elo.axvline(0.0, color="black", linewidth=0.8, linestyle=":")
    ax_elo.set_yticks(ys, [_label(s.name) for s in rated])
    ax_elo.set_ylim(-0.7, len(rated) - 0.3)
    ax_elo.set_xlabel("Elo (95% bootstrap interval)")
    ax_elo.set_title("Ratings")
    ax_elo.grid(axis="x", alpha=0.3)

    matrix = [[math.nan] * n for _ in range(n)]
    for r, row in enumerate(names):
        for c, col in enumerate(names):
            if r != c:
                score = result.pair(row, col).score
                matrix[r][c] = math.nan if score is None else score
    ax_map.imshow(matrix, cmap="RdYlGn", vmin=0, vmax=100)
    ax_map.set_xticks(range(n), [_label(name) for name in names], rotation=30, ha="right")
    ax_map.set_yticks(range(n), [_label(name) for name in names])
    for r in range(n):
        for c in range(n):
            value = matrix[r][c]
            text = "" if r == c else ("-" if math.isnan(value) else f"{value:.0f}%")
            ax_map.text(c, r, text, ha="center", va="center", fontsize=9)
    ax_map.set_title("Score of row vs column")

    variant = f" {result.options['variant']}" if result.options.get("variant") else ""
    fig.suptitle(
        f"fogofwar arena: {result.settings.game}{variant}, {result.settings.games} games per pairing, "
        f"seed {result.settings.seed}",
        fontsize=11,
    )
    fig.savefig(path, format="png", dpi=100)


def print_report(result: ArenaResult, console: Console) -> None:
    """The standings, the pairwise table, the endings, the per-pairing lines, the errors and the players that
    never played, as rich tables."""
    from rich.table import Table

    title = (
        f"{result.settings.game} {result.options.get('variant') or ''}: {len(result.games)} games, "
        f"{result.settings.games} per pairing, seed {result.settings.seed}, {result.seconds:.1f}s"
    )
    table = Table(title=title)
    for header in ("#", "player", "games", "W", "D", "L", "score", "moves", "Elo", "95% CI"):
        table.add_column(header, justify="left" if header == "player" else "right")
    for rank, s in enumerate(result.standings, 1):
        table.add_row(
            str(rank),
            s.name,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            "-" if s.score is None else f"{s.score:.1f}%",
            "-" if s.mean_moves is None else f"{s.mean_moves:.0f}",
            "-" if s.elo is None else f"{s.elo:+.0f}",
            "-" if s.elo_low is None or s.elo_high is None else f"[{s.elo_low:+.0f}, {s.elo_high:+.0f}]",
        )
    console.print(table)

    sides = Table(title="Forfeits (counted in W and L above) and seconds per move")
    for header in ("player", "W by opponent's forfeit", "L by own forfeit", "moves made", "s/move", "max s/move"):
        sides.add_column(header, justify="left" if header == "player" else "right")
    for s in result.standings:
        sides.add_row(
            s.name,
            str(s.forfeit_wins),
            str(s.forfeit_losses),
            str(s.moves),
            _seconds(s.sec_per_move),
            _seconds(s.max_sec_per_move),
        )
    console.print(sides)

    names = [s.name for s in result.standings]
    pairs = Table(title="Pairwise: row's score vs column (W-D-L; wins and losses by forfeit)")
    pairs.add_column("")
    for name in names:
        pairs.add_column(name, justify="center")
    for row in names:
        cells = []
        for col in names:
            if row == col:
                cells.append("")
                continue
            ps = result.pair(row, col)
            score = "-" if ps.score is None else f"{ps.score:.1f}%"
            cell = f"{score}\n{ps.wins}-{ps.draws}-{ps.losses}"
            if ps.forfeit_wins or ps.forfeit_losses:
                cell += f"\nforfeits {ps.forfeit_wins}/{ps.forfeit_losses}"
            cells.append(cell)
        pairs.add_row(row, *cells)
    console.print(pairs)

    endings = Table(title="Endings: games, and who won them")
    endings.add_column("ending")
    endings.add_column("games", justify="right")
    for p in result.players:
        endings.add_column(f"won by {p.name}", justify="right")
    endings.add_column("drawn", justify="right")
    for ending, counts in result.endings().items():
        wins = [str(counts["wins"][p.name]) for p in result.players]
        endings.add_row(ending, str(counts["games"]), *wins, str(counts["draws"]))
    console.print(endings)

    for line in result.summary_lines():
        console.print(line, markup=False, highlight=False)
    errors = result.errors
    if errors:
        console.print(f"[red]{len(errors)} game{'s' if len(errors) != 1 else ''} failed with an error:[/red]")
        for g in errors[:10]:
            console.print(f"  pairing {g.pairing} game {g.index} ({g.red} vs {g.blue}): {g.error}", markup=False)
        if len(errors) > 10:
            console.print(f"  ... and {len(errors) - 10} more (see arena.json)")
    forfeits = [g for g in result.games if g.forfeited is not None]
    if forfeits:
        console.print(f"[yellow]{_plural(len(forfeits), 'game')} lost by forfeit, for example:[/yellow]")
        seen: set[str] = set()
        for g in forfeits:
            if g.ending not in seen:  # one example of each kind
                seen.add(g.ending)
                console.print(f"  {g.ending} ({g.red} vs {g.blue}, game {g.index}): {g.reason}", markup=False)
    for line in never_played_lines(result):
        console.print(line, style="red", markup=False, highlight=False)


def never_played_lines(result: ArenaResult) -> list[str]:
    """One line per player that never played (see `ArenaResult.never_played`): why its results measure nothing."""
    lines = []
    for name in result.never_played():
        kinds = result.forfeits_by(name)
        why = ", ".join(f"{ending} x{n}" for ending, n in kinds.most_common())
        errors = sum(1 for g in result.errors if name in (g.red, g.blue))
        if errors:
            why += (", " if why else "") + _plural(errors, "error")
        lines.append(f"{name} never played a move ({why or 'no game'}): its results measure nothing")
    return lines


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value >= 0.001 else f"{value * 1e6:.0f}\u00b5s"
