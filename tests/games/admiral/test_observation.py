"""The Admiral observation has the keys its schema (`fogofwar.games.admiral.observation`) writes down, at every
level, all through a game: readers take it through `admiral_view` and trust those keys."""

from __future__ import annotations

import random
from typing import Any, get_type_hints

import pytest

from fogofwar.core import CHANCE, GameError, make_game
from fogofwar.games.admiral.observation import (
    AdmiralView,
    CellView,
    FleetView,
    InitiativeView,
    SoloView,
    UnitView,
    admiral_view,
)


def keys(schema: Any) -> set[str]:
    return set(get_type_hints(schema))


@pytest.mark.parametrize(("options", "seed"), [({}, 1), ({"solo_seat": 1}, 2)])
def test_every_observation_has_the_schemas_keys(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    state = make_game("admiral", max_turns=3, **options).new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 400:
        for seat in (0, 1):
            view = admiral_view(state.observation(seat).data)
            assert set(view) == keys(AdmiralView)
            assert all(set(cell) == keys(CellView) for cell in view["board"])
            assert all(set(u) == keys(UnitView) for cell in view["board"] for u in cell["units"])
            assert all(set(f) == keys(FleetView) for f in view["fleets"])
            assert set(view["initiative"]) == keys(InitiativeView)
            if view["solo"] is not None:
                assert set(view["solo"]) == keys(SoloView)
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply(rng.choice(legal))
        steps += 1
    assert steps > 50


def test_another_games_observation_is_refused() -> None:
    data = make_game("stratego").new_initial_state().observation(0).data
    with pytest.raises(GameError, match="not an Admiral observation"):
        admiral_view(data)
