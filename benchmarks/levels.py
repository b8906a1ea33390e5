r"""Rate the computer's levels on one Elo scale from the series that were played (issue 13).

Reads the `arena.json` of any number of arena or strength runs (`fogofwar arena ... --out DIR`,
`benchmarks/strength.py ... --out DIR`), pools every game, and fits Bradley-Terry Elo ratings by maximum
likelihood (`fogofwar.tools.arena.fit_elo`, draws half a point) with 95% bootstrap intervals, anchored so that the
`--anchor` player has the given rating (Demon of Ignorance level 1 = 1500 by default). A player is known by its
spec: a spec that is a level's spec (`games/stratego/agents/data/levels.toml`) counts as that level, so a level
played under another name still counts; any other player by its name in the run (demon1, demon5).

    .venv/bin/python benchmarks/levels.py RUN_DIR [RUN_DIR ...] [--anchor demon1=1500] [--write]
    .venv/bin/python benchmarks/levels.py RUN_DIR [...] --fixed demon5=1581,search=1333 [--write]

`--write` puts each level's rating and mean seconds a move into levels.toml (the lobby and `fogofwar levels`
show them). Players with too few games get wide intervals: the table says so; read them before writing.
`--fixed` holds the players named at the ratings given (an earlier, larger fit's) and fits only the others: how a
level whose agent changed is rated again from its own new series, without the runs of the whole scale (`--write`
then leaves the held levels' lines as they are).

A spec is read with the options its agent has now (`rollout:hold=1` is the level `rollout` once `hold=1` is
`rollout`'s default): so pass only runs whose specs still mean what they meant when they were played.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from fogofwar.core.protocol import GameError
from fogofwar.core.spec_options import NumberOption, number_options
from fogofwar.games.stratego.agents.levels import LEVELS_FILE, levels
from fogofwar.games.stratego.agents.rollout import OPTIONS as ROLLOUT_OPTIONS
from fogofwar.tools.arena import anchor, bootstrap_elo, fit_elo

levels_module = importlib.import_module("fogofwar.games.stratego.agents.levels")
"""The module itself (the package's name `levels` is its function): where levels.toml lies."""

OPTION_TABLES: dict[str, dict[str, NumberOption]] = {"rollout": ROLLOUT_OPTIONS}
"""The agents whose specs are read option by option (`canonical_spec`)."""


def canonical_spec(spec: str) -> str:
    """`spec` without the options its agent takes by default, the rest in order: `rollout:top=4,hold=2` is
    `rollout:hold=2` while `top=4` is the default. Other agents' specs are kept as they are."""
    base, _, arg = spec.partition(":")
    table = OPTION_TABLES.get(base)
    if table is None or not arg:
        return spec
    try:
        values = number_options(base, arg, table)
    except GameError:
        return spec
    kept = [f"{k}={values[k]:g}" for k in sorted(values) if values[k] != table[k].default]
    return base + (":" + ",".join(kept) if kept else "")


def player_keys(run: dict[str, object]) -> dict[str, str]:
    """name in the run -> the player's key: a level's name when its spec is the level's; else its name, unless
    that is a level's name (a level played with other options: then the spec, so it is not taken for the level)."""
    by_spec = {canonical_spec(level.spec): level.name for level in levels()}
    names = {level.name for level in levels()}
    out = {}
    settings = run["settings"]
    assert isinstance(settings, dict)
    for player in settings["players"]:
        name, spec = player["name"], canonical_spec(player["spec"])
        out[name] = by_spec.get(spec) or (spec if name in names else name)
    return out


def parse_fixed(text: str) -> dict[str, float]:
    """`demon5=1581,search=1333` -> {"demon5": 1581.0, "search": 1333.0}; `ValueError` says which part is wrong."""
    out: dict[str, float] = {}
    for part in filter(None, text.split(",")):
        name, sep, value = part.partition("=")
        try:
            out[name] = float(value)
        except ValueError:
            raise ValueError(f"--fixed wants PLAYER=RATING, not {part!r}") from None
        if not sep or not name:
            raise ValueError(f"--fixed wants PLAYER=RATING, not {part!r}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, help="arena or strength output folders (with arena.json)")
    ap.add_argument("--anchor", default="demon1=1500", help="PLAYER=RATING (default demon1=1500)")
    ap.add_argument("--fixed", default="", help="PLAYER=RATING,...: hold these players at these ratings")
    ap.add_argument("--write", action="store_true", help="write the levels' ratings and seconds into levels.toml")
    args = ap.parse_args()
    try:
        fixed = parse_fixed(args.fixed)
    except ValueError as exc:
        print(f"levels: {exc}", file=sys.stderr)
        return 2
    anchor_name, _, anchor_value = args.anchor.partition("=")
    names: list[str] = []
    scores: dict[tuple[int, int], list[float]] = defaultdict(list)
    think: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # key -> [seconds, moves]
    for run_dir in args.runs:
        run = json.loads((run_dir / "arena.json").read_text(encoding="utf-8"))
        keys = player_keys(run)
        for game in run["games"]:
            if game.get("error"):
                continue
            red, blue = keys[game["red"]], keys[game["blue"]]
            for key in (red, blue):
                if key not in names:
                    names.append(key)
            i, j = names.index(red), names.index(blue)
            winner = game.get("winner")
            s = 0.5 if winner is None else (1.0 if keys[winner] == red else 0.0)
            scores[(i, j)].append(s)
            think[red][0] += float(game.get("red_think") or 0.0)
            think[red][1] += float(game.get("red_moves") or 0)
            think[blue][0] += float(game.get("blue_think") or 0.0)
            think[blue][1] += float(game.get("blue_moves") or 0)
    triples = [(i, j, s) for (i, j), ss in scores.items() for s in ss]
    if fixed:
        missing = [name for name in fixed if name not in names]
        if missing:
            print(f"levels: no games of {', '.join(missing)}; players: {', '.join(names)}", file=sys.stderr)
            return 2
        held = {names.index(name): rating for name, rating in fixed.items()}
        ratings = fit_elo(len(names), triples, fixed=held)
        intervals = bootstrap_elo(len(names), scores, fixed=held)
    else:
        if anchor_name not in names:
            print(f"levels: no games of the anchor {anchor_name!r}; players: {', '.join(names)}", file=sys.stderr)
            return 2
        k = names.index(anchor_name)
        shift = float(anchor_value or 0)
        ratings = [r + shift for r in anchor(fit_elo(len(names), triples), [k])]
        intervals = [(lo + shift, hi + shift) for lo, hi in bootstrap_elo(len(names), scores, anchors=[k])]
    games: dict[int, int] = defaultdict(int)
    for (i, j), ss in scores.items():
        games[i] += len(ss)
        games[j] += len(ss)
    width = max(12, *(len(n) for n in names))
    print(f"{'player':{width}} {'games':>5} {'Elo':>6}   95% interval   s a move")
    for n in sorted(range(len(names)), key=lambda n: -ratings[n]):
        secs, moves = think[names[n]]
        per = secs / moves if moves else 0.0
        lo, hi = intervals[n]
        print(f"{names[n]:{width}} {games[n]:5d} {ratings[n]:6.0f}   {lo:5.0f} to {hi:5.0f}   {per:.3f}")
    if args.write:
        path = Path(str(levels_module.__file__)).resolve().parent / LEVELS_FILE
        text = path.read_text(encoding="utf-8")
        for level in levels():
            if level.name in names and level.name not in fixed:  # a held level keeps the larger fit's figures
                n = names.index(level.name)
                secs, moves = think[level.name]
                text = _set_fields(text, level.name, round(ratings[n]), round(secs / moves, 3) if moves else None)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


def _set_fields(text: str, name: str, elo: int, seconds: float | None) -> str:
    """The TOML text with `elo` and `seconds` of the level `name` set (its other lines kept)."""
    blocks = re.split(r"(?m)^(?=\[\[level\]\])", text)
    for b, block in enumerate(blocks):
        if re.search(rf'(?m)^name = "{re.escape(name)}"$', block):
            block = re.sub(r"(?m)^(elo|seconds) = .*\n", "", block).rstrip("\n") + "\n"
            block += f"elo = {elo}\n" + (f"seconds = {seconds}\n" if seconds is not None else "") + "\n"
            blocks[b] = block
    return "".join(blocks).rstrip("\n") + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
