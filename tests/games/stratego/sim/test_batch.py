"""The BatchSim API: resets, steps, masks, compact ids, observations, autoreset, rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.sim import (
    COMPACT_OF_MOVE,
    MOVE_OF_COMPACT,
    NUM_COMPACT_ACTIONS,
    NUM_PLANES,
    BatchSim,
    piece_codes,
)
from fogofwar.games.stratego.sim import kernels as K
from fogofwar.grid.board import LAKES, RAYS, parse_square


def test_compact_ids_cover_every_scout_move() -> None:
    assert NUM_COMPACT_ACTIONS == sum(len(r) for sq, rays in enumerate(RAYS) if sq not in LAKES for r in rays) == 1368
    assert (COMPACT_OF_MOVE[MOVE_OF_COMPACT] == np.arange(NUM_COMPACT_ACTIONS)).all()
    assert (np.diff(MOVE_OF_COMPACT) > 0).all()


def test_reset_is_seeded_and_masks_agree() -> None:
    a, b = BatchSim("classic", 8, max_moves=100), BatchSim("classic", 8, max_moves=100)
    a.reset(seed=5)
    b.reset(seed=5)
    assert (a.board == b.board).all()
    mask, compact = a.legal_mask(), a.legal_mask(compact=True)
    assert (mask.sum(axis=1) == compact.sum(axis=1)).all()
    assert (mask[:, MOVE_OF_COMPACT] == compact).all()
    for e in range(8):
        assert a.legal_actions(e) == sorted(np.flatnonzero(mask[e]).tolist())
        assert sorted(np.bincount(a.board[e][a.board[e] > 0] & 15, minlength=12)) == sorted(
            2 * np.bincount([r for r, n in a.variant.roster for _ in range(n)], minlength=12)
        )


def test_step_rejects_illegal_actions_and_compact_steps_match() -> None:
    sim = BatchSim("barrage", 4, max_moves=50)
    sim.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        sim.step(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="not legal"):
        sim.step(np.full(4, -3), compact=True)
    twin = BatchSim("barrage", 4, max_moves=50)
    twin.reset(seed=1)
    for i in range(60):
        acts = sim.sample_actions(seed=i)
        comp = np.where(acts >= 0, COMPACT_OF_MOVE[np.maximum(acts, 0)], -1)
        r1, d1, _ = sim.step(acts)
        r2, d2, _ = twin.step(comp, compact=True)
        assert (r1 == r2).all() and (d1 == d2).all() and (sim.board == twin.board).all()
    assert sim.done.all()  # the cap of 50 moves
    assert {sim.termination(e) for e in range(4)} <= {"move_limit", "flag_captured", "no_moves", "no_moves_either"}


def test_autoreset_restarts_ended_games() -> None:
    sim = BatchSim("barrage", 16, max_moves=20, autoreset=True)
    sim.reset(seed=2)
    ended = 0
    for i in range(50):
        rewards, dones, info = sim.step(sim.sample_actions(seed=i))
        ended += int(dones.sum())
        assert not sim.done.any()
        assert (rewards.sum(axis=1) == 0).all()
        assert (info["moves"][dones] <= 20).all()
    assert ended >= 16


def test_given_position_and_flag_capture() -> None:
    red_scout, blue_flag = parse_square("A1"), parse_square("A4")
    pieces = [(red_scout, 0, Rank.SCOUT), (blue_flag, 1, Rank.FLAG), (parse_square("K10"), 1, Rank.SERGEANT)]
    sim = BatchSim("classic", 2)
    sim.reset(setups=np.stack([piece_codes(pieces)] * 2), to_move=[0, 1])
    ref = StrategoGame("classic").state_from_position(pieces)
    assert sim.legal_actions(0) == ref.legal_actions()
    rewards, dones, _ = sim.step([red_scout * 100 + blue_flag, parse_square("K10") * 100 + parse_square("K9")])
    assert dones.tolist() == [True, False]
    assert rewards[0].tolist() == [1.0, -1.0] and sim.termination(0) == "flag_captured"


def test_observation_planes() -> None:
    sim = BatchSim("barrage", 3)
    sim.reset(seed=3)
    for p in (0, 1):
        obs = sim.observe(p)
        assert obs.shape == (3, NUM_PLANES, 10, 10) and obs.dtype == np.float32
        assert obs[:, :12].sum() == 3 * 8  # own army
        assert obs[:, 25].sum() == 3 * 8  # enemy army, unmoved and unknown
        assert obs[:, 26].sum() == 3 * 8  # lakes
        assert (obs[:, 33 + int(Rank.SCOUT)] == 2).all()  # two enemy scouts unaccounted for


def test_chase_positions_grow() -> None:
    sim = BatchSim("barrage", 2)
    sim.reset(seed=4)
    sim._grow_positions(100)
    assert sim.pos.shape[2] >= 100
    cap = sim.pos.shape[2]
    sim.st[0, K.PBASE + K.C_NPOS] = cap  # a chase as long as the array: the next step grows it first
    sim.step(sim.sample_actions(seed=0))
    assert sim.pos.shape[2] > cap


def test_random_rollouts() -> None:
    sim = BatchSim("barrage", 1, max_moves=300)
    stats = sim.random_rollouts(50, seed=1)
    assert stats.games == 50 and stats.moves == int(stats.lengths.sum())
    assert sum(stats.terminations.values()) == 50 and sum(stats.wins) == 50
    assert (stats.lengths <= 300).all()
    assert sim.random_rollouts(50, seed=1).moves == stats.moves  # seeded
