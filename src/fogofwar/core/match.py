"""The match runner: agents play a game through the core protocol, and the result is a record.

Its steps (`roll` the dice, let an agent `decide`, `forfeit` for it) are what every front end that seats a
computer player uses too (the terminals), so an agent that crashes or cheats loses the same way everywhere.
"""

from __future__ import annotations

import random
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
            action = roll(state, chance_rng)
        else:
            decision = decide(agents[player], state, player)
            if isinstance(decision, str):
                forfeit(state, player, decision)
                break
            action = decision
        state.apply(action)
        count += 1
        if on_action is not None:
            on_action(state, player, action)
    for agent in agents:  # agents that hold resources (external bot processes) release them now
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    return GameRecord.from_state(state, players=[a.name for a in agents], seed=seed)


def roll(state: State, rng: random.Random) -> int:
    """The chance player's action at a chance node: an outcome drawn with its probability from `rng`."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


def decide(agent: Agent, state: State, player: int, who: str | None = None) -> int | str:
    """The agent's action for `player`, or, as a string, why the agent forfeits instead: it gave up
    (`AgentForfeit`: an external bot that crashed or broke its protocol), it crashed, or it chose an
    action that is not legal. `who` names the agent in that reason (default: "agent NAME")."""
    who = who or f"agent {agent.name}"
    legal = state.legal_actions()
    try:
        action = agent.act(state.observation(player), legal)
    except AgentForfeit as exc:
        return f"{agent.name}: {exc}"
    except Exception as exc:  # an agent's crash is its loss, never the program's
        return f"{who} crashed: {exc!r}"
    if action not in legal:
        return f"{who} chose an illegal action {action!r}"
    return action


def forfeit(state: State, player: int, reason: str) -> None:
    """End the game: `player` forfeits (in a two-player game the other seat wins) for `reason`."""
    winner = 1 - player if state.game.num_players == 2 else None
    state.end_by(Termination.FORFEIT, winner, reason)
