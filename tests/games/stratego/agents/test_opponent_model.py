"""The search's model of what the opponent believes of our pieces (`search:mirror=1`) reads only what the
opponent has seen: our hidden ranks never change it."""

from __future__ import annotations

import copy
import random

from fogofwar.core.agents import make_agent
from fogofwar.games.stratego.agents.search import SearchAgent
from fogofwar.games.stratego.observation import stratego_view
from fogofwar.games.stratego.rules import StrategoGame


def test_the_mirrored_belief_never_reads_our_hidden_ranks() -> None:
    game = StrategoGame("classic", max_moves=0)
    state = game.new_initial_state()
    agents = [make_agent("search", "stratego"), make_agent("search", "stratego")]
    for p, agent in enumerate(agents):
        agent.start(game, p, random.Random(p))
    for _ in range(80):
        p = state.current_player()
        state.apply(agents[p].act(state.observation(p), state.legal_actions()))
    data = stratego_view(state.observation(state.current_player()).data)
    me = data["player"]
    hidden = [
        sq for sq, c in enumerate(data["board"]) if isinstance(c, dict) and c["owner"] == me and not c["revealed"]
    ]
    a = next(sq for sq in hidden if data["board"][sq]["rank"] != data["board"][hidden[0]]["rank"])  # type: ignore[index]
    b = hidden[0]
    swapped = copy.deepcopy(data)
    cells = swapped["board"]
    cells[a]["rank"], cells[b]["rank"] = cells[b]["rank"], cells[a]["rank"]  # type: ignore[index]
    beliefs = []
    for view in (data, swapped):
        agent = SearchAgent()
        agent.start(game, me, random.Random(0))
        beliefs.append(agent._mirrored(view))
    assert beliefs[0] == beliefs[1]
    assert set(beliefs[0]) == set(hidden)
    assert all(abs(sum(row.values()) - 1.0) < 1e-9 for row in beliefs[0].values())
