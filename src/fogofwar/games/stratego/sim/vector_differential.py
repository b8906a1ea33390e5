"""Differential check of the fused path (`VectorStratego`) against the reference engine, move by move.

`compare_vector_games` runs seeded games through `VectorStratego` with autoreset and mirrors each one in
a reference `StrategoState` started from the same setups (read from the simulator when it deals them).
Moves are chosen on the reference state (uniformly, or to provoke the repetition rules: see
`differential._choose`); the in-kernel random opponent's replies are read back from the learner's
observation (the last-move planes) and played in the reference too. At every step it compares the
legal-action mask, the observation (rebuilt to the 45 float planes, against `planes_from_observation`
of the reference's `Observation`), the board, the Zobrist hash, and whether, how and for whom the game
ended (rewards, terminated/truncated).
"""

from __future__ import annotations

import random
import time

import numpy as np

from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, StrategoGame, StrategoState
from fogofwar.games.stratego.sim import kernels as K
from fogofwar.games.stratego.sim.differential import DiffReport, _choose, _count_blocks, _ref_ending
from fogofwar.games.stratego.sim.planes import LAST_FROM, LAST_TO, planes_from_observation
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, MOVE_LIMIT
from fogofwar.games.stratego.sim.vector import VECTOR_TERMINATIONS, VectorStratego
from fogofwar.games.stratego.variants import DEFAULT_CAPS

_MASK64 = (1 << 64) - 1


def _start(game: StrategoGame, codes: np.ndarray) -> StrategoState:
    """A reference game from the setups the simulator dealt (piece codes of both armies)."""
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, {sq: int(c) & 15 for sq, c in enumerate(codes) if c and (int(c) >> 4) & 1 == p})
    return state


def _last_move(planes: np.ndarray) -> int:
    """The last move played (reference id) from the compact planes' last-move from/to squares."""
    src = int(np.flatnonzero(planes[LAST_FROM])[0])
    dst = int(np.flatnonzero(planes[LAST_TO])[0])
    return src * 100 + dst


def _catch_up(vs: VectorStratego, e: int, ref: StrategoState) -> None:
    """Play in the reference the in-kernel opponent's move, if the simulator is a move ahead."""
    if not ref.is_terminal() and int(vs.st[e, K.MOVES]) == ref.move_count + 1:
        ref.apply(_last_move(vs.planes[e]))


def _check(
    vs: VectorStratego, e: int, ref: StrategoState, report: DiffReport, tag: str, other: dict[str, np.ndarray] | None
) -> bool:
    """Compare game e's buffers (and `other`: `vs.observe` of the other seat) and position with the reference;
    False (and a report line) if they differ."""
    if vs.board[e].tolist() != ref._board or int(vs.st[e, K.HASH]) & _MASK64 != ref._hash:
        report.add(f"{tag}: boards or Zobrist hashes differ")
        return False
    if int(vs.st[e, K.MOVES]) != ref.move_count:
        report.add(f"{tag}: move counts differ ({int(vs.st[e, K.MOVES])} vs {ref.move_count})")
        return False
    seat = int(vs.view[e])
    want_mask = np.zeros(vs.mask.shape[1], np.bool_)
    if not ref.is_terminal() and ref.current_player() == seat:
        want_mask[COMPACT_OF_MOVE[np.asarray(ref.legal_actions(), np.int64)]] = True
    if not np.array_equal(vs.mask[e], want_mask):
        report.add(f"{tag}: masks differ ({int(vs.mask[e].sum())} vs {int(want_mask.sum())} legal actions)")
        return False
    want = planes_from_observation(stratego_view(ref.observation(seat).data), ref.game.variant)
    got = vs.full_planes(vs.planes[e : e + 1], vs.counts[e : e + 1])[0]
    if not np.array_equal(got, want):
        planes = sorted({int(i) for i in np.argwhere(got != want)[:, 0]})
        report.add(f"{tag}: observation planes {planes} of seat {seat} differ")
        return False
    report.observation_checks += 1
    if other is not None:
        want = planes_from_observation(stratego_view(ref.observation(1 - seat).data), ref.game.variant)
        got = vs.full_planes(other["planes"][e : e + 1], other["counts"][e : e + 1])[0]
        if not np.array_equal(got, want) or other["action_mask"][e].any() != (ref.current_player() == 1 - seat):
            report.add(f"{tag}: observation or mask of seat {1 - seat} (observe) differ")
            return False
        report.observation_checks += 1
    return True


def _check_ending(vs: VectorStratego, e: int, ref: StrategoState, report: DiffReport, tag: str) -> bool:
    ended = bool(vs.terminated[e] or vs.truncated[e])
    if ended != ref.is_terminal():
        report.add(f"{tag}: the simulator says ended={ended}, the reference {ref.is_terminal()}")
        return False
    if not ended:
        return True
    term, winner = _ref_ending(ref)
    code = int(vs.ctl[e, 5])  # C_END_TERM
    got = (VECTOR_TERMINATIONS[code], int(vs.ctl[e, 6]))  # C_END_WINNER
    returns = ref.returns()
    if got != (term, winner) or bool(vs.truncated[e]) != (code == MOVE_LIMIT):
        report.add(f"{tag}: ending {got} in the simulator, {(term, winner)} in the reference")
        return False
    if vs.seat_rewards[e].tolist() != [float(r) for r in returns]:
        report.add(f"{tag}: rewards {vs.seat_rewards[e].tolist()} vs returns {returns}")
        return False
    report.games += 1
    report.endings[term] += 1
    return True


def _setup_step(
    vs: VectorStratego, e: int, rng: random.Random, placed: dict[int, dict[int, int]], report: DiffReport, tag: str
) -> int | None:
    """Check game e's setup-phase observation and mask against the placements made so far and choose the
    next setup action (None after a mismatch)."""
    seat = int(vs.view[e])
    own = placed.setdefault(seat, {})
    pieces = vs.tables[0]
    home = range(0, 40) if seat == 0 else range(60, 100)
    want_mask = np.zeros(vs.mask.shape[1], np.bool_)
    if vs.setup == "menu":
        want_mask[: len(vs.setup_menu)] = True
    else:
        want_mask[[sq for sq in home if sq not in own]] = True
    got_own = {int(sq): int(np.flatnonzero(vs.planes[e, :12].reshape(12, 100)[:, sq])[0]) for sq in
               np.flatnonzero(vs.planes[e, :12].reshape(12, 100).any(axis=0))}  # fmt: skip
    left = np.bincount([int(r) for r in pieces[len(own) :]], minlength=12) if vs.setup == "pieces" else None
    if got_own != own or not np.array_equal(vs.mask[e], want_mask) or vs.planes[e, 12:26].any():
        report.add(f"{tag}: setup-phase observation or mask of seat {seat} differ")
        return None
    if left is not None and not np.array_equal(vs.to_place[e], left):
        report.add(f"{tag}: pieces to place differ")
        return None
    report.observation_checks += 1
    a = rng.choice(np.flatnonzero(want_mask).tolist())
    if vs.setup == "menu":
        from fogofwar.games.stratego.setup import parse_setup

        own.update({sq: int(r) for sq, r in parse_setup(vs.setup_menu[a], vs.variant, seat).items()})
    else:
        own[a] = int(pieces[len(own)])
    return int(a)


def _begin(vs: VectorStratego, e: int, game: StrategoGame, placed: dict[int, dict[int, int]]) -> StrategoState:
    """The reference game of e's new episode; the setups chosen through actions must be the ones dealt."""
    ref = _start(game, vs.codes[e])
    for seat, own in placed.items():
        dealt = {sq: int(c) & 15 for sq, c in enumerate(vs.codes[e]) if c and (int(c) >> 4) & 1 == seat}
        if dealt != own:
            raise AssertionError(f"env {e}: seat {seat} chose {own}, the simulator dealt {dealt}")
    _catch_up(vs, e, ref)
    return ref


def compare_vector_games(
    variant: str,
    n_games: int,
    seed: int = 0,
    n_envs: int = 8,
    policy: str = "random",
    opponent: str | None = None,
    setup: str = "random",
    two_squares: int = DEFAULT_TWO_SQUARES,
    more_squares: bool = True,
    max_moves: int | None = None,
    threads: int = 1,
) -> DiffReport:
    """Play at least `n_games` games through `VectorStratego` (`n_envs` at once, autoreset) and the reference
    engine side by side. With `opponent="random"` the learner's seat is drawn per episode and the kernel's
    random opponent answers; with None both seats' moves come from `policy`. With `setup` "menu" or
    "pieces" the setups are chosen through actions (uniformly among the legal ones) and checked too."""
    cap = DEFAULT_CAPS.get(variant, 2000) if max_moves is None else max_moves
    report = DiffReport(f"vector {variant}/{policy}/{opponent or 'self-play'}/{setup} setups")
    start = time.perf_counter()
    game = StrategoGame(variant, two_squares=two_squares, more_squares=more_squares, max_moves=cap)
    vs = VectorStratego(
        variant, n_envs, two_squares=two_squares, more_squares=more_squares, max_moves=cap, opponent=opponent,
        seat="random", setup=setup, illegal="raise", threads=threads,
    )  # fmt: skip
    vs.reset(seed=seed)
    rng = random.Random(seed)
    refs: list[StrategoState | None] = [None] * n_envs
    placed: list[dict[int, dict[int, int]]] = [{} for _ in range(n_envs)]
    last: list[dict[int, int]] = [{} for _ in range(n_envs)]
    ended = [False] * n_envs  # the game ended at the last step: this step starts the next one
    step = 0
    while report.games < n_games:
        actions = np.zeros(n_envs, np.int64)
        other = vs.observe(1 - vs.view)
        for e in range(n_envs):
            tag = f"{variant} seed {seed} env {e} step {step}"
            if ended[e]:
                continue
            if vs.in_setup[e]:
                chosen = _setup_step(vs, e, rng, placed[e], report, tag)
                if chosen is None:
                    return report
                actions[e] = chosen
                continue
            if refs[e] is None:
                refs[e] = _begin(vs, e, game, placed[e])
            ref = refs[e]
            assert ref is not None
            if not _check(vs, e, ref, report, tag, other):
                return report
            _count_blocks(ref, report)
            a = _choose(rng, ref, policy, last[e], ref._board)
            last[e][ref.current_player()] = a
            ref.apply(a)
            actions[e] = COMPACT_OF_MOVE[a]
            report.moves += 1
        playing = [refs[e] is not None and not ended[e] for e in range(n_envs)]
        vs.step(actions)
        for e in range(n_envs):
            ref = refs[e]
            if ended[e]:
                refs[e], placed[e], last[e], ended[e] = None, {}, {}, False
            elif playing[e] and ref is not None:
                _catch_up(vs, e, ref)
                tag = f"{variant} seed {seed} env {e} step {step}"
                if not _check_ending(vs, e, ref, report, tag) or not _check(vs, e, ref, report, tag + " (end)", None):
                    return report
                ended[e] = ref.is_terminal()
        step += 1
    report.seconds = time.perf_counter() - start
    return report
