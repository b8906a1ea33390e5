"""Stratego, The Lord of the Rings Trilogy edition: the rules engine, as a mutable state with undo.

Rule ids (LOTR-...) refer to docs/rules/lotr.md. The option `game` picks one of the rulebook's three
games: Game 1 "classic", Game 2 "powers" (Special Powers, LOTR-POW-* and the power rules) and
Game 3 "ring" (Destroy the Ring: Game 2 plus LOTR-RING-* and LOTR-DOOM-*).

Seats: 0 = Forces of Evil (grey, home rows 1-4, first to move: LOTR-PLAY-1),
1 = Forces of Good (beige, home rows 7-10).

The state follows the classic engine (`fogofwar.games.stratego.rules`): the board is a list of 100
ints, one piece code per square, `kind | owner << 5 | moved | revealed | present`, where `kind`
is the character's index in its army's roster (several characters share a rank, and the powers
tell them apart). "revealed" means the opponent of the piece's owner knows it (its owner always
does): a battle, a Knight's run, a power used by the piece, or a power that struck it and left it
standing sets the bit for the rest of the game. Each side keeps the squares of its movable pieces;
legal actions are generated once per decision and cached; every applied action pushes an undo
record (for play: the squares it changed and the scalar state before it).

Action ids are stable: a move or attack is `from * 100 + to` (0..9999), as in the classic
engine; placing a piece of kind k during the setup is `10000 + k * 100 + square`; the powers of
Games 2 and 3 use the ids from 13200 up, in the blocks described in `fogofwar.games.lotr.powers`
(`STOP` = 58400 ends a Repeat Attack). Game 1 has 13200 distinct ids, Games 2 and 3 have 58401.

>>> game = LotrGame()
>>> state = game.new_initial_state()
>>> state.current_player(), state.phase, len(state.legal_actions())
(0, 'setup', 480)
>>> LotrGame("ring").num_distinct_actions()
58401
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from typing import Any, Literal, cast

from fogofwar.core import inputs
from fogofwar.core.params import GameBase, checked_by
from fogofwar.core.protocol import (
    JSON,
    GameError,
    IllegalActionError,
    InvalidSetupError,
    NotationError,
    Observation,
    Outcome,
    RecordError,
    Termination,
)
from fogofwar.games.lotr.observation import LotrCellView, LotrView, PendingView, RingView
from fogofwar.games.lotr.params import (
    CAPTURED_MODES,
    DEFAULT_BACK_AND_FORTH,
    GAME_MODES,
    VARIANT_ALIASES,
    LotrParams,
)
from fogofwar.games.lotr.powers import (
    AXE_BASE,
    AXE_SUBSETS,
    BOW_BASE,
    BOW_OFFSETS,
    DETECT_BASE,
    DETECT_OFFSETS,
    DIRS,
    FLY_BASE,
    NUM_POWER_ACTIONS,
    POWER_BASE,
    RAGE_BASE,
    RING8,
    STEED_BASE,
    STEED_OFFSETS,
    STOP,
    SUBSET_INDEX,
    WORD_OF,
    PowerAction,
    decode,
    encode,
    parse_power,
    shift,
    to_notation,
)
from fogofwar.games.lotr.roster import (
    EVIL,
    FLAG,
    FORTRESS,
    GOOD,
    KNIGHT,
    MINER,
    SIDE_NAMES,
    SPY,
    TOP,
    Army,
    BoardMap,
    Kind,
    Roster,
    rank_label,
    roster,
)
from fogofwar.grid.board import (
    NUM_SQUARES,
    SIZE,
    build_tables,
    distance,
    draw_board,
    parse_move,
    parse_square,
    square_name,
    step_moves,
)
from fogofwar.grid.state import GridStateBase, Piece, state_from_json

# --- piece codes --------------------------------------------------------------------------
KIND_MASK = 31
OWNER_SHIFT = 5
OWNER_BIT = 1 << OWNER_SHIFT
SLOT_MASK = KIND_MASK | OWNER_BIT  # owner and kind: indexes the rank table
MOVED_BIT = 64
REVEALED_BIT = 128
PRESENT_BIT = 256

PLACE_BASE = 10000
NUM_ACTIONS = PLACE_BASE + 32 * 100
"""Moves 0..9999 and placements 10000..13199: the ids of Game 1. The powers start here (POWER_BASE)."""
assert NUM_ACTIONS == POWER_BASE

GAME_TITLES = {"classic": "Game 1, Classic", "powers": "Game 2, Special Powers", "ring": "Game 3, Destroy the Ring"}
RING_HUNTERS = ("witch_king", "nazgul")
"""LOTR-RING-3: the only characters Frodo's Invisibility cannot fool (roster keys)."""
RING_LOSSES = frozenset({4, 5, 6, 7, 8, FORTRESS})
"""LOTR-DOOM-2: the Evil ranks taken off the board when the Ring is destroyed."""
CARRIED, DESTROYED, TAKEN = "carried", "destroyed", "taken"
"""The Ring's fate in Game 3: still carried by Frodo, destroyed on Mount Doom, taken with Frodo."""

POWER_NAMES = {
    "fly": "Fly",
    "sense_enemy": "Detect Enemy",
    "long_bow": "Longbow",
    "dwarf_axe": "Dwarven Axe",
    "swift_steed": "Swift Steed",
    "repeat_attack": "Repeat Attack",
    "rage": "Rage",
    "invisibility": "Invisibility",
}


class NotImplementedYetError(GameError, NotImplementedError):
    """A part of the rulebook the engine does not play yet; refused rather than played wrongly."""


def piece_code(owner: int, kind: int, moved: bool = False, revealed: bool = False) -> int:
    return PRESENT_BIT | (owner << OWNER_SHIFT) | kind | (MOVED_BIT if moved else 0) | (REVEALED_BIT if revealed else 0)


def battle(attacker: int, defender: int) -> tuple[bool, bool]:
    """Which of (attacker, defender) survive a Game 1 battle between these ranks (LOTR-ATK-3, -SPY-*, -FORT-*).

    >>> battle(SPY, TOP), battle(TOP, SPY), battle(SPY, 9), battle(SPY, FLAG)
    ((True, False), (True, False), (False, True), (True, False))
    >>> battle(MINER, FORTRESS), battle(TOP, FORTRESS), battle(7, 7), battle(KNIGHT, SPY)
    ((True, False), (False, True), (False, False), (True, False))
    """
    if defender == FLAG:
        return True, False  # LOTR-END-1 (the spy too: LOTR-SPY-2)
    if defender == FORTRESS:
        return (True, False) if attacker == MINER else (False, True)  # LOTR-FORT-1, LOTR-MINER-1
    if attacker == SPY and defender == TOP:
        return True, False  # LOTR-SPY-2
    if attacker == defender:
        return False, False  # LOTR-ATK-3 (spy against spy too)
    return (True, False) if attacker > defender else (False, True)


def power_hit(power: str, target: int, berserker: bool, a: int, t: int, detect_flag: str = "captured") -> str:
    """What a power does to one struck piece of printed rank `target` (`berserker`: it has Rage), the
    attacker's strength being `a` and the target's `t`: 'captured', 'survived', 'immune' (shown, untouched)
    or, for the Dwarven Axe on an equal rank, 'both_lost' (LOTR-POW-4, -DETECT-2, -BOW-3, -AXE-2, -RAGE-2).
    `detect_flag` is the game option of that name (LOTR-CHOICE-DETECT-FLAG). Invisibility (LOTR-RING-3)
    is the caller's: it depends on who the pieces are, not on their ranks.

    >>> power_hit("sense_enemy", FLAG, False, 9, 0), power_hit("sense_enemy", FLAG, False, 9, 0, "shown")
    ('captured', 'immune')
    >>> power_hit("long_bow", FLAG, False, 5, 0), power_hit("long_bow", 4, True, 5, 4)
    ('immune', 'immune')
    >>> power_hit("rage", 6, False, 6, 6), power_hit("dwarf_axe", 6, False, 6, 6), power_hit("long_bow", 6, False, 6, 6)
    ('captured', 'both_lost', 'survived')
    """
    if target == FLAG:
        return "captured" if power == "sense_enemy" and detect_flag == "captured" else "immune"
    if power == "long_bow" and (target == FORTRESS or berserker):
        return "immune"  # LOTR-BOW-3
    if target == SPY:
        return "captured"  # LOTR-SPY-1: no defence
    if target == FORTRESS:
        return "captured" if power == "rage" else "survived"
    if power == "rage":
        return "captured" if t <= a else "survived"
    if power == "dwarf_axe" and t == a:
        return "both_lost"
    return "captured" if t < a else "survived"


def captured_visible(mode: str, viewer: int, owner: int) -> bool:
    """Whether `viewer` may see which pieces of `owner` were captured (LOTR-CAPT-2..5).

    Free: everybody. Prisoner: the captor (always the owner's opponent) keeps them.
    Secret: the owner keeps them. Hidden: face down, nobody.

    >>> [captured_visible(m, 0, 1) for m in CAPTURED_MODES], [captured_visible(m, 0, 0) for m in CAPTURED_MODES]
    ([True, True, False, False], [True, False, True, False])
    """
    if mode == "free":
        return True
    if mode == "prisoner":
        return viewer != owner
    if mode == "secret":
        return viewer == owner
    return False


@dataclass(frozen=True)
class PowerTables:
    """Per square: what each power can reach from it (precomputed once per game)."""

    lines: tuple[tuple[tuple[int, ...], ...], ...]
    """[src][d]: the squares in direction d to the board's edge, zones included (Fly)."""
    detect: tuple[tuple[tuple[int, int], ...], ...]
    """[src]: (offset index, square) of every on-board square Detect Enemy reaches."""
    bow: tuple[tuple[tuple[int, int], ...], ...]
    """[src]: (offset index, square) of every on-board square the Longbow reaches."""
    steed: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]
    """[src]: (offset index, landing square off the zones, the middle squares of its paths)."""
    steps: tuple[tuple[tuple[int, int], ...], ...]
    """[src]: (direction, square) of the orthogonal neighbours off the zones (the step of Axe and Rage)."""
    around: tuple[tuple[tuple[int, int], ...], ...]
    """[sq]: (RING8 index, square) of the up to eight squares around it."""


@cache
def _power_tables(forbidden: frozenset[int]) -> PowerTables:
    lines, detect, bow, steed, steps, around = [], [], [], [], [], []
    for sq in range(NUM_SQUARES):
        sq_lines = []
        for dr, dc in DIRS:
            line = []
            k = 1
            while (t := shift(sq, dr * k, dc * k)) >= 0:
                line.append(t)
                k += 1
            sq_lines.append(tuple(line))
        lines.append(tuple(sq_lines))
        detect.append(tuple((i, t) for i, off in enumerate(DETECT_OFFSETS) if (t := shift(sq, *off)) >= 0))
        bow.append(tuple((i, t) for i, off in enumerate(BOW_OFFSETS) if (t := shift(sq, *off)) >= 0))
        sq_steed = []
        for i, (dr, dc) in enumerate(STEED_OFFSETS):
            dst = shift(sq, dr, dc)
            if dst < 0 or dst in forbidden:
                continue
            mids = [(dr // 2, dc // 2)] if dr == 0 or dc == 0 else [(dr, 0), (0, dc)]
            ok = tuple(m for off in mids if (m := shift(sq, *off)) >= 0 and m not in forbidden)
            if ok:
                sq_steed.append((i, dst, ok))
        steed.append(tuple(sq_steed))
        steps.append(tuple((d, t) for d, off in enumerate(DIRS) if (t := shift(sq, *off)) >= 0 and t not in forbidden))
        around.append(tuple((i, t) for i, off in enumerate(RING8) if (t := shift(sq, *off)) >= 0))
    return PowerTables(tuple(lines), tuple(detect), tuple(bow), tuple(steed), tuple(steps), tuple(around))


@dataclass(frozen=True)
class Hit:
    """One piece struck by a ranged or multiple attack, as both players saw it (LOTR-POW-4, -AXE-2, -RAGE-2).

    `result`: "captured", "survived", "immune" (untouched by this power), or "both_lost" (Dwarven Axe on an
    equal rank: the target and Gimli fall)."""

    square: int
    defender: str
    defender_rank: str
    result: str

    def to_json(self) -> dict[str, JSON]:
        return {
            "square": square_name(self.square),
            "defender": self.defender,
            "defender_rank": self.defender_rank,
            "result": self.result,
        }


@dataclass(frozen=True)
class MoveEvent:
    """What both players saw of one action: the squares, and the pieces a battle, a run or a power showed.

    Ranks are labels ('2'..'11', 'spy', 'fortress', 'flag') as they stood at the time (Game 3 may raise them).
    `dst` is -1 when the acting piece did not move (Detect Enemy, Longbow, stopping a Repeat Attack)."""

    player: int
    src: int
    dst: int
    attacker: str | None = None  # kind key, shown by a battle, a Knight's long move or a power
    attacker_rank: str | None = None
    defender: str | None = None  # kind key, shown by a battle (LOTR-ATK-3)
    defender_rank: str | None = None
    attacker_survived: bool = True
    defender_survived: bool = False
    power: str | None = None
    targets: tuple[Hit, ...] = ()
    stop: bool = False
    ring: str | None = None  # Game 3: "destroyed" or "taken" when this action decided the Ring's fate
    removed: tuple[int, ...] = ()  # Game 3: squares the Ring's destruction emptied (LOTR-DOOM-2)

    @property
    def is_battle(self) -> bool:
        return self.defender is not None

    def to_json(self) -> dict[str, JSON]:
        d: dict[str, JSON] = {"player": self.player, "side": SIDE_NAMES[self.player], "from": square_name(self.src)}
        if self.dst >= 0:
            d["to"] = square_name(self.dst)
        if self.power is not None:
            d["power"] = self.power
        if self.stop:
            d["stop"] = True
        if self.attacker is not None and self.attacker_rank is not None:
            d["attacker"] = self.attacker
            d["attacker_rank"] = self.attacker_rank
        if self.defender is not None and self.defender_rank is not None:
            d["defender"] = self.defender
            d["defender_rank"] = self.defender_rank
            d["result"] = (
                "attacker_won"
                if self.attacker_survived and not self.defender_survived
                else (
                    "defender_won"
                    if self.defender_survived and not self.attacker_survived
                    else ("both_lost" if not self.attacker_survived else "both_stayed")
                )
            )
        if self.targets:
            d["targets"] = [h.to_json() for h in self.targets]
            d["attacker_survived"] = self.attacker_survived
        if self.ring is not None:
            d["ring"] = self.ring
        if self.removed:
            d["removed"] = [square_name(s) for s in self.removed]
        return d


NO_STREAK = (-1, -1, -1, 0)
"""Back-and-forth streak of one player: (square of the piece, one square, the other, moves in a row)."""


class LotrGame(GameBase):
    """Stratego LOTR with fixed options: which game, how captured pieces are kept, the limits."""

    name = "lotr"
    num_players = 2

    @checked_by(LotrParams)
    def __init__(
        self,
        variant: str = "classic",
        captured_mode: str = "free",
        back_and_forth: int = DEFAULT_BACK_AND_FORTH,
        max_moves: int = 0,
        detect_flag: str = "captured",
        game: str | None = None,
    ) -> None:
        # `variant` is the game of the rulebook (Game 1 classic, 2 powers, 3 ring), named like Stratego's
        # variants; `game` is its old name, which records written before still use.
        self.mode = game = game if game is not None else variant
        self.resolve(variant=game, game=None)
        self.captured_mode = captured_mode
        self.back_and_forth = back_and_forth
        self.max_moves = max_moves
        self.detect_flag = detect_flag
        self.roster: Roster = roster()
        self.board: BoardMap = self.roster.board
        self.forbidden: frozenset[int] = self.board.forbidden
        # Orthogonal neighbours off the Forbidden Zones, and the straight lines Knights run (LOTR-KNIGHT-1).
        self.step_tables = build_tables(self.board.forbidden)
        self.neighbours, self.rays = self.step_tables
        self.tables: PowerTables = _power_tables(self.forbidden)
        armies = self.roster.armies

        def kind_at(slot: int) -> Kind | None:
            kinds = armies[slot >> OWNER_SHIFT].kinds
            return kinds[slot & KIND_MASK] if (slot & KIND_MASK) < len(kinds) else None

        self.rank_of: tuple[int, ...] = tuple(k.rank if (k := kind_at(s)) is not None else -1 for s in range(64))
        self.runs: tuple[bool, ...] = tuple(self.rank_of[code & SLOT_MASK] == KNIGHT for code in range(PRESENT_BIT * 2))
        """By piece code: whether the piece runs along lines (a knight, LOTR-KNIGHT-1)."""
        """Printed rank of each slot (owner << 5 | kind), -1 for unused kind numbers."""
        self.powers_of: tuple[frozenset[str], ...] = tuple(
            frozenset(p for p in k.powers if p != "invisibility" or game == "ring")
            if game != "classic" and (k := kind_at(s)) is not None
            else frozenset()
            for s in range(64)
        )
        """The powers each slot uses in this game (LOTR-POW-1: none in Game 1, Frodo's only in Game 3)."""
        self.berserkers: frozenset[int] = frozenset(
            s for s in range(64) if (k := kind_at(s)) is not None and "rage" in k.powers
        )
        """The Berserkers (the characters with Rage): immune to the Longbow (LOTR-BOW-3)."""
        self.bearer = -1
        """Game 3: the slot of the Ring-bearer (the Good character with Invisibility), else -1."""
        self.hunters: frozenset[int] = frozenset()
        self.doom = self.board.mount_doom
        self.doom_gates: tuple[int, ...] = self.neighbours[self.doom]
        """The two squares outside the zone from which Mount Doom is entered (LOTR-DOOM-1)."""
        if game == "ring":
            good = armies[GOOD]
            bearers = [i for i, k in enumerate(good.kinds) if "invisibility" in k.powers]
            if len(bearers) != 1 or good.kinds[bearers[0]].count != 1:
                raise GameError("Game 3 needs exactly one Good piece with Invisibility (Frodo) in the roster")
            self.bearer = (GOOD << OWNER_SHIFT) | bearers[0]
            evil_keys = [k.key for k in armies[EVIL].kinds]
            missing = [h for h in RING_HUNTERS if h not in evil_keys]
            if missing:
                raise GameError(f"Game 3 needs the Evil characters {missing} (LOTR-RING-3)")
            self.hunters = frozenset((EVIL << OWNER_SHIFT) | evil_keys.index(h) for h in RING_HUNTERS)

    def army(self, seat: int) -> Army:
        return self.roster.army(seat)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS if self.mode == "classic" else NUM_POWER_ACTIONS

    def new_initial_state(self) -> LotrState:
        return LotrState(self)

    def state_from_position(
        self,
        pieces: Iterable[Sequence[Any]] | Mapping[Any, Sequence[Any]],
        to_move: int = 0,
    ) -> LotrState:
        """A play-phase state with the given pieces, for crafted positions (tests, puzzles).

        Pieces are (square, owner, piece[, moved, revealed]) tuples or {square: (owner, piece[, ...])}; a
        square is an int or a name like 'B2'; a piece is a character key ('gandalf'), a rank label
        ('spy', 'fortress', 'flag') or a rank number (the army's first character of that rank).
        No setup validation beyond the board itself.
        """
        what = "a piece (square, owner, piece[, moved, revealed])"
        rows: list[Sequence[Any]]
        if isinstance(pieces, Mapping):
            rows = [(sq, *inputs.json_list(v, what, InvalidSetupError)) for sq, v in pieces.items()]
        elif isinstance(pieces, str) or not isinstance(pieces, Iterable):
            raise InvalidSetupError(
                f"pieces are {what} rows or {{square: (owner, piece, ...)}}, not {inputs.show(pieces)}"
            )
        else:
            rows = list(pieces)
        start: list[tuple[int, int, int, bool, bool]] = []
        for row in rows:
            try:
                if not isinstance(row, list | tuple) or not 3 <= len(row) <= 5:
                    raise InvalidSetupError(f"{what} has 3 to 5 items")
                sq, owner = row[0], row[1]
                moved = row[3] if len(row) > 3 else False
                revealed = row[4] if len(row) > 4 else False
                if type(owner) is not int or type(moved) is not bool or type(revealed) is not bool:
                    owner = inputs.seat(owner, SIDE_NAMES, "the owner", InvalidSetupError)
                    inputs.flag(moved, "moved", InvalidSetupError)
                    inputs.flag(revealed, "revealed", InvalidSetupError)
                square = sq if type(sq) is int and 0 <= sq < NUM_SQUARES else _square(sq)
                start.append((square, owner, self.kind_of(owner, row[2]), moved, revealed))
            except GameError as exc:  # the message names the row (built only when one is refused)
                raise InvalidSetupError(f"the piece {inputs.show(row)}: {exc}") from None
        return LotrState(self, start=start, to_move=to_move)

    def kind_of(self, owner: int, piece: int | str) -> int:
        """The kind index of a piece given by key, rank label or rank number (first character of that rank)."""
        army = self.army(inputs.seat(owner, SIDE_NAMES, "owner", InvalidSetupError))
        if isinstance(piece, str):
            for i, k in enumerate(army.kinds):
                if k.key == piece:
                    return i
            for i, k in enumerate(army.kinds):
                if rank_label(k.rank) == piece:
                    return i
        elif (rank := inputs.whole_number(piece)) is not None:
            for i, k in enumerate(army.kinds):
                if k.rank == rank:
                    return i
        raise InvalidSetupError(f"{inputs.show(piece)} is not a piece of the {army.side} army")

    def state_from_json(self, data: dict[str, JSON]) -> LotrState:
        return LotrState.from_json(data)


def _square(sq: object) -> int:
    """A square given by name ('B2') or number (0..99); `NotationError` or `InvalidSetupError` otherwise."""
    if isinstance(sq, str):
        return parse_square(sq)
    return inputs.integer(sq, "a square (a name like 'B2' or a number)", 0, NUM_SQUARES - 1, InvalidSetupError)


class LotrState(GridStateBase[MoveEvent, LotrGame], game="lotr", seats=SIDE_NAMES, title="Stratego LOTR"):
    """One Stratego LOTR position; see the module docstring for the encoding."""

    def _set_rules(self, game: LotrGame) -> None:
        self._rank = game.rank_of
        self._limit = game.back_and_forth
        self._to_place: list[list[int]] = [[k.count for k in game.army(p).kinds] for p in (0, 1)]
        self._streak: list[tuple[int, int, int, int]] = [NO_STREAK, NO_STREAK]
        self._changes: list[tuple[int, int]] = []
        self._pending = -1
        """Square of an Uruk-Hai whose owner decides whether it attacks again (LOTR-REPEAT-1), else -1."""
        self._ring = CARRIED

    def _read_start(self, rows: Sequence[object]) -> list[Piece]:
        return _start_pieces(self._game, rows)

    # --- the core protocol -------------------------------------------------------------------
    @property
    def ring(self) -> str:
        """Game 3: 'carried' (Frodo still has it), 'destroyed' (LOTR-DOOM-2) or 'taken' (LOTR-RING-5)."""
        return self._ring

    @property
    def pending(self) -> int:
        """Square of the Uruk-Hai that may attack again (LOTR-REPEAT-1), or -1."""
        return self._pending

    def _generate_legal(self) -> list[int]:
        if self._phase == "setup":
            return self._placements()
        if self._pending >= 0:
            return self._gen_repeat()
        return self._gen_moves(self._player)

    def _act(self, action: int) -> None:
        if PLACE_BASE <= action < POWER_BASE:
            self._place(action)
        else:
            self._play(action)

    def _unplace(self, sq: int, placed: Any, player: int) -> None:
        self._set_square(sq, 0)
        self._to_place[player][placed] += 1  # `placed`: the kind placed

    def _unmove(self, rec: tuple[Any, ...]) -> None:
        _, changes, streak, player, outcome, n_cap, legal, moves, pending, ring = rec
        for sq, old in reversed(changes):
            self._set_square(sq, old)
        self._streak = streak
        self._player, self._outcome, self._legal = player, outcome, legal
        self._moves, self._pending, self._ring = moves, pending, ring
        del self._captured[0][n_cap[0] :]
        del self._captured[1][n_cap[1] :]

    def _copy_parts(self, other: LotrState) -> None:
        other._to_place = [c.copy() for c in self._to_place]
        other._streak = self._streak.copy()
        other._changes = []

    # --- notation --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """'B1-B2' for a move, 'B1xB2' when it attacks, 'gandalf@B9' for placing a piece, and for the
        powers 'fly E4-E8', 'detect C6>A7', 'bow F5>F7', 'steed E4-F5' (or 'steed E4xF5'), 'rage E4-E5',
        'axe E4-E5>D6,F6', 'stop' (see `fogofwar.games.lotr.powers`)."""
        action = inputs.action_in_range(action, "Stratego LOTR", self._game.num_distinct_actions())
        if action == STOP:
            return "stop"
        if action >= POWER_BASE:
            pa = decode(action)
            if pa is None:
                return f"power#{action}"
            attack = pa.power == "swift_steed" and self._is_enemy_of(pa.src, pa.dst)
            return to_notation(pa, attack)
        if action >= PLACE_BASE:
            kind, sq = divmod(action - PLACE_BASE, 100)
            kinds = self._game.army(self._player).kinds
            key = kinds[kind].key if kind < len(kinds) else f"kind{kind}"
            return f"{key}@{square_name(sq)}"
        src, dst = divmod(action, 100)
        return f"{square_name(src)}{'x' if self._is_enemy_of(src, dst) else '-'}{square_name(dst)}"

    def _is_enemy_of(self, src: int, dst: int) -> bool:
        a, d = self._board[src], self._board[dst]
        return bool(a and d and (a ^ d) & OWNER_BIT)

    def string_to_action(self, text: str) -> int:
        """Read 'B1-B2' (also 'b1b2', 'B1 B2', 'B1xB2'), a placement 'gandalf@B9', a power ('fly E4-E8',
        'detect C6>A7' or just 'detect A7' when one piece can, ...) or 'stop'; must be legal now."""
        t = inputs.text(text, "a Stratego LOTR move").strip()
        if t.lower() == "stop":
            action = STOP
        elif "@" in t:
            key, _, sq_text = t.partition("@")
            kind = self._game.army(self._player).index(key.strip().lower())
            action = PLACE_BASE + kind * 100 + parse_square(sq_text)
        elif (parsed := parse_power(t)) is not None:
            if parsed.src < 0:
                candidates = [
                    a
                    for a in self.legal_actions()
                    if a >= POWER_BASE
                    and (pa := decode(a)) is not None
                    and pa.power == parsed.power
                    and pa.targets == parsed.targets
                ]
                if len(candidates) != 1:
                    who = "no piece" if not candidates else "more than one piece"
                    raise IllegalActionError(
                        f"{t!r}: {who} can use {POWER_NAMES[parsed.power]} on {square_name(parsed.targets[0])} "
                        f"now; name the piece, like '{WORD_OF[parsed.power]} C6>{square_name(parsed.targets[0])}'"
                    )
                return candidates[0]
            action = encode(parsed)
        else:
            action = parse_move(t)
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))
        return action

    def explain_illegal(self, action: object) -> str:
        """Say in words why `action` is not legal now (empty string if it is)."""
        space = f"Stratego LOTR {GAME_TITLES[self._game.mode]}"
        action = self._illegal_at_once(action, self._game.num_distinct_actions(), space)
        if isinstance(action, str):
            return action
        p = self._player
        who = SIDE_NAMES[p]
        army = self._game.army(p)
        if PLACE_BASE <= action < POWER_BASE:
            kind, sq = divmod(action - PLACE_BASE, 100)
            if self._phase != "setup":
                return "the setup is over: pieces are placed only before the first move"
            if kind >= len(army.kinds):
                return f"{who} has no character number {kind}"
            if self._to_place[p][kind] == 0:
                return f"{who} has no {army.kinds[kind].name} left to place"
            if sq not in self._game.board.setup_squares(p):
                return f"{square_name(sq)} is not in {who}'s four home rows (LOTR-SETUP-1)"
            return f"{square_name(sq)} is already occupied"
        if self._phase == "setup":
            return "pieces cannot move yet: the setup is not finished"
        if self._pending >= 0:
            s = square_name(self._pending)
            return (
                f"the Uruk-Hai on {s} has just won an attack: {who} now either attacks again from {s} "
                f"or writes 'stop' (LOTR-REPEAT-1)"
            )
        if action == STOP:
            return "there is no Repeat Attack to stop (LOTR-REPEAT-1)"
        if action >= POWER_BASE:
            return self._explain_power(action)
        src, dst = divmod(action, 100)
        s, d = square_name(src), square_name(dst)
        code = self._board[src]
        if not code:
            return f"there is no piece on {s}"
        if (code >> OWNER_SHIFT) & 1 != p:
            return f"the piece on {s} is not {who}'s"
        rank = self._rank[code & SLOT_MASK]
        if rank in (FLAG, FORTRESS):
            return f"the {army.kinds[code & KIND_MASK].name} on {s} can never move (LOTR-MOVE-1)"
        if dst == self._game.doom and self._game.mode == "ring":
            if code & SLOT_MASK != self._game.bearer:
                return f"only Frodo may enter Mount Doom ({d}) (LOTR-DOOM-1)"
            if self._ring != CARRIED:
                return f"Frodo enters Mount Doom ({d}) only once and never returns (LOTR-DOOM-3)"
            gates = " or ".join(square_name(g) for g in self._game.doom_gates)
            return f"Frodo enters Mount Doom ({d}) only from {gates} (LOTR-DOOM-1)"
        if dst in self._game.forbidden:
            return f"{d} is in a Forbidden Zone (LOTR-MOVE-4)"
        sr, sc = divmod(src, SIZE)
        dr, dc = divmod(dst, SIZE)
        if (sr != dr) == (sc != dc):
            return f"{s}-{d} is not a move along a row or column (LOTR-MOVE-2)"
        dist = abs(sr - dr) + abs(sc - dc)
        if dist > 1 and rank != KNIGHT:
            return f"only the Knights (2) move more than one square (LOTR-MOVE-2); {s}-{d} is {dist} squares"
        step = (1 if dc > sc else -1) if sr == dr else (SIZE if dr > sr else -SIZE)
        sq = src + step
        while sq != dst:
            if sq in self._game.forbidden:
                return f"the path {s}-{d} crosses the Forbidden Zone at {square_name(sq)} (LOTR-KNIGHT-1)"
            if self._board[sq]:
                return f"the path {s}-{d} is blocked at {square_name(sq)} (LOTR-MOVE-3)"
            sq += step
        target = self._board[dst]
        if target and (target >> OWNER_SHIFT) & 1 == p:
            return f"{d} holds {who}'s own piece (LOTR-MOVE-3)"
        if self._breaks_back_and_forth(p, src, dst):
            return self._bf_reason(src, dst)
        return f"{s}-{d} is not legal"  # pragma: no cover - every case is named above

    def _bf_reason(self, src: int, dst: int) -> str:
        return (
            f"back-and-forth rule (LOTR-MOVE-5): this piece may not move between {square_name(src)} and "
            f"{square_name(dst)} on {self._limit} turns in a row"
        )

    def _explain_power(self, action: int) -> str:
        """Why a power id is not legal now (the powers' rules: LOTR-POW-*, -FLY-*, ..., -RAGE-*)."""
        game = self._game
        pa = decode(action)
        if pa is None:
            return f"power action {action} reaches off the board"
        p = self._player
        board = self._board
        name = POWER_NAMES[pa.power]
        s = square_name(pa.src)
        code = board[pa.src]
        if not code:
            return f"there is no piece on {s}"
        if (code >> OWNER_SHIFT) & 1 != p:
            return f"the piece on {s} is not {SIDE_NAMES[p]}'s"
        kind = game.army(p).kinds[code & KIND_MASK]
        if pa.power not in game.powers_of[code & SLOT_MASK]:
            return f"the {kind.name} on {s} has no power {name} (LOTR-CHOICE-POWERS)"
        if pa.power == "fly":
            d = square_name(pa.dst)
            land = self._fly_landing(pa.src, pa.dst)
            if land < 0:
                return f"a Fly from {s} towards {d} finds no free square to land on (LOTR-FLY-1)"
            if land == shift(pa.src, *_unit(pa.src, pa.dst)):
                return f"a Fly jumps at least one piece or zone square; the square next to {s} is free (LOTR-FLY-1)"
            if land != pa.dst:
                return f"a Fly ends on the first free square: from {s} that is {square_name(land)} (LOTR-FLY-1)"
        elif pa.power in ("sense_enemy", "long_bow"):
            t = pa.targets[0]
            c = board[t]
            if not c or not (c ^ code) & OWNER_BIT:
                return f"{name} strikes an enemy piece, and {square_name(t)} holds none (LOTR-POW-4)"
        elif pa.power == "swift_steed":
            d = square_name(pa.dst)
            if pa.dst in game.forbidden:
                return f"{d} is in a Forbidden Zone (LOTR-STEED-1)"
            c = board[pa.dst]
            if c and not (c ^ code) & OWNER_BIT:
                return f"{d} holds {SIDE_NAMES[p]}'s own piece (LOTR-STEED-1)"
            paths = next((mids for i, dst, mids in game.tables.steed[pa.src] if dst == pa.dst), ())
            if not any(not board[m] for m in paths):
                return f"every path of two steps from {s} to {d} is blocked (LOTR-STEED-1, LOTR-STEED-2)"
        else:
            d = square_name(pa.dst)
            if pa.dst in game.forbidden or board[pa.dst]:
                return f"{name} starts with a step onto a free square, and {d} is not free (LOTR-CHOICE-STEP)"
            around = [t for _, t in game.tables.around[pa.dst]]
            if pa.power == "rage" and not any(board[t] and (board[t] ^ code) & OWNER_BIT for t in around):
                return f"after a step to {d} no enemy piece would be next to the Berserker (LOTR-RAGE-1)"
            for t in pa.targets:
                c = board[t]
                if not c or not (c ^ code) & OWNER_BIT:
                    return f"the Dwarven Axe strikes enemy pieces, and {square_name(t)} holds none (LOTR-AXE-1)"
        if pa.dst >= 0 and self._breaks_back_and_forth(p, pa.src, pa.dst):
            return self._bf_reason(pa.src, pa.dst)
        return f"{to_notation(pa)} is not legal now"  # pragma: no cover - every case is named above

    # --- setup -----------------------------------------------------------------------------------
    def _placements(self) -> list[int]:
        p = self._player
        kinds = [kind for kind, n in enumerate(self._to_place[p]) if n]
        return self._placement_ids(PLACE_BASE, kinds, self._game.board.setup_squares(p))

    def pieces_to_place(self, player: int) -> dict[str, int]:
        """Characters (by key) that `player` has still to place, with their counts."""
        kinds = self._game.army(player).kinds
        return {kinds[i].key: n for i, n in enumerate(self._to_place[player]) if n}

    def apply_setup(self, player: int, placement: Mapping[Any, int | str]) -> None:
        """Place a whole army at once ({square: character key or kind index}); nothing changes on error."""
        player = inputs.seat(player, SIDE_NAMES, error=InvalidSetupError)
        if not isinstance(placement, Mapping):
            raise InvalidSetupError(f"a placement maps squares to characters, not {inputs.show(placement)}")
        if self._phase != "setup" or self._outcome is not None:
            raise InvalidSetupError("the setup phase is over")
        if player != self._player:
            raise InvalidSetupError(f"it is {SIDE_NAMES[self._player]}'s turn to set up, not {SIDE_NAMES[player]}'s")
        army = self._game.army(player)
        if self._to_place[player] != [k.count for k in army.kinds]:
            raise InvalidSetupError(f"{SIDE_NAMES[player]} has already placed some pieces one by one")
        kinds: dict[int, int] = {}
        for sq, piece in placement.items():
            try:
                kind = army.index(piece) if isinstance(piece, str) else inputs.whole_number(piece)
                if kind is None:
                    raise InvalidSetupError(f"{inputs.show(piece)} is not a character key nor a kind index")
                kinds[_square(sq)] = kind
            except NotationError as exc:
                raise InvalidSetupError(str(exc)) from None
        check_setup(self._game, player, kinds)
        for sq, kind in sorted(kinds.items()):
            self.apply(PLACE_BASE + kind * 100 + sq)

    def _place(self, action: int) -> None:
        kind, sq = divmod(action - PLACE_BASE, 100)
        p = self._player
        self._undo.append(("place", sq, kind, p, self._phase, self._legal))
        self._history.append(action)
        self._events.append(None)
        self._to_place[p][kind] -= 1
        self._set_square(sq, piece_code(p, kind))
        self._legal = None
        if not any(self._to_place[p]):
            if p == 0:
                self._player = 1  # LOTR-SETUP-2: Evil sets up first, then Good
            else:
                self._phase = "play"
                self._player = 0  # LOTR-PLAY-1: Evil moves first
                self._finish_turn(mover=1)

    # --- ranks -----------------------------------------------------------------------------------
    def _strength(self, code: int) -> int:
        """The rank a piece fights with now: its printed rank, plus one for Evil's numbered pieces once
        Frodo has been captured in Game 3 (LOTR-RING-5). Compare it only after the Spy, Fortress and
        Flag cases (a raised Witch-king's 11 is not a Fortress)."""
        r = self._rank[code & SLOT_MASK]
        if self._ring == TAKEN and not code & OWNER_BIT and KNIGHT <= r <= TOP:
            return r + 1
        return r

    def _label(self, code: int) -> str:
        r = self._rank[code & SLOT_MASK]
        return rank_label(r) if r in (FLAG, SPY, FORTRESS) else str(self._strength(code))

    def _key(self, code: int) -> str:
        return self._game.army((code >> OWNER_SHIFT) & 1).kinds[code & KIND_MASK].key

    # --- board changes ---------------------------------------------------------------------------
    _piece_code = staticmethod(piece_code)

    def _nothing_to_place(self) -> None:
        self._to_place = [[0] * len(self._game.army(p).kinds) for p in (0, 1)]

    def _set_square(self, sq: int, code: int) -> None:
        old = self._board[sq]
        if old:
            self._mobile[(old >> OWNER_SHIFT) & 1].discard(sq)
        self._board[sq] = code
        if code and self._rank[code & SLOT_MASK] not in (FLAG, FORTRESS):
            self._mobile[(code >> OWNER_SHIFT) & 1].add(sq)

    def _set(self, sq: int, code: int) -> None:
        """Change a square during play, remembering its old code for undo."""
        self._changes.append((sq, self._board[sq]))
        self._set_square(sq, code)

    def _take(self, sq: int) -> None:
        """Take the piece on `sq` off the board into its owner's captured pile (LOTR-CAPT-1); a Flag taken
        ends the game (LOTR-END-1), Frodo taken gives Evil the Ring (LOTR-RING-5)."""
        code = self._board[sq]
        owner = (code >> OWNER_SHIFT) & 1
        slot = code & SLOT_MASK
        self._captured[owner].append(code & KIND_MASK)
        self._set(sq, 0)
        if self._streak[owner][0] == sq:
            self._streak[owner] = NO_STREAK
        if self._rank[slot] == FLAG and self._outcome is None:
            winner = 1 - owner
            self._outcome = Outcome(
                Termination.FLAG_CAPTURED, winner, f"{SIDE_NAMES[winner]} captured the flag on {square_name(sq)}"
            )
        if slot == self._game.bearer and self._ring == CARRIED:
            self._ring = TAKEN

    # --- move generation -------------------------------------------------------------------------
    def _gen_moves(self, p: int) -> list[int]:
        """Legal moves, attacks and powers of player p (LOTR-MOVE-*, LOTR-KNIGHT-*, LOTR-ATK-2, the powers)."""
        board = self._board
        game = self._game
        own = p << OWNER_SHIFT
        # LOTR-KNIGHT-3: a knight's run may end in an attack.
        out = step_moves(board, self._mobile[p], own, OWNER_BIT, game.runs, game.step_tables)
        bf = bool(self._limit and self._streak[p][3] + 1 >= self._limit)
        if bf:
            out = [m for m in out if not self._breaks_back_and_forth(p, m // 100, m % 100)]
        if game.mode != "classic":
            if game.bearer >= 0 and self._ring == CARRIED:
                for gate in game.doom_gates:  # LOTR-DOOM-1: Frodo may enter Mount Doom from its gates
                    piece = board[gate]
                    if piece and piece & OWNER_BIT == own and piece & SLOT_MASK == game.bearer and not board[game.doom]:
                        out.append(gate * 100 + game.doom)
            self._gen_powers(p, out, bf)
        out.sort()
        return out

    def _gen_powers(self, p: int, out: list[int], bf: bool) -> None:
        """Append the power uses of player p (Games 2 and 3)."""
        game = self._game
        board = self._board
        tables = game.tables
        forbidden = game.forbidden
        own = p << OWNER_SHIFT
        append = out.append

        def enemy(sq: int) -> bool:
            c = board[sq]
            return bool(c) and c & OWNER_BIT != own

        for src in self._mobile[p]:
            powers = game.powers_of[board[src] & SLOT_MASK]
            if not powers:
                continue
            for power in powers:
                if power == "fly":  # LOTR-FLY-1
                    for d, line in enumerate(tables.lines[src]):
                        k = 0
                        while k < len(line) and (line[k] in forbidden or board[line[k]]):
                            k += 1
                        if 0 < k < len(line) and not (bf and self._breaks_back_and_forth(p, src, line[k])):
                            append(FLY_BASE + src * 32 + d * 8 + k - 1)
                elif power == "sense_enemy":  # LOTR-DETECT-1
                    for i, t in tables.detect[src]:
                        if enemy(t):
                            append(DETECT_BASE + src * len(DETECT_OFFSETS) + i)
                elif power == "long_bow":  # LOTR-BOW-1
                    for i, t in tables.bow[src]:
                        if enemy(t):
                            append(BOW_BASE + src * len(BOW_OFFSETS) + i)
                elif power == "swift_steed":  # LOTR-STEED-1
                    for i, dst, mids in tables.steed[src]:
                        c = board[dst]
                        if c and c & OWNER_BIT == own:
                            continue
                        if any(not board[m] for m in mids) and not (bf and self._breaks_back_and_forth(p, src, dst)):
                            append(STEED_BASE + src * 8 + i)
                elif power == "rage":  # LOTR-RAGE-1
                    for d, dst in tables.steps[src]:
                        if board[dst] or (bf and self._breaks_back_and_forth(p, src, dst)):
                            continue
                        if any(enemy(t) for _, t in tables.around[dst]):
                            append(RAGE_BASE + src * 4 + d)
                elif power == "dwarf_axe":  # LOTR-AXE-1
                    for d, dst in tables.steps[src]:
                        if board[dst] or (bf and self._breaks_back_and_forth(p, src, dst)):
                            continue
                        foes = [i for i, t in tables.around[dst] if enemy(t)]
                        first = AXE_BASE + (src * 4 + d) * len(AXE_SUBSETS)
                        for n in (1, 2, 3):
                            for combo in combinations(foes, n):
                                append(first + SUBSET_INDEX[combo])

    def _gen_repeat(self) -> list[int]:
        """LOTR-REPEAT-1: the Uruk-Hai attacks one of its enemy neighbours again, or stops."""
        src = self._pending
        own = self._player << OWNER_SHIFT
        board = self._board
        out = [src * 100 + dst for dst in self._game.neighbours[src] if board[dst] and board[dst] & OWNER_BIT != own]
        out.append(STOP)
        out.sort()
        return out

    def _fly_landing(self, src: int, towards: int) -> int:
        """Where a Fly from `src` in the direction of `towards` lands (first free square after at least one
        occupied or zone square), or -1; the first square itself if it is free (then there is no Fly)."""
        d = DIRS.index(_unit(src, towards))
        line = self._game.tables.lines[src][d]
        for t in line:
            if t not in self._game.forbidden and not self._board[t]:
                return t
        return -1

    def _breaks_back_and_forth(self, p: int, src: int, dst: int) -> bool:
        """LOTR-MOVE-5: the move would be this piece's `limit`-th turn in a row between the same two squares."""
        at, a, b, count = self._streak[p]
        if not self._limit or src != at or count + 1 < self._limit:
            return False
        return (min(src, dst), max(src, dst)) == (a, b)

    def _streak_move(self, p: int, src: int, dst: int) -> None:
        """LOTR-MOVE-5: count this piece's turns in a row between the same two squares."""
        at, a, b, count = self._streak[p]
        pair = (min(src, dst), max(src, dst))
        if src == at and pair == (a, b):
            self._streak[p] = (dst, a, b, count + 1)
        else:
            self._streak[p] = (dst, pair[0], pair[1], 1)

    # --- playing an action -----------------------------------------------------------------------
    def _play(self, action: int) -> None:
        p = self._player
        self._changes = []
        before = (
            self._streak.copy(),
            p,
            self._outcome,
            (len(self._captured[0]), len(self._captured[1])),
            self._legal,
            self._moves,
            self._pending,
            self._ring,
        )
        self._history.append(action)
        if action == STOP:
            self._events.append(MoveEvent(p, self._pending, -1, power="repeat_attack", stop=True))
            self._end_turn(p)
        elif action < PLACE_BASE:
            self._move(p, action)
        else:
            pa = decode(action)
            assert pa is not None  # legal, so it decodes
            self._use_power(p, pa)
        if self._ring != before[-1] and self._ring == TAKEN:
            ev = self._events[-1]
            assert ev is not None
            self._events[-1] = replace(ev, ring=TAKEN)
        self._undo.append(("play", self._changes, *before))
        self._changes = []

    def _end_turn(self, p: int) -> None:
        self._pending = -1
        self._moves += 1
        self._player = 1 - p
        self._legal = None
        if self._outcome is None:
            self._finish_turn(mover=p)

    def _move(self, p: int, action: int) -> None:
        """An ordinary move or attack (also a Knight's run, Frodo on Mount Doom, a Repeat Attack)."""
        src, dst = divmod(action, 100)
        repeat = self._pending >= 0
        attacked, stands = self._step_or_attack(p, src, dst, "repeat_attack" if repeat else None)
        self._after_attack(p, dst, attacked and stands)

    def _after_attack(self, p: int, dst: int, won: bool) -> None:
        """LOTR-REPEAT-1: an Uruk-Hai that won an attack and stands next to an enemy may attack again."""
        board = self._board
        code = board[dst]
        if (
            won
            and self._outcome is None
            and "repeat_attack" in self._game.powers_of[code & SLOT_MASK]
            and any(board[t] and (board[t] ^ code) & OWNER_BIT for t in self._game.neighbours[dst])
        ):
            self._pending = dst
            self._legal = None
            return
        self._end_turn(p)

    def _step_or_attack(self, p: int, src: int, dst: int, power: str | None) -> tuple[bool, bool]:
        """Move the piece on src to dst, or attack the enemy there (LOTR-ATK-*, LOTR-RING-3, LOTR-DOOM-*).

        Returns (was it an attack, does the mover now stand on dst)."""
        board = self._board
        game = self._game
        code = board[src]
        target = board[dst]
        dist = distance(src, dst)
        shown = dist > 1 or power == "swift_steed"  # LOTR-KNIGHT-2, LOTR-POW-3
        moved = code | MOVED_BIT | (REVEALED_BIT if shown else 0)
        if not target:
            self._set(src, 0)
            removed: tuple[int, ...] = ()
            ring = None
            if dst == game.doom and game.mode == "ring":
                moved |= REVEALED_BIT  # only Frodo stands on Mount Doom: everybody knows him now
                shown = True
                removed = self._destroy_ring()
                ring = DESTROYED
            self._set(dst, moved)
            self._streak_move(p, src, dst)
            self._events.append(
                MoveEvent(
                    p,
                    src,
                    dst,
                    self._key(code) if shown else None,
                    self._label(code) if shown else None,
                    power=power,
                    ring=ring,
                    removed=removed,
                )
            )
            return False, True
        akey, alabel, dkey, dlabel = self._key(code), self._label(code), self._key(target), self._label(target)
        attacker_alive, defender_alive = self._clash(code, target)
        if defender_alive:
            self._set(dst, target | REVEALED_BIT)
        else:
            self._take(dst)
        if not attacker_alive:
            self._take(src)
        elif defender_alive:
            self._set(src, moved | REVEALED_BIT)  # LOTR-RING-3: both stand, the attacker stays put
        else:
            self._set(src, 0)
            self._set(dst, moved | REVEALED_BIT)  # LOTR-ATK-4
        stands = attacker_alive and not defender_alive
        if stands:
            self._streak_move(p, src, dst)
        else:
            self._streak[p] = NO_STREAK
        self._events.append(
            MoveEvent(p, src, dst, akey, alabel, dkey, dlabel, attacker_alive, defender_alive, power=power)
        )
        return True, stands

    def _clash(self, acode: int, dcode: int) -> tuple[bool, bool]:
        """Which of (attacker, defender) survive a battle (LOTR-ATK-3, -SPY-*, -FORT-1, -MINER-1, -RING-3,
        -RING-5): printed ranks decide the Spy, Fortress and Flag cases, fighting ranks the rest."""
        rank = self._rank
        a_base, d_base = rank[acode & SLOT_MASK], rank[dcode & SLOT_MASK]
        if d_base == FLAG:
            alive = (True, False)
        elif d_base == FORTRESS:
            alive = (True, False) if a_base == MINER else (False, True)
        elif a_base == SPY:
            alive = (True, False) if d_base == TOP else ((False, False) if d_base == SPY else (False, True))
        elif d_base == SPY:
            alive = (True, False)
        else:
            a, d = self._strength(acode), self._strength(dcode)
            alive = (False, False) if a == d else (a > d, a < d)
        game = self._game
        if game.bearer >= 0:  # LOTR-RING-3: only the Witch-king and the Nazgul capture Frodo
            a_alive, d_alive = alive
            if acode & SLOT_MASK == game.bearer and dcode & SLOT_MASK not in game.hunters:
                a_alive = True
            if dcode & SLOT_MASK == game.bearer and acode & SLOT_MASK not in game.hunters:
                d_alive = True
            alive = (a_alive, d_alive)
        return alive

    def _destroy_ring(self) -> tuple[int, ...]:
        """LOTR-DOOM-2: Evil loses every piece of rank 4-8 and every Fortress at once."""
        board = self._board
        removed = []
        for sq in range(NUM_SQUARES):
            c = board[sq]
            if c and not c & OWNER_BIT and self._rank[c & SLOT_MASK] in RING_LOSSES:
                self._take(sq)
                removed.append(sq)
        self._ring = DESTROYED
        return tuple(removed)

    def _hit(self, power: str, acode: int, tcode: int) -> str:
        """What a ranged or multiple attack does to one target: 'captured', 'survived', 'immune' or, for the
        Dwarven Axe on an equal rank, 'both_lost' (LOTR-POW-4, -DETECT-2, -BOW-2/3, -AXE-2, -RAGE-2, -RING-3)."""
        game = self._game
        tslot = tcode & SLOT_MASK
        t_base = self._rank[tslot]
        if tslot == game.bearer and acode & SLOT_MASK not in game.hunters:
            return "immune"  # LOTR-RING-3: Invisibility
        return power_hit(
            power, t_base, tslot in game.berserkers, self._strength(acode), self._strength(tcode), game.detect_flag
        )

    def _use_power(self, p: int, pa: PowerAction) -> None:
        board = self._board
        code = board[pa.src]
        shown = code | REVEALED_BIT  # LOTR-POW-3: the piece is revealed before its power
        key, label = self._key(code), self._label(code)
        if pa.power == "fly":  # LOTR-FLY-*
            self._set(pa.src, 0)
            self._set(pa.dst, shown | MOVED_BIT)
            self._streak_move(p, pa.src, pa.dst)
            self._events.append(MoveEvent(p, pa.src, pa.dst, key, label, power="fly"))
            self._end_turn(p)
            return
        if pa.power == "swift_steed":  # LOTR-STEED-1
            self._step_or_attack(p, pa.src, pa.dst, "swift_steed")
            self._end_turn(p)
            return
        if pa.power in ("sense_enemy", "long_bow"):  # LOTR-POW-4
            self._set(pa.src, shown)
            hits = self._strike(pa.power, shown, pa.targets)
            self._streak[p] = NO_STREAK
            self._events.append(MoveEvent(p, pa.src, -1, key, label, power=pa.power, targets=hits))
            self._end_turn(p)
            return
        # The Dwarven Axe and Rage: a step onto a free square, then the blows (LOTR-AXE-1, LOTR-RAGE-1).
        self._set(pa.src, 0)
        self._set(pa.dst, shown | MOVED_BIT)
        if pa.power == "rage":
            own = code & OWNER_BIT
            targets = tuple(t for _, t in self._game.tables.around[pa.dst] if board[t] and board[t] & OWNER_BIT != own)
        else:
            targets = pa.targets
        hits = self._strike(pa.power, shown, targets)
        falls = pa.power == "rage" or any(h.result in ("both_lost", "survived") for h in hits)
        if falls:
            self._take(pa.dst)  # LOTR-RAGE-3, LOTR-AXE-2
            self._streak[p] = NO_STREAK
        else:
            self._streak_move(p, pa.src, pa.dst)
        self._events.append(
            MoveEvent(p, pa.src, pa.dst, key, label, attacker_survived=not falls, power=pa.power, targets=hits)
        )
        self._end_turn(p)

    def _strike(self, power: str, acode: int, targets: Sequence[int]) -> tuple[Hit, ...]:
        """Reveal and resolve every target of a power; captured targets leave, the others stay revealed."""
        board = self._board
        hits = []
        for t in targets:
            tcode = board[t]
            hits.append(Hit(t, self._key(tcode), self._label(tcode), self._hit(power, acode, tcode)))
        for h in hits:
            if h.result in ("captured", "both_lost"):
                self._take(h.square)
            else:
                self._set(h.square, board[h.square] | REVEALED_BIT)
        return tuple(hits)

    def _finish_turn(self, mover: int) -> None:
        """LOTR-END-2: the player who cannot move or attack on their turn loses; then the move cap (LOTR-END-3)."""
        nxt = self._player
        legal = self._gen_moves(nxt)
        self._legal = legal
        if not legal:
            self._outcome = Outcome(Termination.NO_MOVES, mover, f"{SIDE_NAMES[nxt]} cannot move or attack")
        else:
            self._outcome = self._move_cap()

    # --- what players see ---------------------------------------------------------------------
    def piece_at(self, sq: int | str) -> tuple[int, str, int, bool, bool] | None:
        """(owner, character key, rank, moved, revealed) on a square, or None. Full knowledge: not for players.

        The rank is the one the piece fights with now (Game 3 raises Evil's after Frodo's capture)."""
        code = self._board[_square(sq)]
        if not code:
            return None
        owner = (code >> OWNER_SHIFT) & 1
        kind = self._game.army(owner).kinds[code & KIND_MASK]
        return owner, kind.key, self._strength(code), bool(code & MOVED_BIT), bool(code & REVEALED_BIT)

    def captured(self, owner: int) -> list[str]:
        """Character keys of `owner`'s pieces taken off the board, in order. Full knowledge: not for players."""
        kinds = self._game.army(owner).kinds
        return [kinds[k].key for k in self._captured[owner]]

    def observation(self, player: int) -> Observation:
        """LOTR-INFO-1..2: own pieces fully; enemy pieces unknown unless shown; captured pieces per the mode;
        a pending Repeat Attack (LOTR-REPEAT-1) and, in Game 3, the Ring's fate (public)."""
        player = inputs.seat(player, SIDE_NAMES)
        game = self._game
        board = self._board
        hide_enemy = self._phase == "setup"  # setups are secret: nothing of the other side shows
        cells: list[LotrCellView | Literal["zone"] | None] = []
        for sq in range(NUM_SQUARES):
            code = board[sq]
            if not code:
                cells.append("zone" if sq in game.forbidden else None)
            else:
                owner = (code >> OWNER_SHIFT) & 1
                if owner != player and hide_enemy:
                    cells.append(None)
                    continue
                known = owner == player or bool(code & REVEALED_BIT)
                kind = game.army(owner).kinds[code & KIND_MASK]
                cells.append(
                    {
                        "owner": owner,
                        "kind": kind.key if known else None,
                        "name": kind.name if known else None,
                        "rank": self._label(code) if known else None,
                        "moved": bool(code & MOVED_BIT),
                        "revealed": bool(code & REVEALED_BIT),
                    }
                )
        mode = game.captured_mode
        last = self.last_event()
        pending: PendingView | None = None
        if self._pending >= 0 and self._outcome is None:
            pending = {
                "power": "repeat_attack",
                "player": self._player,
                "square": square_name(self._pending),
                "choices": "attack again from this square, or stop",
            }
        ring: RingView | None = None
        if game.mode == "ring":
            ring = {"status": self._ring, "mount_doom": square_name(game.doom)}
        data: LotrView = {
            "game": "lotr",
            "variant": game.mode,
            "captured_mode": mode,
            "player": player,
            "side": SIDE_NAMES[player],
            "phase": self._phase,
            "to_move": self.current_player(),
            "move_count": self._moves,
            "board": cells,
            "captured": [self.captured(o) if captured_visible(mode, player, o) else None for o in (0, 1)],
            "captured_count": [len(self._captured[0]), len(self._captured[1])],
            "last_move": last.to_json() if last is not None else None,
            "recent_moves": [ev.to_json() for ev in self._recent_events(2)],
            "to_place": self.pieces_to_place(player),
            "pending": pending,
            "ring": ring,
            "outcome": self._outcome.to_json() if self._outcome is not None else None,
        }
        return Observation(player, cast(dict[str, JSON], data), render_text)

    # --- serialization --------------------------------------------------------------------------
    def piece_key(self, owner: int, kind: int) -> str:
        return self._game.roster.armies[owner].kinds[kind].key

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> LotrState:
        return state_from_json(data, "lotr", "Stratego LOTR", OPTION_NAMES, LotrGame, _start_state)


def _start_state(game: LotrGame, pieces: Sequence[object], to_move: Any) -> LotrState:
    """The state of a crafted start as `to_json` writes it: [square, owner, character key, moved, revealed]."""
    rows = [inputs.json_list(row, "a piece [square, owner, character, moved, revealed]", length=5) for row in pieces]
    for row in rows:
        inputs.text(row[0], "a square")
        inputs.text(row[2], "a character key")
        inputs.flag(row[3], "moved", RecordError)
        inputs.flag(row[4], "revealed", RecordError)
    return game.state_from_position(rows, to_move=to_move)


OPTION_NAMES = tuple(LotrParams.model_fields)
"""The options of `LotrGame`, as `options` and a state's JSON write them (and `game`, the old name of `variant`)."""


def _start_pieces(game: LotrGame, rows: Iterable[object]) -> list[tuple[int, int, int, bool, bool]]:
    """The pieces of a crafted start, checked (see `inputs.grid_pieces`)."""
    return inputs.grid_pieces(
        rows,
        squares=NUM_SQUARES,
        forbidden=game.forbidden,
        why_forbidden=lambda sq: f"square {sq} ({square_name(sq)}) is not a square off the Forbidden Zones",
        kinds=(len(game.army(0).kinds), len(game.army(1).kinds)),
        kind_word="kind",
        seat_names=SIDE_NAMES,
        square_name=square_name,
    )


def _unit(src: int, dst: int) -> tuple[int, int]:
    """The unit step (rows, columns) from src towards dst along a row or column."""
    dr, dc = dst // SIZE - src // SIZE, dst % SIZE - src % SIZE
    return (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)


_SYMBOLS = {"flag": "F", "spy": "S", "fortress": "B"}


def check_setup(game: LotrGame, player: int, placement: Mapping[int, int]) -> None:
    """Raise `InvalidSetupError` naming the first problem of a whole-army placement {square: kind} (LOTR-SETUP-1)."""
    player = inputs.seat(player, SIDE_NAMES, error=InvalidSetupError)
    if not isinstance(placement, Mapping):
        raise InvalidSetupError(f"a placement maps squares to kinds, not {inputs.show(placement)}")
    who = SIDE_NAMES[player]
    army = game.army(player)
    area = set(game.board.setup_squares(player))
    counts = [0] * len(army.kinds)
    for sq, kind in placement.items():
        if inputs.whole_number(sq) is None or not 0 <= sq < NUM_SQUARES:
            raise InvalidSetupError(f"{inputs.show(sq)} is not a square")
        if sq not in area:
            raise InvalidSetupError(f"{square_name(sq)} is not in {who}'s four home rows (LOTR-SETUP-1)")
        if inputs.whole_number(kind) is None or not 0 <= kind < len(army.kinds):
            raise InvalidSetupError(f"{inputs.show(kind)} on {square_name(sq)} is not a {who} piece")
        counts[kind] += 1
    for character, got in zip(army.kinds, counts, strict=True):
        if got != character.count:
            raise InvalidSetupError(f"{who}'s setup has {got} x {character.name}; the army has {character.count}")


def random_setup(game: LotrGame, player: int, rng: random.Random) -> dict[int, int]:
    """A uniformly random legal setup {square: kind} in the player's four home rows."""
    player = inputs.seat(player, SIDE_NAMES, error=InvalidSetupError)
    pieces = [i for i, k in enumerate(game.army(player).kinds) for _ in range(k.count)]
    squares = rng.sample(list(game.board.setup_squares(player)), len(pieces))
    return dict(zip(squares, pieces, strict=True))


def render_text(obs: Mapping[str, Any]) -> str:
    """A plain-text drawing of an observation, row 10 at the top: 'e'/'g' side, rank ('?' unknown, '!' moved)."""
    me = obs["player"]

    def mark(cell: Mapping[str, Any]) -> str:
        rank = cell["rank"]
        if rank is not None:
            return SIDE_NAMES[cell["owner"]][0] + _SYMBOLS.get(str(rank), str(rank))
        return SIDE_NAMES[cell["owner"]][0] + ("!" if cell["owner"] != me and cell["moved"] else "?")

    lines = draw_board(obs["board"], "zone", mark)
    for owner in (0, 1):
        lost = obs["captured"][owner]
        shown = ", ".join(lost) if lost is not None else "hidden"
        lines.append(f"{SIDE_NAMES[owner]} lost {obs['captured_count'][owner]}: {shown}")
    if obs.get("pending"):
        who = SIDE_NAMES[obs["pending"]["player"]]
        lines.append(f"{who}'s Uruk-Hai on {obs['pending']['square']}: attack again or stop")
    if obs.get("ring"):
        lines.append(f"the Ring: {obs['ring']['status']} (Mount Doom {obs['ring']['mount_doom']})")
    return "\n".join(lines)


__all__ = [
    "CAPTURED_MODES",
    "DEFAULT_BACK_AND_FORTH",
    "GAME_MODES",
    "VARIANT_ALIASES",
    "NUM_ACTIONS",
    "PLACE_BASE",
    "POWER_NAMES",
    "RING_HUNTERS",
    "Hit",
    "LotrGame",
    "LotrState",
    "MoveEvent",
    "NotImplementedYetError",
    "battle",
    "captured_visible",
    "check_setup",
    "random_setup",
    "render_text",
]
