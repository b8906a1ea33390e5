"""`expert` for Stratego LOTR: classic Stratego's `expert` (search with the learned move prior) playing Game 1.

Each LOTR observation is translated into the classic Stratego observation it amounts to (the characters become
their ranks: a Fortress a bomb, a Knight a scout; a Forbidden Zone a lake; captured characters their ranks; the
battles of the last moves by rank), and the Stratego agent's choice, a move id `from * 100 + to`, is the same id
in both games. Its setup is the Stratego agent's, each rank placed as a character of that rank. What does not
translate is left to LOTR's own `search`: Games 2 and 3 (the powers and the Ring change what a piece does) and
the captured-piece modes that hide captured pieces (the Stratego belief counts what is left of the enemy army
from them).

Spec: `expert` (classic Stratego's `search:prior=0.01`), `expert:OPTIONS` with any option of classic Stratego's
`search` after those (e.g. `expert:guesses=48`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from fogofwar.core.agents import register_agent
from fogofwar.core.protocol import JSON, Game, GameError, Observation
from fogofwar.games.lotr.agents.search import LotrSearchAgent
from fogofwar.games.lotr.observation import LotrView, lotr_view
from fogofwar.games.lotr.rules import PLACE_BASE, LotrGame
from fogofwar.games.stratego.agents.search import SearchAgent, guarded_setup, parse_spec
from fogofwar.games.stratego.pieces import Rank
from fogofwar.games.stratego.rules import StrategoGame
from fogofwar.games.stratego.variants import get_variant

EXPERT = "prior=0.01"
"""Classic Stratego's `expert` level (its levels.toml): the search with the learned move prior at weight 0.01."""

_LABELS = {"flag": Rank.FLAG, "spy": Rank.SPY, "fortress": Rank.BOMB}


def rank_of_label(label: str) -> Rank:
    """The classic rank of a LOTR rank label ('2'..'10', 'spy', 'fortress', 'flag'): the numbers are the same.

    >>> rank_of_label("10").name, rank_of_label("fortress").name, rank_of_label("2").name
    ('MARSHAL', 'BOMB', 'SCOUT')
    """
    return _LABELS[label] if label in _LABELS else Rank(int(label))


def _rank_name(label: str) -> str:
    return rank_of_label(label).name.lower()


def stratego_observation(data: LotrView, game: LotrGame) -> dict[str, JSON]:
    """The classic Stratego observation (`StrategoView`'s keys) that a Game 1 observation with captured pieces in
    view (`captured_mode` "free") amounts to."""
    board: list[JSON] = []
    for cell in data["board"]:
        if cell == "zone":
            board.append("lake")
        elif cell is None:
            board.append(None)
        else:
            rank = cell["rank"]
            board.append(
                {
                    "owner": cell["owner"],
                    "rank": None if rank is None else _rank_name(rank),
                    "moved": cell["moved"],
                    "revealed": cell["revealed"],
                }
            )
    captured: list[JSON] = []
    for seat, keys in enumerate(data["captured"]):
        if keys is None:
            raise GameError("the captured pieces are hidden in this game: the Stratego model cannot count the armies")
        army = game.army(seat)
        captured.append([Rank(army.kinds[army.index(k)].rank).name.lower() for k in keys])
    recent: list[JSON] = [_move(ev) for ev in data["recent_moves"]]
    last = data["last_move"]
    return {
        "game": "stratego",
        "variant": "classic",
        "player": data["player"],
        "phase": data["phase"],
        "to_move": data["to_move"],
        "move_count": data["move_count"],
        "board": board,
        "captured": captured,
        "last_move": None if last is None else _move(last),
        "recent_moves": recent,
        "to_place": {},
        "outcome": data["outcome"],
    }


def _move(ev: Mapping[str, JSON]) -> dict[str, JSON]:
    """A LOTR move event as classic Stratego's (`MoveView`): ranks by their classic names."""
    out: dict[str, JSON] = {"player": ev["player"], "from": ev["from"], "to": ev["to"]}
    for side in ("attacker", "defender"):
        label = ev.get(f"{side}_rank")
        if isinstance(label, str):
            out[side] = _rank_name(label)
    if "result" in ev:
        out["result"] = ev["result"]
    return out


class LotrExpertAgent:
    """Classic Stratego's `expert` at a Game 1 table; LOTR's `search` where the games differ (module docstring)."""

    name = "expert"

    def __init__(self, options: str = "") -> None:
        self._spec = ",".join(filter(None, (EXPERT, options)))
        self._stratego: SearchAgent = parse_spec(self._spec)  # refuses a bad option now, not at the first move
        self._fallback = LotrSearchAgent()
        self._game: LotrGame | None = None
        self._player = 0
        self._rng = random.Random(0)
        self._setup: list[int] = []
        self._translating = False

    @property
    def translating(self) -> bool:
        """Whether it plays the game started last as classic Stratego's `expert` (else as LOTR's `search`)."""
        return self._translating

    @classmethod
    def from_spec(cls, arg: str) -> LotrExpertAgent:
        """`expert` or `expert:OPTIONS` (options of classic Stratego's `search`); `GameError` names a bad one."""
        return cls(arg)

    def start(self, game: Game, player: int, rng: random.Random) -> None:
        if not isinstance(game, LotrGame):
            raise GameError(f"expert for Stratego LOTR cannot play {game.name}")
        self._game, self._player, self._rng = game, player, rng
        self._setup = []
        self._translating = game.mode == "classic" and game.captured_mode == "free"
        if self._translating:
            self._stratego = parse_spec(self._spec)
            # The same board, army and battles; LOTR's back-and-forth limit stands for the two-squares rule.
            classic = StrategoGame("classic", two_squares=game.back_and_forth, more_squares=False, max_moves=0)
            self._stratego.start(classic, player, rng)
        else:
            self._fallback.start(game, player, rng)

    def act(self, observation: Observation, legal_actions: Sequence[int]) -> int:
        if not self._translating:
            return self._fallback.act(observation, legal_actions)
        data = lotr_view(observation.data)
        if data["phase"] == "setup":
            return self._setup_action(legal_actions)
        translated = Observation(observation.player, stratego_observation(data, self._lotr_game()))
        return self._stratego.act(translated, legal_actions)

    def _lotr_game(self) -> LotrGame:
        assert self._game is not None, "start() comes first"
        return self._game

    def _setup_action(self, legal: Sequence[int]) -> int:
        """The Stratego agent's setup, each rank placed as one of the characters of that rank still to place."""
        if not self._setup:
            army = self._lotr_game().army(self._player)
            left = {i: k.count for i, k in enumerate(army.kinds)}
            placement = guarded_setup(get_variant("classic"), self._player, self._rng)
            for sq, rank in sorted(placement.items()):
                kind = next(i for i, k in enumerate(army.kinds) if k.rank == int(rank) and left[i] > 0)
                left[kind] -= 1
                self._setup.append(PLACE_BASE + kind * 100 + sq)
        allowed = set(legal)
        while self._setup:
            action = self._setup.pop(0)
            if action in allowed:
                return action
        return self._rng.choice(list(legal))


register_agent("expert", LotrExpertAgent.from_spec, "lotr", title="Expert")
