"""The Stratego model at a LOTR Game 1 table (`fogofwar.games.lotr_transfer`): a Game 1 position translated is the
classic Stratego observation of the same position, the agent plays whole games without a forfeit, and it leaves
to LOTR's own search what does not translate (Games 2 and 3, hidden captured pieces)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from fogofwar.core.agents import make_agent
from fogofwar.core.match import play_match
from fogofwar.core.protocol import GameError, Termination
from fogofwar.core.registry import make_game
from fogofwar.games.lotr.observation import lotr_view
from fogofwar.games.lotr.rules import LotrGame, LotrState, random_setup
from fogofwar.games.lotr_transfer.agents import LotrExpertAgent, stratego_observation
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame, StrategoState


def _twin_games(seed: int) -> tuple[LotrGame, LotrState, StrategoState]:
    """A Game 1 position and the classic Stratego position with the same ranks on the same squares (no repetition
    rules in either, so the same moves are legal in both)."""
    lotr = make_game("lotr", back_and_forth=0)
    assert isinstance(lotr, LotrGame)
    classic = StrategoGame("classic", two_squares=0, more_squares=False, max_moves=0)
    rng = random.Random(seed)
    a, b = lotr.new_initial_state(), classic.new_initial_state()
    assert isinstance(a, LotrState)
    for seat in (0, 1):
        kinds = random_setup(lotr, seat, rng)
        a.apply_setup(seat, kinds)
        b.apply_setup(seat, {sq: Rank(lotr.army(seat).kinds[k].rank) for sq, k in kinds.items()})
    return lotr, a, b


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    """An observation with the captured pieces as multisets (the games list them in different orders)."""
    out = dict(data)
    out["captured"] = [Counter(side) for side in data["captured"]]
    out.pop("to_place")
    return out


def test_a_game_1_observation_translated_is_the_classic_observation_of_the_same_position() -> None:
    battles = 0
    for seed in range(4):
        lotr, a, b = _twin_games(seed)
        rng = random.Random(100 + seed)
        for _ in range(400):
            if a.is_terminal() or b.is_terminal():
                assert a.is_terminal() == b.is_terminal()
                break
            assert sorted(a.legal_actions()) == sorted(b.legal_actions())
            for seat in (0, 1):
                got = stratego_observation(lotr_view(a.observation(seat).data), lotr)
                want = dict(b.observation(seat).data)
                got_c, want_c = _comparable(got), _comparable(want)
                got_c.pop("outcome"), want_c.pop("outcome")
                assert got_c == want_c
            action = rng.choice(b.legal_actions())
            battles += b.piece_at(action % 100) is not None
            a.apply(action)
            b.apply(action)
    assert battles > 50


def test_expert_plays_game_1_to_the_end_without_a_forfeit() -> None:
    game = make_game("lotr")
    for seed in range(2):
        agents = [make_agent("expert:guesses=4", "lotr"), make_agent("heuristic", "lotr")]
        record = play_match(game, agents[::-1] if seed else agents, seed=seed)
        assert record.outcome.termination is not Termination.FORFEIT, record.outcome.reason


@pytest.mark.parametrize("options", [{"variant": "powers"}, {"variant": "ring"}, {"captured_mode": "hidden"}])
def test_what_does_not_translate_is_played_by_lotrs_search(options: dict[str, str]) -> None:
    game = make_game("lotr", **options)
    agent = make_agent("expert", "lotr")
    assert isinstance(agent, LotrExpertAgent)
    record = play_match(game, [agent, make_agent("heuristic", "lotr")], seed=3, max_actions=300)
    assert not agent.translating
    assert record.outcome is None or record.outcome.termination is not Termination.FORFEIT, record.outcome.reason


def test_game_1_is_translated_and_hidden_captured_pieces_are_refused_by_the_translation() -> None:
    agent = make_agent("expert", "lotr")
    assert isinstance(agent, LotrExpertAgent)
    agent.start(make_game("lotr"), 0, random.Random(0))
    assert agent.translating
    game = make_game("lotr", captured_mode="secret")
    assert isinstance(game, LotrGame)
    state = game.new_initial_state()
    while lotr_view(state.observation(0).data)["phase"] == "setup":
        state.apply(state.legal_actions()[0])
    with pytest.raises(GameError, match="hidden"):
        stratego_observation(lotr_view(state.observation(0).data), game)


def test_a_bad_option_is_refused_when_the_agent_is_made() -> None:
    with pytest.raises(GameError, match="unknown option"):
        make_agent("expert:nonsense=1", "lotr")
