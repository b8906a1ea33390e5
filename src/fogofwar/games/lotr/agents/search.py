"""A stronger Stratego LOTR player: the LOTR heuristic, checked by a short look ahead over guesses.

Why this shape: the heuristic (`fogofwar.games.lotr.agents.heuristic`) knows the characters, the powers
and Game 3's Ring, and weighs where pieces go; what it misses are the short tactics (a piece left
where a stronger one takes it next move, a capture that loses the capturer to the recapture, the
flag left open). So every legal action keeps the heuristic's score, plus what a look ahead says
about it: in several guesses of the enemy army (each unknown enemy piece drawn from the
heuristic's own belief about it), the action is played on a copy of the position by the real
rules engine, then every reply of the enemy, and the material left is counted. The enemy is taken
to find its best reply in each guess (as if it knew our pieces), blended with its average reply,
since it does not.

The rules are never written twice: the guesses are positions of `LotrGame.state_from_position`,
played by `LotrState.apply`/`undo`. A guess cannot hold everything the real game remembers (the
Ring's fate, pieces taken prisoner, the back-and-forth count), so an action the guess does not
allow keeps the heuristic's score alone in that guess.

Spec: `search` for Stratego LOTR (registered for the game "lotr"), `search:guesses=N` (4 by default).
The look ahead's weight is measured per game (`WEIGHTS`): it plays in Game 1; in Games 2 and 3 the
agent plays as the heuristic does until a look ahead that knows the powers beats it. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fogofwar.core.protocol import GameError, Observation
from fogofwar.core.spec_options import number_option
from fogofwar.games.lotr.agents.heuristic import LotrHeuristicAgent
from fogofwar.games.lotr.observation import lotr_view
from fogofwar.games.lotr.powers import POWER_BASE, STOP
from fogofwar.games.lotr.rules import PLACE_BASE, LotrState

WIN = 10_000.0
"""What taking the flag (or any win) is worth, in the heuristic's material units."""
REPLY_FEAR = 0.6
"""Weight of the enemy's best reply in a guess, against the average of its replies (it cannot see all)."""
WEIGHTS = {"classic": 1.0, "powers": 0.0, "ring": 0.0}
"""The look ahead's weight in each game, as measured against the heuristic (the closing notes of the
project's history have the figures). In Games 2 and 3 a guess cannot know which powers are spent and
gives the enemy's powers a sight of our army they lack: there the look ahead did not help (against the
heuristic, 40 games each: Game 2 45%, Game 3 47.5%; Game 1 59% over 120), so it is off until it knows better."""


class LotrSearchAgent(LotrHeuristicAgent):
    name = "search"

    def __init__(self, guesses: int = 4) -> None:
        super().__init__(noise=0.3)
        self.guesses = guesses
        self._key_values: list[dict[str, float]] = [{}, {}]

    @classmethod
    def from_spec(cls, arg: str) -> LotrSearchAgent:
        """`search` or `search:guesses=N` (1 to 1000); `GameError` names a bad option."""
        guesses = number_option("search", arg, "guesses", 1, 1000, 4, "N")
        if guesses != int(guesses):
            raise GameError(f"search: guesses must be a whole number, not {guesses:g}")
        return cls(int(guesses))

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = lotr_view(observation.data)
        if self._game is None:
            raise RuntimeError("start() must be called before act()")
        weight = WEIGHTS.get(self._game.mode, 0.0)
        # An Uruk-Hai's second attack is left to the heuristic: a guess cannot be made to wait for it.
        if data["phase"] == "setup" or len(legal_actions) == 1 or weight <= 0 or data.get("pending") is not None:
            return super().act(observation, legal_actions)
        self._read(data)
        self._key_values = [
            {k.key: self._value(side, i) for i, k in enumerate(kinds)} for side, kinds in enumerate(self._kinds)
        ]
        ahead = self._look_ahead(legal_actions)
        return self._choose(legal_actions, {a: weight * v for a, v in ahead.items()})

    # --- the look ahead ------------------------------------------------------------------------------
    def _look_ahead(self, legal_actions: Sequence[int]) -> dict[int, float]:
        """Per action, the material it keeps after the enemy's reply, averaged over the guesses, minus
        the best action's (so 0 for the best, negative for the others)."""
        totals = dict.fromkeys(legal_actions, 0.0)
        counts = dict.fromkeys(legal_actions, 0)
        for _ in range(max(1, self.guesses)):
            state = self._guess()
            allowed = set(state.legal_actions())
            for action in legal_actions:
                if action not in allowed:
                    continue
                totals[action] += self._after(state, action)
                counts[action] += 1
        values = {a: totals[a] / counts[a] for a in legal_actions if counts[a]}
        if not values:
            return {}
        top = max(values.values())
        return {a: v - top for a, v in values.items()}

    def _guess(self) -> LotrState:
        """A whole position: our pieces as they are, each unknown enemy piece drawn from the belief."""
        game = self._game
        assert game is not None
        kinds = self._kinds
        rows = []
        for sq, c in enumerate(self._cells):
            if c is None:
                continue
            owner, kind, moved, revealed = c
            if kind < 0:
                dist = self._dist(sq)
                kind = _draw(dist, self._rng)
            rows.append((sq, owner, kinds[owner][kind].key, moved, revealed))
        return game.state_from_position(rows, to_move=self._me)

    def _after(self, state: LotrState, action: int) -> float:
        """Material (ours minus theirs) after `action` and the enemy's reply, in this guess."""
        me = self._me
        state.apply(action)
        try:
            if state.is_terminal():
                return self._final(state)
            if state.current_player() == me:  # our Uruk-Hai may attack again: stopping is always allowed
                if STOP in state.legal_actions():
                    state.apply(STOP)
                    try:
                        return self._reply_value(state)
                    finally:
                        state.undo()
                return self._material(state)
            return self._reply_value(state)
        finally:
            state.undo()

    def _reply_value(self, state: LotrState) -> float:
        if state.is_terminal():
            return self._final(state)
        worst = float("inf")
        total = 0.0
        replies = [a for a in state.legal_actions() if a < PLACE_BASE or a >= POWER_BASE]
        for reply in replies:
            state.apply(reply)
            value = self._final(state) if state.is_terminal() else self._material(state)
            state.undo()
            worst = min(worst, value)
            total += value
        if not replies:
            return self._material(state)
        return REPLY_FEAR * worst + (1.0 - REPLY_FEAR) * total / len(replies)

    def _final(self, state: LotrState) -> float:
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return WIN if outcome.winner == self._me else -WIN

    def _material(self, state: LotrState) -> float:
        """What the captures so far took from the enemy minus what they took from us, by the
        heuristic's scale (only the difference between actions counts)."""
        values = self._key_values
        me = self._me
        return sum(values[1 - me][k] for k in state.captured(1 - me)) - sum(values[me][k] for k in state.captured(me))


def _draw(dist: dict[int, float], rng: random.Random) -> int:
    """A kind drawn from {kind: probability}."""
    x = rng.random()
    last = -1
    for kind, p in dist.items():
        last = kind
        x -= p
        if x < 0:
            return kind
    return last


__all__ = ["LotrSearchAgent"]
