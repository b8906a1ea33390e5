"""The `fogofwar` command: play, serve, replay, bench, arena, selfplay, train."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable, Sequence, Sized
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from fogofwar.core.protocol import JSON, GameError
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES

if TYPE_CHECKING:
    from fogofwar.games.stratego.agents.convnet import ConvNet
    from fogofwar.games.stratego.formats.gravon import GravonGame

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="fogofwar: hidden-information battle games on a grid (Stratego and its variants).",
)
console = Console(soft_wrap=True)


def _game_of_variant(game: str, variant: str | None) -> str:
    """The game a variant belongs to: Stratego LOTR's variants were once written as Stratego variants
    (`--variant lotr-powers`), and that spelling still plays LOTR (as `--game lotr --variant powers` does)."""
    if game == "stratego" and variant is not None and variant.strip().lower().startswith("lotr"):
        return "lotr"
    return game


@app.command()
def play(
    game_name: Annotated[
        str | None,
        typer.Argument(metavar="[GAME]", help="stratego (the default), lotr or admiral", show_default=False),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="stratego, lotr or admiral (= the GAME argument)")
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            help="Stratego: classic (the default), barrage, duel, classicfree; LOTR: classic, powers, ring (Games "
            "1-3; --variant lotr-powers alone also plays LOTR); `fogofwar games` lists every game's options",
        ),
    ] = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            "-o",
            help="agent name: random, novice, heuristic, search (the default for Stratego and LOTR), expert (`fogofwar "
            "levels` lists the levels with their ratings); Admiral: random, --solo: stratego",
        ),
    ] = None,
    color: Annotated[
        str | None,
        typer.Option(
            "--color",
            "-c",
            help="red (moves first, the default) or blue; LOTR: evil (= red) or good; Admiral: south (= red) or north",
        ),
    ] = None,
    setup: Annotated[
        str,
        typer.Option("--setup", help="'random', 'sample', 'sample:NAME', a setup string, or 'ask' (LOTR: also 'auto')"),
    ] = "ask",
    seed: Annotated[int | None, typer.Option("--seed", help="seed for the computer and random setups")] = None,
    notation: Annotated[
        str | None, typer.Option("--notation", help="Stratego: classic (1 = marshal, the default) or modern (10)")
    ] = None,
    two_squares: Annotated[
        int | None, typer.Option("--two-squares", help=f"Stratego: two-squares limit (0 = off; {DEFAULT_TWO_SQUARES})")
    ] = None,
    save: Annotated[Path | None, typer.Option("--save", help="write the game record (JSON) here at the end")] = None,
    captured: Annotated[
        str | None,
        typer.Option(
            "--captured", help="LOTR: how captured pieces are kept: free (the default), prisoner, secret, hidden"
        ),
    ] = None,
    hotseat: Annotated[
        bool, typer.Option("--hotseat", help="two people take turns at this keyboard (no computer)")
    ] = False,
    layout: Annotated[
        str | None,
        typer.Option("--layout", help="Admiral: terrain layout (open_sea, archipelago (the default), strait)"),
    ] = None,
    max_turns: Annotated[
        int | None, typer.Option("--max-turns", min=1, help="Admiral: turn cap, a draw when reached (default none)")
    ] = None,
    solo: Annotated[
        bool,
        typer.Option("--solo", help="Admiral: the solo mode, against the AI 'Admiral Stratego' under the solo rules"),
    ] = False,
) -> None:
    """Play Stratego in the terminal against a computer agent, or --hotseat (two people at one keyboard);
    `play lotr --variant powers` plays Stratego LOTR and `play admiral` (or --game admiral) Admiral, likewise;
    `play admiral --solo` is Admiral's solo mode against Admiral Stratego, its reasons shown after each decision.

    Admiral seats: --color south (deploys first; also red) or north (also blue)."""
    from fogofwar.core.console_session import PlaySettings
    from fogofwar.core.registry import game_entry, game_names

    chosen = {g.strip().lower() for g in (game_name, game) if g is not None} or {"stratego"}
    known = [n for n in game_names() if game_entry(n).console is not None]
    if len(chosen) > 1 or not chosen <= set(known):
        console.print(f"play: the game is {', '.join(known)}; got {' and '.join(sorted(chosen))}", style="red")
        raise typer.Exit(2)
    name = _game_of_variant(next(iter(chosen)), variant)
    if hotseat and opponent is not None:
        console.print("play: --hotseat is two people at this keyboard: it takes no --opponent", style="red")
        raise typer.Exit(2)
    own = {"notation": notation, "two_squares": two_squares, "captured": captured, "layout": layout}
    own |= {"max_turns": max_turns, "solo": solo or None}
    settings = PlaySettings(
        variant=variant,
        opponent=opponent,
        color=color,
        setup=setup,
        seed=seed,
        save=save,
        hotseat=hotseat,
        console=console,
        extras={key: value for key, value in own.items() if value is not None},
    )
    runner = game_entry(name).console
    assert runner is not None
    try:
        code = runner()(settings)
    except GameError as exc:
        console.print(f"play: {exc}", style="red", markup=False)
        raise typer.Exit(2) from None
    raise typer.Exit(code)


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="Gravon .zip/.xml archives or fogofwar .json records")],
    check: Annotated[bool, typer.Option("--check", help="report every violation and exit 1 if any")] = False,
    two_squares: Annotated[int, typer.Option("--two-squares", help="two-squares limit (0 = off)")] = (
        DEFAULT_TWO_SQUARES
    ),
    more_squares: Annotated[bool, typer.Option("--more-squares/--no-more-squares")] = True,
    repetition: Annotated[
        str,
        typer.Option(
            "--repetition",
            help="how the no-move ending counts the two-squares rule: auto (Gravon games: the reading of their "
            "date), isf, gravon-2004 or gravon-2013",
        ),
    ] = "auto",
    verbose: Annotated[bool, typer.Option("--verbose", help="one line for every game, not only bad ones")] = False,
) -> None:
    """Replay recorded games through the rules engine; with --check, list what the rules contradict.

    A file or game that cannot be read is reported as a violation, with its reason, and the batch goes on.
    A record with no setup and no move is a game never played: counted apart, not checked."""
    from typing import cast, get_args

    from fogofwar.core.inputs import printable
    from fogofwar.games.stratego.params import Repetition
    from fogofwar.tools.replay_check import Summary, check_files

    missing = [printable(str(f)) for f in files if not f.exists()]
    if missing:
        console.print(f"no such file: {', '.join(missing)}", style="red", markup=False)
        raise typer.Exit(2)
    known = get_args(Repetition)
    if repetition != "auto" and repetition not in known:
        console.print(f"--repetition is auto or one of {', '.join(known)}, not {printable(repetition)}", style="red")
        raise typer.Exit(2)
    era = None if repetition == "auto" else cast(Repetition, repetition)
    summary = Summary()
    for game in check_files(files, two_squares=two_squares, more_squares=more_squares, repetition=era):
        source = printable(game.source)
        summary.add(game)
        if game.skipped or game.not_played:
            if verbose:
                why = "skipped" if game.skipped else "not played"
                console.print(f"{source}: {why} ({printable(game.skipped or game.not_played)})", markup=False)
            continue
        for v in game.violations:
            console.print(f"{source}: {printable(v)}", markup=False)
        if verbose and not game.violations:
            rules = f" ({game.repetition})" if game.repetition else ""
            console.print(f"{source}: {game.moves} moves, ok{rules}", markup=False)
    if summary.notes():
        console.print(summary.notes(), markup=False)
    if summary.rules():
        console.print(summary.rules(), markup=False)
    console.print(summary.line(), markup=False)
    if check and summary.violations:
        raise typer.Exit(1)


@app.command()
def bench(
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="variants to measure (default classic and barrage; LOTR's: its 3 games)"),
    ] = None,
    seconds: Annotated[float, typer.Option("--seconds", help="time per variant")] = 10.0,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            "-e",
            help="reference (the rules engine), batched (the numba simulator), both, vector (the Gymnasium "
            "vector env over the fused kernel: env-steps/s with observations and masks) or all",
        ),
    ] = "reference",
    cores: Annotated[
        str, typer.Option("--cores", help="one (this process), all (one worker process per core) or both")
    ] = "one",
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="worker processes for --cores all (0 = every core)")
    ] = 0,
    game: Annotated[
        str, typer.Option("--game", "-g", help="stratego, lotr, or admiral (random play with dice, one core)")
    ] = "stratego",
    max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="Admiral: turn cap (a draw when reached)")] = (
        100
    ),
    envs: Annotated[
        list[int] | None, typer.Option("--envs", "-n", min=1, help="--engine vector: batch sizes (default 1 256 4096)")
    ] = None,
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, help="--engine vector: interleaved slices per measurement")
    ] = 3,
) -> None:
    """Random-play speed of the engines (moves/s, games/s), both repetition rules on.

    By default the reference engine on one core; --engine batched/both adds the batched simulator
    (its JIT compile time is reported apart), --cores all/both runs one process per core.
    --engine vector: the Gymnasium vector env over the fused kernel (observations and masks included) at the
    --envs batch sizes, on one thread and/or --jobs threads and processes; --engine all: every engine in one run.
    --game lotr: random Stratego LOTR games (powers included) for --seconds each, one core.
    --game admiral: random Admiral games (dice sampled) for --seconds: turns/s, games/s, actions/s."""
    import os

    if game.strip().lower() == "lotr":
        from fogofwar.games.lotr.params import GAME_MODES
        from fogofwar.tools.bench import bench_lotr

        modes = variant or list(GAME_MODES)
        wrong = [m for m in modes if m not in GAME_MODES]
        if wrong:
            known = ", ".join(GAME_MODES)
            console.print(f"bench: LOTR's games are {known}, not {wrong[0]!r}", style="red", markup=False)
            raise typer.Exit(2)
        console.print(
            f"lotr reference engine, one core, Python {sys.version.split()[0]}, random play (powers included), "
            f"{seconds:g}s a game",
            markup=False,
        )
        for mode in modes:
            console.print(bench_lotr(mode, seconds=seconds, seed=seed).line(), markup=False, soft_wrap=True)
        return
    variant = variant or ["classic", "barrage"]
    if game.strip().lower() == "admiral":
        from fogofwar.tools.bench import bench_admiral

        console.print(
            f"admiral reference engine, one core, Python {sys.version.split()[0]}, random play "
            f"(dice sampled, deployment included), turn cap {max_turns}, {seconds:g}s",
            markup=False,
        )
        admiral_result = bench_admiral(seconds=seconds, seed=seed, max_turns=max_turns)
        console.print(admiral_result.line(), markup=False, soft_wrap=True)
        return
    if game.strip().lower() != "stratego":
        console.print(f"bench: --game is stratego, lotr or admiral, got {game!r}", style="red", markup=False)
        raise typer.Exit(2)

    from fogofwar.tools.bench import bench_batched, bench_parallel, bench_random_play, jit_warmup, machine, versions

    if engine == "vector":
        _bench_vector(variant, envs or [1, 256, 4096], seconds, rounds, seed, cores, jobs)
        return
    engines = ["reference", "batched"] if engine in ("both", "all") else [engine]
    core_modes = ["one", "all"] if cores == "both" else [cores]
    if any(e not in ("reference", "batched") for e in engines) or any(c not in ("one", "all") for c in core_modes):
        console.print(
            "bench: --engine is reference, batched, both, vector or all; --cores is one, all or both", style="red"
        )
        raise typer.Exit(2)
    n_jobs = jobs or os.cpu_count() or 1
    if engines == ["reference"] and core_modes == ["one"]:
        console.print(
            f"reference engine, one core, Python {sys.version.split()[0]}, random play, {seconds:g}s per variant"
        )
        for v in variant:
            console.print(bench_random_play(v, seconds=seconds, seed=seed).line(), markup=False, soft_wrap=True)
        return
    console.print(
        f"random play, both repetition rules on, Python {sys.version.split()[0]}, {versions()}; {machine()}; "
        f"{seconds:g}s per measurement",
        markup=False,
    )
    if "batched" in engines:
        jit_seconds, cached = jit_warmup(variant[0])
        how = "loaded from numba's cache" if cached else "compiled"
        console.print(f"batched simulator: kernels {how} in {jit_seconds:.2f}s (not counted below)", markup=False)
    for v in variant:
        for e in engines:
            for c in core_modes:
                if c == "one":
                    fn = bench_batched if e == "batched" else bench_random_play
                    result = fn(v, seconds=seconds, seed=seed)
                else:
                    result = bench_parallel(e, v, seconds=seconds, seed=seed, jobs=n_jobs)
                console.print(result.line(labelled=True), markup=False, soft_wrap=True)
    if engine == "all":
        _bench_vector(variant, envs or [1, 256, 4096], seconds, rounds, seed, cores, jobs)


def _bench_vector(
    variants: list[str], sizes: list[int], seconds: float, rounds: int, seed: int, cores: str, jobs: int
) -> None:
    """`bench --engine vector`: the vector env at each batch size, on one core and/or `jobs` threads and processes."""
    import os
    import time

    from fogofwar.tools.bench import machine, versions
    from fogofwar.tools.bench_vector import bench_vector, default_configs

    if cores not in ("one", "all", "both"):
        console.print("bench: --cores is one, all or both", style="red")
        raise typer.Exit(2)
    n_jobs = jobs or os.cpu_count() or 1
    configs = default_configs(variants, sizes, cores in ("one", "both"), cores in ("all", "both"), n_jobs)
    console.print(
        f"vector env (StrategoVectorEnv, copy=False): random legal actions, both repetition rules on; "
        f"Python {sys.version.split()[0]}, {versions()}; {machine()}; "
        f"{seconds:g}s per measurement in {rounds} interleaved rounds",
        markup=False,
    )
    start = time.perf_counter()
    from fogofwar.games.stratego.sim.vector import PRANGE_FROM, VectorStratego

    for n in (1, PRANGE_FROM):  # both kernels: the small-batch one and the prange one
        sim = VectorStratego(variants[0], n)
        sim.reset(seed=0)
        sim.step(sim.sample_actions())
    console.print(f"kernels ready in {time.perf_counter() - start:.2f}s (numba's cache or a compile)", markup=False)
    for result in bench_vector(configs, seconds=seconds, rounds=rounds, seed=seed):
        console.print(result.line(), markup=False, soft_wrap=True)


_Ray = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="play on a Ray cluster instead of local processes: auto (the cluster `ray start` made this machine part "
        "of), an address (ray://head:10001 or head:6379), or local (a private instance of --jobs CPUs); same "
        "results as the local pool (docs/research.md)",
        show_default=False,
    ),
]


@app.command()
def arena(
    players: Annotated[
        list[str],
        typer.Option(
            "--players",
            "-p",
            help="agent specs separated by commas, e.g. search:time=0.5,random (quote a spec that has a comma); "
            "NAME=SPEC gives a player a short name for the tables, e.g. demon5=ucc:/tmp/demon/run5.sh; "
            "may be repeated",
        ),
    ],
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            help="Stratego: classic (default), barrage, duel or classicfree; LOTR: classic, powers or ring "
            "(--variant lotr-powers alone plays LOTR)",
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games per pairing (colours alternate)")] = 100,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="worker processes (1 = play in this process)")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed of the whole tournament")] = 1,
    ray: _Ray = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="output directory (default artifacts/arena/<timestamp>)")
    ] = None,
    max_moves: Annotated[
        int | None,
        typer.Option(
            "--max-moves", min=0, help="move cap, a draw when reached (default: the game's cap for programs; 0 none)"
        ),
    ] = None,
    game: Annotated[str, typer.Option("--game", help="game to play")] = "stratego",
    preload: Annotated[
        list[str] | None, typer.Option("--preload", help="import this module first (it may register agents)")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="game option KEY=VALUE, e.g. captured_mode=hidden for lotr; may be repeated"
        ),
    ] = None,
) -> None:
    """Round-robin tournament between agents: scores, Elo with 95% intervals, endings, seconds per move,
    arena.json/.csv/.png and every game's record (games/NNNN.json).

    Wins and losses by forfeit (a bot that crashed, timed out, broke the protocol or the repetition rules) are
    counted apart; the run fails (exit status 1) when a player never played a move, e.g. a bot that does not start.
    """
    from fogofwar.tools.arena import (
        ArenaSettings,
        default_out_dir,
        never_played_lines,
        print_report,
        run_arena,
        split_players,
        write_outputs,
    )
    from fogofwar.tools.workers import ClusterError

    try:
        specs = split_players(players)
        settings = ArenaSettings(
            players=specs,
            games=games,
            seed=seed,
            jobs=jobs,
            ray=ray,
            game=_game_of_variant(game, variant),
            variant=variant,
            max_moves=max_moves,
            preload=list(preload or []),
            options=_parse_options(option or []),
        )
        result = run_arena(settings)
    except (GameError, ValueError, TypeError, ImportError, ClusterError) as exc:
        console.print(f"[red]arena: {exc}[/red]")
        raise typer.Exit(2) from None
    print_report(result, console)
    paths = write_outputs(result, out if out is not None else default_out_dir())
    for key, path in paths.items():
        note = f" ({sum(1 for g in result.games if g.record_json is not None)} game records)" if key == "games" else ""
        console.print(f"wrote {path}{note}", markup=False, highlight=False)
    if result.never_played():
        console.print(
            "arena: failed: "
            + "; ".join(never_played_lines(result))
            + ". Check that the command starts by hand (ucc:log=FILE keeps its protocol and stderr).",
            style="red",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(1)


@app.command()
def selfplay(
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="one agent spec, which plays itself, or two separated by a comma (colours alternate); "
            "default search, the strong player",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games to play")] = 100,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="worker processes (1 = play in this process)")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed of the whole run")] = 1,
    ray: _Ray = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="output directory (default artifacts/selfplay/<timestamp>)")
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            help="Stratego: classic (default; what the training commands learn), barrage, duel or classicfree",
        ),
    ] = None,
    max_moves: Annotated[
        int | None,
        typer.Option(
            "--max-moves", min=0, help="move cap, a draw when reached (default: the game's cap for programs; 0 none)"
        ),
    ] = None,
    game: Annotated[str, typer.Option("--game", help="game to play")] = "stratego",
    preload: Annotated[
        list[str] | None, typer.Option("--preload", help="import this module first (it may register agents)")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option KEY=VALUE; may be repeated")
    ] = None,
) -> None:
    """Play games between agents and write their records (OUT/games/NNNNNN.json), selfplay.csv and selfplay.json:
    data for `fogofwar train ... OUT/games`. The same seed gives the same files whatever --jobs or --ray.

    Exit status 1 if a game failed with an error (its record is missing)."""
    from fogofwar.tools.arena import split_players
    from fogofwar.tools.selfplay import DEFAULT_PLAYER, SelfplaySettings, default_out_dir, run_selfplay
    from fogofwar.tools.workers import ClusterError

    target = out if out is not None else default_out_dir()
    try:
        settings = SelfplaySettings(
            players=split_players(players) if players else [DEFAULT_PLAYER],
            games=games,
            seed=seed,
            jobs=jobs,
            ray=ray,
            game=_game_of_variant(game, variant),
            variant=variant,
            max_moves=max_moves,
            preload=list(preload or []),
            options=_parse_options(option or []),
        )
        result = run_selfplay(settings, target)
    except (GameError, ValueError, TypeError, ImportError, ClusterError) as exc:
        console.print(f"[red]selfplay: {exc}[/red]")
        raise typer.Exit(2) from None
    for line in result.summary_lines():
        console.print(line, markup=False, highlight=False)
    console.print(f"wrote {target} ({len(result.rows) - len(result.errors)} game records)", markup=False)
    if result.errors:
        raise typer.Exit(1)


@app.command()
def games() -> None:
    """The games this install plays, each with its options (name, type, default, meaning): what `arena
    --option NAME=VALUE`, the web app and records accept, from each game's declared options."""
    from rich.table import Table

    from fogofwar.core.registry import game_entry, game_names

    for name in sorted(game_names(), key=lambda n: game_entry(n).order):
        params = game_entry(name).params
        table = Table(title=f"{name}: {params.title}", title_justify="left")
        for column in ("option", "type", "default", "meaning"):
            table.add_column(column)
        for info in params.options():
            table.add_row(info.name, info.kind, json.dumps(info.default, default=str), info.meaning)
        console.print(table)


@app.command()
def levels() -> None:
    """The computer's levels for classic Stratego, weakest first, with their measured Elo and time a move."""
    from rich.table import Table

    from fogofwar.games.stratego.agents.levels import levels as all_levels

    table = Table(title="Computer levels (Elo: Demon of Ignorance level 1 = 1500; docs/strength.md)")
    for column in ("level", "--opponent", "Elo", "s a move", "how it plays"):
        table.add_column(column)
    for level in all_levels():
        elo = "not measured" if level.elo is None else str(round(level.elo))
        secs = "" if level.seconds is None else f"{level.seconds:.2f}"
        table.add_row(level.label, level.name, elo, secs, level.blurb)
    console.print(table)


@app.command("ucc-bot")
def ucc_bot(
    agent: Annotated[str, typer.Option("--agent", "-a", help="agent spec, e.g. random or heuristic")] = "random",
    seed: Annotated[int | None, typer.Option("--seed", help="seed of the agent's random stream")] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="variant if the manager's header names none (classic)")
    ] = None,
) -> None:
    """Play as a bot of the UCC 2012 Stratego manager on stdin/stdout (notes go to stderr)."""
    from fogofwar.games.stratego.agents.ucc import run_ucc_bot

    out = sys.stdout
    sys.stdout = sys.stderr  # only protocol lines may reach the manager
    try:
        code = run_ucc_bot(agent, sys.stdin, out, seed=seed, variant=variant)
    finally:
        sys.stdout = out
    raise typer.Exit(code)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", help="SQLAlchemy database URL (default: $FOGOFWAR_DB, else sqlite:///fogofwar.db)"),
    ] = None,
    agent_delay: Annotated[
        float, typer.Option("--agent-delay", min=0.0, help="seconds the computer waits before it answers")
    ] = 0.4,
    limit: Annotated[
        list[str] | None,
        typer.Option("--limit", help="NAME=VALUE: change one of the server's limits per client (see the README)"),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=0,
            max=64,
            help="worker processes (1: one process; N: a supervisor routes each game to the worker that owns it;"
            " 0: one per core)",
        ),
    ] = 1,
) -> None:
    """Run the web app: play in the browser against the computer, hot-seat, or by invite link."""
    from pydantic import ValidationError

    from fogofwar.frontends.server import Limits, database_url, serve
    from fogofwar.frontends.server.store import safe_url

    try:
        limits = Limits(**dict(_parse_options(limit or [])))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise typer.BadParameter(
            f"{problems} (limits: {', '.join(Limits.model_fields)})", param_hint="--limit"
        ) from None
    url = database_url(db)
    workers = workers or os.cpu_count() or 1
    if workers > 1:
        from fogofwar.frontends.server.handoff import unshared

        if (problem := unshared(url)) is not None:
            raise typer.BadParameter(problem, param_hint="--workers")
    shown = f"[{host}]" if ":" in host else host
    processes = f"; {workers} worker processes" if workers > 1 else ""
    console.print(
        f"fogofwar: open http://{shown}:{port}/ (database {safe_url(url)}{processes}; Ctrl+C stops)", markup=False
    )
    code = serve(host, port, limits=limits, db=url, agent_delay=agent_delay, workers=workers)
    if code:
        raise typer.Exit(code)


def _parse_options(pairs: list[str]) -> dict[str, JSON]:
    """KEY=VALUE game options; VALUE is read as JSON (numbers, true/false) when it can be, else as text."""
    out: dict[str, JSON] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


train_app = typer.Typer(help="Fit the learned parts of the computer players from real games.", no_args_is_help=True)
app.add_typer(train_app, name="train")


# The options both `train` commands take.
_Archives = Annotated[
    list[Path],
    typer.Argument(
        help="Gravon archives (.zip), e.g. ../shared/data/gravon/*.zip, and fogofwar records (.json) or folders of "
        "them, e.g. a `fogofwar selfplay` run's OUT/games"
    ),
]
_HeldOut = Annotated[int, typer.Option("--held-out", min=2, help="every Nth game is held out")]
_MaxGames = Annotated[int, typer.Option("--max-games", min=0, help="train on at most N games (0: all)")]
_MaxHeldOut = Annotated[int, typer.Option("--max-held-out", min=0, help="score at most N games (0: all)")]
_WeightsOut = Annotated[Path | None, typer.Option("--out", help="weights file (default: the package's)")]
_Sized = TypeVar("_Sized", bound=Sized)
_Steps = Annotated[int, typer.Option("--steps", min=1, help="optimiser steps")]
_Batch = Annotated[int, typer.Option("--batch", min=1, max=65536, help="positions a step")]
_Width = Annotated[int, typer.Option("--width", min=1, max=512, help="channels of the net")]
_Blocks = Annotated[int, typer.Option("--blocks", min=0, max=64, help="residual 3x3 convolutions")]
_FitSeed = Annotated[int, typer.Option("--seed", help="seed of the fit")]
_Minutes = Annotated[float, typer.Option("--minutes", min=0, help="stop the fit after this long (0: no limit)")]


def _need_torch(what: str) -> None:
    """Exit with a clear message when PyTorch, which training needs, is not installed."""
    try:
        import torch  # noqa: F401
    except ImportError:
        console.print(f"train {what} needs PyTorch: pip install torch (see requirements-train.txt)", style="red")
        raise typer.Exit(2) from None


def _fit_reporter(bar: Any, steps: int) -> Callable[[int, float], None]:
    """A progress task for the fit and the callback that moves it (with the running loss)."""
    fit = bar.add_task("fit", total=steps)

    def report(step: int, loss: float) -> None:
        bar.update(fit, completed=step, description=f"fit (loss {loss:.3f})")

    return report


def _training_positions(
    bar: Any, make: Callable[[Sequence[GravonGame], Callable[[int], None]], _Sized], train: Sequence[GravonGame],
    held: Sequence[GravonGame],
) -> tuple[_Sized, _Sized]:  # fmt: skip
    """The training and held-out positions `make(games, progress)` builds from these games, under one progress
    task, and their counts printed."""
    task = bar.add_task("positions", total=len(train) + len(held))

    def advance(n: int) -> None:
        bar.advance(task, n)

    data, held_data = make(train, advance), make(held, advance)
    console.print(f"{len(data):,} training positions, {len(held_data):,} held out", markup=False)
    return data, held_data


def _save_net(net: ConvNet, note: str, out: Path | None, default: Path) -> None:
    """Write a fitted net with its note to `out` (else the package's weights file) and say where."""
    target = out or default
    dataclasses.replace(net, note=note).save(target)
    console.print(f"wrote {target}", markup=False)


def _gravon_split(
    what: str, archives: list[Path], held_out: int, max_games: int, max_held_out: int, variant: str = "classic"
) -> tuple[list[GravonGame], list[GravonGame], list[GravonGame]]:
    """(all games of `variant`, training games, held-out games: every `held_out`-th), cut to the maxima (0: all).
    Records that cannot be read are counted and passed over, as Gravon's unreadable games are."""
    from fogofwar.games.stratego.agents.belief_training import split
    from fogofwar.games.stratego.formats.gravon import GravonGame, read_games

    games: list[GravonGame] = []
    unreadable: list[str] = []
    for path in archives:
        for g in read_games(path):
            if isinstance(g, GravonGame):
                if g.game_type == variant:
                    games.append(g)
            elif path.is_dir() or path.suffix.lower() == ".json":
                unreadable.append(str(g))
    if unreadable:
        console.print(f"{len(unreadable)} records passed over, e.g. {unreadable[0]}", markup=False)
    train, held = split(games, held_out)
    train, held = train[: max_games or None], held[: max_held_out or None]
    if not train or not held:
        console.print(f"train {what}: {len(games)} {variant} games are too few to train and hold out", style="red")
        raise typer.Exit(2)
    console.print(f"{len(train)} training games, {len(held)} held out (every {held_out}th)", markup=False)
    return games, train, held


@train_app.command("belief")
def train_belief(
    archives: _Archives,
    held_out: _HeldOut = 10,
    every: Annotated[int, typer.Option("--every", min=1, help="an example every Nth turn of each side")] = 10,
    max_games: _MaxGames = 0,
    max_held_out: _MaxHeldOut = 0,
    steps: _Steps = 300,
    out: _WeightsOut = None,
) -> None:
    """The belief's learned part: how a piece's history changes the odds of its rank (writes its weights)."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.belief_model import weights_path
    from fogofwar.games.stratego.agents.belief_training import examples, fit, prior_from, score, setup_counts

    games, train, held = _gravon_split("belief", archives, held_out, max_games, max_held_out)
    counts = setup_counts(train)
    with prior_from(counts), Progress(console=console, transient=True) as bar:
        task = bar.add_task("examples", total=len(train))
        ex = examples(train, every, progress=lambda: bar.advance(task))
        console.print(f"{len(ex):,} examples", markup=False)
        weights = fit(ex, steps=steps, report=lambda step, loss: console.print(f"step {step}: loss {loss:.4f}"))
        task = bar.add_task("held-out games", total=2 * len(held))
        before = score(held, None, every, progress=lambda: bar.advance(task))
        after = score(held, weights, every, progress=lambda: bar.advance(task))
    for name, s in (("without the learned part", before), ("with it", after)):
        line = f"held out, {name}: log-loss {s.log_loss:.4f} nats, top-1 {100 * s.accuracy:.1f}% ({s.pieces:,} pieces)"
        console.print(line, markup=False)
    target = out or weights_path()
    note = (
        f"Learned part of the belief (fogofwar.games.stratego.agents.belief_model), "
        f"written by `fogofwar train belief`:\n"
        f"{len(train)} Gravon classic games, every {held_out}th of {len(games)} held out, an example every {every} "
        f"turns, {steps} steps.\nHeld out: log-loss {before.log_loss:.4f} -> {after.log_loss:.4f} nats, "
        f"top-1 {100 * before.accuracy:.1f}% -> {100 * after.accuracy:.1f}% over {after.pieces:,} pieces."
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(weights.to_toml(note), encoding="utf-8")
    console.print(f"wrote {target}", markup=False)


@train_app.command("material")
def train_material(
    archives: _Archives,
    held_out: _HeldOut = 10,
    every: Annotated[int, typer.Option("--every", min=1, help="count the pieces every Nth move of each game")] = 6,
    max_games: _MaxGames = 0,
    max_held_out: _MaxHeldOut = 0,
    steps: _Steps = 500,
    out: _WeightsOut = None,
    variant: Annotated[
        str,
        typer.Option(
            "--variant", "-v", help="fit this variant's games (barrage: data/material_barrage.toml, rollout:ownfit=1)"
        ),
    ] = "classic",
) -> None:
    """The search's material values, fitted to who won (writes data/material.toml, used by search:material=1;
    with --variant barrage, Barrage's own fit, which `rollout:ownfit=1` scores Barrage's roll-outs with)."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.knowledge import VALUE
    from fogofwar.games.stratego.agents.material_training import COUNTED, Fitted, counts, fit_material
    from fogofwar.games.stratego.agents.search import (
        MARSHAL_STEP_TABLE,
        REVEAL_TABLE,
        VARIANT_MATERIAL_FILES,
        SearchAgent,
        fitted_material_with_reveal,
        material_path,
    )

    if variant not in ("classic", *VARIANT_MATERIAL_FILES):
        console.print(f"train material: no fit of {variant!r} games is read by any player", style="red")
        raise typer.Exit(2)
    games, train, held = _gravon_split("material", archives, held_out, max_games, max_held_out, variant)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("games", total=len(train) + len(held))
        train_counts = counts(train, every, progress=lambda: bar.advance(task))
        held_counts = counts(held, every, progress=lambda: bar.advance(task))
    console.print(f"{len(train_counts[1]):,} positions, {len(held_counts[1]):,} held out", markup=False)
    sharpness = SearchAgent().sharpness
    start = {int(r): v for r, v in VALUE.items()}
    fits = []
    for stepped, shown in ((False, False), (True, False), (True, True)):
        fits.append(
            fit_material(
                train_counts,
                held_counts,
                start,
                sharpness,
                steps,
                report=lambda step, loss: console.print(f"step {step}: loss {loss:.4f}"),
                marshal_step=stepped,
                reveal=shown,
            )
        )
        what = "with the revealed ranks" if shown else "with the marshal's step" if stepped else "plain"
        console.print(f"held out, {what}: log-loss {fits[-1].before:.4f} -> {fits[-1].after:.4f}", markup=False)
    fitted, stepped_fit, revealed_fit = fits
    classic = ""
    if variant != "classic":  # what the classic fits the roll-outs score with otherwise make of these games
        values, sharp, step, steps_shown = fitted_material_with_reveal()
        loss = Fitted([values[r] for r in COUNTED], sharp, step, [steps_shown[r] for r in COUNTED]).log_loss(
            *held_counts
        )
        classic = f" The classic fit with the revealed ranks: {loss:.4f} on the same positions."
        console.print(f"held out, the classic fit with the revealed ranks: log-loss {loss:.4f}", markup=False)
    target = out or material_path(variant)
    flag = "" if variant == "classic" else f" --variant {variant}"
    note = (
        f"Material values by rank, fitted to who won the {variant} games given; written by "
        f"`fogofwar train material{flag}`:\n"
        f"{len(train)} games, every {held_out}th of {len(games)} held out, pieces counted every {every} moves, "
        f"{steps} steps.\nwin chance = 0.05 + 0.9 * logistic(sharpness * (own - enemy) / (own + enemy)).\n"
        f"Held out: log-loss {fitted.before:.4f} -> {fitted.after:.4f} over {len(held_counts[1]):,} positions "
        "(both sides' views). "
        + (
            "The search takes the values (search:material=1) and keeps its own sharpness.\n"
            if variant == "classic"
            else f"The roll-outs score {variant} with these (rollout:ownfit=1); the search keeps the classic fit.\n"
        )
        + f"[{MARSHAL_STEP_TABLE}]: the same curve with marshal_step * (own marshal alive - the enemy's) added inside "
        f"the logistic,\nfitted alike; held out {stepped_fit.after:.4f}. "
        "The roll-outs score with it (rollout:marshal=1).\n"
        f"[{REVEAL_TABLE}]: the marshal's step and reveal[rank] * (own revealed pieces of the rank - the enemy's) "
        f"inside the logistic;\nheld out {revealed_fit.after:.4f}. The roll-outs score with it with rollout:reveal=1."
        + classic
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(fitted.to_toml(note, stepped_fit, revealed_fit), encoding="utf-8")
    console.print(f"wrote {target}", markup=False)


@train_app.command("policy")
def train_policy(
    archives: _Archives,
    held_out: _HeldOut = 10,
    max_games: _MaxGames = 0,
    max_held_out: _MaxHeldOut = 0,
    steps: _Steps = 12000,
    batch: _Batch = 256,
    width: _Width = 48,
    blocks: _Blocks = 5,
    seed: _FitSeed = 0,
    minutes: _Minutes = 0,
    lr: Annotated[float, typer.Option("--lr", min=1e-6, max=1.0, help="learning rate at the start")] = 0.002,
    player: Annotated[
        str | None, typer.Option("--player", help="learn only the moves of the player of this name in each game")
    ] = None,
    start: Annotated[
        Path | None, typer.Option("--start", help="fine-tune these weights (a policy .npz) instead of fitting anew")
    ] = None,
    out: _WeightsOut = None,
) -> None:
    """The move policy: which move a person (or `--player`) would play here, learned from Gravon games or the
    project's records (writes its weights)."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.policy_model import PolicyNet, weights_path
    from fogofwar.games.stratego.agents.policy_training import positions, score, train, uniform_score

    _need_torch("policy")
    try:
        first = PolicyNet.load(start) if start is not None else None
    except (OSError, ValueError, KeyError) as exc:
        console.print(f"train policy: cannot read the weights to start from, {start}: {exc}", style="red")
        raise typer.Exit(2) from None
    games, train_games, held = _gravon_split("policy", archives, held_out, max_games, max_held_out)
    with Progress(console=console, transient=True) as bar:
        data, held_pos = _training_positions(
            bar, lambda g, tick: positions(g, progress=tick, player=player), train_games, held
        )
        if not len(data) or not len(held_pos):
            console.print(f"train policy: no move of {player!r} in the training or held-out games", style="red")
            raise typer.Exit(2)
        report = _fit_reporter(bar, steps)
        policy, held_score = train(
            data, held_pos, width=width, blocks=blocks, steps=steps, batch=batch, lr=lr, seed=seed,
            seconds=minutes * 60 if minutes else None, report=report, start=first,
        )  # fmt: skip
    floor = uniform_score(held_pos)
    console.print(f"held out, a random legal move: {floor.line()}", markup=False)
    if first is not None:
        console.print(f"held out, the net started from: {score(first, held_pos).line()}", markup=False)
    console.print(f"held out, the net: {held_score.line()}", markup=False)
    whose = f"the moves of {player}" if player else "every move"
    origin = f"fine-tuned from {start.name}, learning rate {lr}" if start else f"width {width}, {blocks} blocks"
    note = (
        f"Move policy (fogofwar.games.stratego.agents.policy_model), written by `fogofwar train policy`: "
        f"{len(train_games)} classic games ({len(data):,} positions, {whose}), every {held_out}th of {len(games)} "
        f"held out; {origin}, {steps} steps of {batch}, seed {seed}. Held out: {held_score.line()} "
        f"(a random legal move: {floor.line()})."
    )
    _save_net(policy, note, out, weights_path())


@train_app.command("selfplay")
def train_selfplay(
    out: Annotated[Path, typer.Option("--out", help="weights file to write (a policy .npz)")],
    start: Annotated[
        Path | None, typer.Option("--start", help="the policy to improve (default: the shipped one)")
    ] = None,
    updates: Annotated[int, typer.Option("--updates", min=1, help="PPO updates at most")] = 1_000_000,
    minutes: Annotated[float, typer.Option("--minutes", min=0, help="stop after this long (0: no limit)")] = 45,
    envs: Annotated[int, typer.Option("--envs", min=1, max=4096, help="games played side by side")] = 128,
    horizon: Annotated[int, typer.Option("--horizon", min=1, max=4096, help="plies a game plays an update")] = 64,
    lr: Annotated[float, typer.Option("--lr", min=1e-7, max=1.0, help="learning rate")] = 1e-4,
    anchor: Annotated[
        float, typer.Option("--anchor", min=0, max=100, help="weight of the KL penalty towards the start")
    ] = 0.05,
    warmup: Annotated[int, typer.Option("--warmup", min=0, help="first updates fit only the value head")] = 20,
    pool: Annotated[
        list[Path] | None, typer.Option("--pool", help="a past policy to play against besides the start (repeat)")
    ] = None,
    pool_share: Annotated[
        float, typer.Option("--pool-share", min=0, max=1, help="share of games against the pool, not itself")
    ] = 0.0,
    snapshot: Annotated[
        int, typer.Option("--snapshot", min=0, help="every N updates a copy of the learner joins the pool (0: never)")
    ] = 0,
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="the Stratego variant to play (one with a setup book)")
    ] = "classic",
    seed: _FitSeed = 0,
    games: Annotated[
        int, typer.Option("--games", min=0, max=100_000, help="games against the start at the end (0: none)")
    ] = 400,
) -> None:
    """The move policy improved by self-play (PPO in the batched simulator, credit from the material win chance
    and the result, kept near its start by a KL penalty); prints its score against the start."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.policy_model import PolicyNet, shipped_policy
    from fogofwar.games.stratego.agents.selfplay_training import SelfPlayConfig, UpdateReport, match, train
    from fogofwar.games.stratego.agents.setups import book_setups

    _need_torch("selfplay")
    if not book_setups(variant):
        console.print(f"train selfplay: {variant!r} has no setup book to start games from (classic, barrage do)")
        raise typer.Exit(2)

    def load(path: Path, what: str) -> PolicyNet:
        try:
            return PolicyNet.load(path)
        except (OSError, ValueError, KeyError) as exc:
            console.print(f"train selfplay: cannot read {what}, {path}: {exc}", style="red")
            raise typer.Exit(2) from None

    first = load(start, "the weights to start from") if start is not None else shipped_policy()
    if first is None:
        console.print("train selfplay: no policy ships; give one with --start", style="red")
        raise typer.Exit(2)
    rivals = [load(path, "the pool's weights") for path in pool or []]
    config = SelfPlayConfig(
        envs=envs, horizon=horizon, lr=lr, anchor=anchor, warmup=warmup, seed=seed, pool_share=pool_share,
        snapshot=snapshot, variant=variant,
    )  # fmt: skip
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("self-play", total=updates if updates < 1_000_000 else None)

        def report(r: UpdateReport) -> None:
            bar.update(
                task, completed=r.update,
                description=f"self-play: {r.positions:,} moves, {r.games:,} games, KL to start {r.kl_start:.3f}",
            )  # fmt: skip

        net = train(
            first, config, updates=updates, seconds=minutes * 60 if minutes else None, report=report, pool=rivals
        )
    line = ""
    if games:
        result = match(net, first, games=games, seed=seed + 1, variant=variant)
        line = f" Against its start ({games} games, moves drawn from each net): {result.line()}."
        console.print(f"against the start: {result.line()}", markup=False)
    origin = start.name if start is not None else "the shipped policy"
    pooled = ""
    if pool_share:
        nets = f"{len(rivals)} more net{'s' * (len(rivals) != 1)}"
        every = f", a snapshot every {snapshot} updates" if snapshot else ""
        pooled = f", {pool_share:.0%} of the games against a pool (the start, {nets}{every})"
    note = (
        f"Move policy improved by self-play (fogofwar.games.stratego.agents.selfplay_training), written by "
        f"`fogofwar train selfplay`: {variant} Stratego, from {origin}, {envs} games side by side, {horizon} plies "
        f"an update, learning rate {lr}, KL anchor {anchor}, seed {seed}, at most {updates} updates and {minutes} "
        f"minutes{pooled}.{line}"
    )
    _save_net(net, note, out, out)


@train_app.command("expert")
def train_expert(
    out: Annotated[Path, typer.Option("--out", help="weights file to write (a policy .npz)")],
    start: Annotated[
        Path | None, typer.Option("--start", help="the policy to improve (default: the shipped self-played one)")
    ] = None,
    games: Annotated[int, typer.Option("--games", min=1, max=100_000, help="games `rollout` plays itself")] = 100,
    max_plies: Annotated[int, typer.Option("--max-plies", min=2, max=10_000, help="actions a game at most")] = 1000,
    options: Annotated[
        str, typer.Option("--rollout", help="options of the labelling `rollout`, e.g. guesses=16,depth=8")
    ] = "",
    labels: Annotated[
        Path | None,
        typer.Option("--labels", help="labels file (.npz): read when it exists (no games played), else written"),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=64, help="processes playing the games")] = 2,
    held_share: Annotated[float, typer.Option("--held-share", min=0.01, max=0.5, help="positions held out")] = 0.1,
    steps: _Steps = 3000,
    batch: _Batch = 256,
    lr: Annotated[float, typer.Option("--lr", min=1e-7, max=1.0, help="learning rate at the start")] = 3e-4,
    temperature: Annotated[
        float, typer.Option("--temperature", min=1e-4, max=10, help="softness of the target among compared moves")
    ] = 0.03,
    seed: _FitSeed = 0,
    minutes: _Minutes = 0,
    match_games: Annotated[
        int, typer.Option("--match", min=0, max=100_000, help="games of the nets alone against the start (0: none)")
    ] = 400,
) -> None:
    """Expert iteration: `rollout` plays itself and the net is fitted to the moves its look-ahead preferred
    (where it looked ahead); prints how often the net agrees with the look-ahead before and after, held out."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents import expert_training as et
    from fogofwar.games.stratego.agents.policy_model import PolicyNet, shipped_net
    from fogofwar.games.stratego.agents.rollout import RolloutAgent
    from fogofwar.games.stratego.agents.selfplay_training import match

    _need_torch("expert")
    try:
        first = PolicyNet.load(start) if start is not None else shipped_net("selfplay_net.npz")
        prior = RolloutAgent.from_spec(options).prior  # the labelling player's, which its choices include
    except (OSError, ValueError, KeyError, GameError) as exc:
        console.print(f"train expert: {exc}", style="red", markup=False)
        raise typer.Exit(2) from None
    if first is None:
        console.print("train expert: no self-played policy ships; give one with --start", style="red")
        raise typer.Exit(2)
    with Progress(console=console, transient=True) as bar:
        if labels is not None and labels.exists():
            try:
                data = et.Labels.load(str(labels))
            except (OSError, ValueError, KeyError) as exc:
                console.print(f"train expert: cannot read the labels, {labels}: {exc}", style="red", markup=False)
                raise typer.Exit(2) from None
            origin = f"the labels in {labels.name}"
        else:
            task = bar.add_task("games", total=games)

            def tick(done: int, found: int) -> None:
                bar.update(task, completed=done, description=f"games ({found:,} positions labelled)")

            data, plies = et.label_games(
                games, seed, spec=options, jobs=jobs, max_plies=max_plies, progress=tick,
                net=first if start is not None else None,
            )  # fmt: skip
            origin = f"{games} games of `rollout` against itself ({plies:,} actions)"
            if labels is not None:
                data.save(str(labels))
                console.print(f"wrote {labels}", markup=False)
        if len(data) < 2:
            console.print("train expert: fewer than two labelled positions; play more games", style="red")
            raise typer.Exit(2)
        train_part, held = et.split(data, held_share, seed)
        before = et.held_agreement(first, held, first, temperature, prior)
        report = _fit_reporter(bar, steps)
        net = et.train(
            train_part, first, steps=steps, batch=batch, lr=lr, temperature=temperature, prior=prior, seed=seed,
            seconds=minutes * 60 if minutes else None, report=report,
        )  # fmt: skip
    after = et.held_agreement(net, held, first, temperature, prior)
    console.print(f"held out, the start: {before.line()}", markup=False)
    console.print(f"held out, the net: {after.line()}", markup=False)
    line = ""
    if match_games:
        result = match(net, first, games=match_games, seed=seed + 1)
        line = f" Against its start ({match_games} games, moves drawn from each net): {result.line()}."
        console.print(f"against the start: {result.line()}", markup=False)
    note = (
        f"Move policy fitted to `rollout`'s choices (fogofwar.games.stratego.agents.expert_training), written by "
        f"`fogofwar train expert`: {origin}, {len(data):,} positions, {held_share:.0%} held out; from "
        f"{start.name if start is not None else 'the shipped self-played net'}, {steps} steps of {batch}, learning "
        f"rate {lr}, temperature {temperature}, seed {seed}. Held out: {after.line()} (start: {before.line()}).{line}"
    )
    _save_net(net, note, out, out)


@train_app.command("belief-net")
def train_belief_net(
    archives: _Archives,
    held_out: _HeldOut = 10,
    every: Annotated[int, typer.Option("--every", min=1, help="a position every Nth turn of each side")] = 5,
    max_games: _MaxGames = 0,
    max_held_out: _MaxHeldOut = 0,
    steps: _Steps = 6000,
    batch: _Batch = 128,
    width: _Width = 32,
    blocks: _Blocks = 4,
    seed: _FitSeed = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=64, help="processes replaying the games")] = 2,
    minutes: _Minutes = 0,
    out: _WeightsOut = None,
) -> None:
    """The belief net: the belief's P(rank) of each hidden piece corrected by the whole board (writes its weights)."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.belief_net import weights_path
    from fogofwar.games.stratego.agents.belief_net_training import examples, score, train
    from fogofwar.games.stratego.agents.belief_training import prior_from, setup_counts

    _need_torch("belief-net")
    games, train_games, held = _gravon_split("belief-net", archives, held_out, max_games, max_held_out)
    with prior_from(setup_counts(train_games)), Progress(console=console, transient=True) as bar:
        data, held_ex = _training_positions(bar, lambda g, tick: examples(g, every, jobs, tick), train_games, held)
        report = _fit_reporter(bar, steps)
        net, after = train(
            data, held_ex, width=width, blocks=blocks, steps=steps, batch=batch, seed=seed,
            seconds=minutes * 60 if minutes else None, report=report,
        )  # fmt: skip
    before = score(None, held_ex)
    console.print(f"held out, the belief alone: {before.line()}", markup=False)
    console.print(f"held out, with the net: {after.line()}", markup=False)
    note = (
        f"Belief net (fogofwar.games.stratego.agents.belief_net), written by `fogofwar train belief-net`: "
        f"{len(train_games)} Gravon "
        f"classic games ({len(data):,} positions, every {every} turns of each side), every {held_out}th of "
        f"{len(games)} held out; width {width}, {blocks} blocks, {steps} steps of {batch}, seed {seed}. "
        f"Held out: {after.line()} (the belief alone: {before.line()})."
    )
    _save_net(net, note, out, weights_path())


@train_app.command("value")
def train_value(
    archives: _Archives,
    held_out: _HeldOut = 10,
    every: Annotated[int, typer.Option("--every", min=1, help="a position every Nth ply of each game")] = 2,
    horizon: Annotated[
        int, typer.Option("--horizon", min=0, help="fit the material win chance N plies later (0: the result)")
    ] = 20,
    max_games: _MaxGames = 0,
    max_held_out: _MaxHeldOut = 0,
    steps: _Steps = 3000,
    batch: _Batch = 256,
    width: _Width = 32,
    blocks: _Blocks = 4,
    seed: _FitSeed = 0,
    minutes: _Minutes = 0,
    out: _WeightsOut = None,
) -> None:
    """The value net: who wins from the position a move leaves, learned from Gravon games (writes its weights)."""
    from rich.progress import Progress

    from fogofwar.games.stratego.agents.value_model import weights_path
    from fogofwar.games.stratego.agents.value_training import (
        afterstates,
        constant_score,
        horizon_targets,
        score,
        train,
    )

    _need_torch("value")
    games, train_games, held = _gravon_split("value", archives, held_out, max_games, max_held_out)
    with Progress(console=console, transient=True) as bar:
        data, held_pos = _training_positions(
            bar, lambda g, tick: afterstates(g, every=every, progress=tick), train_games, held
        )
        report = _fit_reporter(bar, steps)
        net, after = train(
            data, held_pos, horizon_targets(data, horizon), width=width, blocks=blocks, steps=steps, batch=batch,
            seed=seed, seconds=minutes * 60 if minutes else None, report=report,
        )  # fmt: skip
    floor = constant_score(data, held_pos)
    material = score(None, held_pos)
    console.print(f"held out, one win rate for every position: {floor.line()}", markup=False)
    console.print(f"held out, material alone: {material.line()}", markup=False)
    console.print(f"held out, the net: {after.line()}", markup=False)
    note = (
        f"Value net (fogofwar.games.stratego.agents.value_model), written by `fogofwar train value`: "
        f"{len(train_games)} Gravon classic games ({len(data):,} afterstates, every {every} plies; target the "
        f"material win chance {horizon} plies later), every {held_out}th of {len(games)} held out; width {width}, "
        f"{blocks} blocks, {steps} steps of {batch}, seed {seed}. Held out, against the results: {after.line()} "
        f"(material alone: {material.line()})."
    )
    _save_net(net, note, out, weights_path())


def main() -> None:
    app()


if __name__ == "__main__":
    main()
