"""benchmarks/oracle_regret.py: each agent's regret under the told judge along a record, and the table of them."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from tests.paths import ROOT

from fogofwar.core.records import GameRecord
from fogofwar.games.stratego.rules import StrategoGame


@pytest.fixture
def regret(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import oracle_regret

    return oracle_regret


def test_each_agent_is_judged_at_every_nth_turn_and_never_beats_the_judges_best(
    regret: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    from record_turns import play_turns  # on the path with the fixture

    game = StrategoGame("classic", max_moves=40)
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.from_state(state, players=["rollout", "random"])
    agents = [("net", "rollout:top=1"), ("small", "rollout:guesses=2,depth=2,budget=0")]
    told: list[object] = []
    tell = regret.tell
    monkeypatch.setattr(regret, "tell", lambda agent, seen: (told.append(seen), tell(agent, seen)))
    out = regret.judged([(record, game, 0)], agents, "rollout:guesses=1,depth=2", top=3, every=4, seed=3)
    turns = sum(1 for _ in play_turns(record, game, 0))
    assert list(out) == ["net", "small"]
    assert all(len(r) == turns // 4 for r in out.values()) and turns // 4 >= 3
    assert all(x >= 0 for r in out.values() for x in r)  # the judge scores every pick among the moves it compares
    assert len(told) == 1  # the judge, once, with the replay's own state


def test_the_table_gives_means_best_shares_and_paired_differences(regret: ModuleType) -> None:
    lines = regret.table({"a": [0.0, 0.2, 0.1, 0.0], "b": [0.1, 0.2, 0.3, 0.0]})
    assert lines[2].startswith("| a | 4 | 0.0750 |") and lines[2].endswith("| 50.0% |")
    assert lines[3].startswith("| b | 4 | 0.1500 |") and lines[3].endswith("| 25.0% |")
    assert lines[4].startswith("a - b: -0.0750")


def test_players_are_named_as_the_arena_names_them_and_only_rollouts_are_judged(regret: ModuleType) -> None:
    assert regret.named_agents(["plain=rollout:faithful=0", "rollout", "rollout:top=1"]) == [
        ("plain", "rollout:faithful=0"),
        ("rollout", "rollout"),
        ("rollout:top=1", "rollout:top=1"),  # an option's '=' is no name
    ]
    with pytest.raises(ValueError, match="given twice"):
        regret.named_agents(["a=rollout", "a=rollout:top=1"])
    with pytest.raises(ValueError, match="only rollout players"):
        regret.named_agents(["search"])
