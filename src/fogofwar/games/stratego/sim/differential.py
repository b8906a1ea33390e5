"""Differential checks of the simulator against the reference engine (used by the tests and benchmarks).

`compare_random_games` plays seeded random games in both engines side by side and, at every step,
compares the legal move sets, the board (piece codes), the Zobrist hash, the observation planes of both
seats (the simulator's against `planes_from_observation` of the reference's `Observation`), and after
every move whether the game ended, how and who won. `compare_gravon` replays real games: every recorded
move must be legal in both engines or in neither, the legal sets must agree at every step, and the
endings must agree.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fogofwar.core.protocol import RecordError
from fogofwar.games.stratego.formats.gravon import VARIANT_OF_TYPE, GravonGame, read_gravon
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState
from fogofwar.games.stratego.setup import random_setup
from fogofwar.games.stratego.sim import kernels as K
from fogofwar.games.stratego.sim.batch import BatchSim, piece_codes, setup_codes
from fogofwar.games.stratego.sim.planes import planes_from_observation
from fogofwar.games.stratego.sim.tables import TERMINATIONS
from fogofwar.games.stratego.variants import DEFAULT_CAPS
from fogofwar.grid.board import NEIGHBOURS

_MASK64 = (1 << 64) - 1


@dataclass
class DiffReport:
    variant: str
    games: int = 0
    moves: int = 0
    observation_checks: int = 0
    mismatches: list[str] = field(default_factory=list)
    mismatch_count: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    two_squares_blocks: int = 0
    more_squares_blocks: int = 0
    illegal_recorded: int = 0  # Gravon: recorded moves both engines refuse
    seconds: float = 0.0

    def add(self, text: str, keep: int = 20) -> None:
        self.mismatch_count += 1
        if len(self.mismatches) < keep:
            self.mismatches.append(text)

    def line(self) -> str:
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        extra = f", {self.illegal_recorded} recorded moves illegal in both" if self.illegal_recorded else ""
        return (
            f"{self.variant}: {self.games} games, {self.moves} moves, {self.observation_checks} observation checks, "
            f"{self.mismatch_count} mismatches; repetition rules barred moves on {self.two_squares_blocks} "
            f"(two-squares) / {self.more_squares_blocks} (more-squares) turns{extra}; endings: {ends}; "
            f"{self.seconds:.1f}s"
        )


def _ref_ending(state: StrategoState) -> tuple[str, int]:
    o = state.outcome()
    if o is None:
        return "", -1
    return o.termination.value, -1 if o.winner is None else o.winner


def _sim_ending(sim: BatchSim, e: int) -> tuple[str, int]:
    return sim.termination(e), int(sim.st[e, K.WINNER]) if sim.done[e] else -1


def _count_blocks(state: StrategoState, report: DiffReport) -> None:
    """Count turns where a repetition rule bars at least one pseudo-legal move (reference internals)."""
    p = state.current_player()
    if p < 0:
        return
    two = bool(state._limit and state._streak[p][3] >= state._limit)
    more = bool(state._more_squares and state._chase[p].active)
    if not (two or more):
        return
    legal = set(state.legal_actions())
    limit, ms = state._limit, state._more_squares
    state._limit, state._more_squares = 0, False
    try:
        pseudo = state._gen_moves(p)
    finally:
        state._limit, state._more_squares = limit, ms
    barred = [m for m in pseudo if m not in legal]
    if any(state._breaks_two_squares(p, m // 100, m % 100) for m in barred):
        report.two_squares_blocks += 1
    if any(state._breaks_more_squares(p, m // 100, m % 100) for m in barred):
        report.more_squares_blocks += 1


def _compare(
    sim: BatchSim, e: int, ref: StrategoState, report: DiffReport, tag: str, obs: list[np.ndarray] | None
) -> bool:
    """Compare one game's current state in both engines; False (and a report line) on the first difference."""
    ref_end, sim_end = _ref_ending(ref), _sim_ending(sim, e)
    if ref_end != sim_end:
        report.add(f"{tag}: ending {sim_end} in the simulator, {ref_end} in the reference")
        return False
    ref_legal = ref.legal_actions()
    sim_legal = sim.legal_actions(e)
    if ref_legal != sim_legal:
        only_ref = sorted(set(ref_legal) - set(sim_legal))
        only_sim = sorted(set(sim_legal) - set(ref_legal))
        report.add(f"{tag}: legal moves differ: only reference {only_ref[:10]}, only simulator {only_sim[:10]}")
        return False
    if sim.board[e].tolist() != ref._board:
        report.add(f"{tag}: boards differ")
        return False
    if int(sim.st[e, K.HASH]) & _MASK64 != ref._hash:
        report.add(f"{tag}: Zobrist hashes differ")
        return False
    if int(sim.st[e, K.MOVES]) != ref.move_count:
        report.add(f"{tag}: move counts differ")
        return False
    if not sim.done[e] and int(sim.st[e, K.PLAYER]) != ref.current_player():
        report.add(f"{tag}: side to move differs")
        return False
    if obs is not None:
        for p in (0, 1):
            want = planes_from_observation(stratego_view(ref.observation(p).data), ref.game.variant)
            if not np.array_equal(obs[p][e], want):
                planes = sorted({int(i) for i in np.argwhere(obs[p][e] != want)[:, 0]})
                report.add(f"{tag}: observation planes {planes} of seat {p} differ")
                return False
            report.observation_checks += 1
    return True


def _choose(rng: random.Random, state: StrategoState, policy: str, last: dict[int, int], board: list[int]) -> int:
    legal = state.legal_actions()
    p = state.current_player()
    if policy == "chase":
        r = rng.random()
        threatened = state._chase[1 - p].threatened
        back = last.get(p)
        rev = -1 if back is None else (back % 100) * 100 + back // 100
        if threatened and r < 0.85:  # evade: move a threatened piece to an empty square
            evasions = [m for m in legal if m // 100 in threatened and not board[m % 100]]
            if rev in evasions and rng.random() < 0.6:
                return rev
            if evasions:
                return rng.choice(evasions)
        chase = state._chase[p]
        if chase.active and r < 0.95:  # chase: threaten an evader again
            chasing = [m for m in legal if not board[m % 100] and any(n in chase.evaders for n in NEIGHBOURS[m % 100])]
            if rev in chasing and rng.random() < 0.6:
                return rev
            if chasing:
                return rng.choice(chasing)
        policy = "repetitive"
    if policy == "repetitive":
        r = rng.random()
        back = last.get(p)
        if back is not None and r < 0.45:
            rev = (back % 100) * 100 + back // 100
            if rev in legal:
                return rev
        if r < 0.8:
            enemy = (1 - p) << 4
            near = [
                m for m in legal
                if not board[m % 100] and any(board[n] and board[n] & 16 == enemy for n in NEIGHBOURS[m % 100])
            ]  # fmt: skip
            if near:
                return rng.choice(near)
    return rng.choice(legal)


def compare_random_games(
    variant: str,
    n_games: int,
    seed: int = 0,
    batch: int = 32,
    policy: str = "random",
    observations: bool = True,
    two_squares: int = DEFAULT_TWO_SQUARES,
    more_squares: bool = True,
    max_moves: int | None = None,
) -> DiffReport:
    """Play `n_games` seeded games (random setups, moves drawn by `policy`: 'random' = uniform, 'repetitive'
    = often back and forth or next to an enemy piece, 'chase' = also evade threats and chase evaders, to
    exercise the repetition rules) in both engines."""
    cap = DEFAULT_CAPS.get(variant, 2000) if max_moves is None else max_moves
    report = DiffReport(f"{variant}/{policy}")
    start = time.perf_counter()
    game = StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=cap)
    done_games = 0
    while done_games < n_games:
        n = min(batch, n_games - done_games)
        rng = random.Random(f"{seed}:{done_games}")
        refs: list[StrategoState] = []
        codes = []
        for _ in range(n):
            state = game.new_initial_state()
            placements = [random_setup(game.variant, p, rng) for p in (0, 1)]
            for p in (0, 1):
                state.apply_setup(p, placements[p])
            refs.append(state)
            codes.append(setup_codes(placements))
        sim = BatchSim(variant, n, two_squares=two_squares, more_squares=more_squares, max_moves=cap)
        sim.reset(setups=np.stack(codes))
        alive = [True] * n
        last: list[dict[int, int]] = [{} for _ in range(n)]
        step = 0
        while any(alive):
            obs = [sim.observe(0), sim.observe(1)] if observations else None
            actions = np.full(n, -1, np.int64)
            for e in range(n):
                if not alive[e]:
                    continue
                ref = refs[e]
                if not _compare(sim, e, ref, report, f"{variant} seed {seed} game {done_games + e} move {step}", obs):
                    alive[e] = False
                    continue
                if ref.is_terminal():
                    alive[e] = False
                    report.games += 1
                    report.endings[_ref_ending(ref)[0]] += 1
                    continue
                _count_blocks(ref, report)
                a = _choose(rng, ref, policy, last[e], ref._board)
                last[e][ref.current_player()] = a
                actions[e] = a
                ref.apply(a)
                report.moves += 1
            active = actions >= 0
            if active.any():
                sim.step(actions, envs=active)
            step += 1
        done_games += n
    report.seconds = time.perf_counter() - start
    return report


def gravon_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.zip"))


def compare_gravon(
    paths: Iterable[Path], variants: Iterable[str] = ("classic", "barrage"), max_games: int | None = None
) -> dict[str, DiffReport]:
    """Replay the Gravon games of `variants` in both engines (max_moves 0, default repetition rules)."""
    wanted = set(variants)
    records: dict[str, list[GravonGame]] = {v: [] for v in wanted}
    for path in paths:
        for item in read_gravon(path):
            if isinstance(item, RecordError):
                continue
            v = VARIANT_OF_TYPE.get(item.game_type)
            if v in wanted and (max_games is None or len(records[v]) < max_games):
                records[v].append(item)
    return {v: _replay_batch(v, recs) for v, recs in records.items() if recs}


def _replay_batch(variant: str, records: list[GravonGame]) -> DiffReport:
    report = DiffReport(f"gravon {variant}")
    start = time.perf_counter()
    game = StrategoGame(variant, max_moves=0)
    refs: list[StrategoState] = []
    codes = []
    moves: list[list[int]] = []
    for rec in records:
        try:
            pieces = [(sq, o, int(r)) for sq, o, r in rec.pieces()]
            squares = rec.move_squares()
        except RecordError:
            continue
        refs.append(game.state_from_position(pieces, to_move=0))
        codes.append(piece_codes(pieces))
        moves.append([s * 100 + d for s, d in squares])
    n = len(refs)
    sim = BatchSim(variant, n, max_moves=0)
    sim.reset(setups=np.stack(codes))
    alive = [True] * n
    step = 0
    while any(alive):
        actions = np.full(n, -1, np.int64)
        for e in range(n):
            if not alive[e]:
                continue
            ref = refs[e]
            tag = f"{records[e].source} move {step + 1}"
            if not _compare(sim, e, ref, report, tag, None):
                alive[e] = False
                continue
            if step >= len(moves[e]) or ref.is_terminal():
                alive[e] = False
                report.games += 1
                report.endings[_ref_ending(ref)[0] or "unfinished"] += 1
                continue
            a = moves[e][step]
            if a not in ref.legal_actions():
                alive[e] = False
                report.games += 1
                report.illegal_recorded += 1
                if a in sim.legal_actions(e):
                    report.add(f"{tag}: the simulator allows the recorded move {a}, the reference does not")
                continue
            _count_blocks(ref, report)
            ref.apply(a)
            actions[e] = a
            report.moves += 1
        active = actions >= 0
        if active.any():
            sim.step(actions, envs=active)
        step += 1
    report.seconds = time.perf_counter() - start
    return report


__all__ = ["TERMINATIONS", "DiffReport", "compare_gravon", "compare_random_games", "gravon_files"]
