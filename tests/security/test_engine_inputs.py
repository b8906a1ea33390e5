"""Bad input to a game's public entry points comes back as a typed `GameError` and changes nothing.

The engines are driven by the server, the CLI, agents and records, so whatever a client or a file
sends ends up at `apply`, `string_to_action`, `observation`, `state_from_json`, the setup parsers and
the game constructors. An untyped error there (TypeError, ValueError, AttributeError, ...) is an
unhandled crash for the caller, and a value accepted by accident (a bool as an action id, a key
nobody reads) is a state the rules never made. The first tests pin the reported findings; the fuzz
tests throw arbitrary JSON, strings and integers at every registered game (the list comes from the
registry, so a new game is covered the day it registers) and accept only two results: a typed error
with the state unchanged, or a success whose result is consistent (a legal id, a state whose JSON
reads back to itself).
"""

from __future__ import annotations

import functools
import inspect
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogofwar.core import (
    CHANCE,
    Game,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    Observation,
    RecordError,
    State,
    Termination,
    game_names,
    make_game,
)
from fogofwar.games.stratego.setup import SAMPLES, parse_setup
from fogofwar.games.stratego.variants import get_variant

GAMES = game_names()
"""Every registered game: a new game is fuzzed without touching this file."""

FUZZ = settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Seeded (the same examples every run) and small: the whole file runs in seconds."""

# --- the states and documents the fuzz starts from ---------------------------------------------------

PROBE_STEPS = (0, 12, 200)
"""Actions played (seeded random) before each probe state: the start, early on, and usually the play."""


def playable(state: State) -> list[int]:
    """What may be applied now: the chance outcomes at a chance node, else the legal actions."""
    if state.current_player() == CHANCE:
        return sorted(a for a, _ in state.chance_outcomes())
    return list(state.legal_actions())


@functools.cache
def probe_states(name: str) -> tuple[State, ...]:
    """Seeded positions of the default game `name`; callers clone before changing one."""
    state = make_game(name).new_initial_state()
    rng = random.Random(7)
    out: list[State] = []
    for steps in range(PROBE_STEPS[-1] + 1):
        if steps in PROBE_STEPS or state.is_terminal():
            out.append(state.clone())
        if state.is_terminal():
            break
        state.apply(rng.choice(playable(state)))
    return tuple(out)


POSITIONS: dict[str, list[tuple[dict[str, Any], Any]]] = {
    "stratego": [({}, [[0, 0, 11], [99, 1, 11], [9, 0, 2], [90, 1, 2]])],
    "lotr": [({"game": "ring"}, [["A1", 0, 6], ["K10", 1, 6], ["B1", 0, "flag"], ["B10", 1, "frodo", True, False]])],
    "admiral": [
        ({}, {"units": [{"Fletcher": "C1"}, {"Yukikaze": {"square": "C8", "structure": 1}}], "turn": 2}),
        (
            {"solo_seat": 1},
            {
                "units": [{"Fletcher": {"square": "C3", "criticals": {"movement": 1}}}, {"Yukikaze": "C6"}],
                "dice": [["movement", 0], {"Yukikaze": ["admiral=artillery", "movement"]}],
                "player": 1,
                "smoke": ["D4"],
            },
        ),
    ],
}
"""Valid (options, argument of `game.state_from_position`) of each game that has crafted positions: the
fuzz changes one thing inside (a game without an entry is fuzzed everywhere else)."""


def snapshot(state: State) -> tuple[str, tuple[int, ...], int, tuple[int, ...]]:
    """Everything a refused call must leave as it was: the full JSON, the legal ids, the seat to act."""
    return (
        json.dumps(state.to_json(), sort_keys=True),
        tuple(state.legal_actions()),
        state.current_player(),
        tuple(state.history),
    )


def refused_without_a_trace(call: Callable[[], object], state: State) -> GameError | None:
    """Run `call`; if it raises, it must be a GameError and `state` must be unchanged. Returns the error."""
    before = snapshot(state)
    try:
        call()
    except GameError as exc:
        assert str(exc), f"{type(exc).__name__} without a message"
        assert snapshot(state) == before, f"a refused call ({exc}) changed the state"
        return exc
    return None


def built_or_refused(game: Game, build: Callable[[], State]) -> None:
    """A state built from fuzzed input is refused with a message, or reads back as itself."""
    try:
        state = build()
    except GameError as exc:
        assert str(exc)
        return
    reads_back(game, state)


def reads_back(game: Game, state: State) -> None:
    """An accepted state serializes to strict JSON that rebuilds the very same state."""
    data = state.to_json()
    text = json.dumps(data, allow_nan=False)
    again = game.state_from_json(json.loads(text))
    assert again.to_json() == data
    assert again.legal_actions() == state.legal_actions()
    assert again.current_player() == state.current_player()


# --- strategies ----------------------------------------------------------------------------------------

NOTATION_CHARS = "ABCDEFGHIJKabcdefghijk0123456789:-xX@ >,/.=+#?done"
TEXT = st.text(
    st.one_of(
        st.characters(),
        st.characters(categories=["Cs"]),  # lone surrogates: valid `str`, not encodable as UTF-8
        st.sampled_from(NOTATION_CHARS),
    ),
    max_size=24,
)
FIELD_NAMES = st.sampled_from(
    [
        "game",
        "options",
        "actions",
        "start",
        "position",
        "ended_by",
        "pieces",
        "to_move",
        "units",
        "square",
        "structure",
        "where",
        "criticals",
        "squadrons",
        "dice",
        "phase",
        "turn",
        "smoke",
        "termination",
        "winner",
        "reason",
        "variant",
        "layout",
        "fleets",
        "factions",
        "budget",
        "max_moves",
        "max_turns",
        "solo_seat",
        "captured_mode",
        *GAMES,
    ]
)
INTEGERS = st.one_of(
    st.integers(min_value=-3, max_value=70_000),
    st.integers(),
    st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**30, -(10**30)]),
)
SCALARS = st.one_of(st.none(), st.booleans(), INTEGERS, st.floats(), TEXT, FIELD_NAMES)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT | FIELD_NAMES, inner, max_size=5),
    max_leaves=16,
)
"""Arbitrary JSON: None, bools, huge ints, floats (NaN, infinities), text with lone surrogates, nesting."""
ANYTHING = st.one_of(JSON_VALUES, INTEGERS, TEXT, st.builds(object), st.just(b"E2-E3"), st.just(1.0))
"""What a Python caller could pass: JSON, and a few values JSON has no spelling for."""


def mutated(data: st.DataObject, doc: Any) -> Any:
    """`doc` with one to three things changed (see `mutate`)."""
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        doc = mutate(data, doc)
    return doc


def mutate(data: st.DataObject, doc: Any, depth: int = 0) -> Any:
    """`doc` with one thing changed somewhere inside: a value replaced, a key added or dropped, an item
    dropped. Starting from a valid document, this reaches the checks deep inside the readers."""
    how = data.draw(st.integers(0, 3), label="how")
    if how == 0 or depth > 4 or not isinstance(doc, dict | list) or not doc:
        return data.draw(JSON_VALUES, label="value")
    if isinstance(doc, dict):
        if how == 1:
            return {**doc, data.draw(TEXT | FIELD_NAMES, label="key"): data.draw(JSON_VALUES, label="value")}
        key = data.draw(st.sampled_from(sorted(doc, key=repr)), label="key")
        if how == 2:
            return {k: v for k, v in doc.items() if k != key}
        return {**doc, key: mutate(data, doc[key], depth + 1)}
    i = data.draw(st.integers(0, len(doc) - 1), label="index")
    if how == 2:
        return doc[:i] + doc[i + 1 :]
    return [*doc[:i], mutate(data, doc[i], depth + 1), *doc[i + 1 :]]


# --- the reported findings -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["E2-E3", None, [1], 1.0, True, b"\x00"])
def test_stratego_apply_refuses_what_is_not_an_action_id(bad: Any) -> None:
    state = probe_states("stratego")[0].clone()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="not an action id"):
        state.apply(bad)
    assert snapshot(state) == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", ["E2-E3", None, [1], {}, 1.5])
def test_every_game_refuses_a_non_integer_action(name: str, bad: Any) -> None:
    for state in probe_states(name):
        state = state.clone()
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="not an action id"):
            state.apply(bad)
        with pytest.raises(IllegalActionError, match="not an action id"):
            state.action_to_string(bad)
        assert snapshot(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_bool_is_not_an_action_id(name: str) -> None:
    """True == 1: without a type check a bool is played as id 1 and lands in the history."""
    for state in probe_states(name):
        state = state.clone()
        before = snapshot(state)
        for bad in (True, False):
            with pytest.raises(IllegalActionError, match="not an action id"):
                state.apply(bad)
        assert snapshot(state) == before


@pytest.mark.parametrize("bad", [12345, None, ["1111111111"], b"FB/"])
def test_parse_setup_refuses_what_is_not_a_setup_string(bad: Any) -> None:
    with pytest.raises(InvalidSetupError, match="setup string"):
        parse_setup(bad, get_variant("classic"), 0)


def test_parse_setup_refuses_a_seat_that_does_not_exist() -> None:
    text = SAMPLES["barrage"]["sample"]
    for bad in (2, -1, "0", None, True):
        with pytest.raises(GameError, match="player"):
            parse_setup(text, get_variant("barrage"), bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", [7, -1, 2, None, "0", 1.0, True, [0]])
def test_observation_refuses_a_seat_that_does_not_exist(name: str, bad: Any) -> None:
    state = probe_states(name)[-1]
    before = snapshot(state)
    with pytest.raises(GameError, match="player"):
        state.observation(bad)
    assert snapshot(state) == before


@pytest.mark.parametrize("options", ["classic", [1, 2], 5, True])
def test_admiral_state_json_refuses_options_that_are_not_an_object(options: Any) -> None:
    data = {**make_game("admiral").new_initial_state().to_json(), "options": options}
    with pytest.raises(RecordError, match="options"):
        make_game("admiral").state_from_json(data)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_refuses_options_that_are_not_an_object(name: str) -> None:
    game = make_game(name)
    for options in ("classic", [["variant", "barrage"]], 5):
        with pytest.raises(RecordError, match="options"):
            game.state_from_json({**game.new_initial_state().to_json(), "options": options})
    with pytest.raises(RecordError, match="no_such_option"):
        game.state_from_json({**game.new_initial_state().to_json(), "options": {"no_such_option": 1}})


@pytest.mark.parametrize("field", ["structure", "torpedoes", "reloads", "moved", "submerged"])
def test_admiral_position_refuses_a_field_of_the_wrong_type(field: str) -> None:
    game = make_game("admiral")
    position = {"units": [{"Fletcher": {"square": "C1", field: "lots"}}, {"Yukikaze": "C8"}]}
    with pytest.raises(GameError, match=field):
        game.state_from_position(position)  # type: ignore[attr-defined]
    data = {"game": "admiral", "options": game.options, "position": position, "actions": []}
    with pytest.raises(RecordError, match=field):
        game.state_from_json(data)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("key", ["positon", "strat", "foo", "Actions"])
def test_unknown_keys_in_a_state_json_are_refused(name: str, key: str) -> None:
    """A misspelt key used to be ignored: the state silently started from somewhere else."""
    game = make_game(name)
    data = probe_states(name)[1].to_json()
    with pytest.raises(RecordError, match=key):
        game.state_from_json({**data, key: {}})


def test_a_stratego_start_in_an_admiral_state_is_refused() -> None:
    game = make_game("admiral")
    data = {**game.new_initial_state().to_json(), "start": {"to_move": 0, "pieces": []}}
    with pytest.raises(RecordError, match="start"):
        game.state_from_json(data)


@pytest.mark.parametrize("name", GAMES)
def test_an_outside_ending_names_a_real_seat(name: str) -> None:
    game = make_game(name)
    data = probe_states(name)[1].to_json()
    for winner in ("x", 5, -1, True, 0.0, [0]):
        ended = {"termination": "forfeit", "winner": winner, "reason": "left"}
        with pytest.raises(RecordError, match="winner"):
            game.state_from_json({**data, "ended_by": ended})
    with pytest.raises(RecordError, match="reason"):
        game.state_from_json({**data, "ended_by": {"termination": "forfeit", "winner": 0, "reason": [1]}})
    with pytest.raises(RecordError, match="ended_by"):
        game.state_from_json({**data, "ended_by": {"termination": "forfeit", "winner": 0, "why": "?"}})


@pytest.mark.parametrize("name", GAMES)
def test_string_to_action_refuses_what_is_not_text(name: str) -> None:
    for state in probe_states(name):
        before = snapshot(state)
        for bad in (None, 5, [1], b"E2-E3"):
            with pytest.raises(NotationError, match="text"):
                state.string_to_action(bad)
        assert snapshot(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_unknown_game_options_are_refused_by_name(name: str) -> None:
    with pytest.raises(GameError, match="no_such_option"):
        make_game(name, no_such_option=1)


def test_stratego_options_are_checked() -> None:
    for options in ({"more_squares": "no"}, {"max_moves": True}, {"two_squares": 2.5}, {"variant": ["classic"]}):
        with pytest.raises(GameError):
            make_game("stratego", **options)


@pytest.mark.parametrize("name", GAMES)
def test_undo_at_the_start_is_refused(name: str) -> None:
    state = make_game(name).new_initial_state()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        state.undo()
    assert snapshot(state) == before


# --- fuzzing every registered game -----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(value=st.one_of(INTEGERS, ANYTHING), which=st.integers(0, len(PROBE_STEPS) - 1))
def test_fuzz_apply(name: str, value: Any, which: int) -> None:
    states = probe_states(name)
    state = states[min(which, len(states) - 1)].clone()
    legal = playable(state)
    error = refused_without_a_trace(lambda: state.apply(value), state)
    if error is None:
        assert type(value) is int and value in legal, f"apply({value!r}) was accepted"
        assert list(state.history)[-1] == value
        state.undo()
    else:
        assert not (type(value) is int and value in legal), f"the legal id {value} was refused: {error}"


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(value=st.one_of(INTEGERS, ANYTHING), which=st.integers(0, len(PROBE_STEPS) - 1))
def test_fuzz_action_to_string(name: str, value: Any, which: int) -> None:
    states = probe_states(name)
    state = states[min(which, len(states) - 1)]
    result: list[object] = []
    if refused_without_a_trace(lambda: result.append(state.action_to_string(value)), state) is None:
        assert type(value) is int and isinstance(result[0], str)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data(), which=st.integers(0, len(PROBE_STEPS) - 1))
def test_fuzz_string_to_action(name: str, data: st.DataObject, which: int) -> None:
    states = probe_states(name)
    state = states[min(which, len(states) - 1)]
    legal = playable(state)
    written = [state.action_to_string(a) for a in legal[:50]] or ["pass"]  # what the state writes, altered
    seeds = st.sampled_from(written).flatmap(
        lambda text: st.sampled_from([text, text.upper(), text[:-1], text + text, " " + text, text.replace("-", "x")])
    )
    value = data.draw(st.one_of(TEXT, seeds, ANYTHING), label="text")
    result: list[int] = []
    if refused_without_a_trace(lambda: result.append(state.string_to_action(value)), state) is None:
        assert isinstance(value, str) and type(result[0]) is int and result[0] in legal


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(value=ANYTHING)
def test_fuzz_observation(name: str, value: Any) -> None:
    state = probe_states(name)[-1]
    result: list[Observation] = []
    if refused_without_a_trace(lambda: result.append(state.observation(value)), state) is None:
        assert type(value) is int and value in range(state.game.num_players)
        assert result[0].player == value


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data(), which=st.integers(0, 1))
def test_fuzz_state_from_json(name: str, data: st.DataObject, which: int) -> None:
    game = make_game(name)
    docs = [probe_states(name)[which].to_json()]
    for options, position in POSITIONS.get(name, []):
        docs.append(make_game(name, **options).state_from_position(position).to_json())  # type: ignore[attr-defined]
    doc = data.draw(st.sampled_from(docs), label="doc")
    value = mutated(data, doc) if data.draw(st.booleans(), label="mutate?") else data.draw(JSON_VALUES, label="doc")
    built_or_refused(game, lambda: game.state_from_json(value))


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_state_from_position(name: str, data: st.DataObject) -> None:
    if name not in POSITIONS:
        pytest.skip(f"{name} has no crafted positions to fuzz")
    options, seed = data.draw(st.sampled_from(POSITIONS[name]), label="seed")
    game = make_game(name, **options)
    build = game.state_from_position  # type: ignore[attr-defined]
    value = mutated(data, seed) if data.draw(st.booleans(), label="mutate?") else data.draw(JSON_VALUES, label="value")
    kwargs: dict[str, Any] = {}
    if "to_move" in inspect.signature(build).parameters and data.draw(st.booleans(), label="to_move?"):
        kwargs["to_move"] = data.draw(ANYTHING, label="to_move")
    built_or_refused(game, lambda: build(value, **kwargs))


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_game_options(name: str, data: st.DataObject) -> None:
    """`make_game(name, **options)`: options from a JSON object, a known name or any other."""
    defaults = make_game(name).options
    keys = st.sampled_from(sorted(defaults)) | TEXT
    options = data.draw(st.dictionaries(keys, JSON_VALUES, max_size=3), label="options")
    try:
        game = make_game(name, **options)
    except GameError as exc:
        assert str(exc)
        return
    assert json.loads(json.dumps(game.options, allow_nan=False)) == game.options
    assert make_game(name, **game.options).options == game.options
    reads_back(game, game.new_initial_state())


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(
    termination=st.one_of(st.sampled_from(list(Termination)), ANYTHING),
    winner=st.one_of(st.sampled_from([None, 0, 1]), ANYTHING),
    reason=st.one_of(TEXT, ANYTHING),
)
def test_fuzz_end_by(name: str, termination: Any, winner: Any, reason: Any) -> None:
    state = probe_states(name)[1].clone()
    if refused_without_a_trace(lambda: state.end_by(termination, winner, reason), state) is None:
        assert state.is_terminal()
        reads_back(state.game, state)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_apply_setup(name: str, data: st.DataObject) -> None:
    """Games that place a whole army at once (`apply_setup(player, {square: piece})`)."""
    state = probe_states(name)[0].clone()
    apply_setup = getattr(state, "apply_setup", None)
    if apply_setup is None:
        pytest.skip(f"{name} has no whole-army setup")
    player = data.draw(st.one_of(st.sampled_from([0, 1]), ANYTHING), label="player")
    placement = data.draw(
        st.one_of(st.dictionaries(st.one_of(INTEGERS, TEXT), JSON_VALUES, max_size=6), JSON_VALUES),
        label="placement",
    )
    refused_without_a_trace(lambda: apply_setup(player, placement), state)


@FUZZ
@given(
    text=st.one_of(TEXT, st.sampled_from(list(SAMPLES["classic"].values())), ANYTHING),
    player=st.one_of(st.sampled_from([0, 1]), ANYTHING),
    variant=st.sampled_from(["classic", "barrage", "duel", "classicfree"]),
)
def test_fuzz_stratego_parse_setup(text: Any, player: Any, variant: str) -> None:
    try:
        placement = parse_setup(text, get_variant(variant), player)
    except GameError as exc:
        assert str(exc)
        return
    assert isinstance(text, str) and player in (0, 1)
    assert placement
