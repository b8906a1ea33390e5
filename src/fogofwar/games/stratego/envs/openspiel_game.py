"""Stratego as an OpenSpiel game registered from Python: `pyspiel.load_game("python_fogofwar_stratego")`.

Importing this module registers the game (once). Parameters: `variant` ("classic", "barrage", "duel"),
`max_moves` (0 = the environments' default cap: 2,000 classic, 1,000 Barrage and duel; a game must end),
`two_squares` (default 5, 0 = off), `more_squares` (default true).

>>> import pyspiel
>>> game = pyspiel.load_game("python_fogofwar_stratego", {"variant": "barrage"})
>>> game.num_distinct_actions(), game.observation_tensor_shape()
(1368, [45, 10, 10])

Game flow: the setups are chance events. The chance player places red's pieces one by one in the roster's
order (strongest first), each on a uniformly chosen empty square of red's four home rows (a chance outcome
is that square, 0..99), then blue's: a uniformly random setup for each side. Each player sees only its own
placements. Then the players move; a player action is a compact move id (0..1367, `fogofwar.games.stratego.envs.common`;
`to_move_id` gives the reference id `from * 100 + to`). Rewards +1 / -1 / 0 at the end (terminal rewards,
zero-sum). The rules are the reference engine's (`fogofwar.games.stratego.rules`), which the state wraps.

Tensors
-------
* observation tensor, shape (45, 10, 10): the planes of `fogofwar.games.stratego.sim.planes`, from the player's seat:
  0-11 own pieces by rank, 12-23 known enemy ranks, 24 moved unknown enemy pieces, 25 unmoved unknown enemy
  pieces, 26 lakes, 27-30 the last two moves (from/to), 31 own pieces the enemy has seen, 32 own pieces
  that moved, 33-44 unaccounted enemy pieces per rank (constant planes).
* information-state tensor, shape (45 + 2 * HISTORY, 10, 10): the observation planes, then the from- and
  to-squares of the last HISTORY (= 32) moves, most recent first (planes 45 + 2k and 46 + 2k for the k-th
  latest move). It is a fixed-size summary; the information-state *string* is the exact perfect-recall
  information state: the player's own setup and every move as everybody saw it (squares, ranks shown by
  battles and scout moves, battle results).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from fogofwar.games.stratego.envs.common import (
    NUM_ACTIONS,
    OBS_SHAPE,
    legal_mask,
    planes,
    to_action,
    to_move_id,
)
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import DEFAULT_TWO_SQUARES, PLACE_BASE, StrategoGame, StrategoState
from fogofwar.games.stratego.sim.planes import NUM_PLANES
from fogofwar.games.stratego.variants import DEFAULT_CAPS, get_variant
from fogofwar.grid.board import SIZE, square_name

GAME_NAME = "python_fogofwar_stratego"
HISTORY = 32
INFO_SHAPE = (NUM_PLANES + 2 * HISTORY, SIZE, SIZE)

_DEFAULTS: dict[str, Any] = {
    "variant": "classic",
    "max_moves": 0,
    "two_squares": DEFAULT_TWO_SQUARES,
    "more_squares": True,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="fogofwar Stratego (ISF rules, reference engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class StrategoSpielGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        variant = get_variant(str(p["variant"]))
        if variant.composition != "exact":
            raise ValueError(f"{variant.name}: the OpenSpiel game needs a variant with a fixed roster")
        cap = int(p["max_moves"]) or DEFAULT_CAPS.get(variant.name, 2000)
        self.rules = StrategoGame(
            variant.name, two_squares=int(p["two_squares"]), more_squares=bool(p["more_squares"]), max_moves=cap
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=SIZE * SIZE,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * variant.army_size + cap,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> StrategoSpielState:
        return StrategoSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> StrategoObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return StrategoObserver(perfect_recall, params)


class _Holder:
    """Holds the rules state so that OpenSpiel's clone (a deepcopy) uses the engine's fast `clone()`."""

    __slots__ = ("state",)

    def __init__(self, state: StrategoState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.state.clone())


class StrategoSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: StrategoSpielGame) -> None:
        super().__init__(game)
        self._holder = _Holder(game.rules.new_initial_state())

    @property
    def rules(self) -> StrategoState:
        """The reference engine's state this OpenSpiel state wraps."""
        return self._holder.state

    # --- whose turn -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.rules.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.rules.phase == "setup":
            return int(pyspiel.PlayerId.CHANCE)
        return self.rules.current_player()

    def _next_rank(self) -> int:
        """The rank chance places next for the side setting up: the roster's order, strongest first."""
        left = self.rules.pieces_to_place(self.rules.current_player())
        for rank, _ in self.rules.game.variant.roster:
            if left.get(rank, 0):
                return int(rank)
        raise AssertionError("no piece left to place")  # pragma: no cover

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rank = self._next_rank()
        legal = self.rules.legal_actions()
        squares = sorted({(a - PLACE_BASE) % 100 for a in legal if (a - PLACE_BASE) // 100 == rank})
        p = 1.0 / len(squares)
        return [(sq, p) for sq in squares]

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.rules.current_player() or self.rules.phase != "play":
            return []
        return sorted(to_action(m) for m in self.rules.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.rules.phase == "setup":
            self.rules.apply(PLACE_BASE + self._next_rank() * 100 + int(action))
        else:
            self.rules.apply(to_move_id(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"place on {square_name(int(action))}"
        move = to_move_id(int(action))
        return f"{square_name(move // 100)}-{square_name(move % 100)}"

    def is_terminal(self) -> bool:
        return self.rules.is_terminal()

    def returns(self) -> list[float]:
        return self.rules.returns()

    def __str__(self) -> str:
        return json.dumps(self.rules.to_json(), separators=(",", ":"))


def _info_state_string(state: StrategoState, player: int) -> str:
    """Perfect recall: the player's own placements, then every move as everybody saw it."""
    own = []
    for action in state.history:
        if action >= PLACE_BASE:
            rank, sq = divmod(action - PLACE_BASE, 100)
            if (sq // SIZE < 5) == (player == 0):
                own.append(f"{Rank(rank).symbol()}@{square_name(sq)}")
    moves = [json.dumps(ev.to_json(), separators=(",", ":")) for ev in state.public_history()]
    return f"p{player} setup {' '.join(own)} | " + " ".join(moves)


class StrategoObserver:
    """PyObserver: the planes (and, with perfect recall, the move history planes) of one player."""

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = perfect_recall
        shape = INFO_SHAPE if perfect_recall else OBS_SHAPE
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        view = self.tensor.reshape(shape)
        self.dict: dict[str, np.ndarray] = {"info_state" if perfect_recall else "observation": view}
        self._planes = view[:NUM_PLANES]
        self._history = view[NUM_PLANES:]

    def set_from(self, state: StrategoSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        rules = state.rules
        self._planes[:] = planes(rules, player)
        if self.perfect_recall:
            hist = self._history
            for k, ev in enumerate(reversed(rules.public_history()[-HISTORY:])):
                hist[2 * k, ev.src // SIZE, ev.src % SIZE] = 1.0
                hist[2 * k + 1, ev.dst // SIZE, ev.dst % SIZE] = 1.0

    def string_from(self, state: StrategoSpielState, player: int) -> str:
        if self.perfect_recall:
            return _info_state_string(state.rules, player)
        return state.rules.observation(player).text


def legal_action_mask(state: StrategoSpielState) -> np.ndarray:
    """The compact legal-action mask of the side to move (all zeros at chance nodes and at the end)."""
    return legal_mask(state.rules)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, StrategoSpielGame)
