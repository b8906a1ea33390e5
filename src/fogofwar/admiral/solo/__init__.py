"""Solo mode of Admiral: the "Admiral Stratego" computer opponent (docs/rules/admiral-solo.md)."""

from fogofwar.admiral.solo.agent import SOLO_TABLE, StrategoAgent, solo_value

__all__ = ["SOLO_TABLE", "StrategoAgent", "solo_value"]
