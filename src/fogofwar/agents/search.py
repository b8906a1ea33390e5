"""The strong Stratego player: determinized two-ply search over a belief about the hidden pieces.

Why this method: full information-set MCTS needs many thousands of playouts a move to
beat a sound heuristic, which plain Python cannot afford at a second a move. Stratego's
tactics are short (a capture, a recapture, a piece walking into a bomb), while its strategy
is about where the hidden pieces are. So the agent spends its budget on the belief:
it samples many complete guesses of the enemy ranks from `BeliefTracker` (real-game setup
statistics, moves seen, ranks revealed), and in each guess checks every legal move against
the opponent's best material reply. The averaged result replaces the heuristic's danger
estimate; the heuristic's sense of direction (approach what you expect to beat, do not
step straight back) guides quiet moves. Deterministic for a given seed and budget.

Spec: `search` (24 guesses a move), `search:guesses=48`, `search:time=0.5` (seconds a
move, as a cap on the guesses; time makes play depend on the machine's speed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from fogofwar.agents.belief import BeliefTracker
from fogofwar.agents.heuristic import HeuristicAgent, attack_value
from fogofwar.agents.knowledge import FLAG, VALUE, Knowledge
from fogofwar.core.protocol import Game, GameError, Observation
from fogofwar.stratego.rules import RANK_MASK, StrategoGame, StrategoState, battle

_VALUE = {int(r): v for r, v in VALUE.items()}
_OWNER_BIT = 16


def _battle_gain(attacker: int, defender: int) -> float:
    """Material swing for the attacking side of a battle between two known ranks."""
    win, survive = battle(attacker, defender)
    if win and not survive:
        return _VALUE[defender]
    if not win and survive:
        return -_VALUE[attacker]
    return _VALUE[defender] - _VALUE[attacker]


class SearchAgent(HeuristicAgent):
    name = "search"

    def __init__(self, guesses: int = 24, seconds: float | None = None) -> None:
        super().__init__(noise=0.05)
        self.guesses = guesses
        self.seconds = seconds
        self._belief = BeliefTracker()
        self._game: StrategoGame | None = None

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        super().start(game, player, rng)
        self._belief = BeliefTracker()
        self._game = None
        if isinstance(game, StrategoGame):
            # Guesses are judged without repetition rules: the real legal moves are filtered already.
            self._game = StrategoGame(game.variant.name, two_squares=0, more_squares=False)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = observation.data
        if data["phase"] == "setup" or self._game is None:
            return super().act(observation, legal_actions)
        self._belief.update(data)
        know = Knowledge.from_observation(data)
        marginals = self._belief.marginals(know)
        # The heuristic's quiet-move terms, with the belief's marginals instead of a uniform pool.
        original = know.rank_distribution

        def believed(sq: int) -> dict[int, float]:
            return marginals.get(sq) or original(sq)

        know.rank_distribution = believed  # type: ignore[method-assign]
        targets = self._targets(know)
        potentials: dict[tuple[int, int], float] = {}
        base: dict[int, float] = {}
        for action in legal_actions:
            src, dst = divmod(action, 100)
            base[action] = self._quiet_score(know, src, dst, targets, potentials)
        tactic = self._tactics(know, marginals, legal_actions)
        best, best_score = legal_actions[0], float("-inf")
        for action in legal_actions:
            score = base[action] + tactic[action] + self._rng.random() * self._noise
            if score > best_score:
                best, best_score = action, score
        src, dst = divmod(best, 100)
        self._last = {dst: src}
        return best

    def _quiet_score(
        self,
        know: Knowledge,
        src: int,
        dst: int,
        targets: list[tuple[int, dict[int, float]]],
        potentials: dict[tuple[int, int], float],
    ) -> float:
        cell = know.cells[src]
        assert cell is not None and cell.rank is not None
        piece = cell.rank
        target = know.cells[dst]
        if target is not None:
            return 2.0 if target.rank is None else 0.0  # the battle itself is scored by the search
        gain = self._potential(piece, dst, targets, potentials) - self._potential(piece, src, targets, potentials)
        score = 3.0 * gain
        if self._last.get(src) == dst:
            score -= 1.5
        if piece == 2 and abs(src - dst) not in (1, 10):
            score -= 1.0
        return score

    def _tactics(
        self, know: Knowledge, marginals: dict[int, dict[int, float]], legal_actions: Sequence[int]
    ) -> dict[int, float]:
        """Average over sampled guesses of: the move's battle result minus the opponent's best reply."""
        assert self._game is not None
        totals = dict.fromkeys(legal_actions, 0.0)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        me = know.player
        for _ in range(self.guesses):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            guess = self._belief.sample(know, marginals, self._rng)
            pieces = []
            for sq, c in enumerate(know.cells):
                if c is None:
                    continue
                rank = c.rank if c.rank is not None else guess.get(sq)
                if rank is None:
                    continue
                pieces.append((sq, c.owner, rank))
            try:
                state = self._game.state_from_position(pieces, to_move=me)
            except GameError:
                continue
            if state.is_terminal():
                continue
            self._score_guess(state, know, legal_actions, totals)
            done += 1
        if done:
            for a in totals:
                totals[a] /= done
        return totals

    def _score_guess(
        self, state: StrategoState, know: Knowledge, legal_actions: Sequence[int], totals: dict[int, float]
    ) -> None:
        board = state._board  # read-only use of the compact board for speed
        legal_here = set(state.legal_actions())
        for action in legal_actions:
            if action not in legal_here:
                continue
            src, dst = divmod(action, 100)
            code_a, code_d = board[src], board[dst]
            moving = know.cells[src]
            moving_revealed = moving is not None and moving.revealed
            gain = 0.0
            if code_d:
                d_rank = code_d & RANK_MASK
                if d_rank == FLAG:
                    totals[action] += 1000.0
                    continue
                gain = _battle_gain(code_a & RANK_MASK, d_rank)
            state.apply(action)
            if state.is_terminal():
                outcome = state.outcome()
                reply = 0.0 if outcome is None or outcome.winner != know.player else -1000.0
                totals[action] += gain + (1000.0 if outcome and outcome.winner == know.player else reply)
                state.undo()
                continue
            worst = 0.0
            b = state._board
            for reply_action in state.legal_actions():
                r_src, r_dst = divmod(reply_action, 100)
                target = b[r_dst]
                if not target:
                    continue
                t_rank = target & RANK_MASK
                if r_dst == dst:
                    shown = bool(code_d) or moving_revealed
                else:
                    cell = know.cells[r_dst]
                    shown = cell is not None and cell.revealed
                if t_rank == FLAG:
                    value = 1000.0 if shown else 300.0
                else:
                    value = _battle_gain(b[r_src] & RANK_MASK, t_rank)
                    if value > 0 and not shown:
                        value *= 0.5  # the opponent does not know what it would hit
                if value > worst:
                    worst = value
            state.undo()
            totals[action] += gain - worst


def _parse_spec(arg: str) -> SearchAgent:
    kwargs: dict[str, float | int] = {}
    for part in filter(None, arg.split(",")):
        key, _, value = part.partition("=")
        if key == "guesses":
            kwargs["guesses"] = int(value)
        elif key == "time":
            kwargs["seconds"] = float(value)
        else:
            raise GameError(f"search: unknown option {key!r}; use guesses=N or time=SECONDS")
    return SearchAgent(**kwargs)  # type: ignore[arg-type]


__all__ = ["SearchAgent", "attack_value"]
