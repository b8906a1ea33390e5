"""One conformance test of the core protocol (`fogofwar.core.protocol`), shared by every game.

Every game in the registry is tested, in each of the modes its plugin names as examples
(`core.registry.register_game`); the test plays seeded random games through the whole
protocol (the setup phase included, through whatever actions the initial state offers, and
chance events where a game has them) and checks, step by step, what every game must
guarantee: whose turn it is, legal action lists, illegal actions rejected without a trace,
notation round trips, clone independence, undo, serialization, observations, returns and
records. A new game joins by registering itself: nothing here names a game
(`tests/core/test_toy_game.py` runs these checks on a toy game a test registers).
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameError,
    IllegalActionError,
    State,
    Termination,
    make_game,
)
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import game_entry, game_names

GameFactory = Callable[[], Game]


def registered_games() -> list[tuple[str, GameFactory]]:
    """(id, factory) of every example of every registered game (`register_game(..., examples=...)`)."""
    out: list[tuple[str, GameFactory]] = []
    for name in game_names():
        for label, options in game_entry(name).examples.items():
            out.append((f"{name}-{label}", functools.partial(make_game, name, **options)))
    return out


GAMES = registered_games()
"""(id, factory) of every game under test: each registered game's examples, from the registry."""


SEEDS = [1, 2, 3]
UNDO_SAMPLE = 0.15
"""Share of the steps where apply/undo is checked (every step would make the test slow)."""
JSON_SAMPLE = 0.1
"""Share of the steps where the state is rebuilt from `to_json` (it replays the whole history)."""


# --- helpers ------------------------------------------------------------------------------------


def seats(game: Game) -> range:
    return range(game.num_players)


def playable(state: State) -> list[int]:
    """The actions that may be applied now: the chance outcomes at a chance node, else the legal actions."""
    if state.current_player() == CHANCE:
        return sorted(a for a, _ in state.chance_outcomes())
    return list(state.legal_actions())


def snapshot(state: State) -> dict[str, Any]:
    """Everything the protocol shows of a state, for equality checks."""
    return {
        "json": state.to_json(),
        "legal": list(state.legal_actions()),
        "player": state.current_player(),
        "terminal": state.is_terminal(),
        "outcome": state.outcome(),
        "history": list(state.history),
        "observations": [state.observation(p) for p in seats(state.game)],
    }


def pick(state: State, rng: random.Random) -> int:
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def illegal_ids(state: State, rng: random.Random) -> list[int]:
    """A few action ids that must be rejected now: out of range, and in range but not legal."""
    n = state.game.num_distinct_actions()
    legal = set(playable(state))
    out = [-1, n, n + 17]
    candidates = [a for a in (rng.randrange(n) for _ in range(50)) if a not in legal]
    out.extend(candidates[:3])
    return out


# --- per-step checks -----------------------------------------------------------------------------


def check_player_and_actions(game: Game, state: State) -> None:
    player = state.current_player()
    terminal = state.is_terminal()
    assert isinstance(player, int)
    if terminal:
        assert player == TERMINAL
    else:
        assert player == CHANCE or player in seats(game), f"current_player() {player} is not a seat"
    assert (player == TERMINAL) == terminal

    legal = state.legal_actions()
    assert all(isinstance(a, int) for a in legal)
    assert legal == sorted(legal), "legal_actions() must be sorted"
    assert len(set(legal)) == len(legal), "legal_actions() must not repeat an action"
    n = game.num_distinct_actions()
    assert all(0 <= a < n for a in legal), "legal_actions() outside 0..num_distinct_actions()-1"
    if terminal:
        assert legal == []
        assert state.outcome() is not None
    else:
        assert state.outcome() is None
        if player != CHANCE:
            assert legal, "a non-terminal player node must have a legal action"

    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node needs at least one outcome"
        actions = [a for a, _ in outcomes]
        assert len(set(actions)) == len(actions), "chance outcomes repeat an action"
        assert all(isinstance(a, int) and 0 <= a < n for a in actions)
        assert all(0.0 < p <= 1.0 for _, p in outcomes), "chance probabilities must lie in (0, 1]"
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), "chance outcomes must sum to 1"
        for a in actions:
            trial = state.clone()
            trial.apply(a)  # every outcome can happen


def check_illegal_rejected(state: State, rng: random.Random) -> None:
    before = state.to_json()
    legal_before = list(state.legal_actions())
    for action in illegal_ids(state, rng):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert issubclass(IllegalActionError, GameError)
        assert state.to_json() == before, f"a rejected action {action} changed the state"
        assert state.legal_actions() == legal_before, f"a rejected action {action} changed the legal actions"


def check_notation(state: State) -> None:
    if state.current_player() == CHANCE:
        return
    for action in state.legal_actions():
        text = state.action_to_string(action)
        assert isinstance(text, str) and text
        assert state.string_to_action(text) == action, f"{action} -> {text!r} does not read back"


def check_clone(state: State, rng: random.Random) -> None:
    before = snapshot(state)
    other = state.clone()
    assert snapshot(other) == before
    if not other.is_terminal():
        other.apply(pick(other, rng))
        assert snapshot(state) == before, "applying an action to a clone changed the original"
    if other.history:
        other.undo()
        assert snapshot(state) == before, "undoing on a clone changed the original"


def check_undo(state: State, rng: random.Random) -> None:
    before = snapshot(state)
    action = pick(state, rng)
    state.apply(action)
    state.undo()
    assert snapshot(state) == before, f"apply({action}) then undo() did not restore the state"


def check_json_round_trip(game: Game, state: State) -> None:
    data = state.to_json()
    json.dumps(data)  # storable as JSON text
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again.legal_actions() == state.legal_actions()
    assert again.current_player() == state.current_player()
    assert again.outcome() == state.outcome()
    for p in seats(game):
        assert again.observation(p) == state.observation(p)


def check_observations(game: Game, state: State) -> None:
    for p in seats(game):
        obs = state.observation(p)
        assert obs.player == p
        json.dumps(obs.data)
        assert isinstance(obs.text, str)


def check_end(game: Game, state: State) -> None:
    outcome = state.outcome()
    assert outcome is not None
    returns = state.returns()
    assert len(returns) == game.num_players
    assert returns == outcome.returns(game.num_players)
    if game.num_players == 2:
        assert sum(returns) == 0, "a two-player game is zero-sum"
    if outcome.winner is not None:
        assert outcome.winner in seats(game)
        assert returns[outcome.winner] > 0


def check_record(game: Game, state: State) -> None:
    text = GameRecord.from_state(state, players=[f"p{p}" for p in seats(game)], seed=7).dumps()
    record = GameRecord.loads(text)
    replayed = record.replay()
    assert replayed.to_json() == state.to_json()
    assert replayed.outcome() == state.outcome()
    assert replayed.legal_actions() == state.legal_actions()


# --- the test -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("factory", [f for _, f in GAMES], ids=[name for name, _ in GAMES])
def test_protocol_conformance(factory: GameFactory, seed: int) -> None:
    game = factory()
    assert isinstance(game, Game)
    assert game.num_players >= 1
    assert game.num_distinct_actions() > 0
    json.dumps(game.options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, State)
    assert list(state.history) == []
    initial = state.to_json()
    assert game.state_from_json(initial).to_json() == initial

    steps = 0
    while True:
        check_player_and_actions(game, state)
        check_observations(game, state)
        if rng.random() < JSON_SAMPLE or state.is_terminal():
            check_json_round_trip(game, state)
        if state.is_terminal():
            check_illegal_rejected(state, rng)
            break
        if rng.random() < UNDO_SAMPLE or steps < 3:
            check_illegal_rejected(state, rng)
            check_notation(state)
            check_clone(state, rng)
            check_undo(state, rng)
        history = list(state.history)
        action = pick(state, rng)
        state.apply(action)
        assert list(state.history) == [*history, action]
        steps += 1
        assert steps < 100_000, "the game does not end"

    check_end(game, state)
    check_record(game, state)
    check_clone(state, rng)
    with pytest.raises(IllegalActionError):
        state.apply(0)  # nothing can be played after the end


@pytest.mark.parametrize("factory", [f for _, f in GAMES], ids=[name for name, _ in GAMES])
def test_end_by_outside_the_rules(factory: GameFactory) -> None:
    """A game ended by forfeit (or resignation, clock, agreement) serializes, records and replays as such."""
    game = factory()
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(rng.randrange(1, 60)):
        if state.is_terminal():
            break
        state.apply(pick(state, rng))
    if state.is_terminal():
        pytest.skip("the random game ended before the forfeit")
    state.end_by(Termination.FORFEIT, 1, "seat 0 left")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.FORFEIT and outcome.winner == 1
    check_end(game, state)
    check_json_round_trip(game, state)
    check_record(game, state)
    with pytest.raises(IllegalActionError):
        state.apply(0)


def test_every_game_has_examples_and_the_known_games_are_registered() -> None:
    assert {"stratego", "lotr", "admiral"} <= set(game_names())
    for name in game_names():
        assert game_entry(name).examples, f"{name} names no example to test"


@pytest.mark.parametrize("game_name", game_names())
def test_every_game_refuses_a_bad_ended_by_with_a_record_error(game_name: str) -> None:
    """The shared replay (core.state_json) checks the outside ending of every game the same way."""
    from fogofwar.core.protocol import RecordError
    from fogofwar.core.registry import make_game

    game = make_game(game_name)
    data = game.new_initial_state().to_json()
    for bad, words in [
        (5, "must be an object"),
        ({"termination": "flag_captured", "winner": 0}, "from outside the board"),
        ({"termination": "nonsense"}, "bad outcome"),
    ]:
        with pytest.raises(RecordError, match=words):
            game.state_from_json({**data, "ended_by": bad})
    with pytest.raises(RecordError, match="not an integer"):
        game.state_from_json({**data, "actions": ["x"]})


# --- the options ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", game_names())
def test_options_are_declared_once_and_checked_by_their_model(name: str) -> None:
    """Every game's options come from its `GameParams` model: the defaults build a game, every example reads,
    the options a game writes rebuild the same game, and an unknown option is refused by name."""
    entry = game_entry(name)
    params = entry.params
    declared = [info.name for info in params.options()]
    assert declared == list(params.model_fields) and declared
    assert all(info.meaning for info in params.options()), "every option says what it means"
    for options in entry.examples.values():
        params.read(options)
    game = make_game(name)
    written = game.options
    assert set(written) <= set(declared)
    assert make_game(name, **written).options == written
    with pytest.raises(GameError, match=f"has no option 'no_such_option'; its options are {', '.join(declared)}"):
        make_game(name, no_such_option=1)


@pytest.mark.parametrize("name", game_names())
def test_the_constructor_takes_the_declared_options_with_the_same_defaults(name: str) -> None:
    """The game's class and its options model declare the same options with the same defaults (a Python caller
    and a JSON client get the same game), so the model's listing tells the truth."""
    entry = game_entry(name)
    parameters = inspect.signature(entry.factory).parameters
    assert list(parameters) == list(entry.params.model_fields)
    for option, field in entry.params.model_fields.items():
        default = parameters[option].default
        assert (list(default) if isinstance(default, tuple) else default) == field.default, option


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_json_options_build_a_game_or_are_refused_with_a_game_error(name: str, data: st.DataObject) -> None:
    """Options as a client might send them: each value of any JSON type for each declared name (and an odd
    name now and then) either builds the game or gets a `GameError`, never another exception."""
    names = [*game_entry(name).params.model_fields, "colour"]
    chosen = data.draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
    options = {key: data.draw(_JSON_VALUES) for key in chosen}
    try:
        game = make_game(name, **options)
    except GameError as exc:
        assert str(exc)
    else:
        assert game.options is not None
