"""Reading an agent spec's number options (`heuristic:blunder=0.3`, `rollout:guesses=16,depth=10`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from fogofwar.core.protocol import GameError


@dataclass(frozen=True)
class NumberOption:
    """One option an agent's spec may set: its bounds, its default, a word for its value (`N`, `P`, `SECONDS`)
    and whether it must be a whole number."""

    lo: float
    hi: float
    default: float
    meaning: str
    whole: bool = False


def number_options(agent: str, arg: str, options: Mapping[str, NumberOption]) -> dict[str, float]:
    """Every option's value from `arg` (comma-separated KEY=VALUE), defaults for those absent; a `GameError`
    names an unknown option, a value that is no number (or no whole number), or one out of bounds.

    >>> number_options("rollout", "depth=4", {"depth": NumberOption(0, 50, 8, "N", whole=True),
    ...                                       "prior": NumberOption(0, 1, 0.01, "W")})
    {'depth': 4.0, 'prior': 0.01}
    """
    values = {key: opt.default for key, opt in options.items()}
    for part in filter(None, arg.split(",")):
        name, _, text = part.partition("=")
        opt = options.get(name)
        if opt is None:
            known = ", ".join(f"{k}={o.meaning} ({o.lo:g} to {o.hi:g})" for k, o in options.items())
            raise GameError(f"{agent}: unknown option {name!r}; use {known}")
        kind = "a whole number" if opt.whole else "a number"
        try:
            value = float(text)
        except ValueError:
            raise GameError(f"{agent}: {name} must be {kind} from {opt.lo:g} to {opt.hi:g}, not {text!r}") from None
        if not math.isfinite(value) or not opt.lo <= value <= opt.hi or (opt.whole and value != int(value)):
            raise GameError(f"{agent}: {name} must be {kind} from {opt.lo:g} to {opt.hi:g}, not {text!r}")
        values[name] = value
    return values


def number_option(agent: str, arg: str, key: str, lo: float, hi: float, default: float, meaning: str) -> float:
    """The value of the one option `key` an agent takes (see `number_options`).

    >>> number_option("policy", "temperature=0.5", "temperature", 0, 100, 0.0, "T")
    0.5
    """
    return number_options(agent, arg, {key: NumberOption(lo, hi, default, meaning)})[key]
