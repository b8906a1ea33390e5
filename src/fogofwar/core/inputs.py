"""Checks of what callers hand to the engines' public entry points, one helper per concern.

Whatever a client or a file sends reaches `apply`, `observation`, `state_from_json`, the game options
and the setup readers. Each of those must answer a bad value with a `GameError` subclass that says what
is wrong, before it changes anything, instead of the TypeError or AttributeError some operation deep
inside would raise (an unhandled crash for the server) or a silent coercion (a bool played as action 1,
a misspelt key ignored). Every game uses these same helpers (Stratego, LOTR and Admiral), so a value is
refused the same way, with the same words, everywhere. Nothing here knows a game.

The checks stay off the hot paths: `apply` only calls `action_id` when `type(action) is not int`.
"""

from __future__ import annotations

import math
import operator
import reprlib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from fogofwar.core.protocol import (
    JSON,
    GameError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidSetupError,
    NotationError,
    RecordError,
    State,
    Termination,
)
from fogofwar.core.state_json import OUTSIDE_ENDINGS, replay_actions

G = TypeVar("G")
S = TypeVar("S", bound=State)

_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlong = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 4


def show(value: object) -> str:
    """A value as an error message quotes it: a repr cut in length and depth, since it may be anything
    a client sent (a megabyte of text, a list nested a thousand deep).

    >>> show("x" * 1000)[:12], len(show("x" * 1000)) < 70, show([[[[1]]]])
    ("'xxxxxxxxxxx", True, '[[[[...]]]]')
    """
    try:
        return _SHORT.repr(value)
    except Exception:  # a caller's object whose __repr__ fails still gets a message
        return f"<{type(value).__name__}>"


def printable(text: str) -> str:
    """`text` safe to print or quote: characters that are not printable (a terminal escape in a file name, a
    lone surrogate from bytes that are not UTF-8) are written as Python escapes.

    >>> printable("a\\x1b[2Jb"), printable("ok")
    ('a\\\\x1b[2Jb', 'ok')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def json_problem(data: object, *, max_depth: int, max_int_digits: int, root: str) -> str | None:
    """What makes parsed JSON unfit to keep or echo, as "where: problem", or None: nesting deeper than
    `max_depth`, an integer longer than `max_int_digits` digits, NaN or infinity, a string with a lone
    surrogate (it could never be written back as UTF-8), an object key that is not a string, a value that
    is not JSON. Walks without recursion, so any depth is safe; `root` names the whole value."""
    limit = 10**max_int_digits
    stack: list[tuple[object, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        problem: str | None = None
        if isinstance(value, dict):
            if depth > max_depth:
                problem = f"nested deeper than {max_depth} levels"
            else:
                for key, item in value.items():
                    if not isinstance(key, str):
                        problem = f"an object key that is not a string ({show(key)})"
                        break
                    problem = _text_problem(key)
                    if problem:
                        break
                    stack.append(
                        (item, depth + 1, where if depth > 3 else f"{where}.{key[:30]}" if where else key[:30])
                    )
        elif isinstance(value, list):
            if depth > max_depth:
                problem = f"nested deeper than {max_depth} levels"
            else:
                stack.extend((item, depth + 1, where) for item in value)
        elif isinstance(value, str):
            problem = _text_problem(value)
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, int):
            if not -limit < value < limit:
                digits = int(value.bit_length() * math.log10(2))
                problem = f"an integer of about {digits:,} digits (the cap is {max_int_digits})"
        elif isinstance(value, float):
            if not math.isfinite(value):
                problem = f"{value!r} (NaN or Infinity) is not a JSON number"
        else:
            problem = f"a {type(value).__name__} is not a JSON value"
        if problem:
            return f"{printable(where or root)}: {problem}"
    return None


def _text_problem(text: str) -> str | None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"a string with a lone surrogate (U+{ord(text[exc.start]):04X}), which is not Unicode text"
    return None


def whole_number(value: object) -> int | None:
    """`value` as a plain int if it is an integer (an int, an IntEnum, numpy's integers), else None.

    A bool is not a number here although Python says True == 1: as an action id, a seat or a count it
    is always a mistake (True would play action 1).

    >>> whole_number(3), whole_number(True), whole_number(3.0), whole_number("3")
    (3, None, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # any object: TypeError says it is no integer
    except TypeError:
        return None


def not_an_action_id(value: object, game: str) -> str:
    """The message for an action that is not an integer (notation belongs to `string_to_action`)."""
    return (
        f"{show(value)} is not an action id of {game}: an action id is an integer "
        f"(not {type(value).__name__}); read notation with string_to_action"
    )


def action_id(value: object, game: str) -> int:
    """`value` as an action id, or `IllegalActionError`. Call it only when `type(value) is not int`."""
    number = whole_number(value)
    if number is None:
        raise IllegalActionError(not_an_action_id(value, game))
    return number


def action_in_range(value: object, game: str, num_actions: int) -> int:
    """`value` as an id between 0 and `num_actions` - 1 (what `action_to_string` can write), or
    `IllegalActionError`."""
    number = value if type(value) is int else action_id(value, game)
    if not 0 <= number < num_actions:
        raise IllegalActionError(f"{show(number)} is not an action id of {game} (0 to {num_actions - 1})")
    return number


def seat(
    value: object, names: Sequence[str], what: str = "player", error: type[GameError] = InvalidArgumentError
) -> int:
    """`value` as a seat number 0..len(names)-1; `error` names the seats otherwise.

    >>> seat(1, ("red", "blue"))
    1
    >>> seat(7, ("red", "blue"))
    Traceback (most recent call last):
    ...
    fogofwar.core.protocol.InvalidArgumentError: player must be 0 (red) or 1 (blue), not 7
    """
    if type(value) is int and 0 <= value < len(names):
        return value
    number = whole_number(value)
    if number is not None and 0 <= number < len(names):
        return number
    seats = " or ".join(f"{i} ({name})" for i, name in enumerate(names))
    raise error(f"{what} must be {seats}, not {show(value)}")


def integer(
    value: object,
    what: str,
    lo: int | None = None,
    hi: int | None = None,
    error: type[GameError] = InvalidArgumentError,
) -> int:
    """`value` as a whole number within [lo, hi] (either bound may be open); `error` says which otherwise."""
    number = value if type(value) is int else whole_number(value)
    if number is not None and (lo is None or number >= lo) and (hi is None or number <= hi):
        return number
    if lo is not None and hi is not None:
        bounds = f" from {lo} to {hi}"
    elif lo is not None:
        bounds = f" >= {lo}"
    elif hi is not None:
        bounds = f" <= {hi}"
    else:
        bounds = ""
    raise error(f"{what} must be a whole number{bounds}, not {show(value)}")


def flag(value: object, what: str, error: type[GameError] = InvalidArgumentError) -> bool:
    """`value` if it is a bool: "no", 0 or [] are not read as a yes or a no."""
    if isinstance(value, bool):
        return value
    raise error(f"{what} must be true or false, not {show(value)}")


def text(value: object, what: str, error: type[GameError] = NotationError) -> str:
    """`value` if it is a str; `error` says it must be text otherwise."""
    if isinstance(value, str):
        return value
    raise error(f"{what} must be text, not {type(value).__name__} {show(value)}")


def one_of(value: object, what: str, choices: Collection[str], error: type[GameError] = InvalidArgumentError) -> str:
    """`value` if it is one of the `choices` (strings); `error` lists them otherwise."""
    if isinstance(value, str) and value in choices:
        return value
    raise error(f"{what} must be one of {', '.join(choices)}, not {show(value)}")


def json_object(
    value: object,
    what: str,
    known: Collection[str],
    error: type[GameError] = RecordError,
    required: Collection[str] = (),
) -> Mapping[str, Any]:
    """`value` as an object whose keys are all `known` (and hold the `required` ones): a misspelt key is
    refused by name, never ignored (the reader would silently take the default instead)."""
    if not isinstance(value, Mapping):
        raise error(f"{what} must be an object, not {type(value).__name__} {show(value)}")
    for key in value:
        if not isinstance(key, str) or key not in known:
            raise error(f"{what}: unknown key {show(key)} (known: {', '.join(sorted(known))})")
    for key in required:
        if key not in value:
            raise error(f"{what}: {key!r} is missing")
    return value


def json_list(
    value: object, what: str, error: type[GameError] = RecordError, length: int | None = None
) -> Sequence[Any]:
    """`value` as a list (or tuple), of `length` items if given; a string or a mapping is not a list here."""
    if not isinstance(value, list | tuple):
        raise error(f"{what} must be a list, not {type(value).__name__} {show(value)}")
    if length is not None and len(value) != length:
        raise error(f"{what} must have {length} items, not {len(value)}")
    return value


# --- games and their options ---------------------------------------------------------------------------


def grid_pieces(
    rows: Iterable[object],
    *,
    squares: int,
    forbidden: Collection[int],
    why_forbidden: Callable[[int], str],
    kinds: Sequence[int],
    kind_word: str,
    seat_names: Sequence[str],
    square_name: Callable[[int], str],
) -> list[tuple[int, int, int, bool, bool]]:
    """The pieces of a crafted start on a square grid, each (square, owner, kind, moved, revealed) and checked
    with no coercion, so that the start `to_json` writes is the one given (Stratego and LOTR).
    `forbidden` squares hold no piece (`why_forbidden(sq)` says why: a lake); `kinds[owner]` is how many kinds
    that owner's army has. Engines build positions by the thousand: a well-formed row is taken at once, and
    the checks that explain a bad one run only for it."""
    out: list[tuple[int, int, int, bool, bool]] = []
    for row in rows:
        if type(row) is tuple and len(row) == 5:
            sq, owner, kind, moved, revealed = row
            if (
                type(sq) is int
                and type(owner) is int
                and type(kind) is int
                and type(moved) is bool
                and type(revealed) is bool
                and 0 <= sq < squares
                and sq not in forbidden
                and 0 <= owner <= 1
                and 0 <= kind < kinds[owner]
            ):
                out.append(row)
                continue
        what = f"a piece (square, owner, {kind_word}, moved, revealed)"
        sq, owner, kind, moved, revealed = json_list(row, what, InvalidSetupError, 5)
        square = integer(sq, "a square", 0, squares - 1, InvalidSetupError)
        if square in forbidden:
            raise InvalidSetupError(why_forbidden(square))
        on = f"the piece on {square_name(square)}"
        owner_seat = seat(owner, seat_names, f"the owner of {on}", InvalidSetupError)
        out.append(
            (
                square,
                owner_seat,
                integer(kind, f"the {kind_word} of {on}", 0, kinds[owner_seat] - 1, InvalidSetupError),
                flag(moved, f"moved ({on})", InvalidSetupError),
                flag(revealed, f"revealed ({on})", InvalidSetupError),
            )
        )
    return out


# --- state JSON -------------------------------------------------------------------------------------------

STATE_KEYS = frozenset({"game", "options", "actions", "ended_by"})
"""The keys of every game's `to_json`; each game adds its start position's key."""
ENDING_KEYS = ("termination", "winner", "reason")


def state_json(data: object, game: str, what: str, start_key: str) -> Mapping[str, Any]:
    """The checks every `state_from_json` makes first: an object of this game (`what`: "a Stratego state")
    whose keys are all known, and an ending (ended_by) with only termination, winner and reason. The shared
    replay (`replay_actions`) reads the actions and the ending itself."""
    if not isinstance(data, Mapping) or data.get("game") != game:
        raise RecordError(f'not {what}: expected an object with "game": "{game}"')
    json_object(data, what, STATE_KEYS | {start_key})
    ended = data.get("ended_by")
    if isinstance(ended, Mapping):
        json_object(ended, '"ended_by"', ENDING_KEYS)
    return data


def state_options(data: Mapping[str, Any], names: Collection[str], title: str) -> dict[str, Any]:
    """The "options" of a state's JSON as keyword arguments of its game (missing or null: the defaults)."""
    options = data.get("options")
    if options is None:
        return {}
    json_object(options, f"{title} options", names)
    return dict(options)


def replay(state: S, data: Mapping[str, JSON], title: str) -> S:
    """`replay_actions` that answers every problem with a `RecordError` (an outside ending the game
    refuses, for instance a winner who is no seat, comes back from `end_by` as another GameError)."""
    try:
        return replay_actions(state, data)
    except RecordError:
        raise
    except GameError as exc:
        raise RecordError(f"bad {title} state: {exc}") from exc


def outside_ending(
    termination: object, winner: object, reason: object, names: Sequence[str]
) -> tuple[Termination, int | None, str]:
    """The arguments of `end_by`, checked: an ending from outside the board (the others come from the
    rules, and `to_json` would not keep them), a seat or None as the winner, a text as the reason."""
    if not isinstance(termination, Termination) or termination not in OUTSIDE_ENDINGS:
        endings = ", ".join(sorted(t.value for t in OUTSIDE_ENDINGS))
        raise InvalidArgumentError(
            f"end_by takes an ending from outside the board ({endings}), not {show(termination)}"
        )
    who = None if winner is None else seat(winner, names, "the winner")
    return termination, who, text(reason, "the reason", InvalidArgumentError)
