"""Reading an agent spec's single number option (`heuristic:blunder=0.3`, `policy:temperature=1`)."""

from __future__ import annotations

import math

from fogofwar.core.protocol import GameError


def number_option(agent: str, arg: str, key: str, lo: float, hi: float, default: float, meaning: str) -> float:
    """The value of `key` in `arg` (comma-separated KEY=VALUE), `default` when absent; a `GameError` names
    an unknown option, a value that is no number, or one outside lo..hi.

    >>> number_option("policy", "temperature=0.5", "temperature", 0, 100, 0.0, "T")
    0.5
    """
    value = default
    for part in filter(None, arg.split(",")):
        name, _, text = part.partition("=")
        if name != key:
            raise GameError(f"{agent}: unknown option {name!r}; use {key}={meaning} ({lo:g} to {hi:g})")
        try:
            value = float(text)
        except ValueError:
            raise GameError(f"{agent}: {key} must be a number from {lo:g} to {hi:g}, not {text!r}") from None
        if not math.isfinite(value) or not lo <= value <= hi:
            raise GameError(f"{agent}: {key} must be from {lo:g} to {hi:g}, not {text!r}")
    return value
