"""The `fogofwar` command: play, replay, bench."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from fogofwar.stratego.rules import DEFAULT_TWO_SQUARES

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="fogofwar: hidden-information battle games on a grid (Stratego and its variants).",
)
console = Console()


@app.command()
def play(
    variant: Annotated[str, typer.Option("--variant", "-v", help="classic, barrage, duel or classicfree")] = "classic",
    opponent: Annotated[str, typer.Option("--opponent", "-o", help="agent name, e.g. random")] = "random",
    color: Annotated[str, typer.Option("--color", "-c", help="red (moves first) or blue")] = "red",
    setup: Annotated[
        str, typer.Option("--setup", help="'random', 'sample', 'sample:NAME', a setup string, or 'ask'")
    ] = "ask",
    seed: Annotated[int | None, typer.Option("--seed", help="seed for the computer and random setups")] = None,
    notation: Annotated[str, typer.Option("--notation", help="classic (1 = marshal) or modern (10 = marshal)")] = (
        "classic"
    ),
    two_squares: Annotated[int, typer.Option("--two-squares", help="two-squares limit (0 = off)")] = (
        DEFAULT_TWO_SQUARES
    ),
    save: Annotated[Path | None, typer.Option("--save", help="write the game record (JSON) here at the end")] = None,
) -> None:
    """Play Stratego in the terminal against a computer agent."""
    from fogofwar.terminal import run_terminal_game

    code = run_terminal_game(
        variant=variant,
        opponent=opponent,
        color=color,
        setup=setup,
        seed=seed,
        notation=notation,
        two_squares=two_squares,
        save=save,
        console=console,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="Gravon .zip/.xml archives or fogofwar .json records")],
    check: Annotated[bool, typer.Option("--check", help="report every violation and exit 1 if any")] = False,
    two_squares: Annotated[int, typer.Option("--two-squares", help="two-squares limit (0 = off)")] = (
        DEFAULT_TWO_SQUARES
    ),
    more_squares: Annotated[bool, typer.Option("--more-squares/--no-more-squares")] = True,
    verbose: Annotated[bool, typer.Option("--verbose", help="one line for every game, not only bad ones")] = False,
) -> None:
    """Replay recorded games through the rules engine; with --check, list what the rules contradict."""
    from fogofwar.replay_check import Summary, check_files

    missing = [str(f) for f in files if not f.exists()]
    if missing:
        console.print(f"[red]no such file: {', '.join(missing)}[/red]")
        raise typer.Exit(2)
    summary = Summary()
    for game in check_files(files, two_squares=two_squares, more_squares=more_squares):
        if game.skipped:
            summary.skipped += 1
            if verbose:
                console.print(f"{game.source}: skipped ({game.skipped})", markup=False)
            continue
        summary.games += 1
        summary.moves += game.moves
        summary.violations += len(game.violations)
        for v in game.violations:
            console.print(f"{game.source}: {v}", markup=False)
        if verbose and not game.violations:
            console.print(f"{game.source}: {game.moves} moves, ok", markup=False)
    console.print(summary.line(), markup=False)
    if check and summary.violations:
        raise typer.Exit(1)


@app.command()
def bench(
    variant: Annotated[list[str], typer.Option("--variant", "-v", help="variants to measure")] = [  # noqa: B006
        "classic",
        "barrage",
    ],
    seconds: Annotated[float, typer.Option("--seconds", help="time per variant")] = 10.0,
    seed: Annotated[int, typer.Option("--seed")] = 1,
) -> None:
    """Random-play speed of the rules engine on one core (moves/s, games/s), both repetition rules on."""
    from fogofwar.bench import bench_random_play

    console.print(f"reference engine, one core, Python {sys.version.split()[0]}, random play, {seconds:g}s per variant")
    for v in variant:
        console.print(bench_random_play(v, seconds=seconds, seed=seed).line(), markup=False, soft_wrap=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
