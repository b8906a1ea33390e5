"""benchmarks/oracle_belief.py: the told agent's belief is the truth (all of it, or only where the pieces of the
named ranks stand), and its `strength` mode runs a series with our agent told and leaves the arena as it was."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest
from tests.paths import ROOT

import fogofwar.games.lotr.agents  # noqa: F401  (LOTR registers `search` too: the oracle must find Stratego's)
from fogofwar.core.agents import GameAgent, make_agent
from fogofwar.core.match import play_match
from fogofwar.games.stratego.agents.knowledge import Knowledge
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.tools import arena


@pytest.fixture
def oracle(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import oracle_belief

    return oracle_belief


@pytest.mark.parametrize("spec", ["search", "rollout"])
@pytest.mark.parametrize(
    ("ranks", "pieces"),
    [(None, "all"), ({int(Rank.MARSHAL), int(Rank.SPY)}, "all"), (None, "moved")],
    ids=["all", "marshal-spy", "moved"],
)
def test_the_told_agent_believes_the_truth(oracle: ModuleType, spec: str, ranks: set[int] | None, pieces: str) -> None:
    game = StrategoGame("classic")
    state = game.new_initial_state()
    told = make_agent(spec)
    assert isinstance(told, GameAgent) == (spec == "search")
    oracle.tell(told, state, ranks, pieces)
    play_match(game, [told, make_agent(spec)], seed=3, state=state, max_actions=120)  # setups and 40 moves
    assert not state.is_terminal() and state.current_player() == 0
    know = Knowledge.from_observation(stratego_view(state.observation(0).data))
    believed = oracle.stratego_agent(told)._belief.marginals(know)
    assert believed and set(believed) == set(know.unknown_enemy_squares())
    expected = {r: 0.0 for r in know.unknown_pool}
    for sq, row in believed.items():
        piece = state.piece_at(sq)
        assert piece is not None
        rank, moved = int(piece[1]), bool(piece[2])
        if (ranks is None or rank in ranks) and pieces in ("all", "moved" if moved else "unmoved"):
            assert row == {rank: 1.0}
        else:
            assert row != {rank: 1.0} and rank in row and sum(row.values()) == pytest.approx(1.0)
            assert ranks is None or not set(row) & ranks  # where the told ranks stand is known
        for r, p in row.items():
            expected[r] += p
    assert expected == pytest.approx({r: float(n) for r, n in know.unknown_pool.items()}, abs=0.05)
    # The untold agent of the same game believes otherwise.
    plain = make_agent(spec)
    plain.start(game, 0, random.Random(0))
    untold = oracle.stratego_agent(plain)._belief
    untold.update(stratego_view(state.observation(0).data))
    assert untold.marginals(know) != believed


def test_an_agent_without_a_belief_or_a_bad_choice_of_pieces_cannot_be_told(oracle: ModuleType) -> None:
    with pytest.raises(TypeError, match="keeps no belief"):
        oracle.tell(make_agent("random"), StrategoGame("classic").new_initial_state())
    with pytest.raises(ValueError, match="pieces must be one of all, moved, unmoved"):
        oracle.tell(make_agent("search"), StrategoGame("classic").new_initial_state(), None, "some")


def test_the_strength_mode_tells_our_agent_and_leaves_the_arena_as_it_was(
    oracle: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    told: list[tuple[str, object]] = []
    tell = oracle.tell
    monkeypatch.setattr(
        oracle,
        "tell",
        lambda agent, state, ranks=None, pieces="all": (
            told.append((agent.name, ranks, pieces)),
            tell(agent, state, ranks, pieces),
        ),
    )
    before = arena.play_match  # type: ignore[attr-defined]
    out = tmp_path / "series"
    args = ["--agent", "search", "--opponent", "random", "--variant", "barrage", "--games", "2", "--no-progress"]
    assert oracle.strength([*args, "--ranks", "marshal,spy", "--pieces", "unmoved", "--out", str(out)]) == 0
    assert arena.play_match is before  # type: ignore[attr-defined]
    assert told == [("search", {int(Rank.MARSHAL), int(Rank.SPY)}, "unmoved")] * 2  # the random player keeps no belief
    data = json.loads((out / "strength.json").read_text(encoding="utf-8"))
    assert (data["agent"], data["opponent"], data["played"]) == ("search", "random", 2)


def test_the_strength_mode_refuses_a_rank_it_does_not_know(
    oracle: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        oracle.strength(["--ranks", "marshal,admiral", "--opponent", "random"])
    assert stop.value.code == 2
    assert "--ranks: no rank 'admiral'; the ranks are flag, spy, scout" in capsys.readouterr().err


def test_told_names_the_one_player_told_when_both_keep_a_belief(
    oracle: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`search` against `search`: both keep a belief; `--told NAME` tells only the player of that short name (as
    when `rollout` told meets `search` in Barrage), and without it both are told."""
    told: list[str] = []
    tell = oracle.tell
    monkeypatch.setattr(
        oracle,
        "tell",
        lambda agent, state, ranks=None, pieces="all": (told.append(agent.name), tell(agent, state, ranks, pieces)),
    )
    args = ["--agent", "search", "--agent-name", "told", "--opponent", "search", "--name", "plain"]
    args += ["--variant", "barrage", "--games", "2", "--no-progress"]
    assert oracle.strength([*args, "--told", "told", "--out", str(tmp_path / "one")]) == 0
    assert told == ["told"] * 2
    told.clear()
    assert oracle.strength([*args, "--out", str(tmp_path / "both")]) == 0
    assert sorted(told) == ["plain", "plain", "told", "told"]
