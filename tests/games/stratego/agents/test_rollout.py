"""The roll-out player (`rollout`): the worlds it guesses show each seat exactly what the game shows it, the score
of a world, the look-ahead's judgement on crafted positions, its options and reproducible play."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from tests.games.stratego.agents.random_games import random_game

from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import GameError
from fogofwar.core.registry import make_game
from fogofwar.games.stratego.agents import rollout
from fogofwar.games.stratego.agents.belief import (
    GUARD_FACTORS,
    NEIGHBOUR_FACTORS,
    SPARED_FACTOR,
    STOOD_FACTORS,
    BeliefTracker,
    oracle_marginals,
)
from fogofwar.games.stratego.agents.knowledge import BOMB, SPY, Knowledge
from fogofwar.games.stratego.agents.material_chance import Potential
from fogofwar.games.stratego.agents.policy_model import (
    FLIP_COMPACT,
    PolicyNet,
    movers_view,
    oriented_planes,
    shipped_net,
)
from fogofwar.games.stratego.agents.rollout import (
    RolloutAgent,
    Runner,
    ShownTracker,
    _without,
    captured_counts,
    fall_back_values,
    flag_takes,
    flag_threats,
    futile_mask,
    futile_moves,
    hold_mask,
    movable_enemies,
    play_out,
    scores,
    shown_takes,
    shows_officer,
    siege_target,
    watch_values,
    with_rank,
    world_codes,
)
from fogofwar.games.stratego.agents.search import decoy_setup, guarded_setup, safest_book_setup
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import (
    OWNER_BIT,
    PRESENT_BIT,
    RANK_MASK,
    REVEALED_BIT,
    StrategoGame,
    StrategoState,
    piece_code,
)
from fogofwar.games.stratego.sim.batch import BatchSim
from fogofwar.games.stratego.sim.planes import LAST_FROM, PREV_TO, planes_from_observation
from fogofwar.games.stratego.sim.tables import COMPACT_OF_MOVE, MOVE_OF_COMPACT
from fogofwar.games.stratego.variants import Variant
from fogofwar.grid.board import parse_square, square_name

NOT_LAST_MOVES = [p for p in range(45) if not LAST_FROM <= p <= PREV_TO]
"""The planes a world rebuilt from a position has as the game has them (it has no moves behind it)."""

ENEMY_VIEW = [*range(12, 26), *range(33, 45)]
"""The planes that say what a seat knows of the other side's army."""


def world(state: StrategoState, seat: int, guess: dict[int, int]) -> BatchSim:
    """The simulator at `state` as `seat` rebuilds it, the other side's hidden pieces given the ranks of `guess`."""
    data = stratego_view(state.observation(seat).data)
    sim = BatchSim("classic", n_envs=1, max_moves=0)
    sim.reset(setups=world_codes(Knowledge.from_observation(data), guess)[None], to_move=state.current_player())
    sim.captured[:] = captured_counts(data)[None]
    return sim


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_a_guessed_world_shows_each_seat_what_the_game_shows_it(seed: int) -> None:
    """Red rebuilds the position with guessed blue ranks: red's view of it is red's view of the game, and blue's
    view of red's army (what red showed, what blue took) is blue's view in the game; with the true ranks every
    plane of both seats is the game's. So the roll-outs neither leak what was hidden nor forget what was shown."""
    state, _ = random_game(seed, 150)
    assert not state.is_terminal()
    data = stratego_view(state.observation(0).data)
    know = Knowledge.from_observation(data)
    tracker = BeliefTracker()
    tracker.update(data)
    guess = tracker.sample(know, tracker.marginals(know), random.Random(seed))
    assert guess, "the test needs hidden blue pieces"
    views = [stratego_view(state.observation(s).data) for s in (0, 1)]
    game_planes = [planes_from_observation(view, state.game.variant) for view in views]
    guessed = world(state, 0, guess)
    assert np.array_equal(guessed.observe(0)[0][NOT_LAST_MOVES], game_planes[0][NOT_LAST_MOVES])
    assert np.array_equal(guessed.observe(1)[0][ENEMY_VIEW], game_planes[1][ENEMY_VIEW])
    truth = {sq: int(state.piece_at(sq)[1]) for sq in guess}  # type: ignore[index]
    exact = world(state, 0, truth)
    for seat in (0, 1):
        assert np.array_equal(exact.observe(seat)[0][NOT_LAST_MOVES], game_planes[seat][NOT_LAST_MOVES])
    assert sorted(exact.legal_actions(0)) == sorted(a for a in state.legal_actions() if a < 10000)


Piece = tuple[str, int, Rank, bool, bool]


def crafted(pieces: list[Piece]) -> tuple[StrategoState, StrategoView]:
    """A Barrage position from (square, owner, rank, moved, revealed), red to move, and red's view of it with every
    piece not on the board counted as captured."""
    game = StrategoGame("barrage")
    start = [(parse_square(sq), owner, int(rank), moved, revealed) for sq, owner, rank, moved, revealed in pieces]
    state = StrategoState(game, start=start, to_move=0)
    observation = state.observation(0)
    for owner in (0, 1):
        left = [r for r, n in game.variant.roster for _ in range(n)]
        for _, o, rank, _, _ in pieces:
            if o == owner:
                left.remove(rank)
        observation.data["captured"][owner] = sorted(r.name.lower() for r in left)
    return state, stratego_view(observation.data)


FIGHT: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("B1", 0, Rank.BOMB, False, False),
    ("E5", 0, Rank.MARSHAL, True, True),
    ("H1", 0, Rank.SCOUT, False, False),
    ("E6", 1, Rank.GENERAL, True, True),
    ("K10", 1, Rank.FLAG, False, False),
    ("H10", 1, Rank.BOMB, False, False),
    ("A10", 1, Rank.MINER, True, False),
]
TRUTH = {parse_square(sq): int(rank) for sq, _, rank, _, _ in FIGHT[-3:]}
"""Blue's hidden pieces in FIGHT as they are."""


def look_ahead(pieces: list[Piece], moves: list[str], depth: int, **options: Any) -> dict[str, float]:
    state, data = crafted(pieces)
    agent = RolloutAgent(guesses=4, depth=depth, **options)
    agent.start(state.game, 0, random.Random(1))
    agent._belief.update(data)
    ids = [state.string_to_action(m) for m in moves]
    return dict(zip(moves, agent.look_ahead(data, ids).tolist(), strict=True))


@pytest.mark.parametrize("depth", [0, 4])
def test_the_look_ahead_values_a_free_capture_above_a_quiet_move(depth: int) -> None:
    """Red's revealed marshal next to blue's revealed general: taking it scores the material it wins."""
    values = look_ahead(FIGHT, ["E5xE6", "H1-H2"], depth)
    assert values["E5xE6"] > values["H1-H2"] + 0.1


LAST_PIECE: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("B1", 0, Rank.BOMB, False, False),
    ("E7", 0, Rank.SCOUT, True, False),
    ("A4", 0, Rank.GENERAL, True, False),
    ("E8", 1, Rank.FLAG, False, False),
    ("B4", 1, Rank.SCOUT, True, True),
    ("K5", 1, Rank.MINER, True, True),
]
"""Blue's flag the last hidden piece of its army, beside red's scout."""


def test_the_look_ahead_scores_taking_the_flag_as_a_win() -> None:
    """Blue's last hidden piece beside red's scout: with all else of blue's accounted for it is the flag, and taking
    it ends the game where taking a scout only wins material (one ply later: two plies later the scout may take
    the flag in the roll-out too)."""
    values = look_ahead(LAST_PIECE, ["E7xE8", "A4xB4"], 1)
    assert values["E7xE8"] == 1.0 and values["A4xB4"] < 1.0


def test_the_look_ahead_takes_the_moves_knowledge_and_marginals_as_its_own() -> None:
    """`_move` hands the look-ahead the position's `Knowledge` and the belief's marginals it has worked out: the
    scores are those the look-ahead gets working them out itself, and other marginals (the truth) are used."""
    state, _ = random_game(7, 80)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    moves = state.legal_actions()[:3]

    def values(given: bool, truth: bool = False) -> list[float]:
        agent = RolloutAgent(guesses=4, depth=4)
        agent.start(state.game, seat, random.Random(1))
        agent._belief.update(data)
        if not given:
            return list(agent.look_ahead(data, moves))
        know = Knowledge.from_observation(data)
        marginals = oracle_marginals(state, know) if truth else agent._belief.marginals(know)
        return list(agent.look_ahead(data, moves, know, marginals))

    assert values(False) == values(True) != values(True, truth=True)


def test_no_roll_out_ply_starts_after_the_deadline() -> None:
    """`play_out` with its deadline past leaves every game as it stands; without one it plays."""
    state, _ = random_game(5, 60)
    net = shipped_net("selfplay_net.npz")
    assert net is not None
    seat = state.current_player()
    truth = {sq: int(p[1]) for sq in range(100) if (p := state.piece_at(sq)) is not None and p[0] != seat}
    for deadline, changed in ((0.0, False), (math.inf, True)):
        sim = world(state, seat, truth)
        before = sim.board.copy()
        play_out(net, sim, 4, deadline=deadline)
        assert (sim.board != before).any() == changed


def test_no_roll_out_ply_starts_that_would_end_past_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ply takes one tick of a clock the test sets: a deadline of 4.5 ticks lets two plies start (at 0 and 2)
    and not the third (at 4, which the second ply's length would take to 5); 5.5 lets the third start."""
    state, _ = random_game(5, 60)
    net = shipped_net("selfplay_net.npz")
    assert net is not None
    seat = state.current_player()
    truth = {sq: int(p[1]) for sq in range(100) if (p := state.piece_at(sq)) is not None and p[0] != seat}

    def plies_played(deadline: float) -> int:
        clock = itertools.count()
        monkeypatch.setattr(rollout, "perf_counter", lambda: float(next(clock)))
        sim = world(state, seat, truth)
        steps: list[int] = []
        real = sim.step

        def counted(*args: Any, **kwargs: Any) -> None:
            steps.append(1)
            real(*args, **kwargs)

        monkeypatch.setattr(sim, "step", counted)
        play_out(net, sim, 8, deadline=deadline)
        return len(steps)

    assert [plies_played(d) for d in (4.5, 5.5, math.inf)] == [2, 3, 8]


def test_a_move_out_of_budget_is_scored_where_its_roll_outs_stand(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `budget` the move's deadline is its start plus the budget: a budget long spent leaves the look-ahead
    the scores of `depth=0` over the same worlds; without one the deadline never comes."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    moves = state.legal_actions()[:3]

    def values(depth: int, deadline: float) -> list[float]:
        agent = RolloutAgent(guesses=4, depth=depth)
        agent.start(state.game, seat, random.Random(1))
        agent._belief.update(data)
        agent._deadline = deadline
        return list(agent.look_ahead(data, moves))

    assert values(6, 0.0) == values(0, math.inf) != values(6, math.inf)
    deadlines: list[float] = []
    real = rollout.play_out

    def timed_out(*args: Any, **kwargs: Any) -> None:
        deadlines.append(args[-1])
        real(*args, **kwargs)

    monkeypatch.setattr(rollout, "play_out", timed_out)
    clock = iter([100.0, 100.5])
    monkeypatch.setattr(rollout, "perf_counter", lambda: next(clock, 101.0))
    timed = make_agent("rollout:budget=0.25,sure=1", "stratego")
    assert isinstance(timed, RolloutAgent) and timed.budget == 0.25 and RolloutAgent().budget == 0.9
    timed.start(state.game, seat, random.Random(1))
    timed.act(state.observation(seat), state.legal_actions())
    assert deadlines == [100.25] and timed._deadline == math.inf  # the move's own clock, and none after it
    endless = make_agent("rollout:budget=0,sure=1", "stratego")
    assert isinstance(endless, RolloutAgent)
    endless.start(state.game, seat, random.Random(1))
    endless.act(state.observation(seat), state.legal_actions())
    assert deadlines == [100.25, math.inf]
    with pytest.raises(GameError, match="from 0 to 60"):
        make_agent("rollout:budget=-1", "stratego")


def test_start_warms_the_look_ahead_once_a_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """`start` runs the look-ahead's kernels before the first move (a fresh install compiles them for seconds), for
    each variant once a process; a player without a net (another game) warms nothing."""
    monkeypatch.setattr(rollout, "_WARMED", set())
    net = shipped_net("selfplay_net.npz")
    assert net is not None
    assert rollout.warm_look_ahead(net, "barrage") and not rollout.warm_look_ahead(net, "barrage")
    warmed: list[str] = []
    real = rollout.warm_look_ahead

    def counted(n: PolicyNet, v: str) -> bool:
        warmed.append(v)
        return real(n, v)

    monkeypatch.setattr(rollout, "warm_look_ahead", counted)
    for variant in ("classic", "barrage", "classic"):
        RolloutAgent().start(StrategoGame(variant=variant), 0, random.Random(1))
    assert warmed == ["classic", "barrage", "classic"]
    assert {"classic", "barrage"} == rollout._WARMED
    RolloutAgent().start(make_game("lotr"), 0, random.Random(1))
    assert len(warmed) == 3


def test_exposed_shows_the_roll_outs_enemy_our_hidden_pieces_and_only_ours() -> None:
    """With `exposed=1` every hidden piece of red's is revealed in each world, none of blue's; with 0 none. By
    default classic's roll-outs do not show them (`variant_exposed`) and every other variant's do."""
    state, data = crafted(FIGHT)
    know = Knowledge.from_observation(data)
    hidden = {parse_square(sq) for sq, owner, _, _, shown in FIGHT if owner == 0 and not shown}
    agent = RolloutAgent(exposed=1.0)
    agent.start(state.game, 0, random.Random(1))
    assert agent._shown(know, "classic") == hidden == {parse_square("A1"), parse_square("B1"), parse_square("H1")}
    codes = world_codes(know, TRUTH, agent._shown(know, "classic"))
    revealed = {sq for sq in range(100) if codes[sq] & REVEALED_BIT}
    assert revealed == hidden | {parse_square(sq) for sq, _, _, _, shown in FIGHT if shown}
    assert not RolloutAgent(exposed=0.0)._shown(know, "barrage")
    default = RolloutAgent()
    default.start(state.game, 0, random.Random(1))
    assert default._shown(know, "barrage") == hidden and not default._shown(know, "classic")
    shown = [default.exposure(v) for v in ("classic", "barrage", "duel")]
    assert shown == [0.0, 1.0, 1.0] and agent.exposure("classic") == 1.0


def test_a_world_scores_its_result_once_over_and_its_material_chance_while_it_goes_on() -> None:
    state, data = crafted(FIGHT)
    sim = BatchSim("barrage", n_envs=2, max_moves=0)
    codes = world_codes(Knowledge.from_observation(data), TRUTH)
    sim.reset(setups=np.tile(codes, (2, 1)))
    sim.captured[:] = captured_counts(data)[None]
    sim.step(np.array([state.string_to_action("E5xE6"), state.string_to_action("H1-H2")]))
    expected = Potential("barrage")(sim.captured, np.zeros(2, np.int64))
    assert np.allclose(scores(sim, 0, "barrage"), expected)
    assert scores(sim, 0, "barrage")[0] > 0 > scores(sim, 1, "barrage")[0]
    stepped = Potential("barrage", marshal_step=True)(sim.captured, np.zeros(2, np.int64))
    assert np.allclose(scores(sim, 0, "barrage", marshal_step=True), stepped)
    own = Potential("barrage", own_fit=True)(sim.captured, np.zeros(2, np.int64))  # Barrage's own games' fit
    assert np.allclose(scores(sim, 0, "barrage", own_fit=True), own) and not np.allclose(own, expected)
    over = BatchSim("barrage", n_envs=1, max_moves=0)
    codes[parse_square("E6")] = codes[parse_square("K10")]  # blue's flag where its general stood
    codes[parse_square("K10")] = 0
    over.reset(setups=codes[None])
    over.step(np.array([state.string_to_action("E5xE6")]))
    assert over.done[0] and scores(over, 0, "barrage")[0] == 1.0 and scores(over, 1, "barrage")[0] == -1.0


def test_options_come_from_the_spec_and_bad_ones_are_refused() -> None:
    agent = make_agent("rollout:top=3,guesses=5,depth=6,prior=0.1,sure=0.9,exposed=0.25", "stratego")
    assert isinstance(agent, RolloutAgent)
    assert not agent.ownfit and getattr(make_agent("rollout:ownfit=1", "stratego"), "ownfit", False)
    assert (agent.top, agent.guesses, agent.depth, agent.prior, agent.sure) == (3, 5, 6, 0.1, 0.9)
    assert agent.exposed == 0.25 and agent.exposure("barrage") == 0.25 and RolloutAgent().exposed == -1
    stepped = RolloutAgent()  # the marshal's step and the spy's reading are on by default (session 39)
    assert stepped.marshal and stepped.spy and stepped.futile
    stepped.start(StrategoGame("classic"), 0, random.Random(1))
    assert (stepped._belief.spared_factor, stepped._belief.guard_factors) == (SPARED_FACTOR, GUARD_FACTORS)
    plain = make_agent("rollout:marshal=0,spy=0,futile=0", "stratego")
    assert isinstance(plain, RolloutAgent) and not (plain.marshal or plain.spy or plain.futile)
    plain.start(StrategoGame("classic"), 0, random.Random(1))
    assert (plain._belief.spared_factor, plain._belief.guard_factors) == (1.0, (1.0, 1.0))
    with pytest.raises(GameError, match="whole number"):
        make_agent("rollout:depth=1.5", "stratego")
    with pytest.raises(GameError, match="unknown option 'speed'.*guesses=N"):
        make_agent("rollout:speed=2", "stratego")
    with pytest.raises(GameError, match="from 1 to 256"):
        make_agent("rollout:guesses=0", "stratego")


def test_a_seeded_game_of_the_roll_out_player_repeats_move_for_move() -> None:
    def moves(spec: str) -> list[int]:
        seats = [make_agent(spec, "stratego"), make_agent("selfplay", "stratego")]
        return play_match(StrategoGame("barrage"), seats, seed=5, max_actions=120).actions

    assert moves("rollout:guesses=2,depth=2") == moves("rollout:guesses=2,depth=2")


FUTILE: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("E5", 0, Rank.SCOUT, True, False),
    ("E7", 0, Rank.SPY, True, False),
    ("A5", 0, Rank.MINER, True, False),
    ("E6", 1, Rank.BOMB, False, True),  # shown: the scout beside it would die for nothing, the miner not
    ("D7", 1, Rank.GENERAL, True, True),  # shown: beats the spy
    ("F7", 1, Rank.MARSHAL, True, True),  # shown, but the spy takes it
    ("A6", 1, Rank.SCOUT, False, False),  # hidden: attacking it may be worth knowing
    ("K10", 1, Rank.FLAG, False, False),
]


def test_futile_attacks_are_those_on_a_shown_piece_that_beats_the_attacker() -> None:
    state, data = crafted(FUTILE)
    legal = [a for a in state.legal_actions() if a < 10000]
    bad = futile_moves(Knowledge.from_observation(data), legal)
    assert {state.action_to_string(a) for a in bad} == {"E5xE6", "E7xD7", "E7xE6"}
    assert {"E7xF7", "A5xA6", "E5-E4"} <= {state.action_to_string(a) for a in legal}


def true_positions(seed: int) -> Iterator[tuple[int, list[int], Knowledge, BatchSim]]:
    """Every position of a random classic game where a piece moves: (the seat to move, its legal moves, its view,
    the simulator rebuilt with the true ranks)."""
    game, rng = StrategoGame("classic"), random.Random(seed)
    state = game.new_initial_state()
    for _ in range(700):
        if state.is_terminal():
            break
        seat, legal = state.current_player(), state.legal_actions()
        if legal[0] < 10000:
            know = Knowledge.from_observation(stratego_view(state.observation(seat).data))
            row = np.zeros(100, np.uint8)
            for sq in range(100):
                if (p := state.piece_at(sq)) is not None:
                    row[sq] = piece_code(p[0], int(p[1]), p[2], p[3])
            sim = BatchSim("classic", n_envs=1, max_moves=0)
            sim.reset(setups=row[None], to_move=seat)
            yield seat, legal, know, sim
        state.apply(rng.choice(legal))


@pytest.mark.parametrize("seed", [3, 8])
def test_the_simulator_finds_the_same_futile_attacks_as_the_board(seed: int) -> None:
    """Random games: at every position of the seat to move, the simulator rebuilt with the true ranks marks the
    moves `futile_moves` finds from the seat's own view, and no others."""
    found = 0
    for seat, legal, know, sim in true_positions(seed):
        mask = futile_mask(sim)[0]
        bad = futile_moves(know, legal)
        assert {a for a in legal if mask[COMPACT_OF_MOVE[a]]} == bad
        movers, _, masks = movers_view(sim)  # as the net reads them: turned round for blue
        removed = np.flatnonzero(masks[0] & ~_without(futile_mask(sim), movers, masks)[0])
        absolute = FLIP_COMPACT[removed] if seat == 1 else removed
        assert {int(MOVE_OF_COMPACT[i]) for i in absolute} == (bad if len(bad) < len(legal) else set())
        found += len(bad)
    assert found > 0


class _Keen:
    """A stand-in for the net, sure of the moves it wishes for (probabilities by move text)."""

    def __init__(self, state: StrategoState, wish: dict[str, float]) -> None:
        self.wish = {state.string_to_action(m): p for m, p in wish.items()}

    def move_probabilities(self, data: StrategoView, legal: Sequence[int]) -> dict[int, float]:
        return {a: self.wish.get(a, 0.0) for a in legal if a < 10000}


def test_the_roll_out_player_makes_no_futile_attack_unless_told_to() -> None:
    """A net all but sure of throwing the scout at the shown bomb: `rollout` plays its next move instead,
    `rollout:futile=0` the attack; the roll-outs' moves leave out the futile attacks too."""
    state, data = crafted(FUTILE)
    legal = state.legal_actions()
    played = []
    for futile in (True, False):
        agent = RolloutAgent(guesses=2, depth=2, futile=futile)
        agent.start(state.game, 0, random.Random(1))
        agent._net = _Keen(state, {"E5xE6": 0.97, "A5xA6": 0.029, "E7-E8": 0.001})  # type: ignore[assignment]
        played.append(state.action_to_string(agent.act(state.observation(0), legal)))
    assert played == ["A5xA6", "E5xE6"]
    sim = world(state, 0, {parse_square("A6"): int(Rank.SCOUT), parse_square("K10"): int(Rank.FLAG)})
    movers, _, masks = movers_view(sim)
    assert masks[0].sum() - _without(futile_mask(sim), movers, masks)[0].sum() == 3


HOME: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("A2", 0, Rank.BOMB, False, False),
    ("B1", 0, Rank.MINER, False, False),
    ("D1", 0, Rank.GENERAL, True, False),
    ("B5", 0, Rank.SCOUT, True, False),
    ("K10", 1, Rank.FLAG, False, False),
]
"""Red's flag in the corner behind its bomb and its miner, a general two squares off and a scout up the board."""


def threats(pieces: list[Piece], marginals: dict[int, dict[int, float]] | None = None) -> dict[str, float]:
    """`flag_threats` for red in a crafted position, by square name."""
    _, data = crafted(pieces)
    found = flag_threats(Knowledge.from_observation(data), marginals or {})
    return {square_name(sq): w for sq, w in found.items()}


def test_flag_threats_weigh_the_pieces_that_could_take_our_flag_by_how_soon() -> None:
    """A shown miner counts in full beside the way in and less the more moves it needs; a shown general counts
    too while a way without our bombs leads to the flag (here past our miner); a hidden piece that has moved counts
    by the belief's chance that it is a miner (and any rank where no bomb bars it), and only near; an unmoved one
    not at all."""
    near = threats([*HOME, ("C2", 1, Rank.MINER, True, True)])
    far = threats([*HOME, ("C9", 1, Rank.MINER, True, True)])
    assert set(near) == {"C2"} and set(far) == {"C9"} and 0.3 < near["C2"] <= 1.0 and far["C9"] < near["C2"] / 4
    assert 0 < threats([*HOME, ("C2", 1, Rank.GENERAL, True, True)])["C2"] <= near["C2"]
    hidden_moved, hidden_still = ("C2", 1, Rank.MINER, True, False), ("C2", 1, Rank.MINER, False, False)
    c2 = parse_square("C2")
    sure_miner = threats([*HOME, hidden_moved], {c2: {int(Rank.MINER): 1.0}})
    unlikely = threats([*HOME, hidden_moved], {c2: {int(Rank.MINER): 0.1, int(Rank.GENERAL): 0.9}})
    assert sure_miner["C2"] == pytest.approx(near["C2"]) and unlikely["C2"] <= sure_miner["C2"]
    assert threats([*HOME, hidden_still], {c2: {int(Rank.MINER): 1.0}}) == {}
    assert threats([*HOME, ("C9", 1, Rank.MINER, True, False)], {parse_square("C9"): {int(Rank.MINER): 1.0}}) == {}
    assert threats([*HOME[1:], ("C2", 1, Rank.MINER, True, True)]) == {}  # no flag of ours on the board


def test_watch_moves_go_for_a_threat_to_our_flag_and_the_agent_weighs_them() -> None:
    """Blue's shown miner two squares from red's flag: red's general (beats it) stepping nearer defends at half
    the threat's weight; red's miner and scout (they do not beat it) do not, nor any move when no threat stands;
    `rollout:watch` compares the general's moves though the net is sure of another, and with roll-outs that see
    nothing between them plays the one the watch values."""
    pieces = [*HOME, ("C2", 1, Rank.MINER, True, True)]
    state, data = crafted(pieces)
    know, legal = Knowledge.from_observation(data), state.legal_actions()
    found = flag_threats(know, {})
    values = {state.action_to_string(a): v for a, v in watch_values(know, legal, found).items()}
    assert set(values) == {"D1-C1", "D1-D2"} and values["D1-C1"] == pytest.approx(found[parse_square("C2")] / 2)
    assert watch_values(know, legal, {}) == {}
    wish = {"B5-B6": 0.96, "B1-C1": 0.01, "B1-B2": 0.01, "D1-C1": 0.01, "D1-D2": 0.01}
    agent = RolloutAgent(guesses=2, depth=2, watch=0.5)
    agent.start(state.game, 0, random.Random(1))
    agent._net = _Keen(state, wish)  # type: ignore[assignment]
    seen: list[list[str]] = []

    def flat(d: StrategoView, c: Sequence[int], *given: object) -> npt.NDArray[np.float64]:
        seen.append([state.action_to_string(a) for a in c])
        return np.zeros(len(c))

    agent.look_ahead = flat  # type: ignore[method-assign,assignment]
    played = state.action_to_string(agent.act(state.observation(0), legal))
    assert seen and {"D1-C1", "D1-D2"} <= set(seen[0]) and played in ("D1-C1", "D1-D2")
    plain = RolloutAgent(guesses=2, depth=2, watch=0.0)  # sure of its move: no look-ahead, no watch
    plain.start(state.game, 0, random.Random(1))
    plain._net = _Keen(state, wish)  # type: ignore[assignment]
    assert state.action_to_string(plain.act(state.observation(0), legal)) == "B5-B6"
    assert make_agent("rollout:watch=0.3", "stratego").watch == 0.3  # type: ignore[attr-defined]
    assert RolloutAgent().watch == 0.2 and make_agent("rollout", "stratego").watch == 0.2  # type: ignore[attr-defined]


def red_army(game: StrategoGame, spec: str, seed: int) -> dict[int, Rank]:
    """The army the agent of `spec` sets up as red in `game`, its generator seeded with `seed`."""
    agent = make_agent(spec, "stratego")
    state = game.new_initial_state()
    agent.start(game, 0, random.Random(seed))
    while state.current_player() == 0 and state.phase == "setup":
        state.apply(agent.act(state.observation(0), state.legal_actions()))
    return {sq: p[1] for sq in range(100) if (p := state.piece_at(sq)) is not None and p[0] == 0}


@pytest.mark.parametrize(
    ("variant", "spec", "army"),
    [("barrage", "rollout", lambda v, rng: safest_book_setup(v, 0, rng, 20)),
     ("barrage", "rollout:setup=0", lambda v, rng: guarded_setup(v, 0, rng)),
     ("classic", "rollout", lambda v, rng: guarded_setup(v, 0, rng)),
     ("classic", "rollout:setup=5", lambda v, rng: safest_book_setup(v, 0, rng, 5)),
     ("classic", "rollout:decoy=1", lambda v, rng: decoy_setup(v, 0, rng)),
     ("classic", "rollout:decoy=1,setup=5", lambda v, rng: safest_book_setup(v, 0, rng, 5))],
)  # fmt: skip
def test_barrage_armies_come_from_the_setup_book_unless_the_spec_says_otherwise(
    variant: str, spec: str, army: Callable[[Variant, random.Random], dict[int, Rank]]
) -> None:
    """By default `rollout` sets up as `search.safest_book_setup` of 20 book setups in Barrage and as
    `search.guarded_setup` in classic Stratego; `setup=K` chooses for any variant (0: the guarded setup); `decoy=1`
    sets up as `search.decoy_setup` where the book does not."""
    game = StrategoGame(variant)
    expected = army(game.variant, random.Random(4))
    assert red_army(game, spec, 4) == expected


@pytest.mark.parametrize("seed", [3, 5])
def test_the_tracker_marks_what_the_simulator_reveals_when_nothing_was_shown_beforehand(seed: int) -> None:
    # Without `exposed`, the simulator's revealed marks of a seat's pieces are exactly what the game showed: the
    # tracker, following the moves alone, must agree with them at every ply of random games, for both seats.
    sim = BatchSim("classic", n_envs=6, max_moves=0)
    sim.reset(seed=seed)
    rng = np.random.default_rng(seed)
    tracks = [ShownTracker(sim.n_envs, seat, ()) for seat in (0, 1)]
    for _ in range(300):
        live = np.flatnonzero(~sim.done)
        if not len(live):
            break
        acts = sim.sample_actions(rng)
        for track in tracks:
            track.step(sim, acts[live], live)
        sim.step(acts, envs=live)
        board = sim.board.astype(np.int64)
        present, owner = (board & PRESENT_BIT) != 0, (board & OWNER_BIT) >> 4
        revealed = (board & REVEALED_BIT) != 0
        for seat, track in enumerate(tracks):
            ours = present & (owner == seat)
            assert np.array_equal(track.shown & ours, revealed & ours)
            counts = track.counts(sim)
            for e in range(sim.n_envs):
                for s in (0, 1):
                    shown = [board[e, sq] & RANK_MASK for sq in range(100) if present[e, sq] and owner[e, sq] == s
                             and revealed[e, sq]]  # fmt: skip
                    assert list(counts[e, s]) == [shown.count(r) for r in range(len(Rank))]
    assert (sim.board & REVEALED_BIT).any()


def test_the_tracker_keeps_our_pieces_the_game_showed_and_not_those_the_world_shows() -> None:
    # With `exposed`, the world marks our hidden pieces revealed for the roll-outs' enemy; the score of what we have
    # shown counts only what the real game showed (E5, the revealed attacker of FIGHT) and what fights in the world.
    state, data = crafted(FIGHT)
    know = Knowledge.from_observation(data)
    seen = [sq for sq, c in enumerate(know.cells) if c is not None and c.owner == 0 and c.revealed]
    codes = world_codes(know, TRUTH, frozenset(sq for sq, c in enumerate(know.cells) if c and c.owner == 0))
    sim = BatchSim("barrage", n_envs=1, max_moves=0)
    sim.reset(setups=codes[None])
    track = ShownTracker(1, 0, seen)
    before = track.counts(sim)[0, 0].sum()
    assert before == len(seen) < sum(1 for c in know.cells if c is not None and c.owner == 0)
    quiet = np.array([state.string_to_action("H1-H2")])
    track.step(sim, quiet, np.arange(1))
    sim.step(quiet)
    assert track.counts(sim)[0, 0].sum() == before


def test_the_roll_outs_score_with_the_fit_of_what_each_side_has_shown() -> None:
    state, data = crafted(FIGHT)
    sim = BatchSim("barrage", n_envs=1, max_moves=0)
    sim.reset(setups=world_codes(Knowledge.from_observation(data), TRUTH)[None])
    sim.captured[:] = captured_counts(data)[None]
    track = ShownTracker(1, 0, ())
    plain = scores(sim, 0, "barrage", marshal_step=True, shown=track)
    assert np.allclose(plain, Potential("barrage", reveal=True)(sim.captured, np.zeros(1, np.int64), track.counts(sim)))
    assert list(track.counts(sim)[0, 1]) == [int(r == Rank.GENERAL) for r in range(len(Rank))]  # blue's shown E6
    track.shown[:] = True  # our marshal shown too: a worse score, as the fit reads a shown marshal
    assert scores(sim, 0, "barrage", shown=track)[0] < plain[0]


def test_reveal_is_an_option_and_the_agent_plays_with_it() -> None:
    agent = make_agent("rollout:reveal=0,guesses=2,depth=2")
    assert isinstance(agent, RolloutAgent) and agent.reveal == 0 and RolloutAgent().reveal == 1  # on since session 55
    game = StrategoGame("barrage")
    record = play_match(game, [agent, make_agent("random")], seed=4, max_actions=60)
    assert len(record.actions) > 0


def test_reveal_2_looks_ahead_at_a_sure_capture_that_would_show_a_hidden_officer() -> None:
    """Red's hidden marshal can take blue's shown general: the net is sure of it. `rollout:reveal=2` compares the
    move with the others (the capture would show the marshal), `reveal=1` plays it at once; a capture by a shown
    marshal, or a quiet move, shows nothing new."""
    hidden = [("E5", 0, Rank.MARSHAL, True, False) if sq == "E5" else (sq, o, r, m, v) for sq, o, r, m, v in FIGHT]
    state, data = crafted(hidden)
    know = Knowledge.from_observation(data)
    assert shows_officer(know, state.string_to_action("E5xE6"))
    assert not shows_officer(know, state.string_to_action("H1-H2"))
    assert not shows_officer(know, state.string_to_action("E5-E4"))
    _, shown_data = crafted(FIGHT)
    assert not shows_officer(Knowledge.from_observation(shown_data), state.string_to_action("E5xE6"))
    wish = {"E5xE6": 0.97, "H1-H2": 0.02, "E5-E4": 0.01}
    played = [_sure_move_played(state, wish, reveal=level, hold=0) for level in (1, 2)]
    assert played == [("E5xE6", False), ("E5xE6", True)]


def test_hold_keeps_our_unseen_marshal_from_attacking_in_the_roll_outs() -> None:
    """Red's marshal, unseen by blue, could take blue's shown general. With `held`, red's roll-out plies leave the
    capture out (`hold_mask`: only that attack of the legal moves, not once the tracker says blue saw the marshal,
    not for another rank held, not on blue's turn), and the net's own ply, which takes the general without it,
    plays another move; `rollout:hold=1` looks ahead at the net's sure capture that would show the marshal."""
    hidden = [("E5", 0, Rank.MARSHAL, True, False) if sq == "E5" else (sq, o, r, m, v) for sq, o, r, m, v in FIGHT]
    state, data = crafted(hidden)
    know = Knowledge.from_observation(data)
    ours = frozenset(sq for sq, c in enumerate(know.cells) if c is not None and c.owner == 0)
    legal = np.zeros(len(MOVE_OF_COMPACT), np.bool_)
    legal[[COMPACT_OF_MOVE[a] for a in state.legal_actions() if a < 10000]] = True
    capture = COMPACT_OF_MOVE[state.string_to_action("E5xE6")]
    net = shipped_net("selfplay_barrage_net.npz")
    assert net is not None
    marshal, general = int(Rank.MARSHAL), int(Rank.GENERAL)
    after = []
    for held in ((), (marshal,)):
        sim = BatchSim("barrage", n_envs=1, max_moves=0)
        sim.reset(setups=world_codes(know, TRUTH, ours)[None])  # every piece of ours shown to blue, as `exposed`
        sim.captured[:] = captured_counts(data)[None]
        track = ShownTracker(1, 0, ())
        if held:
            assert list(np.flatnonzero(hold_mask(sim, track, held)[0] & legal)) == [capture]
            assert not (hold_mask(sim, track, (general,))[0] & legal).any()
            shown = ShownTracker(1, 0, [parse_square("E5")])
            assert not (hold_mask(sim, shown, held)[0] & legal).any()
        play_out(net, sim, 1, track=track, held=held)
        after.append(int(sim.board[0, parse_square("E6")]) & RANK_MASK)
    assert after == [marshal, general]
    blue = BatchSim("barrage", n_envs=1, max_moves=0)
    blue.reset(setups=world_codes(know, TRUTH, ours)[None], to_move=1)
    assert not hold_mask(blue, ShownTracker(1, 0, ()), (marshal,)).any()
    wish = {"E5xE6": 0.97, "H1-H2": 0.02, "E5-E4": 0.01}
    assert [_sure_move_played(state, wish, hold=h) for h in (0, 1)] == [("E5xE6", False), ("E5xE6", True)]
    made = make_agent("rollout:hold=1,reveal=1", "stratego")
    assert isinstance(made, RolloutAgent) and made.hold == 1 and RolloutAgent().hold == 2  # 1 in session 55, 2 in 60
    record = play_match(StrategoGame("barrage"), [made, make_agent("random")], seed=4, max_actions=60)
    assert len(record.actions) > 0


EXPOSED: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("B1", 0, Rank.BOMB, False, False),
    ("E5", 0, Rank.GENERAL, True, True),  # shown
    ("A5", 0, Rank.SCOUT, True, False),  # hidden, but shown to blue in a world of `exposed`
    ("E6", 1, Rank.MARSHAL, True, False),
    ("A6", 1, Rank.MINER, True, False),
    ("K10", 1, Rank.FLAG, False, False),
    ("H10", 1, Rank.BOMB, False, False),
]


def test_takes_has_the_enemy_take_our_shown_pieces_it_beats_in_the_roll_outs() -> None:
    """Blue to move, its hidden marshal beside red's shown general and its miner beside red's scout that the game has
    not shown (blue knows it in this world, as `exposed` makes it): `shown_takes` is the marshal's capture, the
    scout's once the tracker says blue saw it (the general first when both), nothing on red's turn or with nothing of
    red's seen; a roll-out ply with it plays the marshal's capture; `rollout:takes=1` sets it, off by default."""
    state, data = crafted(EXPOSED)
    know = Knowledge.from_observation(data)
    truth = {parse_square(sq): int(rank) for sq, owner, rank, _, _ in EXPOSED if owner == 1}
    ours = frozenset(sq for sq, c in enumerate(know.cells) if c is not None and c.owner == 0)
    values = Potential("barrage", True, True).values
    general = COMPACT_OF_MOVE[parse_square("E6") * 100 + parse_square("E5")]
    scout = COMPACT_OF_MOVE[parse_square("A6") * 100 + parse_square("A5")]

    def sim(to_move: int) -> BatchSim:
        out = BatchSim("barrage", n_envs=1, max_moves=0)
        out.reset(setups=world_codes(know, truth, ours)[None], to_move=to_move)
        out.captured[:] = captured_counts(data)[None]
        return out

    seen = [parse_square("E5")]
    assert shown_takes(sim(1), ShownTracker(1, 0, seen), values).tolist() == [general]
    assert shown_takes(sim(1), ShownTracker(1, 0, [parse_square("A5")]), values).tolist() == [scout]
    assert shown_takes(sim(1), ShownTracker(1, 0, [*seen, parse_square("A5")]), values).tolist() == [general]
    assert shown_takes(sim(1), ShownTracker(1, 0, ()), values).tolist() == [-1]
    assert shown_takes(sim(0), ShownTracker(1, 0, seen), values).tolist() == [-1]
    legal = sim(1).legal_mask(compact=True)  # the mask a roll-out ply shares with `movers_view`
    assert shown_takes(sim(1), ShownTracker(1, 0, seen), values, legal).tolist() == [general]
    assert shown_takes(sim(1), ShownTracker(1, 0, seen), values, ~legal).tolist() == [-1]
    kept = legal.copy()
    (movers, planes, masks), (own_movers, own_planes, own_masks) = movers_view(sim(1), legal), movers_view(sim(1))
    assert np.array_equal(movers, own_movers) and np.array_equal(planes, own_planes)
    assert np.array_equal(masks, own_masks)
    assert np.array_equal(legal, kept)  # turned round for blue in a copy, not in the mask shared
    net = shipped_net("selfplay_barrage_net.npz")
    assert net is not None
    played = sim(1)
    play_out(net, played, 1, track=ShownTracker(1, 0, seen), take_values=values)
    assert int(played.board[0, parse_square("E5")]) & RANK_MASK == int(Rank.MARSHAL)
    made = make_agent("rollout:takes=1", "stratego")
    assert isinstance(made, RolloutAgent) and made.takes and not RolloutAgent().takes


def _sure_move_played(state: StrategoState, wish: dict[str, float], **options: Any) -> tuple[str, bool]:
    """(the move red plays, whether it looked ahead) with a net of these wishes (`_Keen`) and the look-ahead scoring
    every move alike."""
    agent = RolloutAgent(guesses=2, depth=2, **options)
    agent.start(state.game, 0, random.Random(1))
    agent._net = _Keen(state, wish)  # type: ignore[assignment]
    looked: list[int] = []

    def flat(d: StrategoView, c: Sequence[int], *given: object) -> npt.NDArray[np.float64]:
        looked.append(len(c))
        return np.zeros(len(c))

    agent.look_ahead = flat  # type: ignore[method-assign,assignment]
    return state.action_to_string(agent.act(state.observation(0), state.legal_actions())), bool(looked)


LANE: list[Piece] = [
    ("G1", 0, Rank.GENERAL, False, False),
    ("E2", 0, Rank.SPY, True, False),
    ("H3", 0, Rank.MARSHAL, True, False),
    ("A4", 0, Rank.FLAG, False, False),
    ("E4", 0, Rank.BOMB, False, False),
    ("H4", 0, Rank.MINER, False, False),
    ("B6", 0, Rank.SCOUT, True, False),
    ("A7", 1, Rank.SCOUT, True, True),
    ("A9", 1, Rank.GENERAL, True, False),
    ("E9", 1, Rank.FLAG, False, False),
    ("B10", 1, Rank.SPY, False, False),
    ("E10", 1, Rank.MINER, False, False),
    ("F10", 1, Rank.BOMB, False, False),
    ("H10", 1, Rank.MARSHAL, False, False),
]
"""Red's flag on A4 and column A open from blue's shown scout on A7 down to it (from a seeded random Barrage game,
where the net's likeliest move for blue, red's army shown, is not the scout's run onto the flag)."""


def lane_world(to_move: int, shown: bool) -> BatchSim:
    """LANE as red rebuilds it with the true ranks, red's pieces shown to blue (`exposed`) or not, `to_move` next."""
    state, data = crafted(LANE)
    know = Knowledge.from_observation(data)
    truth = {sq: int(p[1]) for sq in know.unknown_enemy_squares() if (p := state.piece_at(sq)) is not None}
    ours = frozenset(know.own_squares()) if shown else frozenset()
    sim = BatchSim("barrage", n_envs=1, max_moves=0)
    sim.reset(setups=world_codes(know, truth, ours)[None], to_move=to_move)
    sim.captured[:] = captured_counts(data)[None]
    return sim


def test_flag_takes_are_the_legal_moves_onto_a_flag_the_mover_sees() -> None:
    """Blue's scout on A7 can run down column A onto red's flag: that move, and no other, once the flag is shown;
    nothing while it is hidden, and nothing for red, who sees no blue flag."""
    takes = flag_takes(lane_world(1, shown=True))[0]
    assert [int(MOVE_OF_COMPACT[c]) for c in np.flatnonzero(takes)] == [parse_square("A7") * 100 + parse_square("A4")]
    assert not flag_takes(lane_world(1, shown=False)).any()
    assert not flag_takes(lane_world(0, shown=True)).any()


def test_seize_makes_a_roll_out_seat_take_the_flag_it_sees() -> None:
    """One ply of blue in the lane world: the net alone leaves the shown flag standing; with `seize` blue takes it."""
    net = shipped_net("selfplay_barrage_net.npz")
    assert net is not None
    for seize in (False, True):
        sim = lane_world(1, shown=True)
        play_out(net, sim, 1, seize=seize)
        assert bool(sim.done[0]) is seize and (not seize or sim.winner[0] == 1)
    assert make_agent("rollout:seize=1", "stratego").seize  # type: ignore[attr-defined]


def test_with_seize_the_look_ahead_shuts_the_lane_to_our_flag() -> None:
    """Red to move: the scout's step onto A6 shuts blue's scout out of column A; the general's step leaves the way
    open, and with `seize` the roll-outs' blue (shown red's army) takes the flag in every world, where without it
    the net let the flag stand and the two moves scored alike."""
    state, data = crafted(LANE)
    moves = [state.string_to_action(m) for m in ("B6-A6", "G1-G2")]
    values = {}
    for seize in (False, True):
        agent = RolloutAgent(guesses=4, depth=4, seize=seize)
        agent.start(state.game, 0, random.Random(1))
        agent._belief.update(data)
        values[seize] = agent.look_ahead(data, moves).tolist()
    assert values[True][1] == -1.0 and values[True][0] > -0.5 and values[False][1] > -1.0


def test_a_piece_that_runs_at_our_flag_is_a_full_threat_wherever_it_stands() -> None:
    """The belief keeps the squares of the enemy's latest run (one piece moved turn after turn); with `runs=3` a
    hidden piece whose last three moves each came nearer our flag counts in full in `flag_threats` though it stands
    far beyond the four moves a hidden piece is otherwise watched within. A run broken by another piece's move, or
    one that turned away, does not count."""
    pieces = [
        *HOME,
        ("F10", 1, Rank.MINER, False, False),
        ("K9", 1, Rank.SCOUT, False, False),
    ]
    state, _ = crafted(pieces)
    tracker = BeliefTracker()

    def red_sees(red: str, blue: str) -> Knowledge:
        state.apply(state.string_to_action(red))
        state.apply(state.string_to_action(blue))
        data = stratego_view(state.observation(0).data)
        tracker.update(data)
        return Knowledge.from_observation(data)

    tracker.update(stratego_view(state.observation(0).data))
    red_sees("D1-E1", "F10-F9")
    red_sees("E1-D1", "F9-F8")
    know = red_sees("D1-E1", "F8-F7")
    f7 = parse_square("F7")
    assert [square_name(sq) for sq in tracker.run] == ["F10", "F9", "F8", "F7"]
    assert flag_threats(know, {}, run=tracker.run, runs=3) == {f7: 1.0}
    assert flag_threats(know, {}) == {} and flag_threats(know, {}, run=tracker.run, runs=4) == {}
    know = red_sees("E1-D1", "K9-K8")  # another piece moves: the run starts again
    assert [square_name(sq) for sq in tracker.run] == ["K9", "K8"]
    assert flag_threats(know, {}, run=tracker.run, runs=3) == {}
    for red, blue in (("B5-B6", "F7-G7"), ("B6-B5", "G7-F7"), ("B5-B6", "F7-F6")):
        know = red_sees(red, blue)  # the miner's new run: a step away from our flag, then two nearer
    assert [square_name(sq) for sq in tracker.run] == ["F7", "G7", "F7", "F6"]
    assert flag_threats(know, {}, run=tracker.run, runs=3) == {}
    assert flag_threats(know, {}, run=tracker.run, runs=2) == {parse_square("F6"): 1.0}
    know = red_sees("B6-B5", "K8-K7")  # the scout again, one step nearer: a run of one
    assert [square_name(sq) for sq in tracker.run] == ["K8", "K7"]
    assert flag_threats(know, {}, run=tracker.run, runs=2) == {}
    assert flag_threats(know, {}, run=tracker.run, runs=1) == {parse_square("K7"): 1.0}
    agent = make_agent("rollout:runs=3", "stratego")
    assert isinstance(agent, RolloutAgent) and agent.runs == 3 and RolloutAgent().runs == 0


RUN: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("A2", 0, Rank.BOMB, False, False),
    ("B1", 0, Rank.SPY, False, False),
    ("K2", 0, Rank.GENERAL, False, False),
    ("K10", 1, Rank.FLAG, False, False),
    ("K9", 1, Rank.BOMB, False, False),
]
"""Red's flag in the corner behind its bomb and spy, red's general far off; blue's flag and bomb far off."""


def run_world(rank: Rank, at: str = "A6") -> BatchSim:
    """The RUN position with blue's `rank` (moved, not shown) on `at`, blue to move, in the simulator."""
    game = StrategoGame("barrage")
    pieces = [*RUN, (at, 1, rank, True, False)]
    start = [(parse_square(sq), owner, int(r), moved, shown) for sq, owner, r, moved, shown in pieces]
    state = StrategoState(game, start=start, to_move=1)
    sim = BatchSim("barrage", n_envs=1, max_moves=0)
    sim.reset(setups=np.array([[state._board[sq] for sq in range(100)]], np.uint8), to_move=1)
    return sim


def test_the_runner_runs_on_at_the_flag_and_a_miner_digs_through_the_bomb() -> None:
    """Blue's miner on A6 runs at red's flag in the roll-out: A5, A4, A3, the bomb on A2, the flag (red's net moves
    between). A sergeant runs as far as the bomb and stops there: the runner's step is left to the net. A runner
    taken is followed no more."""
    net = shipped_net("selfplay_barrage_net.npz")
    assert net is not None
    sim = run_world(Rank.MINER)
    runner = Runner(1, parse_square("A6"), 1, parse_square("A1"))
    play_out(net, sim, 9, runners=[runner])
    assert bool(sim.done[0]) and sim.winner[0] == 1
    assert square_name(int(runner.at[0])) == "A1"

    sim = run_world(Rank.SERGEANT, "A4")
    runner = Runner(1, parse_square("A4"), 1, parse_square("A1"))
    acts = np.full(1, -1, np.int64)
    runner.press(sim, acts, np.arange(1))
    assert MOVE_OF_COMPACT[acts[0]] == parse_square("A4") * 100 + parse_square("A3")
    sim.step(acts, compact=True)
    runner.follow(sim)
    sim.step(np.array([COMPACT_OF_MOVE[parse_square("K2") * 100 + parse_square("K3")]]), compact=True)
    acts[:] = -1
    runner.press(sim, acts, np.arange(1))
    assert acts[0] == -1 and square_name(int(runner.at[0])) == "A3"  # the bomb on A2 stops a sergeant
    sim.board[0, parse_square("A3")] = 0  # as if red took it
    runner.follow(sim)
    assert runner.at[0] == -1


def test_press_has_the_roll_outs_see_the_run_end_and_value_the_move_that_stops_it() -> None:
    """Blue's hidden piece ran A6-A5-A4-A3 at red's flag, beside red's general on B3. With `press=1` (the runner a
    miner in every world) a move of red's marshal far off lets it dig the bomb on A2 and take the flag in every
    world, and the general's capture of it scores far above; without `press` the roll-outs' blue, the net, does not
    go on with the run and the far move keeps the game. (Blue's other hidden pieces never moved: the runner is its
    miner or its spy.)"""
    pieces: list[Piece] = [
        *[p for p in RUN if p[0] != "K2"],
        ("B3", 0, Rank.GENERAL, False, False),
        ("K2", 0, Rank.MARSHAL, False, False),
        ("A6", 1, Rank.MINER, False, False),
        ("G9", 1, Rank.SPY, False, False),
    ]
    state, data = crafted(pieces)
    captured = data["captured"]  # what is not on the board (nothing is taken below)
    agents = {press: RolloutAgent(guesses=4, depth=8, runs=3, press=press) for press in (0.0, 1.0)}
    for agent in agents.values():
        agent.start(state.game, 0, random.Random(1))
        agent._belief.update(data)
    for red, blue in (("K2-K3", "A6-A5"), ("K3-K4", "A5-A4"), ("K4-K5", "A4-A3")):
        state.apply(state.string_to_action(red))
        state.apply(state.string_to_action(blue))
        data = {**stratego_view(state.observation(0).data), "captured": captured}
        for agent in agents.values():
            agent._belief.update(data)
    know = Knowledge.from_observation(data)
    moves = [state.string_to_action(m) for m in ("B3xA3", "K5-K6")]
    values = {}
    for press, agent in agents.items():
        agent._runner = agent._find_runner(know)
        assert agent._runner == parse_square("A3")
        values[press] = agent.look_ahead(data, moves).tolist()
    assert values[1.0][1] == -1.0 and values[1.0][0] > -0.5
    assert values[0.0][1] > -1.0
    made = make_agent("rollout:runs=3,press=0.5", "stratego")
    assert isinstance(made, RolloutAgent) and made.press == 0.5 and RolloutAgent().press == 0.0


RAID: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("A2", 0, Rank.BOMB, False, False),
    ("B1", 0, Rank.SPY, False, False),
    ("B5", 0, Rank.GENERAL, False, False),
    ("K2", 0, Rank.MARSHAL, False, False),
    ("A5", 1, Rank.MINER, True, False),  # hidden, moved: three steps from the bomb before red's flag
    ("G9", 1, Rank.SPY, False, False),
    ("K10", 1, Rank.FLAG, False, False),
    ("K9", 1, Rank.BOMB, False, False),
]
"""Blue's hidden piece three steps from the bomb before red's flag, red's general beside it, red's marshal far off."""


def test_mirror_reads_our_flag_from_the_enemy_s_seat_and_sends_its_nearest_piece_at_it() -> None:
    """The flag's read is what a people's belief from blue's seat gives red's flag square: nearly 1 once every other
    red piece has moved (the bomb taken), less while a bomb beside it has not. With the flag read at 1 (`mirror=1`),
    blue's nearest piece runs at red's flag in every world: where it is the miner it digs the bomb and takes the flag,
    so the marshal's far move scores lower than with the flag unread and the general's capture of the runner scores
    above it; a read of 0 leaves the look-ahead as it is without `mirror`."""
    moved = [
        (sq, owner, rank, m or owner == 0 and rank not in (Rank.FLAG, Rank.BOMB), r) for sq, owner, rank, m, r in RAID
    ]
    reads = {}
    for name, pieces in (("all moved", [p for p in moved if p[0] != "A2"]), ("bomb unmoved", moved)):
        agent = RolloutAgent(mirror=1)
        state, data = crafted(pieces)
        agent.start(state.game, 0, random.Random(1))
        reads[name] = agent._read_flag(data, Knowledge.from_observation(data).own_flag())
    assert reads["all moved"] > 0.95
    assert 0.0 < reads["bomb unmoved"] < 0.9

    state, data = crafted(RAID)
    moves = [state.string_to_action(m) for m in ("B5xA5", "K2-K3")]
    values = {}
    for mirror, read in ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0)):
        agent = RolloutAgent(guesses=8, depth=8, mirror=mirror)
        agent.start(state.game, 0, random.Random(3))
        agent._belief.update(data)
        agent._flag_read = read
        values[mirror, read] = agent.look_ahead(data, moves).tolist()
    assert values[1.0, 0.0] == values[0.0, 0.0]
    take, far = values[1.0, 1.0]
    assert far < values[0.0, 0.0][1] - 0.3 and take > far + 0.3
    made = make_agent("rollout:mirror=0.5", "stratego")
    assert isinstance(made, RolloutAgent) and made.mirror == 0.5 and RolloutAgent().mirror == 0.0


TARGETED: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("E5", 0, Rank.MARSHAL, True, True),
    ("H1", 0, Rank.SCOUT, False, False),
    ("F5", 1, Rank.BOMB, False, False),  # hidden, never moved
    ("E7", 1, Rank.SPY, False, False),
    ("A10", 1, Rank.SCOUT, True, False),
    ("K10", 1, Rank.FLAG, False, False),
]
"""Red's shown marshal beside a hidden blue piece that has never moved; blue's other hidden pieces, one moved."""


def test_with_rank_swaps_a_rank_in_and_keeps_bombs_and_the_flag_off_moved_pieces() -> None:
    """`with_rank` (how `press` makes the runner a miner): the rank swapped in from a piece that holds it, never a
    bomb or the flag onto a piece that has moved."""
    _, data = crafted(TARGETED)
    know = Knowledge.from_observation(data)
    f5, e7, a10, k10 = (parse_square(s) for s in ("F5", "E7", "A10", "K10"))
    guess = {f5: SPY, e7: BOMB, a10: int(Rank.SCOUT), k10: int(Rank.FLAG)}
    rng = random.Random(1)
    assert with_rank(know, guess, f5, SPY, rng) == guess
    assert with_rank(know, guess, e7, int(Rank.SCOUT), rng) is None  # the bomb would go onto the moved scout
    assert with_rank(know, guess, a10, BOMB, rng) is None  # A10 has moved: no bomb
    assert with_rank(know, {**guess, a10: SPY, f5: int(Rank.SCOUT)}, f5, SPY, rng) is not None
    assert with_rank(know, guess, f5, int(Rank.SCOUT), rng) == {**guess, f5: int(Rank.SCOUT), a10: SPY}
    assert with_rank(know, {**guess, f5: BOMB, e7: SPY}, a10, int(Rank.FLAG), rng) is None


def test_fall_back_values_are_the_steps_back_into_a_runner_s_way_and_its_capture() -> None:
    """Blue's piece on E5 ran at red's flag on A1 (eight moves off for a miner, through the bomb). Red's general on
    C3 can step back nearer the flag (B3, C2: 1/2) but not aside or away; the scout does not stop a miner. Shown
    as a miner, red's miner stops it too (a trade); beside the general, the general's capture is worth 1."""
    pieces: list[Piece] = [
        ("A1", 0, Rank.FLAG, False, False),
        ("A2", 0, Rank.BOMB, False, False),
        ("C3", 0, Rank.GENERAL, True, False),
        ("H2", 0, Rank.MINER, True, False),
        ("K1", 0, Rank.SCOUT, True, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]

    def values(runner: tuple[str, bool]) -> dict[str, float]:
        square, shown = runner
        state, data = crafted([*pieces, (square, 1, Rank.MINER, True, shown)])
        know = Knowledge.from_observation(data)
        moves = [a for a in state.legal_actions() if a < 10000]
        found = fall_back_values(know, moves, parse_square(square))
        return {state.action_to_string(a): v for a, v in found.items()}

    assert values(("E5", False)) == {"C3-B3": 0.5, "C3-C2": 0.5}
    assert values(("E5", True)) == {"C3-B3": 0.5, "C3-C2": 0.5, "H2-G2": 0.5, "H2-H1": 0.5}
    assert values(("C4", False)) == {"C3xC4": 1.0, "C3-B3": 0.5, "C3-C2": 0.5}


SIEGE: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("B1", 0, Rank.BOMB, False, False),
    ("D1", 0, Rank.SCOUT, False, False),
    ("C2", 0, Rank.GENERAL, False, False),
    ("H7", 0, Rank.MINER, True, False),
    ("K10", 1, Rank.FLAG, False, False),
    ("K9", 1, Rank.BOMB, True, True),
    ("A10", 1, Rank.MARSHAL, True, True),
]
"""Blue has its marshal left, far off, and its flag in the corner behind a bomb it showed; red's miner stands on H7."""


def test_siege_sends_the_miner_with_a_way_at_the_likeliest_flag_and_the_roll_outs_see_it_dig() -> None:
    """`movable_enemies` counts the marshal alone; `siege_target` finds the miner and its way through the shown bomb
    to the flag, round blue's pieces that move; none for a miner walled in by its own pieces. With `siege=2` the
    roll-outs run that miner on after its step along the way, which wins in every world, and not after a quiet move
    of red's scout, whose roll-outs are those without `siege`."""
    state, data = crafted(SIEGE)
    know = Knowledge.from_observation(data)
    tracker = BeliefTracker()
    tracker.update(data)
    marginals = tracker.marginals(know)
    assert movable_enemies(know) == 1
    found = siege_target(know, marginals)
    assert found is not None
    miner, way = found
    assert square_name(miner) == "H7" and way[parse_square("K10")] == 0 and way[parse_square("K9")] == 1
    assert way[miner] == 5
    _, barred = crafted([*SIEGE[:-1], ("K8", 1, Rank.MARSHAL, True, True), ("I10", 1, Rank.SCOUT, True, True)])
    around = siege_target(Knowledge.from_observation(barred), marginals)
    assert around is not None and around[1][parse_square("K8")] == around[1][parse_square("I10")] == 99
    assert around[1][parse_square("I9")] == 2 and around[1][miner] == 5  # round by I9
    _, walled = crafted([*[p for p in SIEGE if p[0] != "H7"], ("C1", 0, Rank.MINER, False, False)])
    assert siege_target(Knowledge.from_observation(walled), marginals) is None
    values = {}
    for siege in (0, 2):
        agent = RolloutAgent(guesses=4, depth=8, siege=siege)
        agent.start(state.game, 0, random.Random(1))
        agent._belief.update(data)
        agent._siege = siege_target(know, marginals) if siege else None
        values[siege] = agent.look_ahead(data, [state.string_to_action(m) for m in ("H7-I7", "D1-E1")]).tolist()
    assert values[2][0] == 1.0 and values[2][1] == values[0][1] < 1.0  # the same roll-outs after the quiet move
    made = make_agent("rollout:siege=2", "stratego")
    assert isinstance(made, RolloutAgent) and made.siege == 2 and RolloutAgent().siege == 0


def test_neighbours_gives_the_belief_its_factors_by_default_and_neighbours_0_does_not_nor_stood_unless_asked() -> None:
    game = StrategoGame("classic")
    for spec, neighbours, stood in (
        ("rollout:neighbours=0", None, None),
        ("rollout", NEIGHBOUR_FACTORS, None),
        ("rollout:stood=1", NEIGHBOUR_FACTORS, STOOD_FACTORS),
    ):
        agent = make_agent(spec, "stratego")
        assert isinstance(agent, RolloutAgent)
        agent.start(game, 0, random.Random(1))
        assert agent._belief.neighbour_factors == neighbours
        assert agent._belief.stood_factors == stood


def test_the_constructor_defaults_are_the_spec_defaults() -> None:
    """`RolloutAgent()` and `rollout` are one player: each option's default is written twice (`OPTIONS` for the spec,
    the constructor's signature for code), and a default changed in one place only must fail here."""
    built, parsed = RolloutAgent(), make_agent("rollout", "stratego")
    assert isinstance(parsed, RolloutAgent)
    for name, option in rollout.OPTIONS.items():
        assert getattr(built, name) == getattr(parsed, name) == option.default, name


PROBED: list[Piece] = [
    ("A1", 0, Rank.FLAG, False, False),
    ("E3", 0, Rank.GENERAL, True, False),  # hidden: beside the unmoved E4 and the moved F3
    ("H3", 0, Rank.MINER, True, False),  # below a captain: may probe H4
    ("C4", 0, Rank.MARSHAL, True, True),  # beside the moved D4 and the shown B4
    ("E4", 1, Rank.BOMB, False, False),
    ("H4", 1, Rank.SCOUT, False, False),
    ("F3", 1, Rank.SCOUT, True, False),
    ("D4", 1, Rank.MINER, True, False),
    ("B4", 1, Rank.SPY, False, True),
    ("K10", 1, Rank.FLAG, False, False),
]
"""Red's general and marshal beside blue pieces unmoved and hidden, moved, and shown; red's miner beside one."""


def _probed(pieces: list[Piece]) -> tuple[StrategoState, Knowledge, dict[int, dict[int, float]], list[int]]:
    """The crafted position, red's knowledge of it, the belief's marginals and red's legal moves."""
    state, data = crafted(pieces)
    know = Knowledge.from_observation(data)
    tracker = BeliefTracker()
    tracker.update(data)
    return state, know, tracker.marginals(know), [a for a in state.legal_actions() if a < 10000]


def test_probe_moves_are_an_officer_s_attacks_on_unmoved_hidden_pieces_likely_bombs() -> None:
    """The general's attack on the unmoved hidden piece at the belief's chance of a bomb, not above it; not the
    attacks on moved or shown pieces nor the miner's; none where the flag is likelier than a bomb, or when no piece
    below a captain is left to probe with."""
    state, know, marginals, legal = _probed(PROBED)
    bomb = marginals[parse_square("E4")][int(Rank.BOMB)]
    assert 0.1 < bomb < 0.9
    assert {"H3xH4", "E3xF3", "C4xD4", "C4xB4", "E3xE4"} <= {state.action_to_string(a) for a in legal}
    assert {state.action_to_string(a) for a in rollout.probe_moves(know, marginals, legal, bomb)} == {"E3xE4"}
    assert rollout.probe_moves(know, marginals, legal, bomb + 0.01) == set()
    flag_likely = {**marginals, parse_square("E4"): {int(Rank.BOMB): 0.3, int(Rank.FLAG): 0.6, int(Rank.SCOUT): 0.1}}
    assert rollout.probe_moves(know, flag_likely, legal, 0.1) == set()  # the flag hunt goes on
    _, know, marginals, legal = _probed([p for p in PROBED if p[0] != "H3"])
    assert rollout.probe_moves(know, marginals, legal, 0.0) == set()  # nothing low left to probe with


@pytest.mark.parametrize("seed", [3, 8])
def test_the_simulator_finds_the_probes_the_board_finds(seed: int) -> None:
    """Random classic games: at every position, rebuilt in the simulator with the true ranks, `probe_mask` marks
    the moves `probe_moves` finds from the mover's own view when every hidden piece would be a bomb, and no others
    (`probe_moves` finds none once the mover has no piece below a captain)."""
    bombs = {sq: {int(Rank.BOMB): 1.0} for sq in range(100)}
    found = 0
    for seat, legal, know, sim in true_positions(seed):
        mask = rollout.probe_mask(sim)[0]
        probes = rollout.probe_moves(know, bombs, legal, 1.0)
        probers = any(c is not None and c.owner == seat and c.rank in rollout.PROBERS for c in know.cells)
        assert probes == ({a for a in legal if mask[COMPACT_OF_MOVE[a]]} if probers else set())
        found += len(probes)
    assert found > 0


def test_probe_leaves_the_attack_on_an_unmoved_piece_to_a_low_piece_here_and_in_the_roll_outs() -> None:
    """A net all but sure of the general's attack on the unmoved piece: `rollout:probe=0.1` plays its next move,
    the miner's probe, and without `probe` the attack; the roll-outs' moves leave the officers' probes out."""
    state, _ = crafted(PROBED)
    legal = state.legal_actions()
    played = []
    for probe in (0.1, 0.0):
        agent = RolloutAgent(guesses=2, depth=2, watch=0, hold=0, probe=probe)  # no look-ahead: sure moves
        agent.start(state.game, 0, random.Random(1))
        agent._net = _Keen(state, {"E3xE4": 0.97, "H3xH4": 0.029, "C4-C3": 0.001})  # type: ignore[assignment]
        played.append(state.action_to_string(agent.act(state.observation(0), legal)))
    assert played == ["H3xH4", "E3xE4"]
    guess = {"E4": Rank.BOMB, "H4": Rank.SCOUT, "F3": Rank.SCOUT, "D4": Rank.MINER, "K10": Rank.FLAG}
    sim = world(state, 0, {parse_square(sq): int(r) for sq, r in guess.items()})
    movers, _, masks = movers_view(sim)
    left = _without(rollout.probe_mask(sim), movers, masks)[0]
    assert [int(MOVE_OF_COMPACT[c]) for c in np.flatnonzero(masks[0] & ~left)] == [state.string_to_action("E3xE4")]
    made = make_agent("rollout:probe=0.2", "stratego")
    assert isinstance(made, RolloutAgent) and made.probe == 0.2 and RolloutAgent().probe == 0


def test_probeplay_0_keeps_probe_out_of_the_roll_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rollout:probe=0.1` hands `probe` to the roll-outs, `probeplay=0` keeps it to our own move, and without
    `probe` the roll-outs have none either way."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    handed: list[bool] = []
    real = rollout.play_out

    def recorded(*args: Any, **kwargs: Any) -> None:
        handed.append(kwargs["probe"])
        real(*args, **kwargs)

    for spec in ("rollout:probe=0.1", "rollout:probe=0.1,probeplay=0", "rollout:probeplay=1"):
        agent = make_agent(spec + ",guesses=2,depth=1", "stratego")
        assert isinstance(agent, RolloutAgent)
        agent.start(state.game, seat, random.Random(1))  # before the look-ahead's play_out is watched
        agent._belief.update(data)
        monkeypatch.setattr(rollout, "play_out", recorded)
        agent.look_ahead(data, state.legal_actions()[:2])
        monkeypatch.setattr(rollout, "play_out", real)
    assert handed == [True, False, False]
    assert RolloutAgent().probeplay and not RolloutAgent(probeplay=False).probeplay


@pytest.mark.parametrize("seed", [7, 8])
def test_leaf_values_read_the_value_net_from_what_the_seat_sees_and_the_game_showed(seed: int) -> None:
    """`leaf_values` is the value net on the seat's own view as the reference engine builds it (turned round for
    blue), with our pieces marked shown as the real game showed them, not as `exposed` marks them in the world."""
    from fogofwar.games.stratego.agents.value_model import shipped_value

    net = shipped_value()
    assert net is not None
    state, _ = random_game(seed, 80)
    for seat in (0, 1):
        data = stratego_view(state.observation(seat).data)
        know = Knowledge.from_observation(data)
        truth = {sq: int(state.piece_at(sq)[1]) for sq, c in enumerate(know.cells) if c and c.owner != seat}  # type: ignore[index]
        ours = [sq for sq, c in enumerate(know.cells) if c is not None and c.owner == seat]
        seen = [sq for sq in ours if know.cells[sq].revealed]  # type: ignore[union-attr]
        sim = BatchSim("classic", n_envs=1, max_moves=0)
        sim.reset(setups=world_codes(know, truth, frozenset(ours))[None], to_move=state.current_player())
        sim.captured[:] = captured_counts(data)[None]
        planes = planes_from_observation(data, state.game.variant)
        planes[LAST_FROM : PREV_TO + 1] = 0.0  # a rebuilt world has no moves behind it
        expected = 2.0 * net.win_chances(oriented_planes(planes[None], seat)) - 1.0
        got = rollout.leaf_values(sim, seat, ShownTracker(1, seat, seen))
        assert np.allclose(got, expected, atol=1e-5)
        assert len(seen) < len(ours) and not np.allclose(rollout.leaf_values(sim, seat), expected, atol=1e-5)


def test_value_makes_that_share_of_a_roll_out_s_score_the_value_net_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rollout:value=W`: a world still going on scores (1 - W) x the material fit + W x `leaf_values`, over the same
    worlds; a world that ended keeps its result."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    moves = state.legal_actions()[:3]
    monkeypatch.setattr(rollout, "leaf_values", lambda sim, seat, shown=None: np.full(sim.n_envs, 0.5))

    def values(spec: str) -> npt.NDArray[np.float64]:
        agent = make_agent(spec + ",guesses=4,depth=2", "stratego")
        assert isinstance(agent, RolloutAgent)
        agent.start(state.game, seat, random.Random(1))
        agent._belief.update(data)
        return agent.look_ahead(data, moves)

    plain, half, full = values("rollout:value=0"), values("rollout:value=0.5"), values("rollout:value=1")
    assert np.allclose(full, 0.5) and np.allclose(half, (plain + 0.5) / 2) and not np.allclose(plain, 0.5)
    assert look_ahead(LAST_PIECE, ["E7xE8", "A4xB4"], 1, value=1.0) == {"E7xE8": 1.0, "A4xB4": 0.5}
    assert RolloutAgent().value == 0


class _Noting:
    """A net that answers as `net` does and notes which seats were to move in the games of `sim` it was asked about."""

    def __init__(self, net: PolicyNet | None, sim: BatchSim) -> None:
        assert net is not None
        self.net, self.sim, self.seats = net, sim, []  # type: list[set[int]]

    def logits(self, planes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        self.seats.append({int(s) for s in self.sim.to_move[~self.sim.done]})
        return self.net.logits(planes)


def test_an_enemy_net_plays_the_enemy_s_plies_and_the_net_ours() -> None:
    """`play_out(..., enemy_net=, seat=)`: the seat's plies are the net's, the other seat's the enemy net's."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    know = Knowledge.from_observation(data)
    tracker = BeliefTracker()
    tracker.update(data)
    guess = tracker.sample(know, tracker.marginals(know), random.Random(1))
    sim = BatchSim("classic", n_envs=3, max_moves=0)
    sim.reset(setups=np.tile(world_codes(know, guess), (3, 1)), to_move=seat)
    ours, theirs = _Noting(shipped_net("selfplay_net.npz"), sim), _Noting(shipped_net("policy_net.npz"), sim)
    play_out(ours, sim, 4, enemy_net=theirs, seat=seat)  # type: ignore[arg-type]
    assert ours.seats == [{seat}, {seat}] and theirs.seats == [{1 - seat}, {1 - seat}]
    alone = BatchSim("classic", n_envs=3, max_moves=0)
    alone.reset(setups=np.tile(world_codes(know, guess), (3, 1)), to_move=seat)
    only = _Noting(shipped_net("selfplay_net.npz"), alone)
    play_out(only, alone, 4)  # type: ignore[arg-type]
    assert only.seats == [{seat}, {1 - seat}, {seat}, {1 - seat}]


def test_enemy_gives_the_roll_outs_enemy_the_net_fitted_to_people(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rollout:enemy=1`: the roll-outs' enemy plays the people's net, our seat the self-played one; `enemy=2`: both
    seats the people's net; by default both the self-played net."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    seen: dict[str, tuple[Any, Any, int]] = {}
    real = rollout.play_out

    def noting(net: Any, sim: BatchSim, plies: int, *args: Any, **kwargs: Any) -> None:
        seen[spec] = (net, kwargs.get("enemy_net"), kwargs.get("seat", -1))
        real(net, sim, plies, *args, **kwargs)

    monkeypatch.setattr(rollout, "play_out", noting)
    selfplay, people = shipped_net("selfplay_net.npz"), shipped_net("policy_net.npz")
    for spec in ("rollout:enemy=0", "rollout:enemy=1", "rollout:enemy=2"):
        agent = make_agent(spec + ",guesses=2,depth=2", "stratego")
        assert isinstance(agent, RolloutAgent)
        agent.start(state.game, seat, random.Random(1))
        agent._belief.update(data)
        agent.look_ahead(data, state.legal_actions()[:2])
    assert seen["rollout:enemy=0"][:2] == (selfplay, None)
    assert seen["rollout:enemy=1"] == (selfplay, people, seat)
    assert seen["rollout:enemy=2"][:2] == (people, None)
    assert RolloutAgent().enemy == 0


def test_faithful_draws_the_roll_outs_worlds_as_the_belief_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rollout` (`faithful=1` by default) draws each world with `BeliefTracker.sample(..., faithful=True)`;
    `faithful=0` the plain draw."""
    state, _ = random_game(5, 60)
    seat = state.current_player()
    data = stratego_view(state.observation(seat).data)
    asked: list[bool] = []
    real = BeliefTracker.sample

    def noting(self: BeliefTracker, *args: Any, **kwargs: Any) -> dict[int, int]:
        asked.append(bool(args[3] if len(args) > 3 else kwargs.get("faithful", False)))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(BeliefTracker, "sample", noting)
    for spec, want in (("rollout:faithful=0,guesses=3,depth=1", False), ("rollout:guesses=3,depth=1", True)):
        asked.clear()
        agent = make_agent(spec, "stratego")
        assert isinstance(agent, RolloutAgent)
        agent.start(state.game, seat, random.Random(1))
        agent._belief.update(data)
        agent.look_ahead(data, state.legal_actions()[:2])
        assert asked == [want] * 3
