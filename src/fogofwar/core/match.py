"""The match runner: agents play a game through the core protocol, and the result is a record."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fogofwar.core.agents import Agent, AgentForfeit
from fogofwar.core.protocol import CHANCE, Game, State, Termination
from fogofwar.core.randomness import play_streams
from fogofwar.core.records import GameRecord

ActionHook = Callable[[State, int, int], None]
"""Called after each action with (state after, player who acted or CHANCE, action)."""


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int = 0,
    state: State | None = None,
    on_action: ActionHook | None = None,
    max_actions: int | None = None,
) -> GameRecord:
    """Play one game; an agent that returns an illegal action or raises loses by forfeit.

    Every agent and the chance player get their own random stream derived from `seed`,
    so a match with deterministic agents is reproducible.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    chance_rng, *agent_rngs = play_streams(seed, "chance", *(f"agent {p}" for p in range(len(agents))))
    for player, agent in enumerate(agents):
        agent.start(game, player, agent_rngs[player])
    if state is None:
        state = game.new_initial_state()
    count = 0
    while not state.is_terminal():
        if max_actions is not None and count >= max_actions:
            break
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance_rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            try:
                action = agents[player].act(state.observation(player), legal)
            except AgentForfeit as exc:
                _forfeit(state, player, f"{agents[player].name}: {exc}")
                break
            except Exception as exc:  # an agent's crash is its loss, never the runner's
                _forfeit(state, player, f"agent {agents[player].name} crashed: {exc!r}")
                break
            if action not in legal:
                _forfeit(state, player, f"agent {agents[player].name} chose an illegal action {action!r}")
                break
        state.apply(action)
        count += 1
        if on_action is not None:
            on_action(state, player, action)
    for agent in agents:  # agents that hold resources (external bot processes) release them now
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    return GameRecord.from_state(state, players=[a.name for a in agents], seed=seed)


def _forfeit(state: State, player: int, reason: str) -> None:
    end_by = getattr(state, "end_by", None)
    if end_by is None:  # pragma: no cover - every game implements end_by
        raise RuntimeError(reason)
    winner = 1 - player if state.game.num_players == 2 else None
    end_by(Termination.FORFEIT, winner, reason)
