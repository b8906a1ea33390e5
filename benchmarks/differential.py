"""The full differential run: the batched simulator against the reference engine.

    .venv/bin/python benchmarks/differential.py                 # 2,000 random games per variant + extras
    .venv/bin/python benchmarks/differential.py --games 200 --jobs 1

For each variant (classic, barrage): `--games` uniformly random games with legal sets, boards, Zobrist hashes
and endings compared at every step, and both seats' observation planes too at every step of the first
`--obs-games` of them (the reference's `observation()` is the slow part); `--chase-games` games whose moves are
drawn to provoke the two-squares and more-squares rules (legal sets, boards, hashes, endings at every step);
then every Gravon game of the shared sample (classic, barrage, classicfree) replayed in both engines.
Work is spread over `--jobs` processes. Exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

from fogofwar.games.stratego.sim.differential import DiffReport, compare_gravon, compare_random_games, gravon_files

ROOT = Path(__file__).resolve().parents[1]
GRAVON = ROOT.parent / "shared" / "data" / "gravon"
CHUNK = 50


def _task(args: tuple[str, str, int, int, bool]) -> DiffReport:
    variant, policy, seed, n, obs = args
    return compare_random_games(variant, n, seed=seed, batch=n, policy=policy, observations=obs)


def _gravon(_: int) -> dict[str, DiffReport]:
    return compare_gravon(gravon_files(GRAVON), variants=("classic", "barrage", "classicfree"))


def merge(reports: list[DiffReport]) -> DiffReport:
    out = DiffReport(reports[0].variant)
    for r in reports:
        out.games += r.games
        out.moves += r.moves
        out.observation_checks += r.observation_checks
        out.mismatch_count += r.mismatch_count
        out.mismatches += r.mismatches[: max(0, 20 - len(out.mismatches))]
        out.endings.update(r.endings)
        out.two_squares_blocks += r.two_squares_blocks
        out.more_squares_blocks += r.more_squares_blocks
        out.illegal_recorded += r.illegal_recorded
        out.seconds += r.seconds
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="random games per variant (observations compared)")
    ap.add_argument("--obs-games", type=int, default=500, help="of those, how many compare observations at every step")
    ap.add_argument("--chase-games", type=int, default=500, help="repetition-provoking games per variant")
    ap.add_argument("--variants", nargs="+", default=["classic", "barrage"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-gravon", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the summary here")
    args = ap.parse_args()

    tasks: list[tuple[str, str, int, int, bool]] = []
    for variant in args.variants:
        for policy, total in (("random", args.games), ("chase", args.chase_games)):
            for k, start in enumerate(range(0, total, CHUNK)):
                obs = policy == "random" and start < args.obs_games
                tasks.append((variant, policy, args.seed * 1000 + k, min(CHUNK, total - start), obs))
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        gravon_async = None
        if not args.no_gravon and GRAVON.is_dir():
            gravon_async = pool.map_async(_gravon, [0])
        parts = pool.map(_task, tasks, chunksize=1)
        gravon = gravon_async.get() if gravon_async is not None else []
    by_kind: dict[str, list[DiffReport]] = {}
    for r in parts:
        by_kind.setdefault(r.variant, []).append(r)
    reports = [merge(rs) for rs in by_kind.values()]
    for g in gravon:
        reports += list(g.values())
    if not args.no_gravon and not GRAVON.is_dir():
        print("Gravon games skipped: ../shared/data/gravon not found")
    bad = 0
    for r in reports:
        print(r.line())
        for m in r.mismatches:
            print("   ", m)
        bad += r.mismatch_count
    print(
        f"total: {sum(r.games for r in reports)} games, {sum(r.moves for r in reports)} moves, {bad} mismatches, "
        f"{time.perf_counter() - start:.0f}s wall with {args.jobs} processes"
    )
    if args.json:
        args.json.write_text(json.dumps([{**vars(r), "endings": dict(r.endings)} for r in reports], indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
