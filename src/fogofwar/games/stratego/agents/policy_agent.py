"""`policy` and `selfplay`: Stratego players that play the move a learned policy (`policy_model`) finds likeliest.

They look no move ahead. `policy` plays as the people of its training games would, on average: the yardstick
for imitation alone. `selfplay` plays the same net after self-play improved it (`selfplay_training`), and in
Barrage a net self-played further in Barrage. Options: `temperature=T` samples moves from P(move) ** (1 / T)
instead of taking the likeliest (seeded by the game's random source). Setups come from the search player's
guarded setups. In games that are not Stratego's (LOTR's own, say) they play as `heuristic`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from fogofwar.core.protocol import Game, Observation
from fogofwar.core.spec_options import number_option
from fogofwar.games.stratego.agents.heuristic import HeuristicAgent
from fogofwar.games.stratego.agents.search import guarded_setup
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import PLACE_BASE, StrategoGame
from fogofwar.games.stratego.variants import Variant, get_variant

if TYPE_CHECKING:
    from fogofwar.games.stratego.agents.policy_model import PolicyNet


class PolicyAgent(HeuristicAgent):
    name = "policy"
    weights = "policy_net.npz"  # which shipped net it plays (`policy_model.POLICY_FILE`)
    variant_weights: ClassVar[dict[str, str]] = {}  # variants with a net of their own, trained in them

    def __init__(self, temperature: float = 0.0) -> None:
        super().__init__(noise=0.05)
        self.temperature = temperature
        self._net: PolicyNet | None = None  # the shipped net in classic Stratego; None: play as `heuristic`

    @classmethod
    def from_spec(cls, arg: str) -> PolicyAgent:
        return cls(number_option(cls.name, arg, "temperature", 0.0, 100.0, 0.0, "T"))

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        super().start(game, player, rng)
        # Imported here, not at the top: the model needs the simulator's tables, which import numba, and
        # every front end that lists the agents imports this module.
        from fogofwar.games.stratego.agents.policy_model import shipped_net

        if isinstance(game, StrategoGame):
            own = self.variant_weights.get(game.variant.name)
            self._net = (shipped_net(own) if own else None) or shipped_net(self.weights)
        else:
            self._net = None


class SelfPlayAgent(PolicyAgent):
    """`selfplay`: the same player with the net improved by self-play (`fogofwar train selfplay`): no look-ahead,
    about a millisecond a move."""

    name = "selfplay"
    weights = "selfplay_net.npz"  # `fogofwar train selfplay`
    variant_weights: ClassVar[dict[str, str]] = {"barrage": "selfplay_barrage_net.npz"}  # ... --variant barrage

    def _setup_action(self, data: StrategoView, legal: Sequence[int]) -> int:
        if not self._setup:
            placement = self._placement(get_variant(str(data["variant"])))
            self._setup = [PLACE_BASE + int(r) * 100 + sq for sq, r in sorted(placement.items())]
        return super()._setup_action(data, legal)

    def _placement(self, variant: Variant) -> dict[int, Rank]:
        """The army's setup: the guarded one (`search.guarded_setup`), which self-play trained the net with."""
        return guarded_setup(variant, self._player, self._rng)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        data = stratego_view(observation.data)
        if data["phase"] == "setup" or self._net is None:
            return super().act(observation, legal_actions)
        probs = self._net.move_probabilities(data, legal_actions)
        if not probs:
            return super().act(observation, legal_actions)
        moves = sorted(probs)
        if self.temperature <= 0:
            return max(moves, key=lambda a: (probs[a], -a))
        weights = [probs[a] ** (1.0 / self.temperature) for a in moves]
        return self._rng.choices(moves, weights=weights)[0]
