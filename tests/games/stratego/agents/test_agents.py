"""Agents: legal actions only, beliefs that never contradict observations, reproducible play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.stratego.agents.random_games import random_game

from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import GameError, Observation
from fogofwar.games.stratego.agents.belief import (
    GUARD_FACTORS,
    NEIGHBOUR_FACTORS,
    SPARED_FACTOR,
    STOOD_FACTORS,
    BeliefTracker,
)
from fogofwar.games.stratego.agents.heuristic import HeuristicAgent
from fogofwar.games.stratego.agents.knowledge import BOMB, FLAG, MINER, RANK_OF_NAME, SCOUT, SPY, Knowledge
from fogofwar.games.stratego.agents.search import (
    SearchAgent,
    _can_answer,
    _flag_lanes,
    _scout_ways,
    decoy_setup,
    guarded_setup,
    safest_book_setup,
)
from fogofwar.games.stratego.agents.setups import book_setups, human_like_setup, prior_by_square
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState, check_setup
from fogofwar.games.stratego.setup import format_setup, parse_setup, random_setup
from fogofwar.games.stratego.variants import get_variant
from fogofwar.grid.board import NEIGHBOURS, parse_square


def _random_position(variant: str, seed: int, plies: int) -> tuple[StrategoGame, object]:
    game = StrategoGame(variant, max_moves=400)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for p in (0, 1):
        state.apply_setup(p, random_setup(game.variant, p, rng))
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize(
    "name",
    [
        "random",
        "heuristic",
        "search:guesses=4",
        "search:guesses=4,depth=3,nodes=20000",
        "search:guesses=4,depth=3,nodes=20000,model=0.6",
        "search:guesses=4,prior=0.01",
        "search:guesses=4,prior=0.01,book=5",
        "search:guesses=4,prior=0.01,belief_net=1",
        "policy",
        "policy:temperature=1",
    ],
)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 120))
@settings(max_examples=15, deadline=None)
def test_agents_only_return_legal_actions(name: str, seed: int, plies: int) -> None:
    game, state = _random_position("barrage" if seed % 2 else "classic", seed, plies)
    if state.is_terminal():
        return
    agent = make_agent(name)
    player = state.current_player()
    agent.start(game, player, random.Random(seed))
    action = agent.act(state.observation(player), state.legal_actions())
    assert action in state.legal_actions()


@pytest.mark.parametrize("variant", ["classic", "barrage"])
def test_human_like_setups_are_legal(variant: str) -> None:
    v = get_variant(variant)
    rng = random.Random(3)
    for player in (0, 1):
        for _ in range(20):
            check_setup(v, player, human_like_setup(v, player, rng))


def test_setup_prior_puts_the_flag_on_the_back_row() -> None:
    prior = prior_by_square(get_variant("classic"), 0)
    assert prior is not None
    back = sum(prior[sq][FLAG] for sq in range(10))  # red's back row is row 1 (squares 0-9)
    front = sum(prior[sq][FLAG] for sq in range(30, 40))
    assert back > 20 * front


@pytest.mark.parametrize("seed", range(4))
def test_belief_never_contradicts_what_was_observed(seed: int) -> None:
    """Track a whole game from blue's seat: every unknown piece's true rank keeps a positive
    probability, moved pieces are never bombs or the flag, and ranks with none left get nothing; every guess
    holds the ranks left, none where the belief rules it out."""
    game = StrategoGame("classic", max_moves=500)
    state = game.new_initial_state()
    agents = [HeuristicAgent(), HeuristicAgent()]
    for p in (0, 1):
        agents[p].start(game, p, random.Random(seed * 10 + p))
    while state.phase == "setup":
        p = state.current_player()
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    tracker = BeliefTracker()
    me = 1
    while not state.is_terminal():
        p = state.current_player()
        if p == me:
            data = state.observation(me).data
            tracker.update(data)
            know = Knowledge.from_observation(data)
            marginals = tracker.marginals(know)
            assert set(marginals) == set(know.unknown_enemy_squares())
            for sq, dist in marginals.items():
                piece = state.piece_at(sq)
                assert piece is not None and piece[0] == 1 - me
                assert dist.get(int(piece[1]), 0.0) > 0.0, (sq, piece, dist)
                assert all(know.unknown_pool[r] > 0 for r, w in dist.items() if w > 0)
                if piece[2]:  # moved
                    assert dist.get(BOMB, 0.0) == 0.0 and dist.get(FLAG, 0.0) == 0.0
                assert abs(sum(dist.values()) - 1.0) < 1e-6
            guess = tracker.sample(know, marginals, random.Random(seed))
            assert sorted(guess) == sorted(marginals)
            assert Counter(guess.values()) == know.unknown_pool
            assert all(marginals[sq].get(r, 0.0) > 0.0 for sq, r in guess.items()), guess
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))


def test_matches_between_agents_are_reproducible() -> None:
    game = StrategoGame("barrage", max_moves=300)
    a = play_match(game, [make_agent("search:guesses=4"), make_agent("heuristic")], seed=11)
    b = play_match(game, [make_agent("search:guesses=4"), make_agent("heuristic")], seed=11)
    assert a.actions == b.actions and a.outcome == b.outcome


def test_search_spec_errors_are_clear() -> None:
    with pytest.raises(GameError, match="unknown option 'width'"):
        make_agent("search:width=3")
    with pytest.raises(GameError, match="depth must be a whole number"):
        make_agent("search:depth=deep")
    assert isinstance(make_agent("search:time=0.2", "stratego"), SearchAgent)


# --- the search agent's judgement, on small crafted positions ------------------------------------------


def _crafted(variant: str, pieces: list[tuple[str, int, Rank, bool, bool]]) -> tuple[StrategoGame, StrategoState]:
    """A play position from (square, owner, rank, moved, revealed); red to move."""
    game = StrategoGame(variant)
    start = [(parse_square(sq), owner, int(rank), moved, revealed) for sq, owner, rank, moved, revealed in pieces]
    return game, StrategoState(game, start=start, to_move=0)


def _rest_captured(
    game: StrategoGame, state: StrategoState, pieces: list[tuple[str, int, Rank, bool, bool]]
) -> Observation:
    """Red's observation of a crafted position, every piece of the army not on the board counted as captured
    (so the belief gives the hidden pieces only the ranks left)."""
    roster = Counter({r.name.lower(): n for r, n in game.variant.roster})
    observation = state.observation(0)
    for owner in (0, 1):
        on_board = Counter(rank.name.lower() for _, o, rank, _, _ in pieces if o == owner)
        observation.data["captured"][owner] = sorted((roster - on_board).elements())
    return observation


def _tactic_values(
    variant: str, pieces: list[tuple[str, int, Rank, bool, bool]], seed: int, guesses: int, **knobs: float
) -> tuple[dict[int, float], dict[int, dict[int, float]]]:
    """The search's tactical value of each of red's moves in a crafted position (the rest of the armies captured),
    and the belief's marginals it used."""
    game, state = _crafted(variant, pieces)
    data = stratego_view(_rest_captured(game, state, pieces).data)
    agent = SearchAgent(guesses=guesses)
    for key, value in knobs.items():
        setattr(agent, key, value)
    agent.start(game, 0, random.Random(seed))
    agent._belief.update(data)
    know = Knowledge.from_observation(data)
    marginals = agent._belief.marginals(know)
    captured = [Counter(RANK_OF_NAME[n] for n in data["captured"][owner]) for owner in (0, 1)]
    ctx = agent._context(know, captured[0], captured[1])
    agent._replies = agent._reply_chances(data, know, marginals, state.legal_actions())  # {} unless `reply` is on
    return agent._tactics(know, marginals, ctx, state.legal_actions()), marginals


def _search_move(
    game: StrategoGame, state: StrategoState, observation: Observation | None = None, seed: int = 1, **knobs: float
) -> str:
    """Red's move by `search` (8 guesses) with `knobs` set, from `observation` (default: the state's own)."""
    agent = SearchAgent(guesses=8)
    for key, value in knobs.items():
        setattr(agent, key, value)
    agent.start(game, 0, random.Random(seed))
    seen = state.observation(0) if observation is None else observation
    return state.action_to_string(agent.act(seen, state.legal_actions()))


def test_search_trades_off_a_miner_that_would_break_into_its_flag() -> None:
    """A known enemy miner next to the bombs around red's flag: red's own miner takes it down
    (both die), rather than letting it through; without the flag-breach judgement it would not."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("B1", 0, Rank.BOMB, False, True),
        ("A2", 0, Rank.BOMB, False, True),
        ("C2", 0, Rank.MINER, True, False),
        ("K4", 0, Rank.GENERAL, True, True),
        ("B2", 1, Rank.MINER, True, True),
        ("K5", 1, Rank.SCOUT, True, True),
        ("K10", 1, Rank.FLAG, False, False),
        ("I10", 1, Rank.MARSHAL, True, False),
    ]
    game, state = _crafted("barrage", pieces)
    assert _search_move(game, state) == "C2xB2"
    assert _search_move(game, state, breach=0.0) != "C2xB2"


def test_shy_top_keeps_officers_off_pieces_never_seen_to_move_unless_nothing_else_is_left() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E5", 0, Rank.CAPTAIN, True, False),
        ("F4", 0, Rank.MINER, True, False),
        ("E6", 1, Rank.SERGEANT, False, False),  # never moved: maybe a bomb
        ("F5", 1, Rank.SCOUT, True, False),  # moved: no bomb
        ("K10", 1, Rank.FLAG, False, False),
    ]
    game, state = _crafted("barrage", pieces)
    know = Knowledge.from_observation(state.observation(0).data)
    agent = SearchAgent()
    legal = state.legal_actions()
    e5, e6, f4, f5 = (parse_square(sq) for sq in ("E5", "E6", "F4", "F5"))
    kept = agent._bold_filter(know, legal, 5)
    assert e5 * 100 + e6 in legal and e5 * 100 + e6 not in kept  # the captain leaves the unmoved piece alone
    assert e5 * 100 + f5 in kept and f4 * 100 + f5 in kept  # a moved piece may be attacked by anyone
    assert set(agent._bold_filter(know, legal, 6)) == set(legal)  # a captain is not above rank 6
    assert agent._bold_filter(know, [e5 * 100 + e6], 5) == [e5 * 100 + e6]  # the only move stays
    assert _search_move(game, state, shy_top=5) != "E5xE6"


def test_dominance_adds_to_the_strongest_rank_that_nothing_outranks() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E5", 0, Rank.MARSHAL, True, False),
        ("F4", 0, Rank.GENERAL, True, False),
        ("E7", 1, Rank.MARSHAL, True, False),
        ("F7", 1, Rank.GENERAL, True, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    game, state = _crafted("classic", pieces)
    know = Knowledge.from_observation(state.observation(0).data)
    agent = SearchAgent()
    plain = agent._context(know, Counter(), Counter())
    agent.dominance = 100.0
    both = agent._context(know, Counter(), Counter())
    marshal, general = int(Rank.MARSHAL), int(Rank.GENERAL)
    assert both.own_val[marshal] == both.enemy_val[marshal] == plain.own_val[marshal] + 100.0  # each would hand it over
    assert both.own_val[general] == plain.own_val[general]
    # Their marshal gone: ours outranks everything, their general gets nothing for being their best.
    alone = agent._context(know, Counter(), Counter({marshal: 1}))
    assert alone.own_val[marshal] == plain.own_val[marshal] + 100.0
    assert alone.enemy_val[general] == plain.enemy_val[general]


def test_spy_guard_keeps_the_marshal_off_a_general_that_baits_it_next_to_a_possible_spy() -> None:
    """Demon's bait: a revealed general beside an unmoved piece that may be the spy. Taking it is right in
    material (the spy's chance times the marshal is less than the general); with `spy_guard` it is not."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E5", 0, Rank.MARSHAL, True, True),
        ("A4", 0, Rank.GENERAL, True, False),
        ("B4", 0, Rank.COLONEL, True, False),
        ("C4", 0, Rank.COLONEL, True, False),
        ("D3", 0, Rank.MAJOR, True, False),
        ("E6", 1, Rank.GENERAL, True, True),
        ("F6", 1, Rank.SPY, False, False),
        ("H10", 1, Rank.SCOUT, False, False),
        ("G10", 1, Rank.SCOUT, False, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    game, state = _crafted("classic", pieces)
    observation = _rest_captured(game, state, pieces)
    assert _search_move(game, state, observation, seed=0) == "E5xE6"
    assert _search_move(game, state, observation, seed=0, spy_guard=1000.0) != "E5xE6"


def test_exact_values_an_attack_on_a_hidden_piece_over_its_ranks_not_the_guessed_one() -> None:
    """One hidden piece beside our captain, our last piece that moves: the flag or a bomb. With one guess a move,
    the attack is worth a sure win or a sure loss as the guess falls; with `exact`, the belief's chance of the flag
    whatever the guess."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E5", 0, Rank.CAPTAIN, True, False),
        ("E6", 1, Rank.BOMB, False, False),
        ("K10", 1, Rank.FLAG, False, False),
        ("A10", 1, Rank.SCOUT, True, True),
    ]
    attack = parse_square("E5") * 100 + parse_square("E6")

    def value(exact: float, seed: int) -> tuple[float, float]:
        values, marginals = _tactic_values("barrage", pieces, seed, guesses=1, exact=exact)
        return values[attack], marginals[attack % 100][FLAG]

    guessed = {round(value(0.0, seed)[0], 3) for seed in range(8)}
    assert len(guessed) == 2 and max(guessed) > 0.9 and min(guessed) < 0.1  # all or nothing, as the guess fell
    for seed in range(4):
        v, p_flag = value(1.0, seed)
        assert 0.2 < p_flag < 0.8 and v == pytest.approx(p_flag, abs=0.06)


def test_conceal_counts_what_a_capture_shows_of_a_hidden_piece() -> None:
    """Our general takes a revealed sergeant: with `conceal`, the capture costs a share of the general's value if the
    general was hidden (the battle shows it), and nothing more if the enemy knew it already."""

    def tactics(revealed: bool, conceal: float) -> tuple[float, float]:
        pieces = [
            ("A1", 0, Rank.FLAG, False, False),
            ("E5", 0, Rank.GENERAL, True, revealed),
            ("C2", 0, Rank.MAJOR, True, False),
            ("E6", 1, Rank.SERGEANT, True, True),
            ("H10", 1, Rank.MARSHAL, False, False),
            ("G10", 1, Rank.SCOUT, False, False),
            ("K10", 1, Rank.FLAG, False, False),
        ]
        values, _ = _tactic_values("classic", pieces, 0, guesses=4, conceal=conceal)
        take, quiet = (parse_square(a) * 100 + parse_square(b) for a, b in (("E5", "E6"), ("C2", "C3")))
        return values[take], values[quiet]

    take, quiet = tactics(revealed=False, conceal=0.0)
    assert take > quiet
    assert tactics(revealed=True, conceal=0.3) == pytest.approx((take, quiet))
    hidden_take, hidden_quiet = tactics(revealed=False, conceal=0.3)
    assert hidden_quiet == pytest.approx(quiet) and hidden_take < quiet


def test_search_does_not_throw_pieces_at_known_bombs() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("B1", 0, Rank.BOMB, False, False),
        ("E5", 0, Rank.GENERAL, True, True),
        ("F4", 0, Rank.SCOUT, True, False),
        ("E6", 1, Rank.BOMB, False, True),
        ("F5", 1, Rank.BOMB, False, True),
        ("K10", 1, Rank.FLAG, False, False),
        ("I9", 1, Rank.MINER, False, False),
    ]
    game, state = _crafted("barrage", pieces)
    assert _search_move(game, state) not in ("E5xE6", "E5xF5", "F4xF5")


def test_search_takes_a_flag_it_is_sure_of() -> None:
    """The only unknown enemy piece left, all else of blue's army taken: it is the flag, and taking it
    beats taking a free scout."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("B1", 0, Rank.BOMB, False, False),
        ("E7", 0, Rank.SCOUT, True, False),
        ("A4", 0, Rank.GENERAL, True, False),
        ("E8", 1, Rank.FLAG, False, False),
        ("B4", 1, Rank.SCOUT, True, True),
    ]
    game, state = _crafted("barrage", pieces)
    observation = state.observation(0)
    observation.data["captured"][1] = ["marshal", "general", "miner", "scout", "spy", "bomb"]
    agent = SearchAgent(guesses=8)
    agent.start(game, 0, random.Random(1))
    assert state.action_to_string(agent.act(observation, state.legal_actions())) == "E7xE8"


def test_scout_lanes_to_the_flag_need_an_answer() -> None:
    """An enemy scout that can line up on red's flag (open file) is a risk unless red can block or take it."""
    board = [0] * 100
    board[parse_square("A1")] = FLAG + 1
    board[parse_square("B1")] = BOMB + 1
    lanes = _flag_lanes(board, parse_square("A1"))
    a3 = parse_square("A3")
    assert a3 in lanes and lanes[a3] == [parse_square("A2")]
    scout_from = parse_square("K3")
    board[scout_from] = -(SCOUT + 1)
    assert not _can_answer(board, scout_from, a3, lanes[a3])
    board[parse_square("B2")] = MINER + 1  # can step in front of the flag
    assert _can_answer(board, scout_from, a3, lanes[a3])


def test_scouts_two_lines_away_from_the_flag_count_as_near_threats() -> None:
    """A scout far off in steps but two straight runs from red's flag (row 1 open) is a threat;
    the same piece behind a wall of red pieces is not."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("A2", 0, Rank.BOMB, False, False),
        ("E4", 0, Rank.GENERAL, True, False),
        ("A10", 1, Rank.FLAG, False, False),
        ("K7", 1, Rank.SCOUT, True, True),
    ]
    _, state = _crafted("barrage", pieces)
    know = Knowledge.from_observation(state.observation(0).data)
    k7 = parse_square("K7")
    assert _scout_ways(know, parse_square("A1"))[k7] == 2  # K7-K1, then K1xA1
    agent = SearchAgent()
    dists = {k7: {SCOUT: 1.0}}
    assert agent._flag_threats(know, dists)[k7] == pytest.approx(0.5)


@pytest.mark.parametrize("variant", ["classic", "barrage"])
def test_guarded_setups_are_legal_and_keep_the_flag_back_behind_a_bomb(variant: str) -> None:
    v = get_variant(variant)
    rng = random.Random(5)
    for player in (0, 1):
        for _ in range(5):
            placement = guarded_setup(v, player, rng)
            check_setup(v, player, placement)
            flag = next(sq for sq, r in placement.items() if r == Rank.FLAG)
            assert flag // 10 == (0 if player == 0 else 9)
            assert any(placement.get(n) == Rank.BOMB for n in NEIGHBOURS[flag])


def test_decoy_setups_ring_a_low_piece_and_keep_the_flag_on_the_back_row_away_from_bombs() -> None:
    v = get_variant("classic")
    rng = random.Random(5)
    bombed_flags = 0
    for player in (0, 1):
        back = 0 if player == 0 else 9
        for _ in range(20):
            placement = decoy_setup(v, player, rng)
            check_setup(v, player, placement)
            flag = next(sq for sq, r in placement.items() if r == Rank.FLAG)
            assert flag // 10 == back
            bombed_flags += any(placement.get(n) == Rank.BOMB for n in NEIGHBOURS[flag])
            # the bomb ring on the back row holds a piece that is not the flag
            rings = [
                sq
                for sq, r in placement.items()
                if sq // 10 == back and r != Rank.BOMB and all(placement.get(n) == Rank.BOMB for n in NEIGHBOURS[sq])
            ]
            assert rings and all(placement[sq] != Rank.FLAG for sq in rings)
    assert bombed_flags <= 2  # a bomb beside the flag only when no back-row square is free of them
    # Barrage has one bomb: no ring to lend, so the guarded setup stands.
    barrage = decoy_setup(get_variant("barrage"), 0, random.Random(5))
    assert barrage == guarded_setup(get_variant("barrage"), 0, random.Random(5))


def test_the_setup_book_holds_legal_setups_and_book_players_set_up_from_it() -> None:
    """Every setup of the book is legal for both seats; `search:book=K` sets up with one of them (or its mirror
    image), the same one for the same seed; a variant with no book falls back to the guarded setup."""
    for name in ("classic", "barrage"):
        v, book = get_variant(name), book_setups(name)
        assert len(book) > 100 and len(set(book)) == len(book)
        for text in book:
            for player in (0, 1):
                check_setup(v, player, parse_setup(text, v, player))
    classic = get_variant("classic")
    known = set(book_setups("classic")) | {"/".join(r[::-1] for r in t.split("/")) for t in book_setups("classic")}
    for player in (0, 1):
        placements = [safest_book_setup(classic, player, random.Random(seed), 5) for seed in range(10)]
        assert all(format_setup(p, classic, player) in known for p in placements)
        assert len({format_setup(p, classic, player) for p in placements}) > 5
        assert safest_book_setup(classic, player, random.Random(4), 5) == placements[4]
    duel = get_variant("duel")
    assert safest_book_setup(duel, 0, random.Random(2), 5) == guarded_setup(duel, 0, random.Random(2))
    state = StrategoGame("classic").new_initial_state()
    agent = make_agent("search:book=3")
    agent.start(state.game, 0, random.Random(8))
    while state.current_player() == 0:
        state.apply(agent.act(state.observation(0), state.legal_actions()))
    placed = {sq: p[1] for sq in range(100) if (p := state.piece_at(sq)) is not None and p[0] == 0}
    assert format_setup(placed, classic, 0) in known


def test_search_knobs_can_be_set_from_the_spec() -> None:
    agent = make_agent("search:guesses=6,paranoia=0.2,flag_lure=3", "stratego")
    assert isinstance(agent, SearchAgent)
    assert agent.guesses == 6 and agent.paranoia == 0.2 and agent.flag_lure == 3.0


# --- the belief reads more than setups -------------------------------------------------------------------


def test_belief_expects_the_flag_next_to_known_bombs() -> None:
    """Blue's unmoved back-row pieces: the one beside a revealed bomb is the likelier flag."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E4", 0, Rank.GENERAL, True, False),
        ("B10", 1, Rank.BOMB, False, True),
        ("A10", 1, Rank.FLAG, False, False),
        ("I10", 1, Rank.MINER, False, False),
        ("E7", 1, Rank.SCOUT, True, True),
    ]
    _, state = _crafted("barrage", pieces)
    data = state.observation(0).data
    know = Knowledge.from_observation(data)
    plain, tracker = BeliefTracker(), BeliefTracker()
    plain.bomb_neighbour_factor = 1.0
    for t in (plain, tracker):
        t.update(data)
    a10, i10 = parse_square("A10"), parse_square("I10")
    assert tracker.marginals(know)[a10][FLAG] > plain.marginals(know)[a10][FLAG]
    assert tracker.marginals(know)[a10][FLAG] > tracker.marginals(know)[i10][FLAG]


def test_belief_reads_bombs_in_pieces_left_alone_and_the_flag_in_pieces_walled_in() -> None:
    """With `NEIGHBOUR_FACTORS` a never-moved piece with no never-moved piece beside it (a moved one does not count)
    is the likelier bomb, and one with three beside it the likelier flag; a moved piece is no bomb either way."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E4", 0, Rank.GENERAL, True, False),
        ("A10", 1, Rank.BOMB, False, False),
        ("B10", 1, Rank.FLAG, False, False),
        ("C10", 1, Rank.SCOUT, False, False),
        ("B9", 1, Rank.MINER, False, False),
        ("K10", 1, Rank.SPY, False, False),
        ("K9", 1, Rank.MARSHAL, True, False),
    ]
    _, state = _crafted("barrage", pieces)
    data = _rest_captured(state.game, state, pieces).data
    know = Knowledge.from_observation(data)
    plain, reader = BeliefTracker(), BeliefTracker()
    reader.neighbour_factors = NEIGHBOUR_FACTORS
    for t in (plain, reader):
        t.update(data)
    before, after = plain.marginals(know), reader.marginals(know)
    k10, b10, k9 = parse_square("K10"), parse_square("B10"), parse_square("K9")
    assert after[k10][BOMB] > before[k10][BOMB] + 0.02
    assert after[b10][FLAG] > before[b10][FLAG] + 0.02
    assert BOMB not in after[k9] and FLAG not in after[k9]
    assert sum(row.get(BOMB, 0.0) for row in after.values()) == pytest.approx(1.0, abs=1e-3)
    alone = BeliefTracker()  # a factor for pieces with nothing unmoved beside them only: K9's move leaves K10 alone
    alone.neighbour_factors = ((3.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0))
    alone.update(data)
    assert alone.marginals(know)[k10][BOMB] > before[k10][BOMB] + 0.05


def test_belief_reads_bombs_in_pieces_that_stand_beside_ours_and_stay() -> None:
    """The tracker counts, for each never-moved hidden enemy piece, the enemy turns it stood beside a piece of ours
    without moving (once a turn, however often it is told of the turn), forgets a piece that moves, and with
    `STOOD_FACTORS` such a piece is the likelier bomb and the unlikelier flag."""
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("K1", 0, Rank.SCOUT, False, False),
        ("E4", 0, Rank.GENERAL, False, False),  # hidden, beside E5 and F4
        ("E5", 1, Rank.BOMB, False, False),
        ("F4", 1, Rank.SERGEANT, False, False),
        ("J7", 1, Rank.SCOUT, False, False),
        ("A10", 1, Rank.FLAG, False, False),
        ("K10", 1, Rank.SPY, False, False),
    ]
    game, state = _crafted("barrage", pieces)
    plain, reader = BeliefTracker(), BeliefTracker()
    reader.stood_factors = STOOD_FACTORS
    e5, f4, g4 = parse_square("E5"), parse_square("F4"), parse_square("G4")
    for t in (plain, reader):
        t.update(_rest_captured(game, state, pieces).data)
    assert reader.stood == {}  # the first look counts nothing: no enemy turn has passed
    for red, blue in (("K1-K2", "J7-J6"), ("K2-K1", "J6-J7")):
        state.apply(state.string_to_action(red))
        state.apply(state.string_to_action(blue))
        data = _rest_captured(game, state, pieces).data
        for t in (plain, reader, reader):  # told twice of the same turn: counted once
            t.update(data)
    assert reader.stood == {e5: 2, f4: 2}
    know = Knowledge.from_observation(data)
    before, after = plain.marginals(know), reader.marginals(know)
    assert after[e5][BOMB] > before[e5][BOMB] + 0.02
    assert after[parse_square("A10")][FLAG] > before[parse_square("A10")][FLAG]
    state.apply(state.string_to_action("K1-K2"))
    state.apply(state.string_to_action("F4-G4"))  # the sergeant moves on: it is no bomb and its count goes
    reader.update(_rest_captured(game, state, pieces).data)
    assert reader.stood == {e5: 3}
    assert g4 not in reader.stood


def test_belief_suspects_the_spy_in_a_piece_that_walks_up_to_our_revealed_marshal() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E4", 0, Rank.MARSHAL, True, True),
        ("K1", 0, Rank.SCOUT, False, False),
        ("E6", 1, Rank.SPY, True, False),
        ("A7", 1, Rank.GENERAL, True, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    _, state = _crafted("barrage", pieces)
    plain, tracker = BeliefTracker(), BeliefTracker()
    plain.behaviour_factor = 1.0
    for t in (plain, tracker):
        t.update(state.observation(0).data)
    state.apply(state.string_to_action("K1-K2"))
    state.apply(state.string_to_action("E6-E5"))  # next to red's revealed marshal
    data = state.observation(0).data
    know = Knowledge.from_observation(data)
    e5 = parse_square("E5")
    for t in (plain, tracker):
        t.update(data)
    assert tracker.marginals(know)[e5][SPY] > plain.marginals(know)[e5][SPY]


def _spy_readers() -> tuple[BeliefTracker, BeliefTracker]:
    """A belief that reads the spy from what stands beside our revealed marshal, and one that does not."""
    plain, reader = BeliefTracker(), BeliefTracker()
    reader.spared_factor, reader.guard_factors = SPARED_FACTOR, GUARD_FACTORS
    return plain, reader


def test_belief_clears_a_piece_that_stood_beside_our_revealed_marshal_and_did_not_take_it() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E4", 0, Rank.MARSHAL, True, True),
        ("K1", 0, Rank.SCOUT, False, False),
        ("E5", 1, Rank.SPY, False, False),  # beside the marshal, blue's turn to come: it could take it
        ("G4", 1, Rank.SCOUT, False, False),
        ("A7", 1, Rank.GENERAL, False, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    _, state = _crafted("barrage", pieces)
    trackers = _spy_readers()
    for t in trackers:
        t.update(state.observation(0).data)
    state.apply(state.string_to_action("K1-K2"))
    state.apply(state.string_to_action("G4-F4"))  # blue does not take the marshal; another piece arrives beside it
    data = state.observation(0).data
    know = Knowledge.from_observation(data)
    for t in trackers:
        t.update(data)
    plain, reader = (t.marginals(know) for t in trackers)
    e5, f4 = parse_square("E5"), parse_square("F4")
    assert reader[e5][SPY] < 0.2 * plain[e5][SPY]
    assert reader[f4][SPY] > plain[f4][SPY]  # the piece that just arrived had no chance yet: the spy is likelier there


def test_belief_clears_nothing_while_the_enemy_has_not_had_a_turn_with_our_marshal_shown() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E4", 0, Rank.MARSHAL, True, False),
        ("E5", 1, Rank.SPY, False, False),
        ("F10", 1, Rank.SCOUT, False, False),
        ("A7", 1, Rank.GENERAL, False, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    _, state = _crafted("barrage", pieces)
    trackers = _spy_readers()
    e5 = parse_square("E5")

    def red_reads() -> tuple[dict[int, dict[int, float]], dict[int, dict[int, float]]]:
        data = state.observation(0).data
        know = Knowledge.from_observation(data)
        for t in trackers:
            t.update(data)
        plain, reader = (t.marginals(know) for t in trackers)
        return plain, reader

    red_reads()
    state.apply(state.string_to_action("E4-F4"))
    state.apply(state.string_to_action("F10xF4"))  # the scout dies and shows red's marshal to blue only now
    plain, reader = red_reads()
    assert reader == plain  # E5 never stood beside a marshal blue knew
    state.apply(state.string_to_action("F4-E4"))
    state.apply(state.string_to_action("A7-A8"))  # now it has, and did not take it
    plain, reader = red_reads()
    assert reader[e5][SPY] < 0.2 * plain[e5][SPY]


def test_belief_suspects_the_spy_beside_a_piece_our_revealed_marshal_could_take() -> None:
    pieces = [
        ("A1", 0, Rank.FLAG, False, False),
        ("E3", 0, Rank.MARSHAL, True, True),
        ("E4", 1, Rank.GENERAL, True, True),  # left to our marshal
        ("D4", 1, Rank.SPY, False, False),  # beside it, not beside the marshal
        ("H8", 1, Rank.SCOUT, False, False),
        ("B9", 1, Rank.MINER, True, False),
        ("K10", 1, Rank.FLAG, False, False),
    ]
    _, state = _crafted("barrage", pieces)
    data = state.observation(0).data
    know = Knowledge.from_observation(data)
    trackers = _spy_readers()
    for t in trackers:
        t.update(data)
    plain, reader = (t.marginals(know) for t in trackers)
    d4, h8 = parse_square("D4"), parse_square("H8")
    assert reader[d4][SPY] > plain[d4][SPY] and reader[h8][SPY] < plain[h8][SPY]
    assert BeliefTracker._guards(know) == {d4}


def test_listing_the_agents_does_not_import_numba() -> None:
    """Every front end imports the agents to list them; numba (the compiled look-ahead, the policy net's
    simulator tables) costs a second or more to import and is loaded only by the agents that use it."""
    import subprocess
    import sys

    code = (
        "import sys, fogofwar.games.stratego.agents, fogofwar.core.agents as a; "
        "a.make_agent('policy'); print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _sample_spread(faithful: bool, know: Knowledge, marginals: dict[int, dict[int, float]], draws: int) -> float:
    """The mean over the hidden pieces of how far the share of draws that gave each its rank strays from the
    belief's marginal (total variation: half the summed absolute differences)."""
    rng, counts = random.Random(3), {sq: Counter[int]() for sq in marginals}
    tracker = BeliefTracker()
    for _ in range(draws):
        for sq, r in tracker.sample(know, marginals, rng, faithful).items():
            counts[sq][r] += 1
    ranks = {r for row in marginals.values() for r in row}
    spread = [sum(abs(counts[sq][r] / draws - row.get(r, 0.0)) for r in ranks) / 2 for sq, row in marginals.items()]
    return sum(spread) / len(spread)


def test_a_faithful_draw_gives_each_piece_its_rank_as_often_as_the_belief_says() -> None:
    """`sample(..., faithful=True)` carries the belief into the guesses: over 1,500 draws each hidden piece's ranks
    come up within a few points of its marginals. The plain draw, a rank's chance times how many of it are left,
    strays several times as far (a moved piece drawn first gets the scouts, of which there are most, and seldom
    the marshal the belief gives it); every draw of either holds the ranks left."""
    state, before = random_game(8, 120)
    assert state.current_player() == 0
    tracker = BeliefTracker()
    for earlier, _ in before:
        if earlier.current_player() == 0:
            tracker.update(earlier.observation(0).data)
    data = state.observation(0).data
    tracker.update(data)
    know = Knowledge.from_observation(data)
    marginals = tracker.marginals(know)
    assert any(know.cells[sq].moved for sq in marginals)  # type: ignore[union-attr]
    for faithful in (False, True):
        guess = tracker.sample(know, marginals, random.Random(1), faithful)
        assert Counter(guess.values()) == know.unknown_pool
    faithful, plain = _sample_spread(True, know, marginals, 1500), _sample_spread(False, know, marginals, 1500)
    assert faithful < 0.05, faithful
    assert plain > 2 * faithful, (plain, faithful)
