"""One player's turns along classic game records, for the benchmarks that read them (`predict_moves.py`,
`belief_draws.py`): each replays the records and looks at what that player saw before each of its moves.

RUN is a `benchmarks/strength.py --out` folder (its `games` holds one JSON record a game).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from fogofwar.core.protocol import Game
from fogofwar.core.records import GameRecord
from fogofwar.core.registry import make_game
from fogofwar.games.stratego.observation import StrategoView, stratego_view
from fogofwar.games.stratego.rules import StrategoState


def player_games(
    folders: Sequence[Path], player: str, limit: int = 0, skip: int = 0
) -> Iterator[tuple[GameRecord, Game, int]]:
    """Each record of `folders` (at most `limit` a folder after the first `skip`; 0: all) that `player` played: the
    record, its game and the player's seat."""
    for folder in folders:
        for path in sorted(folder.glob("*.json"))[skip : skip + limit if limit else None]:
            record = GameRecord.load(path)
            if player in record.players:
                yield record, make_game(record.game, **record.options), record.players.index(player)


def play_turns(record: GameRecord, game: Game, seat: int) -> Iterator[tuple[StrategoState, StrategoView, int]]:
    """`seat`'s play-phase turns along `record`: the state before the move, what the seat saw of it, and the move
    it played. The state is the replay's own, one move on at the next turn."""
    state = game.new_initial_state()
    assert isinstance(state, StrategoState)
    for action in record.actions:
        if state.current_player() == seat:
            data = stratego_view(state.observation(seat).data)
            if data["phase"] != "setup":
                yield state, data, action
        state.apply(action)
