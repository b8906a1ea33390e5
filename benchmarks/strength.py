r"""Strength yardstick: a series between one of our agents and any UCC 2012 bot (issue 13).

An independent program is the only honest measure of strength, so this plays N games (colours alternating, ISF
rules by default, the variant's move cap) between one of our agents and a bot that speaks the UCC 2012 protocol
(docs: the protocol notes ucc.md), with a progress bar, and prints and writes the W-D-L table (wins and losses by
forfeit counted apart), the ending types and each side's seconds per move. It is the arena
(`fogofwar.tools.arena.run_arena`) with two players, so the games, seeds, records and tables are the arena's.

Building Demon of Ignorance (braathwaate/stratego, GPL): ALWAYS in a scratch folder outside this repository, and
never commit or copy its code here. Java 11+ (check `which javac java`; Debian: `apt-get update && apt-get install -y
default-jdk-headless`). The script does it all, from a git mirror, a checkout or a git URL:

    benchmarks/build_demon.sh /tmp/demon MIRROR   (MIRROR: a git directory of braathwaate/stratego; without it, the URL)
    benchmarks/build_demon.sh /tmp/demon https://github.com/braathwaate/stratego.git

which is, by hand:

    mkdir -p /tmp/demon/src /tmp/demon/classes
    git --git-dir=MIRROR archive HEAD | tar -x -C /tmp/demon/src
    javac -nowarn -encoding UTF-8 -sourcepath /tmp/demon/src/src -d /tmp/demon/classes \
        /tmp/demon/src/src/com/cjmalloy/stratego/player/StrategoDriver.java
    sed 's#^/com/#/tmp/demon/src/src/com/#' /tmp/demon/src/src/com/cjmalloy/stratego/resource/ai.cfg > /tmp/demon/ai.cfg
    printf '#!/bin/sh\ncd /tmp/demon || exit 1\nexec java -Djava.awt.headless=true -cp /tmp/demon/classes %s\n' \
        'com.cjmalloy.stratego.player.StrategoDriver -l1 -1 -t' > /tmp/demon/run1.sh
    chmod +x /tmp/demon/run1.sh

Why each step: only the classes the entry point needs are compiled (the level editor no longer compiles); under
Java 9+ Demon reads its setups as resources through `Class.class`, finds nothing and dies at the setup with a
NullPointerException, unless the folder it runs in holds an `ai.cfg` naming the setup files by absolute path;
options go before `-t` (`-lN`: AI level N, about N*N*10 ms a move; `-1`: do not expect the opponent to keep the
two-squares rule, else it hangs), and the wrapper must `exec` java so that the bot is the process we start.
Demon picks its setup at random from ai.cfg; the wrappers `build_demon.sh` writes pick it by the seed our ucc agent
hands each game (`FOGOFWAR_BOT_SEED`), so two series on the same `--seed` meet the same Demon setups game by game
(and the same setups of ours: compare two players on the same seeds). Wrappers written before that change (or by
hand, as above) still draw Demon's setup afresh in every run.

Running:

    .venv/bin/python benchmarks/strength.py --opponent ucc:/tmp/demon/run1.sh --name demon1 --games 10 --jobs 2
    .venv/bin/python benchmarks/strength.py --agent search:guesses=48 --opponent ucc:timeout=20:/tmp/demon/run5.sh \
        --name demon5 --games 50 --jobs 4 --out artifacts/strength/demon5
    .venv/bin/python benchmarks/strength.py --opponent "ucc:log=/tmp/demon1.log:/tmp/demon/run1.sh" ...  # keep the
        # protocol lines both ways and the bot's stderr, to see why a game ended as it did

`--rules ucc` plays without the repetition rules, as the original UCC manager does (a bot that does not keep the
two-squares and more-squares rules forfeits under ISF rules, with the rule named in the ending).

Writes, into --out (default artifacts/strength/<timestamp>): arena.json, arena.csv, arena.png and games/NNNN.json
(every game's record, for `fogofwar replay`) as `fogofwar arena` does, and strength.json: W-D-L from our agent's side
(with the wins and losses by forfeit), the score with a 95% interval, the W-D-L as red and as blue, the ending types,
and each side's moves and seconds per move (mean and max). Exit status 0; 1 when a player never played a move (a
bot that fails to start or dies in its setup: its "results" would measure nothing); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

# Our agent has one core (the budget: "1 s a move on one core"). numpy's BLAS would otherwise start a thread
# a core and spin them on the second core, which the bot needs: it thinks by the clock. Set before numpy is imported.
for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from fogofwar.core.protocol import JSON, GameError  # noqa: E402
from fogofwar.tools.arena import (  # noqa: E402
    ArenaResult,
    ArenaSettings,
    Describe,
    GameResult,
    never_played_lines,
    print_report,
    run_arena,
    write_outputs,
)

UCC_RULES: dict[str, JSON] = {"two_squares": 0, "more_squares": False}
"""The original UCC manager's rules: no repetition rules at all (ucc.md, section 9)."""


def player_name(spec: str, given: str | None) -> str:
    """A short name for a player: the one given, else the agent's name (`search`), or for a `ucc:` bot the
    file name of its command without extension (`run1`)."""
    if given:
        return given
    agent, _, arg = spec.partition(":")
    if agent == "ucc" and arg:
        from fogofwar.games.stratego.agents.ucc import parse_spec

        _, command = parse_spec(arg)
        words = shlex.split(command) if command else []
        if words:
            agent = Path(words[0]).stem or agent
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", agent) or "player"


def tally(results: Sequence[GameResult], me: str) -> tuple[int, int, int]:
    """(wins, draws, losses) of `me` over the games that were played (errors left out)."""
    played = [g for g in results if g.error is None]
    wins = sum(1 for g in played if g.winner == me)
    draws = sum(1 for g in played if g.winner is None)
    return wins, draws, len(played) - wins - draws


def score_interval(points: Sequence[float]) -> tuple[float, float, float] | None:
    """The mean score and its 95% interval (normal approximation, clipped to [0, 1]); None without games."""
    n = len(points)
    if n == 0:
        return None
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def summary(result: ArenaResult, ours: str, theirs: str) -> dict[str, JSON]:
    """strength.json: the series from our agent's side."""
    played = [g for g in result.games if g.error is None]
    wins, draws, losses = tally(played, ours)
    ps = result.pair(ours, theirs)
    score = score_interval([g.score(ours) for g in played])
    colours: dict[str, JSON] = {}
    for colour in ("red", "blue"):
        mine = [g for g in played if getattr(g, colour) == ours]
        w, d, losses_here = tally(mine, ours)
        colours[f"as_{colour}"] = {"games": len(mine), "wins": w, "draws": d, "losses": losses_here}
    sides: dict[str, JSON] = {}
    for s in result.standings:
        sides[s.name] = {
            "spec": s.spec,
            "moves": s.moves,
            "sec_per_move": None if s.sec_per_move is None else round(s.sec_per_move, 6),
            "max_sec_per_move": None if s.max_sec_per_move is None else round(s.max_sec_per_move, 6),
        }
    return {
        "agent": ours,
        "opponent": theirs,
        "games": len(result.games),
        "played": len(played),
        "errors": len(result.errors),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "wins_by_forfeit": ps.forfeit_wins,
        "losses_by_forfeit": ps.forfeit_losses,
        "score": None if score is None else round(score[0], 4),
        "score_95": None if score is None else [round(score[1], 4), round(score[2], 4)],
        **colours,
        "endings": {ending: counts["games"] for ending, counts in result.endings().items()},
        "seconds_per_move": sides,
        "never_played": list(result.never_played()),
        "options": result.options,
        "seed": result.settings.seed,
    }


def print_summary(data: dict[str, Any], console: Console) -> None:
    """The series in one table: W-D-L with forfeits, score, colours, endings and both sides' seconds per move."""
    ours, theirs = data["agent"], data["opponent"]
    table = Table(title=f"Strength: {ours} against {theirs}", show_header=False)
    table.add_column("what")
    table.add_column("value")
    table.add_row("games", f"{data['played']} played, {data['errors']} errors")
    table.add_row(
        f"W-D-L of {ours}",
        f"{data['wins']}-{data['draws']}-{data['losses']} "
        f"(won by {theirs}'s forfeit: {data['wins_by_forfeit']}, lost by own forfeit: {data['losses_by_forfeit']})",
    )
    if data["score"] is not None:
        low, high = data["score_95"]
        table.add_row("score", f"{100 * data['score']:.1f}% (95%: {100 * low:.1f}% to {100 * high:.1f}%)")
    for colour in ("red", "blue"):
        c = data[f"as_{colour}"]
        table.add_row(f"as {colour}", f"{c['wins']}-{c['draws']}-{c['losses']} of {c['games']}")
    table.add_row("endings", ", ".join(f"{ending} {n}" for ending, n in data["endings"].items()))
    for name, side in data["seconds_per_move"].items():
        per = side["sec_per_move"]
        most = side["max_sec_per_move"]
        text = "no move" if per is None else f"{per:.4f} s a move (max {most:.3f} s) over {side['moves']} moves"
        table.add_row(f"{name} thinks", text)
    console.print(table)


def _describe(ours: str, theirs: str) -> Describe:
    """The progress bar's running tally, from our agent's side."""

    def describe(results: Sequence[GameResult]) -> str:
        w, d, losses = tally(results, ours)
        forfeits = sum(1 for g in results if g.forfeited is not None)
        errors = sum(1 for g in results if g.error is not None)
        notes = [f"{forfeits} forfeit{'s' if forfeits != 1 else ''}"] if forfeits else []
        notes += [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
        extra = f" [red]({', '.join(notes)})[/red]" if notes else ""
        return f"{ours} {w}-{d}-{losses} {theirs}{extra}"

    return describe


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--opponent", required=True, help="the bot: ucc:[OPTIONS:]COMMAND (any agent spec works)")
    ap.add_argument("--name", help="the opponent's short name in the tables (default: its command's file name)")
    ap.add_argument("--agent", default="search", help="our agent's spec (default search)")
    ap.add_argument("--agent-name", help="our agent's short name (default: the agent's name)")
    ap.add_argument("--games", type=int, default=10, help="games in the series, colours alternating (default 10)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, in worker processes (default 1)")
    ap.add_argument("--variant", default="classic", help="Stratego variant (default classic; UCC bots play classic)")
    ap.add_argument("--max-moves", type=int, help="move cap, a draw when reached (default: the variant's cap)")
    ap.add_argument("--rules", choices=("isf", "ucc"), default="isf", help="isf (repetition rules) or ucc (none)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the series (default 1)")
    ap.add_argument("--out", type=Path, help="output folder (default artifacts/strength/<timestamp>)")
    ap.add_argument("--preload", action="append", default=[], help="import this module first (registers agents)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    console = Console()
    ours = player_name(args.agent, args.agent_name)
    theirs = player_name(args.opponent, args.name)
    if theirs == ours:
        theirs += "-opponent"
    settings = ArenaSettings(
        players=[f"{ours}={args.agent}", f"{theirs}={args.opponent}"],
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        variant=args.variant,
        max_moves=args.max_moves,
        preload=list(args.preload),
        options=dict(UCC_RULES) if args.rules == "ucc" else {},
    )
    try:
        result = run_arena(settings, progress=not args.no_progress, describe=_describe(ours, theirs))
    except (GameError, ValueError, ImportError) as exc:
        console.print(f"strength: {exc}", style="red", markup=False, highlight=False)
        return 2
    print_report(result, console)
    data = summary(result, ours, theirs)
    print_summary(data, console)
    out = args.out or Path("artifacts/strength") / datetime.now().strftime("%Y%m%d-%H%M%S")
    paths = write_outputs(result, out)
    paths["strength"] = out / "strength.json"
    data["command_line"] = shlex.join([sys.executable, *sys.argv]) if argv is None else shlex.join(argv)
    paths["strength"].write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for path in paths.values():
        console.print(f"wrote {path}", markup=False, highlight=False)
    lines = never_played_lines(result)
    for line in lines:
        console.print(f"strength: failed: {line}", style="red", markup=False, highlight=False)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
