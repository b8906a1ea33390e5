"""Agents in Stratego LOTR: legal actions only in all three games, the heuristic's setups and powers."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.agents import GameAgent, make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import GameError
from fogofwar.games.lotr import LotrGame, LotrState
from fogofwar.games.lotr.agents.heuristic import LotrHeuristicAgent, lotr_setup
from fogofwar.games.lotr.agents.search import LotrSearchAgent
from fogofwar.games.lotr.powers import POWER_BASE, decode
from fogofwar.games.lotr.roster import EVIL, FLAG, FORTRESS, GOOD
from fogofwar.games.lotr.rules import CAPTURED_MODES, check_setup, random_setup
from fogofwar.games.stratego.agents.heuristic import HeuristicAgent
from fogofwar.games.stratego.agents.search import SearchAgent
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.grid.board import SIZE, parse_square

GAMES = ("classic", "powers", "ring")


def random_position(mode: str, seed: int, plies: int, captured: str = "free") -> tuple[LotrGame, LotrState]:
    game = LotrGame(game=mode, captured_mode=captured, max_moves=600)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for p in (EVIL, GOOD):
        state.apply_setup(p, random_setup(game, p, rng))
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return game, state


def choose(agent_spec: str, game: LotrGame, state: LotrState, seed: int = 0) -> int:
    agent = make_agent(agent_spec)
    player = state.current_player()
    agent.start(game, player, random.Random(seed))
    return agent.act(state.observation(player), state.legal_actions())


@pytest.mark.parametrize("mode", GAMES)
@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 300), captured=st.sampled_from(CAPTURED_MODES))
@settings(max_examples=12, deadline=None)
def test_agents_only_return_legal_actions(name: str, mode: str, seed: int, plies: int, captured: str) -> None:
    game, state = random_position(mode, seed, plies, captured)
    if state.is_terminal():
        return
    assert choose(name, game, state, seed) in state.legal_actions()


@pytest.mark.parametrize("mode", GAMES)
def test_heuristic_sets_up_legally_with_the_flag_guarded(mode: str) -> None:
    game = LotrGame(game=mode)
    for player in (EVIL, GOOD):
        for seed in range(30):
            placement = lotr_setup(game, player, random.Random(seed))
            check_setup(game, player, placement)
            kinds = game.army(player).kinds
            flag = next(sq for sq, k in placement.items() if kinds[k].rank == FLAG)
            assert flag // SIZE == (0 if player == EVIL else SIZE - 1), "the flag stands on the back row"
            for n in game.neighbours[flag]:
                assert kinds[placement[n]].rank == FORTRESS, "fortresses guard the flag"
            movable = {sq for sq, k in placement.items() if kinds[k].movable}
            front = {sq for sq in movable if sq // SIZE in (3, 6)}
            seen, todo = set(front), list(front)
            while todo:
                for n in game.neighbours[todo.pop()]:
                    if n in movable and n not in seen:
                        seen.add(n)
                        todo.append(n)
            assert seen == movable, "no piece is walled in by its own Fortresses"


def test_heuristic_places_its_army_through_the_protocol() -> None:
    game = LotrGame(game="ring")
    state = game.new_initial_state()
    agents = [make_agent("heuristic"), make_agent("heuristic")]
    for p in (EVIL, GOOD):
        agents[p].start(game, p, random.Random(p))
    while state.phase == "setup":
        p = state.current_player()
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    assert state.piece_at("I7") is not None and state.piece_at("I7")[1] == "frodo"  # type: ignore[index]
    assert state.piece_at("I4") is not None and state.piece_at("I4")[1] == "nazgul"  # type: ignore[index]


def test_heuristic_name_plays_both_games() -> None:
    agent: Any = make_agent("heuristic")
    agent.start(StrategoGame("barrage"), 0, random.Random(0))
    assert isinstance(agent.current._impl, HeuristicAgent)
    agent.start(LotrGame(), 0, random.Random(0))
    assert isinstance(agent.current._impl, LotrHeuristicAgent)
    assert agent.name == "heuristic"


def test_heuristic_uses_powers_in_game_2_random_positions() -> None:
    used: set[str] = set()
    for seed in range(40):
        game, state = random_position("powers", seed, 20 + seed * 3)
        if state.is_terminal() or state.pending >= 0:
            continue
        action = choose("heuristic", game, state, seed)
        if action >= POWER_BASE and (pa := decode(action)) is not None:
            used.add(pa.power)
    assert used, "the heuristic chose no power in 40 random Game 2 positions"


def crafted(
    pieces: dict[str, tuple[Any, ...]], mode: str = "powers", to_move: int = GOOD
) -> tuple[LotrGame, LotrState]:
    """A position with both Flags known and walled in by known Fortresses, plus `pieces`."""
    base: dict[str, tuple[Any, ...]] = {
        "A1": (EVIL, "flag", False, True),
        "A2": (EVIL, "fortress", False, True),
        "B1": (EVIL, "fortress", False, True),
        "K10": (GOOD, "flag", False, True),
        "K9": (GOOD, "fortress", False, True),
        "I10": (GOOD, "fortress", False, True),
    }
    game = LotrGame(game=mode)
    return game, game.state_from_position({**base, **pieces}, to_move=to_move)


def test_heuristic_shoots_a_known_weaker_piece() -> None:
    game, state = crafted({"E7": (GOOD, "faramir"), "E9": (EVIL, "orc", True, True)})
    assert state.action_to_string(choose("heuristic", game, state)) == "bow E7>E9"


def test_heuristic_rages_among_several_weak_enemies() -> None:
    pieces = {
        "E4": (EVIL, "berserker"),
        "E6": (GOOD, "soldier", True, True),
        "F6": (GOOD, "knight", True, True),
        "F5": (GOOD, "eowyn", True, True),
    }
    game, state = crafted(pieces, to_move=EVIL)
    assert state.action_to_string(choose("heuristic", game, state)) == "rage E4-E5"


def test_heuristic_avoids_a_known_stronger_piece_and_takes_a_weaker_one() -> None:
    pieces = {"E5": (EVIL, "easterling"), "E6": (GOOD, "gandalf", True, True), "F5": (GOOD, "knight", True, True)}
    game, state = crafted(pieces, mode="classic", to_move=EVIL)
    assert state.action_to_string(choose("heuristic", game, state)) == "E5xF5"


def test_frodo_enters_mount_doom_and_evil_never_helps_him() -> None:
    pieces = {"I5": (GOOD, "frodo"), "A7": (GOOD, "knight"), "E3": (EVIL, "orc")}
    game, state = crafted(pieces, mode="ring")
    assert choose("heuristic", game, state) == parse_square("I5") * 100 + parse_square("H5")
    game, state = crafted(pieces, mode="ring", to_move=EVIL)
    action = choose("heuristic", game, state)
    assert action in state.legal_actions()
    assert action // 100 != parse_square("I5"), "Evil never moves Good's Frodo"


@pytest.mark.parametrize("mode", GAMES)
def test_heuristic_beats_random(mode: str) -> None:
    for seed, seat in ((1, EVIL), (2, GOOD)):
        agents = [make_agent("random"), make_agent("random")]
        agents[seat] = make_agent("heuristic")
        record = play_match(LotrGame(game=mode, max_moves=2000), agents, seed=seed)
        assert record.outcome is not None and record.outcome.winner == seat, record.outcome


# --- the search agent in Stratego LOTR ----------------------------------------------------------------


def test_search_name_plays_both_games_and_takes_its_guesses_from_the_spec() -> None:
    agent: Any = make_agent("search:guesses=3")
    assert isinstance(agent, GameAgent)
    agent.start(LotrGame(), GOOD, random.Random(0))
    assert isinstance(agent.current, LotrSearchAgent) and agent.current.guesses == 3
    agent.start(StrategoGame("barrage"), 0, random.Random(0))
    assert isinstance(agent.current, SearchAgent) and agent.current.guesses == 3


def test_an_option_only_classic_search_knows_is_refused_when_a_lotr_game_starts() -> None:
    agent: Any = make_agent("search:prior=0.01")  # classic's search takes it: no error yet
    agent.start(StrategoGame("barrage"), 0, random.Random(0))
    with pytest.raises(GameError, match="search: unknown option 'prior'"):
        agent.start(LotrGame(), GOOD, random.Random(0))
    with pytest.raises(GameError, match="search: unknown option 'nonsense'"):
        make_agent("search:nonsense=1")  # no game's search takes it
    with pytest.raises(GameError, match="guesses must be a whole number"):
        make_agent("search:guesses=2.5", "lotr")
    with pytest.raises(GameError, match="agent 'novice' does not play lotr"):
        make_agent("novice", "lotr")


def look_ahead(game: LotrGame, state: LotrState) -> dict[str, float]:
    """The search's look-ahead value of each legal action, by its notation."""
    agent = LotrSearchAgent(guesses=6)
    player = state.current_player()
    agent.start(game, player, random.Random(1))
    agent.act(state.observation(player), state.legal_actions())  # reads the position
    values = agent._look_ahead(state.legal_actions())
    return {state.action_to_string(a): v for a, v in values.items()}


def test_search_sees_a_piece_left_where_a_stronger_one_takes_it() -> None:
    """Good's Knight next to Evil's known Nazgul: stepping away keeps it, a move elsewhere loses it."""
    pieces = {"E5": (GOOD, "knight", True, False), "E4": (EVIL, "nazgul", True, True), "C7": (GOOD, "soldier")}
    game, state = crafted(pieces, mode="classic", to_move=GOOD)
    values = look_ahead(game, state)
    assert values["E5-F5"] > values["C7-B7"] + 4.0  # most of the Knight's worth (8), as the heuristic counts it
    assert values["E5xE4"] < values["C7-B7"]  # attacking the Nazgul loses the Knight for sure
    assert max(values.values()) == 0.0


def test_search_takes_the_flag_it_can_reach() -> None:
    pieces = {"A2": (GOOD, "soldier", True, False), "F7": (GOOD, "elf"), "K2": (EVIL, "orc")}
    game, state = crafted(pieces, mode="classic")
    values = look_ahead(game, state)
    assert values["A2xA1"] == 0.0 and all(v <= -1000 for k, v in values.items() if k != "A2xA1")
    assert state.action_to_string(choose("search", game, state)) == "A2xA1"


@pytest.mark.parametrize("mode", GAMES)
def test_search_games_are_legal_and_reproducible(mode: str) -> None:
    game = LotrGame(game=mode, max_moves=160)
    first = play_match(game, [make_agent("search"), make_agent("heuristic")], seed=4)
    again = play_match(game, [make_agent("search"), make_agent("heuristic")], seed=4)
    assert first.actions == again.actions
    assert first.outcome is not None and first.outcome.termination.value != "forfeit", first.outcome
