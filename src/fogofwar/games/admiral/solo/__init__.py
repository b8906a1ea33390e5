"""Solo mode of Admiral: the "Admiral Stratego" computer opponent (docs/rules/admiral-solo.md). The solo rules
themselves are the engine's option `AdmiralGame(solo_seat=...)`."""

from fogofwar.games.admiral.solo.agent import SOLO_TABLE, Explanation, StrategoAgent, solo_value

__all__ = ["SOLO_TABLE", "Explanation", "StrategoAgent", "solo_value"]
