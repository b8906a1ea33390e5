"""A game's options as one typed model: their names, types, defaults, limits and meaning, written once.

Each game declares a `GameParams` subclass (OpenSpiel's game parameters, in pydantic) and registers it with
the game; the game's constructor reads its options through it, so the CLI, the arena, the server and the
records meet one check and one message for a wrong option, and `fogofwar games` lists the options from it.
What an option means beyond its type and range (a variant that exists, a fleet within its budget) stays the
game's own check.

>>> from pydantic import Field
>>> class Toy(GameParams):
...     title = "Toy"
...     size: int = Field(3, ge=1, description="heaps on the table")
>>> Toy.read({"size": 5}).size
5
>>> Toy.read({"size": 0})
Traceback (most recent call last):
...
fogofwar.core.protocol.InvalidArgumentError: Toy option size must be at least 1, not 0
>>> Toy.read({"colour": "red"})
Traceback (most recent call last):
...
fogofwar.core.protocol.InvalidArgumentError: Toy has no option 'colour'; its options are size
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import UnionType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    Self,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import ErrorDetails, PydanticUndefined

from fogofwar.core.inputs import show, whole_number
from fogofwar.core.protocol import JSON, InvalidArgumentError


def _plain_int(value: object) -> object:
    """Any integer (numpy's too) as a plain int; anything else (a bool, a float, a text) as it is, for the
    strict check to refuse."""
    number = whole_number(value) if type(value) is not int else value
    return value if number is None else number


Whole = Annotated[int, BeforeValidator(_plain_int)]
"""A whole number option: an int or any integer type; never a bool, a float or a text."""


class GameParams(BaseModel):
    """A game's options. Strict: 5 is a number and "5" is not, True is no number, an unknown name is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    title: ClassVar[str] = "the game"
    """How messages name the game."""
    unwritten: ClassVar[tuple[str, ...]] = ()
    """Options a game never writes into its records (an old name of another option, Python-only data)."""

    @classmethod
    def read(cls, options: Mapping[str, object]) -> Self:
        """The options checked; `InvalidArgumentError` says what is wrong with the first bad one."""
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(f"{cls.title} options are an object of names and values, not {show(options)}")
        try:
            return cls.model_validate(dict(options))
        except ValidationError as exc:
            raise InvalidArgumentError(cls._problem(exc.errors()[0])) from None

    @classmethod
    def _problem(cls, error: ErrorDetails) -> str:
        if not error["loc"]:  # a check of the options together
            return f"{cls.title} options: {_must(error)}"
        name = ".".join(str(part) for part in error["loc"])
        top = str(error["loc"][0])
        if error["type"] == "extra_forbidden":
            return f"{cls.title} has no option {show(top)}; its options are {', '.join(cls.model_fields)}"
        return f"{cls.title} option {name} {_must(error)}, not {show(error.get('input'))}"

    @classmethod
    def options(cls) -> list[OptionInfo]:
        """Every option with its type, default and meaning, in the order declared (what `fogofwar games` lists)."""
        out = []
        for name, field in cls.model_fields.items():
            default = None if field.default is PydanticUndefined else field.default
            out.append(OptionInfo(name, type_words(field.annotation), default, field.description or ""))
        return out

    def given(self) -> dict[str, JSON]:
        """The options that were given (not left to their defaults), as keyword arguments of the game."""
        return self.model_dump(exclude_unset=True)

    def written(self) -> dict[str, JSON]:
        """The options as a game writes them (its `options`, in records and the state's JSON): every option but
        the `unwritten`, in the order declared."""
        return self.model_dump(exclude=set(self.unwritten))


def type_words(annotation: object) -> str:
    """An option's type in words, for people reading `fogofwar games`.

    >>> type_words(int | None), type_words(Literal["free", "hidden"]), type_words(list[str])
    ('whole number or null', 'free, hidden', 'list of text')
    """
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return type_words(args[0])
    if origin is Literal:
        return ", ".join(str(a) for a in args)
    if origin in (Union, UnionType):
        return " or ".join(type_words(a) for a in args)
    if origin in (list, tuple):
        return f"list of {type_words(args[0])}" if args else "list"
    if origin is dict:
        return "object"
    words: dict[object, str] = {int: "whole number", bool: "true or false", str: "text", type(None): "null"}
    return words.get(annotation) or str(getattr(annotation, "__name__", annotation))


@dataclass(frozen=True)
class OptionInfo:
    name: str
    kind: str
    default: Any
    meaning: str


_MUST: dict[str, Callable[[dict[str, Any]], str]] = {
    "int_type": lambda ctx: "must be a whole number",
    "bool_type": lambda ctx: "must be true or false",
    "string_type": lambda ctx: "must be a text",
    "list_type": lambda ctx: "must be a list",
    "tuple_type": lambda ctx: "must be a list",
    "dict_type": lambda ctx: "must be an object",
    "greater_than_equal": lambda ctx: f"must be at least {ctx['ge']}",
    "greater_than": lambda ctx: f"must be more than {ctx['gt']}",
    "less_than_equal": lambda ctx: f"must be at most {ctx['le']}",
    "less_than": lambda ctx: f"must be less than {ctx['lt']}",
    "too_short": lambda ctx: f"must have at least {ctx['min_length']} items",
    "too_long": lambda ctx: f"must have at most {ctx['max_length']} items",
    "string_too_long": lambda ctx: f"must be at most {ctx['max_length']} characters",
    "literal_error": lambda ctx: f"must be {ctx['expected']}",
}


def _must(error: ErrorDetails) -> str:
    """What the value must be, in words (a check of the game's own: its message as it is)."""
    words = _MUST.get(error["type"])
    if words is not None:
        return words(dict(error.get("ctx") or {}))
    message = error["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message


Init = TypeVar("Init", bound=Callable[..., None])


def checked_by(params: type[GameParams]) -> Callable[[Init], Init]:
    """Decorate a game's `__init__` so that it receives its options already checked by `params` (whose fields
    are its parameters, with the same defaults: the conformance test compares them): a wrong or unknown option
    gets the model's message, and the body only builds the game from good values (a LOTR variant's other name
    arrives as the variant itself)."""

    def wrap(init: Init) -> Init:
        signature = inspect.signature(init)

        @functools.wraps(init)
        def checked(self: object, *args: Any, **kwargs: Any) -> None:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError:
                params.read(kwargs)  # an unknown option: the model names it and the options there are
                raise
            bound.apply_defaults()
            given = dict(list(bound.arguments.items())[1:])
            values = params.read(given)
            self.params = values  # type: ignore[attr-defined]  # a game's checked options (`GameBase.options`)
            init(self, **{name: getattr(values, name) for name in given})

        return cast(Init, checked)

    return wrap


class GameBase:
    """What every game class writes the same way: its options as written (its checked `params`, with what the
    game resolved put in by `resolve`) and its repr."""

    params: GameParams
    """The options the game was built with, checked (set by `checked_by`)."""

    def resolve(self, **values: Any) -> None:
        """Write into the options what the game made of them (a variant's move cap, the default fleets)."""
        self.params = self.params.model_copy(update=values)

    @property
    def options(self) -> dict[str, JSON]:
        return self.params.written()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.options.items())})"
