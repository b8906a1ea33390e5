"""`fogofwar selfplay`: games between agents, written as records for the training commands to learn from.

By default the strong player (`search`) plays itself at classic Stratego, the variant the training commands
learn. The compiled simulator (`fogofwar.games.stratego.sim`) plays far faster, but the only player inside its
kernels is the uniform random one: its games teach a move policy or a belief nothing people play, and learning
code that wants its speed steps the vector environments (`fogofwar.games.stratego.envs.vector_env`) in memory
instead of through files. So self-play runs agents through the arena's game runner, as `fogofwar arena` does.

Game i (from 0) is game i of the arena's single pairing: `fogofwar selfplay --players A,B --seed S` plays the
same games as `fogofwar arena --players A,B --seed S` (colours alternate, seeds from `arena.game_seed`: arena and
bench seeds are reproducible by design). A single spec plays both seats, named SPEC#1 and SPEC#2 (NAME1 and NAME2
for NAME=SPEC), as in `fogofwar arena --players SPEC,SPEC`.

The output folder holds

* games/NNNNNN.json: each game's record (`fogofwar.core.records.GameRecord`, as the arena writes them) without
  the measured times (`arena.TIMING_METADATA`), so that a seed gives the same files to the byte whether the games
  ran in this process, in `jobs` local processes or on a Ray cluster (`ray`; see `fogofwar.tools.workers`);
* selfplay.csv: a row per game (number, seed, seats, winner, ending, moves, error), in game order;
* selfplay.json: the settings, the command line that plays the same games again, and the tally.

Records are written as the games finish, so a long run keeps no more than the games in flight in memory.
`fogofwar train ... OUT/games` reads the folder (`fogofwar.games.stratego.formats.gravon.read_games`).
"""

from __future__ import annotations

import csv
import json
import shlex
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from fogofwar.core.protocol import JSON
from fogofwar.tools.arena import (
    ArenaSettings,
    GameResult,
    Player,
    error_result,
    games_bar,
    make_tasks,
    parse_player,
    play_game,
    prepare,
    quote_spec,
    untimed,
)
from fogofwar.tools.workers import Failed, Workers

if TYPE_CHECKING:
    from rich.console import Console

FORMAT = "fogofwar-selfplay"
VERSION = 1
DEFAULT_PLAYER = "search"
CSV_FIELDS = [
    "number", "seed", "red", "blue", "winner", "termination", "ending", "forfeited", "moves", "record", "error",
]  # fmt: skip


@dataclass
class SelfplaySettings:
    players: list[str] = field(default_factory=lambda: [DEFAULT_PLAYER])
    """One agent spec (it plays both seats) or two (colours alternate), each optionally NAME=SPEC."""
    games: int = 100
    seed: int = 1
    jobs: int = 1
    ray: str | None = None
    game: str = "stratego"
    variant: str | None = None
    max_moves: int | None = None
    """None: the variant's default cap, as the arena's."""
    preload: list[str] = field(default_factory=list)
    options: dict[str, JSON] = field(default_factory=dict)

    def arena(self) -> ArenaSettings:
        """The arena whose single pairing plays these games (one spec seated twice, as SPEC#1 and SPEC#2)."""
        if len(self.players) not in (1, 2):
            raise ValueError(f"self-play takes one agent spec (it plays itself) or two, not {len(self.players)}")
        players = list(self.players)
        if len(players) == 1:
            name, spec = parse_player(players[0])
            players = [spec, spec] if name is None else [f"{name}{k}={spec}" for k in (1, 2)]
        return ArenaSettings(
            players=players, games=self.games, seed=self.seed, jobs=self.jobs, ray=self.ray, game=self.game,
            variant=self.variant, max_moves=self.max_moves, preload=list(self.preload), options=dict(self.options),
        )  # fmt: skip

    def command_line(self) -> str:
        """The `fogofwar selfplay` command that plays the same games again: without --jobs, --ray and --out, which
        change where the games run and where they go, not what they are (add them to spread a run)."""
        args = ["fogofwar", "selfplay", "--game", self.game]
        if self.variant:
            args += ["--variant", self.variant]
        args += ["--players", ",".join(quote_spec(s) for s in self.players)]
        args += ["--games", str(self.games), "--seed", str(self.seed)]
        if self.max_moves is not None:
            args += ["--max-moves", str(self.max_moves)]
        for module in self.preload:
            args += ["--preload", module]
        for key, value in self.options.items():
            args += ["--option", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
        return shlex.join(args)


@dataclass
class Row:
    """One game of the run, as selfplay.csv has it: nothing measured, so the same for the same seed."""

    number: int
    seed: int
    red: str
    blue: str
    winner: str | None
    termination: str | None
    ending: str
    forfeited: str | None
    moves: int
    record: str
    """games/NNNNNN.json, relative to the output folder; empty when the game failed."""
    error: str | None

    def cells(self) -> list[object]:
        return [
            self.number, self.seed, self.red, self.blue, self.winner or "", self.termination or "", self.ending,
            self.forfeited or "", self.moves, self.record, self.error or "",
        ]  # fmt: skip


@dataclass
class SelfplayResult:
    settings: SelfplaySettings
    players: list[Player]
    options: dict[str, JSON]
    rows: list[Row]
    """In game order."""
    out: Path
    seconds: float
    where: str
    """Where the games ran (`Workers.where`)."""

    @property
    def errors(self) -> list[Row]:
        return [r for r in self.rows if r.error is not None]

    def tally(self) -> Tally:
        """Wins by seat and by player, draws, errors and endings: all a seed decides."""
        played = [r for r in self.rows if r.error is None]
        by_player = Counter(r.winner for r in played if r.winner is not None)
        return Tally(
            games=len(self.rows),
            red_wins=sum(1 for r in played if r.winner is not None and r.winner == r.red),
            blue_wins=sum(1 for r in played if r.winner is not None and r.winner == r.blue),
            draws=sum(1 for r in played if r.winner is None),
            errors=len(self.rows) - len(played),
            wins_by_player={p.name: by_player[p.name] for p in self.players},
            endings=dict(sorted(Counter(r.ending for r in self.rows).items())),
            moves=sum(r.moves for r in played),
        )

    def to_json(self) -> dict[str, JSON]:
        """selfplay.json: nothing measured (no times, not where the games ran), so a seed decides every byte."""
        settings: dict[str, JSON] = {
            "game": self.settings.game,
            "variant": self.settings.variant,
            "options": self.options,
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "games": self.settings.games,
            "seed": self.settings.seed,
            "max_moves": self.settings.max_moves,
            "preload": list(self.settings.preload),
            "command_line": self.settings.command_line(),
            "game_seeds": "the arena's single pairing: sha256('fogofwar-arena:{seed}:0:{game}'), 8 bytes, >> 1",
            "colours": "game i: the first player is red (seat 0) when i is even",
        }
        return {"format": FORMAT, "version": VERSION, "settings": settings, "tally": asdict(self.tally())}

    def summary_lines(self) -> list[str]:
        t = self.tally()
        wins = ", ".join(f"{name} {n}" for name, n in t.wins_by_player.items())
        lines = [
            f"{t.games} games, {t.moves} moves in {self.seconds:.1f}s on {self.where}",
            f"red won {t.red_wins}, blue won {t.blue_wins}, drawn {t.draws} (wins: {wins})",
            "endings: " + ", ".join(f"{ending} {n}" for ending, n in t.endings.items()),
        ]
        if self.errors:
            first = self.errors[0]
            lines.append(f"{len(self.errors)} games failed with an error, e.g. game {first.number}: {first.error}")
        return lines


@dataclass
class Tally:
    games: int
    red_wins: int
    blue_wins: int
    draws: int
    errors: int
    """Games that failed outside the agents' turns: no record, left out of the other counts."""
    wins_by_player: dict[str, int]
    endings: dict[str, int]
    moves: int


def default_out_dir(root: Path = Path("artifacts/selfplay")) -> Path:
    """artifacts/selfplay/<local timestamp>, with a suffix if that directory exists already."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out, k = root / stamp, 1
    while out.exists():
        k += 1
        out = root / f"{stamp}-{k}"
    return out


def record_path(number: int) -> str:
    return f"games/{number:06d}.json"


def _row(result: GameResult, number: int) -> Row:
    return Row(
        number=number,
        seed=result.seed,
        red=result.red,
        blue=result.blue,
        winner=result.winner,
        termination=result.termination,
        ending=result.ending,
        forfeited=result.forfeited,
        moves=result.moves,
        record=record_path(number) if result.record_json is not None else "",
        error=result.error,
    )


def _describe(rows: Sequence[Row]) -> str:
    errors = sum(1 for r in rows if r.error is not None)
    return f"selfplay [red]({errors} error{'s' if errors != 1 else ''})[/red]" if errors else "selfplay"


def run_selfplay(
    settings: SelfplaySettings,
    out: Path,
    progress: bool = True,
    console: Console | None = None,
    describe: Callable[[Sequence[Row]], str] = _describe,
) -> SelfplayResult:
    """Play the games and write them into `out` (see the module docstring); `ValueError` if `out` holds a run
    already, so that two runs never mix."""
    arena = settings.arena()
    if (out / "selfplay.json").exists() or ((out / "games").is_dir() and any((out / "games").iterdir())):
        raise ValueError(f"{out} holds a self-play run already; give another --out")
    players, options = prepare(arena)
    tasks = make_tasks(arena, players, options)
    (out / "games").mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    t0 = time.perf_counter()
    with Workers(play_game, settings.jobs, settings.ray) as workers:
        done = workers.start(tasks)  # before the bar's refresh thread starts, so that local workers fork without it
        with games_bar(console, progress) as bar:
            bar_task = bar.add_task("selfplay", total=len(tasks))
            for task, outcome in done:
                game = error_result(task, outcome.message) if isinstance(outcome, Failed) else outcome
                row = _row(game, task.number)
                if game.record_json is not None:
                    record = untimed(json.loads(game.record_json))
                    (out / row.record).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
                rows.append(row)
                bar.update(bar_task, advance=1, description=describe(rows))
        where = workers.where
    rows.sort(key=lambda r: r.number)
    result = SelfplayResult(settings, players, options, rows, out, time.perf_counter() - t0, where)
    with (out / "selfplay.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(CSV_FIELDS)
        writer.writerows(r.cells() for r in rows)
    (out / "selfplay.json").write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    return result
